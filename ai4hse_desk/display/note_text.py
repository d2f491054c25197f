"""How flags and notes read in the window's tables and dialogs: times, options, one-line notes.

Every text a reviewer typed is shown with invisible and bidi characters made
visible (:func:`~ai4hse_desk.verdicts.attempt_detail.display_text`).
"""

from __future__ import annotations

from typing import Final

from ai4hse_desk.display.format import option_letter
from ai4hse_desk.display.text_sanitize import display_text

#: What a flag on no particular option reads as.
WHOLE_QUESTION: Final = "whole question"
#: Characters of a note shown in a table cell.
CELL_TEXT: Final = 120


def one_line(text: str, limit: int = CELL_TEXT) -> str:
    """``text`` on one line for a table cell: line breaks as ``⏎``, invisibles made visible."""
    return display_text(" ⏎ ".join(text.splitlines()), limit)


def option_text(option: int | None) -> str:
    """An option position as its letter, or "whole question"."""
    return WHOLE_QUESTION if option is None else option_letter(option)


def format_time(at: str) -> str:
    """``2025-01-01T10:00:00.000000Z`` as ``2025-01-01 10:00:00 UTC``."""
    return f"{at[:10]} {at[11:19]} UTC" if len(at) >= 19 else at


__all__ = ["CELL_TEXT", "WHOLE_QUESTION", "format_time", "one_line", "option_text"]
