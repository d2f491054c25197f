"""The compare grid's table: a view over one part of the layout, the selected cell framed.

:class:`CompareTableView` keeps QTableWidget's ``cellClicked``/``cellActivated``
signals and ``rowCount()``/``columnCount()``, which callers of the grid used before
it had a model. :class:`SelectedFrameDelegate` draws the selected cell in its own
colours with a thick frame, so the current attempt's status stays readable.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QPainter, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from ai4hse_desk.gui.models.compare_table import CompareTableModel, Part

if TYPE_CHECKING:
    from PySide6.QtGui import QResizeEvent

__all__ = ["CompareTableView", "SelectedFrameDelegate", "pin"]


class SelectedFrameDelegate(QStyledItemDelegate):
    """Draws the selected cell in its own colours with a thick frame, so that the
    current attempt's status stays readable."""

    def paint(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        index: QModelIndex | QPersistentModelIndex,
    ) -> None:
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        plain = QStyleOptionViewItem(option)
        plain.state &= ~QStyle.StateFlag.State_Selected
        plain.state &= ~QStyle.StateFlag.State_HasFocus
        if selected and index.data(Qt.ItemDataRole.BackgroundRole) is None:
            painter.fillRect(option.rect, option.palette.base())  # over the row's highlight
        super().paint(painter, plain, index)
        if selected:
            painter.save()
            pen = QPen(option.palette.highlight().color(), 3)
            painter.setPen(pen)
            painter.drawRect(option.rect.adjusted(1, 1, -2, -2))
            painter.restore()


class CompareTableView(QTableView):
    """A table view over one part of the grid, with QTableWidget's cell signals.

    Signals:
        cellClicked, cellActivated: (row, column) of a clicked or activated cell.
        width_changed: the viewport was resized.
    """

    #: QTableWidget's names, kept for callers of the grid before it had a model.
    cellClicked = Signal(int, int)
    cellActivated = Signal(int, int)
    width_changed = Signal()

    def __init__(self, part: Part, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setModel(CompareTableModel(part, self))
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.setWordWrap(False)
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 10)
        self.setItemDelegate(SelectedFrameDelegate(self))
        self.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.horizontalHeader().setHighlightSections(False)
        self.clicked.connect(lambda index: self.cellClicked.emit(index.row(), index.column()))
        self.activated.connect(lambda index: self.cellActivated.emit(index.row(), index.column()))

    def grid_model(self) -> CompareTableModel:
        """The model of this part."""
        model = self.model()
        assert isinstance(model, CompareTableModel)
        return model

    def rowCount(self) -> int:
        """Rows shown."""
        return self.grid_model().rowCount()

    def columnCount(self) -> int:
        """Columns shown."""
        return self.grid_model().columnCount()

    def set_right_margin(self, width: int) -> None:
        """Keep ``width`` pixels free on the right (the rows' vertical scroll bar)."""
        self.setViewportMargins(0, 0, width, 0)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.width_changed.emit()


def pin(view: CompareTableView, *, header: bool) -> None:
    """Make ``view`` a pinned row: no focus, no selection, no scroll bars of its own."""
    view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    view.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
    view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    view.horizontalHeader().setVisible(header)
