"""A compact list of checkable values, for the attempt list's filters.

A filter text narrows which values are listed (case-insensitive, anywhere in the
label) without touching which are checked: a hidden value stays chosen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QWidget

from ai4hse_desk.display.text_sanitize import display_text

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence


class QtCheckList(QListWidget):
    """A compact list of checkable values; nothing checked means "any"."""

    changed = Signal()

    def __init__(self, name: str, parent: QWidget | None = None, max_rows: int = 8) -> None:
        super().__init__(parent)
        self.setAccessibleName(name)
        self._max_rows = max_rows
        self.setUniformItemSizes(True)
        self.itemChanged.connect(lambda _item: self.changed.emit())

    def set_values(self, values: Sequence[tuple[str, object]]) -> None:
        """Replace the values: (label, value) pairs, all unchecked; labels read from a
        file show their invisible and control characters (⟨RLO⟩, ⟨ESC⟩ …)."""
        self.blockSignals(True)
        self.clear()
        for label, value in values:
            item = QListWidgetItem(self)  # (with its text, PySide would make QIcon's types)
            item.setText(display_text(label))
            item.setData(Qt.ItemDataRole.UserRole, value)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
        rows = min(max(self.count(), 1), self._max_rows)
        self.setFixedHeight(rows * (self.sizeHintForRow(0) if self.count() else 18) + 6)
        self.blockSignals(False)

    def set_filter_text(self, text: str) -> None:
        """List only the values whose label contains ``text`` (any case); "" lists all.
        The checked values stay as they are, listed or not (no ``changed`` signal)."""
        wanted = text.strip().casefold()
        for i in range(self.count()):
            item = self.item(i)
            item.setHidden(bool(wanted) and wanted not in item.text().casefold())

    def visible_values(self) -> list[object]:
        """The values listed now (the filter text lets them through)."""
        return [
            self.item(i).data(Qt.ItemDataRole.UserRole)
            for i in range(self.count())
            if not self.item(i).isHidden()
        ]

    def checked(self) -> tuple[object, ...] | None:
        """The checked values, or None when nothing is checked (no condition)."""
        values = tuple(
            self.item(i).data(Qt.ItemDataRole.UserRole)
            for i in range(self.count())
            if self.item(i).checkState() == Qt.CheckState.Checked
        )
        return values or None

    def set_checked(self, values: Iterable[object]) -> None:
        """Check exactly ``values`` (one ``changed`` signal)."""
        wanted = set(values)
        self.blockSignals(True)
        for i in range(self.count()):
            item = self.item(i)
            state = item.data(Qt.ItemDataRole.UserRole) in wanted
            item.setCheckState(Qt.CheckState.Checked if state else Qt.CheckState.Unchecked)
        self.blockSignals(False)
        self.changed.emit()


__all__ = ["QtCheckList"]
