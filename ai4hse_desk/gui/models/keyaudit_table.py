"""The key audit's Qt model: the ranked questions (a few thousand at most: held whole)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt

from ai4hse_desk.display.format import option_letter
from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.qt_guard import guarded

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ai4hse_desk.keyaudit import QuestionSuspicion

_Index = QModelIndex | QPersistentModelIndex
HEADERS = ("Rank", "Question", "Option", "P(key wrong)", "Flagged", "Evidence")
#: Shown in the probability column where the desk has no honest probability.
NOT_SHOWN = "—"


def option_text(item: QuestionSuspicion) -> str:
    """``"C"`` for an option position (its letter, as every view shows options), ``"—"``
    when the evidence names none."""
    return "—" if item.option is None else option_letter(item.option)


def probability_text(item: QuestionSuspicion) -> str:
    """``"0.21"`` where the probability is honest (calibrated), else :data:`NOT_SHOWN`."""
    return NOT_SHOWN if item.probability is None else f"{item.probability:.2f}"


class KeyAuditModel(QAbstractTableModel):
    """The ranked questions (a few thousand at most: held whole)."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._items: list[QuestionSuspicion] = []
        self._flagged: frozenset[str] = frozenset()

    def set_items(self, items: list[QuestionSuspicion]) -> None:
        """Show ``items`` in their rank order."""
        self.beginResetModel()
        self._items = list(items)
        self.endResetModel()

    def set_flagged(self, question_ids: Iterable[str]) -> None:
        """Mark these questions as flagged."""
        self._flagged = frozenset(question_ids)
        if self._items:
            self.dataChanged.emit(self.index(0, 4), self.index(len(self._items) - 1, 4))

    def item(self, row: int) -> QuestionSuspicion | None:
        """The question shown in ``row``."""
        return self._items[row] if 0 <= row < len(self._items) else None

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._items)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    @guarded(None)
    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section] if 0 <= section < len(HEADERS) else None
        return None

    @guarded(None)
    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        item = self.item(index.row()) if index.isValid() else None
        if item is None:
            return None
        column = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            values = (  # the id and the reason (it names runs and models) as shown
                str(item.rank or index.row() + 1),
                display_text(item.question_id),
                option_text(item),
                probability_text(item),
                "⚑" if item.question_id in self._flagged else "",
                display_text(item.reasons[0]) if item.reasons else "",
            )
            return values[column]
        if role == Qt.ItemDataRole.UserRole:
            return item.question_id
        if role == Qt.ItemDataRole.ToolTipRole and column == 3 and item.withheld:
            return f"No probability shown: {item.withheld}. The rank and the evidence stand."
        if role == Qt.ItemDataRole.TextAlignmentRole and column in (0, 2, 3, 4):
            return int(Qt.AlignmentFlag.AlignCenter)
        return None


__all__ = ["HEADERS", "NOT_SHOWN", "KeyAuditModel", "option_text", "probability_text"]
