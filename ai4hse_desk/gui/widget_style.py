"""Small helpers for styling widgets cheaply."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QTableWidget, QWidget


def plain_label(accessible_name: str = "", *, wrap: bool = True) -> QLabel:
    """A label that shows its text literally (never HTML), selectable by mouse."""
    label = QLabel()
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(wrap)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    label.setAccessibleName(accessible_name)
    return label


def set_style_sheet(widget: QWidget, sheet: str) -> None:
    """Set a style sheet only when it changes (each set re-polishes and relayouts)."""
    if widget.styleSheet() != sheet:
        widget.setStyleSheet(sheet)


def table_texts(table: QTableWidget) -> list[tuple[str, ...]]:
    """A table's cell texts, row by row, as shown."""

    def text(row: int, column: int) -> str:
        item = table.item(row, column)
        return "" if item is None else item.text()

    return [
        tuple(text(row, column) for column in range(table.columnCount()))
        for row in range(table.rowCount())
    ]
