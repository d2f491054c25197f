"""Labels that show their text literally, style sheets set cheaply, and table texts read back."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QTableWidget, QWidget


def plain_label(text: str = "", *, name: str = "", wrap: bool = True) -> QLabel:
    """A label that shows ``text`` literally (never as HTML), selectable by mouse.

    Args:
        name: its accessible name.
        wrap: break long lines at word boundaries.
    """
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(wrap)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if name:
        label.setAccessibleName(name)
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


__all__ = ["plain_label", "set_style_sheet", "table_texts"]
