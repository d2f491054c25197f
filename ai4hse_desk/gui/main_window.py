"""The review window: filters, the attempt list, and the selected attempt side by side."""

from __future__ import annotations

from PySide6.QtCore import QByteArray, Qt, QUrl, Signal
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDockWidget,
    QLabel,
    QMainWindow,
    QProgressBar,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk import AUDIT_SCHEMA_VERSION, __version__
from ai4hse_desk.display.status_style import status_label
from ai4hse_desk.gui.attempt_table_model import AttemptTableModel
from ai4hse_desk.gui.compare_grid import CompareGrid
from ai4hse_desk.gui.filter_panel import FilterPanel
from ai4hse_desk.gui.flags_panel import FlagsPanel
from ai4hse_desk.gui.index_loader import IndexLoader
from ai4hse_desk.gui.keyaudit_view import KeyAuditView
from ai4hse_desk.gui.notes_controller import NotesController
from ai4hse_desk.gui.plain_text import Icon, menu_text, plain_message
from ai4hse_desk.gui.qt_guard import guarded
from ai4hse_desk.gui.question_panel import QuestionPanel
from ai4hse_desk.gui.response_view import ResponseView
from ai4hse_desk.gui.scores_view import ScoresView
from ai4hse_desk.gui.search_bar import SearchBar
from ai4hse_desk.gui.settings import app_settings, recent_files
from ai4hse_desk.gui.status_counts import StatusCounter
from ai4hse_desk.gui.verdict_panel import VerdictPanel
from ai4hse_desk.gui.window_navigation import TAB_ATTEMPT, TAB_COMPARE, NavigationMixin
from ai4hse_desk.gui.window_opening import APP_TITLE, OpeningMixin
from ai4hse_desk.gui.window_views import (
    VIEW_ATTEMPTS,
    VIEW_KEYAUDIT,
    VIEW_SCORES,
    ViewsMixin,
)
from ai4hse_desk.index import PARSE_ERROR_STATUSES, AttemptQuery
from ai4hse_desk.index.session import AuditSession
from ai4hse_desk.protocol.outcome import Status

__all__ = [
    "TAB_ATTEMPT",
    "TAB_COMPARE",
    "VIEW_ATTEMPTS",
    "VIEW_KEYAUDIT",
    "VIEW_SCORES",
    "MainWindow",
]


