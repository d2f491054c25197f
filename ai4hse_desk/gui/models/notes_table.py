"""The notes list's Qt model: the rows the core chose (``review.list_rows.note_rows``).

Held whole, each row's cells made once when the rows change (plain text, from
:func:`~ai4hse_desk.review.list_rows.note_cells`): 20,000 flags take about 20 ms, and the
view asks only for the rows it draws. Newest change first (the core's order) until a
header is clicked; then by that column (the attempt as a number), kept through refreshes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from ai4hse_desk.gui.qt_guard import guarded
from ai4hse_desk.review.list_rows import COLUMNS, NoteRow, note_cells

if TYPE_CHECKING:
    from collections.abc import Sequence

_Index = QModelIndex | QPersistentModelIndex
_ATTEMPT = COLUMNS.index("Attempt")


class NotesTableModel(QAbstractTableModel):
    """Flags, attempt notes and review concerns, one per row, sortable by any column."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._rows: list[NoteRow] = []
        self._cells: list[tuple[str, ...]] = []
        self._sorted_by: tuple[int, Qt.SortOrder] = (-1, Qt.SortOrder.AscendingOrder)

    def set_rows(self, rows: Sequence[NoteRow]) -> None:
        """Show ``rows`` (in the current sort order, else as given)."""
        self.beginResetModel()
        self._rows = list(rows)
        self._cells = [note_cells(row) for row in self._rows]
        self._order(*self._sorted_by)
        self.endResetModel()

    def note_row(self, row: int) -> NoteRow | None:
        """The item shown in ``row``."""
        return self._rows[row] if 0 <= row < len(self._rows) else None

    def texts(self) -> list[tuple[str, ...]]:
        """Every row's cells, in the order shown."""
        return list(self._cells)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    @guarded(None)
    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section] if 0 <= section < len(COLUMNS) else None
        return None

    @guarded(None)
    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or role != Qt.ItemDataRole.DisplayRole:
            return None
        row = index.row()
        return self._cells[row][index.column()] if 0 <= row < len(self._cells) else None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Order the rows by ``column`` (-1: newest change first, the core's order); a
        selected row stays selected."""
        self.layoutAboutToBeChanged.emit()
        before = self.persistentIndexList()
        kept = [(self._rows[index.row()], index.column()) for index in before]
        self._sorted_by = (column, order)
        self._order(column, order)
        position = {id(row): number for number, row in enumerate(self._rows)}
        self.changePersistentIndexList(
            before, [self.index(position[id(row)], column) for row, column in kept]
        )
        self.layoutChanged.emit()

    def _order(self, column: int, order: Qt.SortOrder) -> None:
        rows, cells = self._rows, self._cells
        numbers = range(len(rows))
        reverse = order == Qt.SortOrder.DescendingOrder
        if column == _ATTEMPT:  # a number; rows without an attempt first
            ranks = sorted(numbers, key=lambda n: rows[n].attempt_id or -1, reverse=reverse)
        elif 0 <= column < len(COLUMNS):
            ranks = sorted(numbers, key=lambda n: cells[n][column].casefold(), reverse=reverse)
        else:
            ranks = sorted(numbers, key=lambda n: rows[n].updated_at, reverse=True)
        self._rows = [rows[n] for n in ranks]
        self._cells = [cells[n] for n in ranks]


__all__ = ["NotesTableModel"]
