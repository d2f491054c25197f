"""The attempt list's columns, declared once: header, sort column, text, tooltip.

The texts are plain (table cells are never rich text); a status tooltip names
only known statuses, as a tooltip may render as rich text. A row not read yet
(its page arrives a moment later) or that cannot be read shows :data:`PLACEHOLDER`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ai4hse_desk.display.status_style import outcome_label
from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.plain_text import plain_tooltip
from ai4hse_desk.protocol.outcome import Status

if TYPE_CHECKING:
    from collections.abc import Callable

    from ai4hse_desk.index import ListRow

_KNOWN_STATUSES = frozenset(s.value for s in Status) | {"—"}


def _tick(value: bool) -> str:
    return "✓" if value else "✗"


class AttemptColumn(NamedTuple):
    """One column of the attempt list.

    Attributes:
        header: the header text.
        sort: the review index's sort column (``None``: not sortable).
        text: the cell's text for a row.
        centred: short values, centred.
        tip: the header's tooltip ("" for none).
    """

    header: str
    sort: str | None
    text: Callable[[ListRow], str]
    centred: bool = False
    tip: str = ""


COLUMNS: tuple[AttemptColumn, ...] = (
    AttemptColumn("Question", "ordinal", lambda r: display_text(r.question_id)),
    AttemptColumn("Model", "model", lambda r: display_text(r.model)),
    AttemptColumn("Run", "run_id", lambda r: display_text(r.run_id)),
    AttemptColumn("Track", "track", lambda r: r.track.value),
    AttemptColumn("Rep", "repetition", lambda r: str(r.repetition), centred=True),
    AttemptColumn(
        "Desk status", "status", lambda r: outcome_label(r.status, r.correct), centred=True
    ),
    AttemptColumn("Correct", "correct", lambda r: _tick(r.correct), centred=True),
    AttemptColumn("Strict", "strict", lambda r: _tick(r.strict), centred=True),
    AttemptColumn("Runner ≠ desk", "disagrees", lambda r: "≠" if r.disagrees else "", True),
    AttemptColumn(
        "Flag", None, lambda r: "⚑" if r.flagged else "", True, "Flagged questions (reviewer notes)"
    ),
)
#: The column whose cells carry the status colours.
COL_STATUS = 5
#: The first cell of a row not read yet, or that cannot be read.
PLACEHOLDER = "…"


def status_tip(item: ListRow) -> str:
    """The status cell's tooltip: the desk's status and the one the runner recorded."""
    recorded = item.recorded_status or "—"
    if recorded not in _KNOWN_STATUSES:
        recorded = "an unrecognised value"
    return f"desk: {item.status.value}; runner recorded: {recorded}"


def cell_tip(column: int, item: ListRow) -> str:
    """A cell's tooltip: the status cell's statuses, any other cell's whole text (an
    elided id or label reads in full), as plain text."""
    if column == COL_STATUS:
        return status_tip(item)
    return plain_tooltip(COLUMNS[column].text(item))


def placeholder_tip(problem: str | None) -> str:
    """The tooltip of a placeholder row: why it cannot be read, or that it is on its way."""
    if problem is None:
        return "Finding this row's place in the list…"
    return plain_tooltip(f"This attempt cannot be read: {problem}")


__all__ = [
    "COLUMNS",
    "COL_STATUS",
    "PLACEHOLDER",
    "AttemptColumn",
    "cell_tip",
    "placeholder_tip",
    "status_tip",
]
