"""The scores dashboard: the protocol's numbers per track, plotted, never combined.

One tab per track holds that track's table (runs in rescore's order, every
metric and setting) above its plots; a last tab, clearly marked, holds the
sensitivity exploration. The official scores are computed in the background
(``load``; ``load_now`` for screenshots and tests) and kept per audit
fingerprint in the cache folder. Clicking a bar or point emits
``filter_requested`` with the :class:`~ai4hse_desk.index.AttemptQuery` of the
attempts behind it. The toolbar exports tables (CSV, XLSX), the current plot
(PNG, SVG) and an HTML review report.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableView,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.audit import AuditDB
from ai4hse_desk.gui.qt_guard import problem_text
from ai4hse_desk.gui.qt_tasks import QtTask
from ai4hse_desk.gui.scores_exports import ScoresExportsMixin
from ai4hse_desk.gui.scores_plots import TrackPlots
from ai4hse_desk.gui.scores_table_model import RAW_ROLE, ScoresTableModel
from ai4hse_desk.gui.sensitivity_panel import SensitivityPanel
from ai4hse_desk.index import AttemptQuery
from ai4hse_desk.progress import Progress
from ai4hse_desk.scores import track_tables, track_title
from ai4hse_desk.scores.cache import ScoresData, load_scores
from ai4hse_desk.scores.table_rows import ScoreRow

READING_NOTE = (
    "Official scores, one table per track (tracks are never combined), ordered by end-to-end "
    "exact accuracy. Read valid accuracy with coverage. Intervals are 95% Wilson per "
    "repetition; there is no pooled interval. Hover a cell for its exact value."
)
_EXPORTS = ("csv", "xlsx", "png", "svg", "html", "copy", "recompute")


class ScoresView(ScoresExportsMixin, QWidget):
    """Scores per track with plots, exports and the sensitivity exploration."""

    filter_requested = Signal(object)  # AttemptQuery
    loaded = Signal()
    failed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Scores dashboard")
        self.toolbar = QToolBar("Scores")
        self.toolbar.setAccessibleName("Scores toolbar")
        self.note = QLabel(READING_NOTE)
        self.note.setWordWrap(True)
        self.note.setAccessibleName("How to read the scores")
        self.status = QLabel("No audit database open.")
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        self.progress = QProgressBar()
        self.progress.setVisible(False)
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setVisible(False)
        self.cancel_button.clicked.connect(self.cancel)
        self.tabs = QTabWidget()
        self.tabs.setAccessibleName("Scores per track")
        self.sensitivity = SensitivityPanel()
        self.models: dict[str, ScoresTableModel] = {}
        self.table_views: dict[str, QTableView] = {}
        self.plots: dict[str, TrackPlots] = {}
        self.data: ScoresData | None = None
        self._db: AuditDB | None = None
        self._task: QtTask | None = None
        self._generation = 0
        self._exclusion: tuple[set[str], str] | None = None
        self.action_map: dict[str, QAction] = {}
        self._build_actions()
        status = QHBoxLayout()
        status.addWidget(self.status, 1)
        status.addWidget(self.progress)
        status.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.note)
        layout.addLayout(status)
        layout.addWidget(self.tabs, 1)

    def _build_actions(self) -> None:
        entries: list[tuple[str, str, Callable[[], object], QKeySequence.StandardKey | None]] = [
            ("csv", "Export tables as CSV…", lambda: self._export_tables("csv"), None),
            ("xlsx", "Export tables as XLSX…", lambda: self._export_tables("xlsx"), None),
            ("png", "Export plot as PNG…", lambda: self._export_plot("png"), None),
            ("svg", "Export plot as SVG…", lambda: self._export_plot("svg"), None),
            ("html", "Export HTML report…", self._export_report, None),
            ("copy", "Copy exact value", self.copy_exact_value, QKeySequence.StandardKey.Copy),
            ("recompute", "Compute again", self.recompute, None),
        ]
        for key, text, slot, shortcut in entries:
            action = QAction(text, self)
            action.triggered.connect(slot)
            if shortcut is not None:
                action.setShortcut(shortcut)
                action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            self.action_map[key] = action
            self.addAction(action)
            self.toolbar.addAction(action)
        private = self.action_map["private"] = QAction("Include question text in the report", self)
        private.setCheckable(True)
        self.toolbar.insertAction(self.action_map["copy"], private)
        self.toolbar.insertSeparator(self.action_map["copy"])
        self._set_enabled(False)

    def _set_enabled(self, enabled: bool) -> None:
        for key in _EXPORTS:
            self.action_map[key].setEnabled(enabled)

    # -- loading ------------------------------------------------------------------

    def load(self, db: AuditDB, *, use_cache: bool = True) -> None:
        """Compute (or find in the cache) ``db``'s scores in the background."""
        self.clear()
        self._db = db
        generation = self._generation

        def work(progress: Progress) -> ScoresData:
            return load_scores(db, progress, use_cache=use_cache)

        task = QtTask(work, "scores", self)
        task.progress.connect(self._progress)
        task.succeeded.connect(lambda data: self._show(data, generation))
        task.failed.connect(lambda message: self._failed(message, generation))
        task.cancelled.connect(lambda: self._stopped(generation))
        task.finished.connect(lambda: self._finished(generation))
        self._task = task
        self.status.setText("Computing the scores…")
        self.cancel_button.setVisible(True)
        task.start()

    def load_now(self, db: AuditDB) -> None:
        """Compute ``db``'s scores now, on this thread (screenshots, tests)."""
        self.clear()
        self._db = db
        try:
            data = load_scores(db)
        except Exception as exc:
            self._failed(problem_text(exc), self._generation)
            return
        self._show(data, self._generation)

    def recompute(self) -> None:
        """Compute the current database's scores again, ignoring the cache."""
        if self._db is not None:
            exclusion = self._exclusion
            self.load(self._db, use_cache=False)
            self._exclusion = exclusion

    def cancel(self) -> None:
        """Stop computing the scores."""
        if self._task is not None:
            self._task.cancel()

    def busy(self) -> bool:
        """True while scores or the exploration are being computed."""
        running = self._task is not None and self._task.is_running()
        return running or self.sensitivity.busy()

    def shutdown(self) -> None:
        """Stop every background computation and wait for it."""
        if self._task is not None:
            self._task.cancel()
            self._task.wait()
            self._task = None
        self.sensitivity.shutdown()

    def clear(self) -> None:
        """Show nothing (waits for running computations to stop)."""
        self.shutdown()
        self._generation += 1
        self._db = None
        self.data = None
        self._exclusion = None
        pages = [self.tabs.widget(i) for i in range(self.tabs.count())]
        self.tabs.clear()
        for page in pages:
            if page is not None and page is not self.sensitivity:
                page.deleteLater()
        self.models, self.table_views, self.plots = {}, {}, {}
        self.sensitivity.clear()
        self.progress.setVisible(False)
        self.cancel_button.setVisible(False)
        self.status.setText("No audit database open.")
        self._set_enabled(False)

    def _progress(self, done: int, total: int) -> None:
        self.progress.setVisible(True)
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(done)

    def _finished(self, generation: int) -> None:
        if generation == self._generation:
            self.progress.setVisible(False)
            self.cancel_button.setVisible(False)

    def _failed(self, message: str, generation: int) -> None:
        if generation == self._generation:
            self.status.setText(f"Could not compute the scores: {message}")
            self.failed.emit(message)

    def _stopped(self, generation: int) -> None:
        if generation == self._generation:
            self.status.setText("Stopped. “Compute again” starts over.")
            self.action_map["recompute"].setEnabled(self._db is not None)

    def _show(self, data: ScoresData, generation: int) -> None:
        if generation != self._generation or self._db is None:
            return
        try:
            self._show_data(data)
        except Exception as exc:  # a value no scores can be drawn from: say so, plainly
            self.data = None
            self._set_enabled(False)
            self._failed(problem_text(exc), generation)

    def _show_data(self, data: ScoresData) -> None:
        assert self._db is not None
        self.data = data
        tables = track_tables(data.result.runs, data.settings)
        for track, rows in tables.items():
            self._add_track(track, rows, data.consistency_facet)
        self.sensitivity.set_source(self._db, data.result.runs, data.questions)
        if self._exclusion is not None:
            self.sensitivity.set_excluded_questions(*self._exclusion)
        self.tabs.addTab(self.sensitivity, "Sensitivity — not official")
        runs = len(data.result.runs)
        self.status.setText(
            f"{runs} runs in {len(tables)} tracks, {data.result.attempts:,} attempts re-derived "
            "with the protocol."
        )
        self._set_enabled(True)
        self.loaded.emit()

    def _add_track(self, track: str, rows: list[ScoreRow], consistency_facet: str) -> None:
        model = ScoresTableModel(self)
        model.set_rows(rows)
        view = QTableView()
        view.setAccessibleName(f"Scores table: {track_title(track)}")
        view.setModel(model)
        view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectItems)
        view.setSortingEnabled(False)
        view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        plots = TrackPlots(track)
        plots.set_runs([row.run for row in rows], consistency_facet)
        plots.filter_requested.connect(self.filter_requested)
        split = QSplitter(Qt.Orientation.Vertical)
        split.setAccessibleName(f"Scores of {track_title(track)}")
        split.addWidget(view)
        split.addWidget(plots)
        split.setStretchFactor(1, 2)
        self.models[track], self.table_views[track], self.plots[track] = model, view, plots
        self.tabs.addTab(split, track_title(track))

    # -- reading -------------------------------------------------------------------

    def query_for(self, plot_name: str, index: int) -> AttemptQuery:
        """The attempts behind bar/point ``index`` of ``"<track>/<plot>"``."""
        track, _, name = plot_name.partition("/")
        return self.plots[track].query_for(name, index)

    def set_excluded_questions(self, ids: set[str], reason: str) -> None:
        """Explore the scores without ``ids`` (e.g. questions with an open key flag).

        Called before the scores are shown (right after ``load``), the questions
        are kept and explored as soon as the scores are there.
        """
        self._exclusion = (set(ids), reason)
        if self.data is not None:
            self.sensitivity.set_excluded_questions(set(ids), reason)

    def current_track(self) -> str | None:
        """The track whose tab is shown, if a track tab is."""
        widget = self.tabs.currentWidget()
        for track, plots in self.plots.items():
            if plots.parentWidget() is widget:
                return track
        return None

    def copy_exact_value(self) -> None:
        """Copy the exact value of the current cell of the shown table."""
        track = self.current_track()
        if track is None:
            return
        index = self.table_views[track].currentIndex()
        if index.isValid():
            value = index.data(RAW_ROLE)
            QGuiApplication.clipboard().setText("" if value is None else repr(value))


__all__ = ["ScoresView"]
