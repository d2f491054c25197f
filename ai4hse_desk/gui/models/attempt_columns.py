"""The attempt list's columns, declared once: header, sort column, text, tooltip.

The texts are plain (table cells are never rich text); a status tooltip names
only known statuses, as a tooltip may render as rich text. A row not read yet
(its page arrives a moment later) or that cannot be read shows :data:`PLACEHOLDER`.
The columns that tell correctness (``reveals``) are masked on a row whose key may
not be shown (:func:`cell_text`): the status without its ✓/✗, the rest "hidden".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ai4hse_desk.display.status_style import outcome_label, status_label
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
        reveals: the cell tells whether the attempt is correct (masked when blind).
    """

    header: str
    sort: str | None
    text: Callable[[ListRow], str]
    centred: bool = False
    tip: str = ""
    reveals: bool = False


COLUMNS: tuple[AttemptColumn, ...] = (
    AttemptColumn("Question", "ordinal", lambda r: display_text(r.question_id)),
    AttemptColumn("Model", "model", lambda r: display_text(r.model)),
    AttemptColumn("Run", "run_id", lambda r: display_text(r.run_id)),
    AttemptColumn("Track", "track", lambda r: r.track.value),
    AttemptColumn("Rep", "repetition", lambda r: str(r.repetition), centred=True),
    AttemptColumn("Desk status", "status", lambda r: outcome_label(r.status, r.correct),
                  centred=True, reveals=True),
    AttemptColumn("Correct", "correct", lambda r: _tick(r.correct), centred=True, reveals=True),
    AttemptColumn("Strict", "strict", lambda r: _tick(r.strict), centred=True, reveals=True),
    AttemptColumn("Runner ≠ desk", "disagrees", lambda r: "≠" if r.disagrees else "",
                  centred=True, reveals=True),
    AttemptColumn(
        "Flag", None, lambda r: "⚑" if r.flagged else "", True,
        "⚑: the question has an open flag, or a submitted review concern (key wrong, unclear, "
        "…) that no decision has settled yet — the Flags tab lists flags, the Review view the "
        "concerns",
    ),
)  # fmt: skip
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


def cell_text(column: int, item: ListRow, mask: str | None = None) -> str:
    """A cell's text; with ``mask`` (the row's key may not be shown), a column that
    tells correctness shows the status alone, or ``mask``."""
    spec = COLUMNS[column]
    if mask is None or not spec.reveals:
        return spec.text(item)
    return status_label(item.status) if column == COL_STATUS else mask


def cell_tip(column: int, item: ListRow, hidden: str = "") -> str:
    """A cell's tooltip: the status cell's statuses, any other cell's whole text (an
    elided id or label reads in full), as plain text; ``hidden``: why a masked cell is."""
    if hidden and COLUMNS[column].reveals:
        return plain_tooltip(hidden)
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
    "cell_text",
    "cell_tip",
    "placeholder_tip",
    "status_tip",
]