class MainWindow(OpeningMixin, NavigationMixin, ViewsMixin, QMainWindow):
    """The desk's main window."""

    attempt_shown = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = app_settings()
        self.session: AuditSession | None = None
        self.current_attempt: int | None = None
        self.current_question: str | None = None  # the question of current_attempt
        self.setWindowTitle(APP_TITLE)
        self.setAcceptDrops(True)
        self.loader = IndexLoader(self)
        self.loader.index_ready.connect(self._index_ready)
        self.loader.fts_state.connect(self._fts_state)
        self.loader.failed.connect(self._index_failed)
        self.loader.index_progress.connect(self._index_progress)
        self._build_widgets()
        self._build_menus()
        # Reviewer notes: the flags panel's controller, the notes list dock, the Notes menu.
        self.notes = NotesController(self)
        self._restore_layout()
        self._show_empty_state()

    # -- construction -----------------------------------------------------------

    def _build_widgets(self) -> None:
        self.model = AttemptTableModel(self)
        self.table = QTableView()
        self.table.setAccessibleName("Attempts")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        # No sort indicator at first: attempts in attempt_id order until a header is clicked.
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.table.setSortingEnabled(True)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setAlternatingRowColors(True)
        # Long ids (imported sets: "court_case/rule_recall/012", dated run ids) keep both ends.
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self.table.selectionModel().currentRowChanged.connect(self._row_changed)
        self.model.modelReset.connect(self._model_reset)
        self.model.read_failed.connect(self.unreadable)

        self.search = SearchBar()
        self.search.text_changed.connect(self._search_changed)
        self.search.cancel_requested.connect(self.loader.cancel_fts)
        self.status_counter = StatusCounter(self)
        self.status_counter.counted.connect(self._statuses_counted)
        self._counts_head = ""
        self.counts = QLabel()
        self.counts.setTextFormat(Qt.TextFormat.PlainText)
        self.counts.setAccessibleName("Counts")
        self.counts.setWordWrap(True)
        top = QWidget()
        top_layout = QVBoxLayout(top)
        top_layout.setContentsMargins(4, 4, 4, 0)
        top_layout.addWidget(self.search)
        top_layout.addWidget(self.table, 1)
        top_layout.addWidget(self.counts)

        self.question_panel = QuestionPanel()
        self.response_view = ResponseView()
        self.verdict_panel = VerdictPanel()
        # Reviewer notes: the flags panel sits under the question, in its own column.
        self.flags_panel = FlagsPanel()
        self.question_column = QSplitter(Qt.Orientation.Vertical)
        self.question_column.setObjectName("question_column")
        self.question_column.addWidget(self.question_panel)
        self.question_column.addWidget(self.flags_panel)
        self.question_column.setStretchFactor(0, 3)
        self.question_column.setStretchFactor(1, 2)
        self.detail_splitter = QSplitter(Qt.Orientation.Horizontal)
        self.detail_splitter.setObjectName("detail_splitter")
        for widget in (self.question_column, self.response_view, self.verdict_panel):
            self.detail_splitter.addWidget(widget)
        self.detail_splitter.setSizes([520, 560, 520])
        self.compare = CompareGrid()
        self.compare.attempt_activated.connect(self.show_attempt)
        self.tabs = QTabWidget()
        self.tabs.setAccessibleName("Attempt detail and compare")
        self.tabs.addTab(self.detail_splitter, "Attempt (side by side)")
        self.tabs.addTab(self.compare, "Compare runs × repetitions")
        self.tabs.currentChanged.connect(lambda _i: self._refresh_compare())

        self.main_splitter = QSplitter(Qt.Orientation.Vertical)
        self.main_splitter.setObjectName("main_splitter")
        self.main_splitter.addWidget(top)
        self.main_splitter.addWidget(self.tabs)
        self.main_splitter.setSizes([380, 620])
        # -- scores dashboard (issue 5): a second top-level view, computed when first shown
        self.scores = ScoresView()
        self.scores.filter_requested.connect(self.show_attempts_for)
        self.views = QTabWidget()
        self.views.setAccessibleName("Views")
        self.views.addTab(self.main_splitter, "Attempts")
        self.views.addTab(self.scores, "Scores")
        # -- key audit (issue 8): a third view, computed when first shown
        self.keyaudit = KeyAuditView()
        self.keyaudit.open_question.connect(self.open_question_compare)
        self.keyaudit.flag_requested.connect(self.flag_key_from_audit)
        self.views.addTab(self.keyaudit, "Key audit")
        self._keyaudit_loaded_for: object = None
        self.views.currentChanged.connect(self._view_changed)
        self._scores_loaded_for: object = None
        self.setCentralWidget(self.views)

        self.filters = FilterPanel()
        self.filters.query_changed.connect(self._query_changed)
        self.filters_dock = QDockWidget("Filters", self)
        self.filters_dock.setObjectName("filters_dock")
        self.filters_dock.setWidget(self.filters)
        self.filters_dock.setFeatures(
            QDockWidget.DockWidgetFeature.DockWidgetMovable
            | QDockWidget.DockWidgetFeature.DockWidgetClosable
        )
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.filters_dock)
        self.index_bar = QProgressBar()
        self.index_bar.setMaximumWidth(220)
        self.index_bar.setFormat("re-deriving verdicts %p%")
        self.index_bar.setAccessibleName("Review index progress")
        self.index_bar.hide()
        self.statusBar().addPermanentWidget(self.index_bar)
        self.statusBar().showMessage("Open an audit database (File ▸ Open, or drop a file here).")

    def _action(
        self, menu_name: str, text: str, slot: object, *shortcuts: str | QKeySequence
    ) -> QAction:
        menu = self._menus[menu_name]
        action = QAction(text, self)
        if shortcuts:
            action.setShortcuts([QKeySequence(s) for s in shortcuts])
        action.triggered.connect(slot)
        menu.addAction(action)
        self.addAction(action)
        return action

    def _build_menus(self) -> None:
        bar = self.menuBar()
        self._menus = {name: bar.addMenu(name) for name in ("&File", "&Navigate", "&View", "&Help")}
        self.open_action = self._action(
            "&File", "&Open audit database…", self.choose_file, QKeySequence.StandardKey.Open
        )
        self.recent_menu = self._menus["&File"].addMenu("Open &recent")
        self._menus["&File"].addSeparator()
        self._action("&File", "&Quit", self.close, QKeySequence.StandardKey.Quit)
        nav = "&Navigate"
        self._action(nav, "Next attempt", lambda: self.move_row(1), "J", "Down")
        self._action(nav, "Previous attempt", lambda: self.move_row(-1), "K", "Up")
        self._action(nav, "Next question", lambda: self.move_question(1), "N")
        self._action(nav, "Previous question", lambda: self.move_question(-1), "P")
        self._action(nav, "Next parse error", self.next_parse_error, "E")
        self._menus[nav].addSeparator()
        self._action(nav, "Search", self.search.focus, "/", QKeySequence.StandardKey.Find)
        self._action(nav, "Clear search and filters", self.clear_all, "Esc")
        view = "&View"
        self._action(view, "Show all parse errors", self.filters.show_parse_errors, "Ctrl+E")
        self._action(view, "Attempt side by side", self.show_attempt_tab, "Ctrl+1")
        self._action(view, "Compare runs × repetitions", self.show_compare, "Ctrl+2")
        self._action(view, "Scores dashboard", self.show_scores, "Ctrl+3")
        self._action(view, "Key audit", self.show_keyaudit, "Ctrl+4")
        self._menus[view].addAction(self.filters_dock.toggleViewAction())
        scores_menu = self._menus["&View"].addMenu("Scores &exports")
        for key in ("csv", "xlsx", "png", "svg", "html", "private", "recompute"):
            scores_menu.addAction(self.scores.action_map[key])
        self._action("&Help", "&About AI4HSE Desk", self.show_about)
        self._fill_recent_menu()

    def _fill_recent_menu(self) -> None:
        self.recent_menu.clear()
        files = recent_files(self.settings)
        for path in files:
            action = self.recent_menu.addAction(menu_text(path))
            action.triggered.connect(lambda _checked=False, p=path: self.open_path(p))
        self.recent_menu.setEnabled(bool(files))

    # -- persistence ------------------------------------------------------------

    def _restore_layout(self) -> None:
        for key, splitter in (
            ("main_splitter", self.main_splitter),
            ("detail_splitter", self.detail_splitter),
            ("question_column", self.question_column),
        ):
            state = self.settings.value(key)
            if isinstance(state, QByteArray):
                splitter.restoreState(state)
        header = self.settings.value("attempt_columns")
        self._columns_restored = isinstance(header, QByteArray)
        if isinstance(header, QByteArray):
            self.table.horizontalHeader().restoreState(header)
        geometry = self.settings.value("geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)

    def save_layout(self) -> None:
        """Persist splitter sizes, column widths and the window geometry."""
        self.settings.setValue("main_splitter", self.main_splitter.saveState())
        self.settings.setValue("detail_splitter", self.detail_splitter.saveState())
        self.settings.setValue("question_column", self.question_column.saveState())
        self.settings.setValue("attempt_columns", self.table.horizontalHeader().saveState())
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self._shut_down()
        super().closeEvent(event)

    @guarded(None, "The window did not close cleanly")
    def _shut_down(self) -> None:
        """Save the layout, stop every background task, close the store and the file."""
        self.save_layout()
        self.scores.shutdown()
        self.status_counter.shutdown()
        self.keyaudit.cancel()
        self.loader.shutdown()
        self.notes.close()
        if self.session is not None:
            session, self.session = self.session, None
            session.close()

    def _query_changed(self, query: AttemptQuery) -> None:
        self.model.set_query(query)

    def _search_changed(self, text: str) -> None:
        self.filters.set_text(text)

    def clear_all(self) -> None:
        """Esc: clear the search box and every filter."""
        self.search.edit.blockSignals(True)
        self.search.edit.clear()
        self.search.edit.blockSignals(False)
        self.filters.set_text(None)
        self.filters.clear()

    def _model_reset(self) -> None:
        self._update_counts()
        if self.current_attempt is not None:
            row = self.model.row_of(self.current_attempt, fetch_limit=0)
            if row is not None:
                self.table.selectRow(row)
                return
        if self.model.rowCount():
            self.select_row(0)
        else:
            self.current_attempt = None

    def _update_counts(self) -> None:
        index = self.model.review_index
        if index is None:
            self.counts.setText("")
            return
        if index.total() == 0:
            self.counts.setText(
                "This database holds questions but no attempts yet "
                "(add a run with: ai4hse-desk import responses AUDIT_DB …)."
            )
            return
        query = self.model.query
        parts = [f"Showing {self.model.matching:,} of {index.total():,} attempts"]
        if index.search_mode(query) == "like":
            parts.append("plain search (slower)")
        self._counts_head = " · ".join(parts)
        self.counts.setText(f"{self._counts_head} · counting statuses…")
        self.status_counter.request(index, query)

    def _statuses_counted(self, query: AttemptQuery, by_status: dict[str, int]) -> None:
        if query != self.model.query:
            return
        parse_errors = sum(by_status.get(s, 0) for s in PARSE_ERROR_STATUSES)
        parts = [self._counts_head, f"parse errors {parse_errors:,}"]
        parts += [
            f"{status_label(Status(name))} {count:,}" for name, count in by_status.items() if count
        ]
        self.counts.setText(" · ".join(parts))

    # -- selection and navigation ----------------------------------------------

    def _show_empty_state(self) -> None:
        self.question_panel.clear()
        self.verdict_panel.clear()
        self.response_view.clear()
        self.compare.clear()
        self.counts.setText("")

    # -- drag and drop ------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        urls = event.mimeData().urls()
        if len(urls) == 1 and urls[0].isLocalFile():
            event.acceptProposedAction()

    @guarded(None)
    def dropEvent(self, event: QDropEvent) -> None:
        urls: list[QUrl] = event.mimeData().urls()
        if urls and urls[0].isLocalFile():
            event.acceptProposedAction()
            self.open_path(urls[0].toLocalFile())

    # -- help ---------------------------------------------------------------------

    def show_about(self) -> None:
        """Help ▸ About."""
        import PySide6
        from PySide6.QtCore import qVersion

        plain_message(
            self,
            Icon.Information,
            "About AI4HSE Desk",
            f"AI4HSE Desk {__version__}\n"
            f"Reads AI4HSE audit databases, schema version {AUDIT_SCHEMA_VERSION}, read-only.\n"
            f"Qt {qVersion()}, PySide6 {PySide6.__version__}\n"
            "Licence: MIT",
        )
