"""The protocol of AI4HSE-Bench v1 (protocol.md): pure rules, no I/O, no Qt."""

from ai4hse_desk.protocol.extract import derive, extract_text
from ai4hse_desk.protocol.outcome import (
    CURRENT_PROTOCOL_VERSION,
    CUT_OFF_REASONS,
    PARSE_ERRORS,
    STATE_ANSWERED,
    STATE_PENDING,
    STATE_PROVIDER_ERROR,
    TRACK_ORDER,
    Extraction,
    Selection,
    Span,
    Status,
    Track,
)

__all__ = [
    "CURRENT_PROTOCOL_VERSION",
    "CUT_OFF_REASONS",
    "PARSE_ERRORS",
    "STATE_ANSWERED",
    "STATE_PENDING",
    "STATE_PROVIDER_ERROR",
    "TRACK_ORDER",
    "Extraction",
    "Selection",
    "Span",
    "Status",
    "Track",
    "derive",
    "extract_text",
]
