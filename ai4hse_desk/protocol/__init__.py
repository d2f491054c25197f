"""The protocol of AI4HSE-Bench v1 (protocol.md): pure rules, no I/O, no Qt."""

from typing import TYPE_CHECKING

from ai4hse_desk.lazy_exports import lazy_exports

if TYPE_CHECKING:
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

# The rules (and their compiled patterns) load when first asked for, not with the
# records and statuses that every reader of an audit file needs.
if not TYPE_CHECKING:  # the type checker reads the imports above
    __getattr__, __dir__ = lazy_exports(
        globals(),
        {
            ".extract": ("derive", "extract_text"),
            ".outcome": (
                "CURRENT_PROTOCOL_VERSION", "CUT_OFF_REASONS", "PARSE_ERRORS", "STATE_ANSWERED",
                "STATE_PENDING", "STATE_PROVIDER_ERROR", "TRACK_ORDER", "Extraction", "Selection",
                "Span", "Status", "Track",
            ),
        },
    )  # fmt: skip


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
