"""The scores dashboard: the protocol's numbers per track, plotted, never combined.

One tab per track holds that track's table (runs in rescore's order; the model
and run frozen on the left, then exact accuracy, valid accuracy beside coverage,
the other metrics, the settings last) above its plots; a last tab, clearly marked,
holds the sensitivity exploration (never leaving out a question the ``sight`` hides).
The official scores are computed in the background on the ``"scores"`` lane of the
window's task runner (``load``; ``load_now`` waits for them), from the review index's
stored verdicts, and kept per audit fingerprint in the cache folder. Clicking a bar or
point emits ``filter_requested`` with the :class:`~ai4hse_desk.index.AttemptQuery` of
the attempts behind it. The toolbar exports tables, the current plot and an HTML
report (:mod:`.scores_exports`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QTableView, QTabWidget, QToolBar, QVBoxLayout, QWidget

from ai4hse_desk.gui.qt_guard import READ_ERRORS, problem_text
from ai4hse_desk.gui.views.scores_toolbar import NEEDS_SCORES, scores_actions
from ai4hse_desk.gui.widgets.task_status import TaskStatus
from ai4hse_desk.gui.workers.task import QueryOp, Task

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ai4hse_desk.audit import AuditDB
    from ai4hse_desk.gui.controllers.sight import Sight
    from ai4hse_desk.gui.models.scores_table import ScoresTableModel
    from ai4hse_desk.gui.panels.sensitivity import SensitivityPanel
    from ai4hse_desk.gui.views.scores_exports import ScoresExporter
    from ai4hse_desk.gui.views.scores_plots import TrackPlots
    from ai4hse_desk.gui.views.scores_track import TrackPage
    from ai4hse_desk.gui.workers.runner import TaskRunner
    from ai4hse_desk.index import AttemptQuery, ReviewIndex
    from ai4hse_desk.progress import Progress
    from ai4hse_desk.scores.cache import ScoresData
    from ai4hse_desk.scores.table_rows import ScoreRow

READING_NOTE = (
    "Official scores, one table per track (tracks are never combined), ordered by end-to-end "
    "exact accuracy. Read valid accuracy with coverage. Intervals are 95% Wilson per "
    "repetition; there is no pooled interval. Hover a header for what it means, a cell for its "
    "exact value."
)
LANE = "scores"
NO_SCORES = "No audit database open."


class ScoresView(QWidget):
    """Scores per track with plots, exports and the sensitivity exploration.

    Signals:
        filter_requested: the :class:`~ai4hse_desk.index.AttemptQuery` behind a clicked mark.
        loaded: the scores are shown.
        failed: why the scores could not be computed (one line).
    """

    filter_requested = Signal(object)
    loaded = Signal()
    failed = Signal(str)

    def __init__(self, tasks: TaskRunner, sight: Sight | None = None) -> None:
        super().__init__()
        self._tasks, self._sight = tasks, sight
        self.setAccessibleName("Scores dashboard")
        self.toolbar = QToolBar("Scores")
        self.toolbar.setAccessibleName("Scores toolbar")
        self.note = QLabel(READING_NOTE)
        self.note.setWordWrap(True)
        self.note.setAccessibleName("How to read the scores")
        self.task_status = TaskStatus(NO_SCORES)
        self.task_status.cancel_requested.connect(self.cancel)
        self.status = self.task_status.label
        self.progress = self.task_status.progress
        self.cancel_button = self.task_status.cancel_button
        self.tabs = QTabWidget()
        self.tabs.setAccessibleName("Scores per track")
        self._sensitivity: SensitivityPanel | None = None  # made with the first scores
        self._exports: ScoresExporter | None = None
        self.pages: dict[str, TrackPage] = {}
        self.models: dict[str, ScoresTableModel] = {}
        self.table_views: dict[str, QTableView] = {}
        self.plots: dict[str, TrackPlots] = {}
        self.data: ScoresData | None = None
        self._db: AuditDB | None = None
        self._index: ReviewIndex | None = None
        self._task: Task[ScoresData] | None = None
        self._generation = 0
        #: The exploration asked for before the scores came: (left out, why, corrected keys).
        self._exclusion: tuple[set[str], str, dict[str, Sequence[bool]]] | None = None
        self._build_actions()  # (the toolbar's actions by key: action_map)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.note)
        layout.addWidget(self.task_status)
        layout.addWidget(self.tabs, 1)

    def _build_actions(self) -> None:
        self.action_map = scores_actions(self, self.toolbar, {
            "csv": lambda: self.exports.ask_tables("csv"),
            "xlsx": lambda: self.exports.ask_tables("xlsx"),
            "png": lambda: self.exports.ask_plot("png"),
            "svg": lambda: self.exports.ask_plot("svg"),
            "html": self._ask_report, "copy": self.copy_exact_value, "recompute": self.recompute,
        })  # fmt: skip
        self._set_enabled(False)

    def _set_enabled(self, enabled: bool) -> None:
        for key in NEEDS_SCORES:
            self.action_map[key].setEnabled(enabled)

    def _ask_report(self) -> None:
        self.exports.ask_report(include_private=self.action_map["private"].isChecked())

    @property
    def sensitivity(self) -> SensitivityPanel:
        """The sensitivity exploration (made and imported on first use, not at start)."""
        if self._sensitivity is None:
            from ai4hse_desk.gui.panels.sensitivity import SensitivityPanel

            self._sensitivity = SensitivityPanel(self._tasks, self._sight)
        return self._sensitivity

    @property
    def exports(self) -> ScoresExporter:
        """The toolbar's exports: tables, the current plot, the HTML report (made on first use)."""
        if self._exports is None:
            from ai4hse_desk.gui.views.scores_exports import ScoresExporter

            self._exports = ScoresExporter(self, self)
        return self._exports

    # -- what the exporter reads ---------------------------------------------------

    @property
    def db(self) -> AuditDB | None:
        """The audit database whose scores are shown."""
        return self._db

    def tables(self) -> dict[str, list[ScoreRow]]:
        """The rows of every track's table, as shown."""
        return {track: model.rows for track, model in self.models.items()}

    def show_status(self, text: str) -> None:
        """Say ``text`` on the status line."""
        self.status.setText(text)

    # -- loading ------------------------------------------------------------------

    def load(
        self, db: AuditDB, *, index: ReviewIndex | None = None, use_cache: bool = True
    ) -> None:
        """Compute (or find in the cache) ``db``'s scores in the background, from the
        stored verdicts of ``index`` (its review index) when there is one."""
        from ai4hse_desk.scores.cache import load_scores

        self.clear()
        self._db, self._index = db, index
        generation = self._generation

        def work(progress: Progress) -> ScoresData:
            return load_scores(db, progress, use_cache=use_cache, index=index)

        task = self._tasks.run(QueryOp(work, lane=LANE))
        task.progress.connect(self.task_status.report)
        task.succeeded.connect(lambda data: self._show(data, generation))
        task.failed.connect(lambda message: self._failed(message, generation))
        task.cancelled.connect(lambda: self._stopped(generation))
        task.finished.connect(lambda: self._finished(generation))
        self._task = task
        self.task_status.started("Computing the scores…")

    def load_now(self, db: AuditDB, *, index: ReviewIndex | None = None) -> None:
        """:meth:`load`, and wait until the scores are shown (screenshots, tests)."""
        self.load(db, index=index)
        self._tasks.wait_idle()

    def recompute(self) -> None:
        """Compute the current database's scores again, ignoring the cache."""
        if self._db is not None:
            exclusion = self._exclusion
            self.load(self._db, index=self._index, use_cache=False)
            self._exclusion = exclusion

    @property
    def task(self) -> Task[ScoresData] | None:
        """The computation of the scores, while it runs."""
        return self._task

    def cancel(self) -> None:
        """Stop computing the scores."""
        if self._task is not None:
            self._task.cancel()

    def busy(self) -> bool:
        """True while scores or the exploration are being computed."""
        running = self._task is not None and not self._task.done
        return running or (self._sensitivity is not None and self._sensitivity.busy())

    def stop(self) -> None:
        """Stop every background computation; what it still delivers is ignored."""
        self.cancel()
        self._task = None
        if self._sensitivity is not None:
            self._sensitivity.stop()

    def clear(self) -> None:
        """Show nothing (running computations are cancelled)."""
        self.stop()
        self._generation += 1
        self._db = self._index = self.data = self._exclusion = None
        pages = [self.tabs.widget(i) for i in range(self.tabs.count())]
        self.tabs.clear()
        for page in pages:
            if page is not None and page is not self._sensitivity:
                page.deleteLater()
        self.pages, self.models, self.table_views, self.plots = {}, {}, {}, {}
        if self._sensitivity is not None:
            self._sensitivity.clear()
        self.task_status.ended()
        self.task_status.say(NO_SCORES)
        self._set_enabled(False)

    def _finished(self, generation: int) -> None:
        if generation == self._generation:
            self._task = None
            self.task_status.ended()

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
        except READ_ERRORS as exc:  # a value no scores can be drawn from: say so, plainly
            self.data = None
            self._set_enabled(False)
            self._failed(problem_text(exc), generation)

    def _show_data(self, data: ScoresData) -> None:
        if self._db is None:
            return
        from ai4hse_desk.scores import track_tables

        self.data = data
        tables = track_tables(data.result.runs, data.settings)
        for track, rows in tables.items():
            self._add_track(track, rows, data.consistency_facet)
        self.sensitivity.set_source(self._db, data.result.runs, data.questions, self._index)
        if self._exclusion is not None:
            ids, reason, corrected = self._exclusion
            self.sensitivity.set_excluded_questions(ids, reason, corrected=corrected)
        self.tabs.addTab(self.sensitivity, "Sensitivity — not official")
        if self._exclusion is not None:  # asked for before the scores came: shown now
            self.tabs.setCurrentWidget(self.sensitivity)
        runs = len(data.result.runs)
        self.status.setText(
            f"{runs} runs in {len(tables)} tracks, {data.result.attempts:,} attempts re-derived "
            "with the protocol."
        )
        self._set_enabled(True)
        self.loaded.emit()

    def _add_track(self, track: str, rows: list[ScoreRow], consistency_facet: str) -> None:
        from ai4hse_desk.gui.views.scores_track import TrackPage
        from ai4hse_desk.scores import track_title

        page = TrackPage(track, rows, consistency_facet)
        page.filter_requested.connect(self.filter_requested)
        self.pages[track] = page
        self.models[track], self.table_views[track] = page.model, page.table
        self.plots[track] = page.plots
        self.tabs.addTab(page, track_title(track))

    # -- reading -------------------------------------------------------------------

    def query_for(self, plot_name: str, index: int) -> AttemptQuery:
        """The attempts behind bar/point ``index`` of ``"<track>/<plot>"``."""
        track, _, name = plot_name.partition("/")
        return self.plots[track].query_for(name, index)

    def set_excluded_questions(
        self, ids: set[str], reason: str, *, corrected: Mapping[str, Sequence[bool]] | None = None
    ) -> None:
        """Explore the scores without ``ids`` and with the ``corrected`` keys (the review's
        decisions); called before the scores are shown, as soon as they are there."""
        self._exclusion = (set(ids), reason, dict(corrected or {}))
        if self.data is not None:
            self.sensitivity.set_excluded_questions(set(ids), reason, corrected=corrected)
            self.tabs.setCurrentWidget(self.sensitivity)

    def current_track(self) -> str | None:
        """The track whose tab is shown, if a track tab is."""
        return None if (page := self._track_page()) is None else page.track

    def copy_exact_value(self) -> None:
        """Copy the exact value of the current cell of the shown table."""
        if (page := self._track_page()) is not None:
            page.copy_exact_value()

    def _track_page(self) -> TrackPage | None:
        widget = self.tabs.currentWidget()
        return next((page for page in self.pages.values() if page is widget), None)


__all__ = ["ScoresView"]
