"""One track's page of the scores dashboard: its table above its plots.

The table keeps who ran each run in view: the model and run columns
(:data:`~ai4hse_desk.scores.table_rows.FROZEN_KEYS`) are frozen on the left while the
metrics and settings scroll beneath them (:class:`FrozenColumnsTable`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QSplitter,
    QTableView,
    QWidget,
)

from ai4hse_desk.gui.models.scores_table import RAW_ROLE, ScoresTableModel
from ai4hse_desk.gui.views.scores_plots import TrackPlots
from ai4hse_desk.scores import track_title
from ai4hse_desk.scores.table_rows import FROZEN_KEYS

if TYPE_CHECKING:
    from PySide6.QtCore import QAbstractItemModel
    from PySide6.QtGui import QResizeEvent, QShowEvent

    from ai4hse_desk.scores.table_rows import ScoreRow

_Index = QModelIndex | QPersistentModelIndex
_Hint = QAbstractItemView.ScrollHint
_PER_PIXEL = QAbstractItemView.ScrollMode.ScrollPerPixel
_OFF = Qt.ScrollBarPolicy.ScrollBarAlwaysOff
_LINE = 2
#: No frame, but a line at its right edge: where the scrolling columns pass beneath.
_FROZEN_STYLE = f"QTableView {{ border: none; border-right: {_LINE}px solid palette(mid) }}"
#: A track table is given the height of this many rows at most when first shown.
_ROWS_SHOWN = 8


class FrozenColumnsTable(QTableView):
    """A read-only table whose first ``frozen`` columns stay in view (Qt's frozen-column pattern).

    :attr:`frozen_view`, a second view of the same model sharing the selection model, lies
    over the left of the viewport and shows only those columns; the others scroll beneath
    it. Both views scroll their rows together, keep the same row heights and column
    widths, and a cell made current (keyboard, click, :meth:`scrollTo`) is brought out
    from under the frozen columns.
    """

    def __init__(
        self, model: QAbstractItemModel, frozen: int, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self._frozen = frozen
        view = self.frozen_view = QTableView(self)  # before the model: its geometry follows
        self.setModel(model)
        view.setModel(model)
        view.setSelectionModel(self.selectionModel())
        view.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        view.setStyleSheet(_FROZEN_STYLE)
        view.verticalHeader().hide()
        view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        view.setHorizontalScrollBarPolicy(_OFF)
        view.setVerticalScrollBarPolicy(_OFF)
        for table in (self, view):
            table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
            table.setSortingEnabled(False)
            table.setHorizontalScrollMode(_PER_PIXEL)
            table.setVerticalScrollMode(_PER_PIXEL)
        self.viewport().stackUnder(view)
        self.horizontalHeader().sectionResized.connect(self._column_resized)
        self.verticalHeader().sectionResized.connect(self._row_resized)
        view.verticalScrollBar().valueChanged.connect(self.verticalScrollBar().setValue)
        self.verticalScrollBar().valueChanged.connect(view.verticalScrollBar().setValue)
        model.modelReset.connect(self._show_frozen_columns)
        model.columnsInserted.connect(self._show_frozen_columns)
        self._show_frozen_columns()
        view.show()

    def frozen_width(self) -> int:
        """The width the frozen columns (and the line beside them) cover at the left."""
        return sum(self.columnWidth(column) for column in range(self._frozen)) + _LINE

    def _show_frozen_columns(self) -> None:
        view = self.frozen_view
        for column in range(self.model().columnCount()):
            view.setColumnHidden(column, column >= self._frozen)
            if column < self._frozen:
                view.setColumnWidth(column, self.columnWidth(column))
        self._place()

    def _column_resized(self, column: int, _old: int, size: int) -> None:
        if column < self._frozen:
            self.frozen_view.setColumnWidth(column, size)
            self._place()

    def _row_resized(self, row: int, _old: int, size: int) -> None:
        self.frozen_view.setRowHeight(row, size)

    def _place(self) -> None:
        header = self.horizontalHeader()
        self.frozen_view.horizontalHeader().setFixedHeight(header.height())
        frame = self.frameWidth()
        self.frozen_view.setGeometry(
            self.verticalHeader().width() + frame,
            frame,
            self.frozen_width(),
            self.viewport().height() + header.height(),
        )

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._place()

    def updateGeometries(self) -> None:
        super().updateGeometries()
        self._place()

    def scrollTo(self, index: _Index, hint: _Hint = _Hint.EnsureVisible) -> None:
        """Scroll to ``index``; a scrolling column ends beside the frozen ones, never under them."""
        if not index.isValid() or index.column() < self._frozen:
            return  # always in view; the rows follow the vertical bar
        super().scrollTo(index, hint)
        hidden = self.frozen_width() - self.visualRect(index).left()
        if hidden > 0:
            bar = self.horizontalScrollBar()
            bar.setValue(bar.value() - hidden)


class TrackPage(QSplitter):
    """The runs of one track (rescore's order) in a table, and their four plots.

    Signals:
        filter_requested: the :class:`~ai4hse_desk.index.AttemptQuery` behind a clicked mark.
    """

    filter_requested = Signal(object)

    def __init__(
        self,
        track: str,
        rows: list[ScoreRow],
        consistency_facet: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(Qt.Orientation.Vertical, parent)
        self.track = track
        title = track_title(track)
        self.setAccessibleName(f"Scores of {title}")
        self.model = ScoresTableModel(self)
        self.model.set_rows(rows)
        self.table = FrozenColumnsTable(self.model, len(FROZEN_KEYS))
        self.table.setAccessibleName(f"Scores table: {title}")
        self.table.frozen_view.setAccessibleName(f"Scores table, model and run: {title}")
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.plots = TrackPlots(track)
        self.plots.set_runs([row.run for row in rows], consistency_facet)
        self.plots.filter_requested.connect(self.filter_requested)
        self.addWidget(self.table)
        self.addWidget(self.plots)
        self.setStretchFactor(1, 2)
        self._fitted = False

    def showEvent(self, event: QShowEvent) -> None:
        """On first show, give the table the height of its rows (a few) and the plots the rest."""
        super().showEvent(event)
        if not self._fitted:
            self._fitted = True
            table = self.table
            rows = min(self.model.rowCount(), _ROWS_SHOWN)
            wanted = (
                table.horizontalHeader().sizeHint().height()
                + rows * table.verticalHeader().defaultSectionSize()
                + table.horizontalScrollBar().sizeHint().height()
                + 2 * table.frameWidth()
            )
            total = sum(self.sizes())
            height = min(wanted, total // 2)
            self.setSizes([height, total - height])

    def copy_exact_value(self) -> None:
        """Copy the exact value of the table's current cell (nothing when none is current)."""
        index = self.table.currentIndex()
        if index.isValid():
            value = index.data(RAW_ROLE)
            QGuiApplication.clipboard().setText("" if value is None else repr(value))


__all__ = ["FrozenColumnsTable", "TrackPage"]
