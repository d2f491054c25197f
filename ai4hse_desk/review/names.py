"""The review's codes in words, for people: verdicts, decisions, final states, reasons.

JSON and CSV keep the codes (``key_corrected``); the report, the XLSX sheets for
people and the window show these names. One table per kind, so every view names a
code the same way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ai4hse_desk.review.queue import REASONS

if TYPE_CHECKING:
    from collections.abc import Iterable

#: Each verdict (``VERDICTS``) in words.
VERDICT_NAMES: Final = {
    "key_ok": "Key correct",
    "key_wrong": "Key wrong",
    "multiple_defensible": "Several answers defensible",
    "no_correct_option": "No correct option",
    "unclear_question": "Question unclear",
    "unclear_options": "Options unclear",
    "outdated_or_jurisdiction": "Outdated or jurisdiction-specific",
    "typo_or_format": "Typo or format",
    "other": "Other concern",
}

#: Each adjudicator's decision (``DECISIONS``) in words.
DECISION_NAMES: Final = {
    "key_confirmed": "Key confirmed",
    "key_corrected": "Key corrected",
    "question_excluded": "Question excluded",
    "unresolved": "Unresolved",
}

#: Each verdict state in words.
STATE_NAMES: Final = {"draft": "Draft", "submitted": "Submitted"}

#: Each confidence in words.
CONFIDENCE_NAMES: Final = {"low": "Low", "medium": "Medium", "high": "High"}


def verdict_name(code: str | None) -> str:
    """A verdict code in words (an unknown code as it is; ``None`` as an empty text)."""
    return "" if code is None else VERDICT_NAMES.get(code, code)


def decision_name(code: str | None) -> str:
    """A decision code in words (an unknown code as it is; ``None`` as an empty text)."""
    return "" if code is None else DECISION_NAMES.get(code, code)


def reason_words(codes: Iterable[object]) -> str:
    """Why a question entered adjudication (:data:`~.queue.REASONS` codes), in words joined
    by ``"; "`` (an unknown code as it is)."""
    return "; ".join(REASONS.get(str(code), str(code)) for code in codes)


def yes_no(value: bool) -> str:
    """``"Yes"`` or ``"No"``."""
    return "Yes" if value else "No"
