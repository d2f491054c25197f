"""Read-only tables of flags or notes: one row per item, its id kept with every cell."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTableWidgetItem

if TYPE_CHECKING:
    from collections.abc import Sequence

_CELL = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable


def item_table(name: str, columns: Sequence[str]) -> QTableWidget:
    """A read-only, single-row-selection table; the last column takes the spare width."""
    table = QTableWidget(0, len(columns))
    table.setAccessibleName(name)
    table.setHorizontalHeaderLabels(list(columns))
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setWordWrap(False)
    table.verticalHeader().setVisible(False)
    table.verticalHeader().setDefaultSectionSize(22)
    header = table.horizontalHeader()
    for column in range(len(columns) - 1):
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(len(columns) - 1, QHeaderView.ResizeMode.Stretch)
    table.setMinimumHeight(2 * 22 + header.sizeHint().height() + 4)
    return table


def header_tip(table: QTableWidget, column: int, tip: str) -> None:
    """Give ``column``'s header ``tip`` (set again after new header labels)."""
    item = table.horizontalHeaderItem(column)
    if item is not None:
        item.setToolTip(tip)


def fill_items(table: QTableWidget, rows: Sequence[tuple[str, Sequence[str], bool]]) -> None:
    """Replace the rows: (item id, cell texts, open?) each, closed ones in italics.

    The item selected before stays selected; else the last row is.
    """
    selected = selected_id(table)
    table.setRowCount(len(rows))
    for row, (item_id, cells, is_open) in enumerate(rows):
        for column, text in enumerate(cells):
            item = QTableWidgetItem(text)
            item.setFlags(_CELL)
            item.setData(Qt.ItemDataRole.UserRole, item_id)
            if not is_open:
                font = QFont(item.font())
                font.setItalic(True)
                item.setFont(font)
            table.setItem(row, column, item)
    ids = [item_id for item_id, _cells, _open in rows]
    if selected in ids:
        table.selectRow(ids.index(selected))
    elif rows:
        table.selectRow(len(rows) - 1)


def selected_id(table: QTableWidget) -> str | None:
    """The item id of the selected row, if a row is selected."""
    rows = table.selectionModel().selectedRows()
    if not rows:
        return None
    item = table.item(rows[0].row(), 0)
    return None if item is None else str(item.data(Qt.ItemDataRole.UserRole))


__all__ = ["fill_items", "item_table", "selected_id"]
