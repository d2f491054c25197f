"""One track's page of the scores dashboard: its table above its plots."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QSplitter, QTableView, QWidget

from ai4hse_desk.gui.models.scores_table import RAW_ROLE, ScoresTableModel
from ai4hse_desk.gui.views.scores_plots import TrackPlots
from ai4hse_desk.scores import track_title

if TYPE_CHECKING:
    from ai4hse_desk.scores.table_rows import ScoreRow


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
        self.setAccessibleName(f"Scores of {track_title(track)}")
        self.model = ScoresTableModel(self)
        self.model.set_rows(rows)
        self.table = QTableView()
        self.table.setAccessibleName(f"Scores table: {track_title(track)}")
        self.table.setModel(self.model)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        self.table.setSortingEnabled(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.plots = TrackPlots(track)
        self.plots.set_runs([row.run for row in rows], consistency_facet)
        self.plots.filter_requested.connect(self.filter_requested)
        self.addWidget(self.table)
        self.addWidget(self.plots)
        self.setStretchFactor(1, 2)

    def copy_exact_value(self) -> None:
        """Copy the exact value of the table's current cell (nothing when none is current)."""
        index = self.table.currentIndex()
        if index.isValid():
            value = index.data(RAW_ROLE)
            QGuiApplication.clipboard().setText("" if value is None else repr(value))


__all__ = ["TrackPage"]
