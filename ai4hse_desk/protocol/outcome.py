"""Vocabulary of the protocol: tracks, statuses and the outcome of one attempt.

Everything here follows ``protocol.md`` sections 1 and 2. The types are small,
immutable and shared by extraction, scoring, the audit queries and the window.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Track(StrEnum):
    """The output contract a run was asked to follow (never combined in scores)."""

    ANSWER_ONLY = "answer_only"
    REASONING_ASSISTED = "reasoning_assisted"
    STRUCTURED_OUTPUT = "structured_output"
    SINGLE_CHOICE = "single_choice"


#: Order in which tracks are reported (cli.md: runs grouped by track in this order).
TRACK_ORDER: tuple[Track, ...] = (
    Track.ANSWER_ONLY,
    Track.REASONING_ASSISTED,
    Track.STRUCTURED_OUTPUT,
    Track.SINGLE_CHOICE,
)


class Status(StrEnum):
    """Exactly one status per attempt (protocol.md section 2)."""

    PENDING = "pending"
    PROVIDER_ERROR = "provider_error"
    INCOMPLETE = "incomplete"
    VALID = "valid"
    MISSING = "missing"
    MULTIPLE = "multiple"
    AMBIGUOUS = "ambiguous"
    NON_FINAL = "non_final"
    MALFORMED = "malformed"
    WRONG_LENGTH = "wrong_length"
    INVALID_JSON = "invalid_json"
    SCHEMA_VIOLATION = "schema_violation"


#: Statuses that count as parse errors (protocol.md section 2).
PARSE_ERRORS: frozenset[Status] = frozenset(
    {
        Status.MISSING,
        Status.MULTIPLE,
        Status.AMBIGUOUS,
        Status.NON_FINAL,
        Status.MALFORMED,
        Status.WRONG_LENGTH,
        Status.INVALID_JSON,
        Status.SCHEMA_VIOLATION,
    }
)

#: finish_reason values that mean the generation was cut off.
CUT_OFF_REASONS: frozenset[str] = frozenset({"length", "max_tokens", "max_output_tokens"})

#: Attempt states recorded by the runner.
STATE_ANSWERED = "answered"
STATE_PROVIDER_ERROR = "provider_error"
STATE_PENDING = "pending"

#: Current protocol version (protocol.md section 1).
CURRENT_PROTOCOL_VERSION = 10

Span = tuple[int, int]
"""Half-open character range ``[start, end)`` into the raw response string."""

Selection = tuple[bool, ...]


@dataclass(frozen=True, slots=True, init=False)
class Extraction:
    """The desk's verdict on one attempt.

    Attributes:
        status: exactly one status from protocol.md section 2.
        selection: the extracted Booleans, one per option, or ``None`` when
            nothing was extracted. For ``incomplete`` attempts this is what the
            track rule *would* have extracted (shown, never scored).
        strict_format: protocol strict-format compliance.
        spans: character ranges of the response the decision rests on (the
            answer list, the ``FINAL_ANSWER:`` line, the offending item, ...),
            so the window can highlight them. Empty when nothing in the text
            is relevant (e.g. a missing list, a provider error).
        reason: one short human-readable sentence explaining the status.
    """

    status: Status
    selection: Selection | None
    strict_format: bool
    spans: tuple[Span, ...]
    reason: str

    def __init__(
        self,
        status: Status,
        selection: Selection | None,
        strict_format: bool,
        spans: tuple[Span, ...],
        reason: str,
    ) -> None:
        # The frozen dataclass's own __init__, through the slots' setters: it calls
        # object.__setattr__ per field, about twice as slow, and every long
        # response makes one Extraction in a rescore.
        _SET_STATUS(self, status)
        _SET_SELECTION(self, selection)
        _SET_STRICT(self, strict_format)
        _SET_SPANS(self, spans)
        _SET_REASON(self, reason)

    def without_spans(self) -> Extraction:
        """The same verdict (status, selection, strict flag, reason) with no spans, for
        loops that keep none and share one verdict among many replies."""
        return Extraction(self.status, self.selection, self.strict_format, (), self.reason)

    def is_correct(self, key: Selection) -> bool:
        """True iff the status is ``valid`` and the selection equals ``key``."""
        return self.status is Status.VALID and self.selection == key


_SLOTS: Any = Extraction
_SET_STATUS = _SLOTS.status.__set__
_SET_SELECTION = _SLOTS.selection.__set__
_SET_STRICT = _SLOTS.strict_format.__set__
_SET_SPANS = _SLOTS.spans.__set__
_SET_REASON = _SLOTS.reason.__set__
