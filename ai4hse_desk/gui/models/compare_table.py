"""The compare grid's Qt model: an adapter over the Qt-free compare layout.

Every text, tooltip and mark is made Qt-free in :mod:`ai4hse_desk.index.compare_layout`;
this model only hands them to Qt and maps each cell's tone to the colours of
:mod:`ai4hse_desk.display.status_style`. One model shows one *part* of the
layout: the key row, the run (or attempt) rows, or the share row, so that the
grid can pin the key above and the share below the rows that scroll. Tooltips
(run ids, option texts: the audit file's text) are shown as plain text.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from ai4hse_desk.display.status_style import (
    DIFFERS_COLOURS,
    VALUE_COLOURS,
)
from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.palette_mode import status_colours_now
from ai4hse_desk.gui.plain_text import plain_tooltip
from ai4hse_desk.gui.qt_guard import guarded
from ai4hse_desk.index.compare_cells import CompareCell, Tone

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ai4hse_desk.index.compare_layout import CompareLayout

_Index = QModelIndex | QPersistentModelIndex
Part = Literal["key", "rows", "share"]

#: The attempt a cell shows alone (``None`` for a run's aggregate cells).
ATTEMPT_ROLE = int(Qt.ItemDataRole.UserRole)
#: True when the cell's value differs from the key (also marked ``≠`` and bold).
DIFFERS_ROLE = int(Qt.ItemDataRole.UserRole) + 1

__all__ = ["ATTEMPT_ROLE", "DIFFERS_ROLE", "CompareTableModel", "Part", "cell_colours"]


def cell_colours(cell: CompareCell) -> tuple[str, str] | None:
    """(background, text) of a cell from the status palette; ``None``: the window's own.

    "Valid ✓" and "Valid ✗" take their own status colours, so a valid but wrong
    attempt never looks like a correct one; other statuses theirs.
    """
    if cell.tone is Tone.VERDICT and cell.status is not None:  # the light or dark palette
        return status_colours_now(cell.status, bool(cell.correct))
    if cell.tone is Tone.DIFFERS:
        return DIFFERS_COLOURS
    if cell.tone in (Tone.TRUE, Tone.FALSE):
        return VALUE_COLOURS[cell.tone is Tone.TRUE]
    return None


@cache
def _brush(colour: str) -> QBrush:
    return QBrush(QColor(colour))


@cache
def _bold() -> QFont:
    font = QFont()
    font.setBold(True)
    return font


class CompareTableModel(QAbstractTableModel):
    """One part of a :class:`CompareLayout` (the key row, the rows, or the share row)."""

    def __init__(self, part: Part = "rows", parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.part: Part = part
        self._layout: CompareLayout | None = None

    def set_layout(self, layout: CompareLayout | None) -> None:
        """Show ``layout`` (``None``: empty)."""
        self.beginResetModel()
        self._layout = layout
        self.endResetModel()

    @property
    def grid_layout(self) -> CompareLayout | None:
        """The layout shown (``None`` when empty)."""
        return self._layout

    def _rows(self) -> Sequence[tuple[CompareCell, ...]]:
        layout = self._layout
        if layout is None:
            return ()
        if self.part == "key":
            return (layout.key,)
        if self.part == "share":
            return (layout.share,)
        return layout.rows

    def cell(self, row: int, column: int) -> CompareCell | None:
        """The cell at (``row``, ``column``), ``None`` outside the part."""
        rows = self._rows()
        if not (0 <= row < len(rows) and 0 <= column < len(rows[row])):
            return None
        return rows[row][column]

    def attempt_at(self, row: int, column: int) -> int | None:
        """The attempt the cell shows alone (``None`` for aggregates and empty cells)."""
        cell = self.cell(row, column)
        return None if cell is None else cell.attempt_id

    def row_attempt(self, row: int, column: int = 0) -> int | None:
        """The attempt a click on (``row``, ``column``) opens: the cell's own, else the
        row's first repetition (``None`` in the key and share rows)."""
        own = self.attempt_at(row, column)
        if own is not None or self.part != "rows" or self._layout is None:
            return own
        attempts = self._layout.row_attempts
        return attempts[row] if 0 <= row < len(attempts) else None

    def position_of(self, attempt_id: int) -> tuple[int, int] | None:
        """The first cell showing ``attempt_id`` alone (row, column), if any."""
        for r, cells in enumerate(self._rows()):
            for c, cell in enumerate(cells):
                if cell.attempt_id == attempt_id:
                    return r, c
        return None

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows())

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid() or self._layout is None:
            return 0
        return len(self._layout.columns)

    @guarded(None)
    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        layout = self._layout
        if orientation != Qt.Orientation.Horizontal or layout is None:
            return None
        if not 0 <= section < len(layout.columns):
            return None
        column = layout.columns[section]
        if role == Qt.ItemDataRole.DisplayRole:
            return display_text(column.title)
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tooltip(display_text(column.tooltip))
        return None

    @guarded(None)
    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        cell = self.cell(index.row(), index.column()) if index.isValid() else None
        if cell is None:
            return None
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            return display_text(cell.text)  # run ids and models from the file, as shown
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tooltip(display_text(cell.tooltip)) if cell.tooltip else None
        if role in (Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.ForegroundRole):
            colours = cell_colours(cell)
            if colours is None:
                return None
            return _brush(colours[0 if role == Qt.ItemDataRole.BackgroundRole else 1])
        if role == Qt.ItemDataRole.FontRole:
            return _bold() if cell.bold else None
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() > 0:
            return int(Qt.AlignmentFlag.AlignCenter)
        if role == ATTEMPT_ROLE:
            return cell.attempt_id
        if role == DIFFERS_ROLE:
            return cell.differs
        return None
