"""The review window: it builds the views, the controllers and the menus, and wires them.

Nothing here computes or reads a file: the controllers do, and talk through signals
(:mod:`ai4hse_desk.gui.controllers`); the actions are in :mod:`ai4hse_desk.gui.window_actions`;
what the reviewer may see is the :class:`~.controllers.sight.Sight`'s to say.

The window is built in two parts: what the attempt list needs (the list, its search bar and
counts, the filters dock, the status bar, the menus, and the controllers that open a file and
keep the list on its query), then the rest (:meth:`MainWindow.build_rest`). A window made for
a start (``rest_after_first_rows=True``) draws its first rows before it builds the rest
(:mod:`.controllers.first_rows`), and hands the rest what the first part already holds."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QByteArray, Qt, Signal
from PySide6.QtWidgets import QMainWindow, QTabWidget, QWidget

from ai4hse_desk.gui import window_actions as menus
from ai4hse_desk.gui.actions import ActionRegistry
from ai4hse_desk.gui.controllers.attempt_list import AttemptList
from ai4hse_desk.gui.controllers.first_rows import FirstRows
from ai4hse_desk.gui.controllers.opening import APP_TITLE, EMPTY_MESSAGE, OpeningController
from ai4hse_desk.gui.controllers.sight import Sight
from ai4hse_desk.gui.controllers.sight_wiring import sight_connections
from ai4hse_desk.gui.dialogs.about import show_about
from ai4hse_desk.gui.models.attempt_table import AttemptTableModel
from ai4hse_desk.gui.qt_guard import guarded
from ai4hse_desk.gui.review.page import ReviewPage
from ai4hse_desk.gui.settings import app_settings
from ai4hse_desk.gui.views.attempts import AttemptsView
from ai4hse_desk.gui.views.filters_dock import FiltersDock
from ai4hse_desk.gui.widgets.file_drop import FileDrop
from ai4hse_desk.gui.widgets.index_bar import IndexBar
from ai4hse_desk.gui.widgets.plain_status import PlainStatusBar
from ai4hse_desk.gui.widgets.recent_menu import fill_recent_menu
from ai4hse_desk.gui.workers.runner import TaskRunner

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from pathlib import Path

    from PySide6.QtCore import SignalInstance
    from PySide6.QtGui import QCloseEvent

    from ai4hse_desk.gui.review.controller import ReviewController
    from ai4hse_desk.gui.review.view import ReviewView
    from ai4hse_desk.index import ReviewIndex

    Connections = Iterable[tuple[SignalInstance, Iterable[Callable[..., object]]]]

#: The pages of the window, in order (Scores and Key audit: stand-ins until the rest is built).
PAGES = ("Attempts", "Scores", "Key audit", "Review")


class MainWindow(QMainWindow):
    """The desk's main window: the attempts, scores, key-audit and review pages, two docks.

    Signals:
        rest_built: the rest of the window has been built (:meth:`build_rest`).
    """

    rest_built = Signal()

    def __init__(self, parent: QWidget | None = None, *, rest_after_first_rows: bool = False,
                 index_workers: int | None = None) -> None:  # fmt: skip
        """Build the window, the list's part first (``rest_after_first_rows``: the rest
        once the first rows of the file opened next are drawn — a start; else at once);
        ``index_workers``: processes that build a review index (None: by the file's size)."""
        super().__init__(parent)
        self.settings = app_settings()
        self.tasks = TaskRunner(self)
        self.setWindowTitle(APP_TITLE)
        self.is_built = False
        self._build_list_part(index_workers)
        self._first_rows: FirstRows | None = None
        if rest_after_first_rows:
            self._first_rows = FirstRows(self, self.opening, self.tasks, self.build_rest)
        else:
            self.build_rest()

    # -- the list's part ----------------------------------------------------------------

    def _build_list_part(self, index_workers: int | None) -> None:
        self.sight = Sight(self)  # what the person at the desk may see: every view asks it
        self.model = AttemptTableModel(self, self.sight)
        self.attempts = AttemptsView(self.model)
        self.review_page = ReviewPage()  # the view itself is made on first show
        self.views = QTabWidget()
        self.views.setAccessibleName("Views")
        pages: dict[str, QWidget] = {"Attempts": self.attempts, "Review": self.review_page}
        for title in PAGES:
            self.views.addTab(pages.get(title) or QWidget(), title)
        self.setCentralWidget(self.views)
        self.filters_dock = FiltersDock(self)  # its panel comes with the rest
        self.addDockWidget(Qt.DockWidgetArea.LeftDockWidgetArea, self.filters_dock)
        self.index_bar = IndexBar()
        self.setStatusBar(PlainStatusBar(EMPTY_MESSAGE, self.index_bar))  # messages made visible
        self.menu_actions = ActionRegistry(self, menus.MENUS)  # their entries come later
        a, tasks = self.attempts, self.tasks
        self.opening = o = OpeningController(self.settings, tasks, self, index_workers)
        self.attempt_list = lst = AttemptList(None, a.search, self.model, tasks, self)
        status = self.statusBar().showMessage
        connections = (
            (o.session_changed, (self.sight.set_session, lst.set_session,
                                 lambda _s: self.index_bar.hide())),
            (o.choices_changed, (lst.set_choices,)),
            (o.index_ready, (lst.set_index, self._index_ready)),
            (o.reading_progress, (self.index_bar.show_reading,)),
            (o.index_progress, (self.index_bar.show_progress,)),
            (o.fts_state, (a.search.set_fts_state, self.index_bar.set_fts_state)),
            (self.index_bar.cancel_requested, (o.cancel_opening,)),
            (self.index_bar.restart_fts_requested, (o.loader.restart_fts,)),
            (o.title_changed, (self.setWindowTitle,)),
            (o.recent_changed, (self._fill_recent,)),
            (self.model.read_failed, (o.unreadable,)),
            (lst.counts_changed, (a.counts.setText,)),
            (a.search.cancel_requested, (o.loader.cancel_fts,)),
            (o.message, (status,)),
            (lst.message, (status,)),
        )  # fmt: skip
        _connect(connections)
        self.attempts.restore_layout(self.settings)
        if isinstance(geometry := self.settings.value("geometry"), QByteArray):
            self.restoreGeometry(geometry)
        FileDrop(self, self.opening.open_path)

    def _index_ready(self, _index: object) -> None:
        self.index_bar.hide()
        self.attempts.fit_columns()  # reads the first rows, before the notes are looked for
        if self.is_built:
            self.notes.index_ready()

    def _fill_recent(self, files: list[str]) -> None:
        if self.is_built:  # File ▸ Open recent is made with the rest
            fill_recent_menu(self.menu_actions.menu(menus.RECENT), files, self.opening.open_path)

    def list_settled(self) -> None:
        """No rows are coming (no file, or it failed): build the rest after the next frame."""
        if self._first_rows is not None:
            self._first_rows.settle()

    # -- the rest -------------------------------------------------------------------------

    def build_rest(self) -> None:
        """Build the rest of the window (once), handing it the file already open."""
        if self.is_built:
            return
        from ai4hse_desk.gui.views.keyaudit import KeyAuditView
        from ai4hse_desk.gui.views.notes_list import NotesDock
        from ai4hse_desk.gui.views.scores import ScoresView

        self.filters = self.filters_dock.make_panel()
        self.attempt_list.attach_filters(self.filters)
        self.attempts.build_detail(self.settings)
        self.scores = ScoresView(self.tasks, self.sight)
        self.keyaudit = KeyAuditView(self.tasks)
        shown = self.views.currentIndex()  # (a page tab may have been clicked already)
        self.views.setCurrentIndex(0)  # (removing the page shown would show its neighbour)
        for page, widget in ((1, self.scores), (2, self.keyaudit)):
            stand_in = self.views.widget(page)
            self.views.removeTab(page)
            self.views.insertTab(page, widget, PAGES[page])
            if stand_in is not None:
                stand_in.deleteLater()
        self.views.setCurrentIndex(shown)
        self.notes_dock = NotesDock(self)
        self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.notes_dock)
        self.notes_dock.hide()
        self._build_controllers()
        self._wire()
        self.menu_actions.register(menus.window_actions(self._parts()))
        menus.keep_in_step(self.menu_actions, self.attempt_list, self.notes)
        self.is_built = True
        self._fill_recent(self.opening.recent_files())
        self.notes.set_session(None)  # the notes panel says what it waits for
        self._hand_over(self.opening.session)
        self.rest_built.emit()

    def _build_controllers(self) -> None:
        from ai4hse_desk.gui.controllers.compare import CompareController
        from ai4hse_desk.gui.controllers.navigation import Navigator
        from ai4hse_desk.gui.controllers.notes import NotesController
        from ai4hse_desk.gui.controllers.notes_changes import NoteChanges
        from ai4hse_desk.gui.controllers.notes_export import NotesExportController
        from ai4hse_desk.gui.controllers.reviewer import ReviewerIdentity
        from ai4hse_desk.gui.controllers.selection import AttemptSelection
        from ai4hse_desk.gui.controllers.views import ViewSwitcher
        from ai4hse_desk.gui.review.blind_mode import LeaveBlind
        from ai4hse_desk.gui.review.extras import ReviewExtras
        from ai4hse_desk.gui.review.report_action import ReviewReportController

        a, tasks = self.attempts, self.tasks
        self.selection = AttemptSelection(self)
        self.navigator = Navigator(a.table, self.model, self.selection, self.attempt_list, self)
        self.compare = CompareController(a.compare, a.tabs, self, tasks=tasks)
        self.switcher = ViewSwitcher(
            self.views, a.tabs, self.scores, self.keyaudit, self.navigator, self.attempt_list,
            tasks, filters_dock=self.filters_dock,
        )  # fmt: skip
        identity = ReviewerIdentity(self.settings, self)
        people, name = (identity, self.sight), lambda: identity.name
        self.notes = NotesController(a.flags_panel, self.notes_dock, tasks, self, people)
        self.changes = NoteChanges(self.notes, a.flags_panel, identity, tasks, self)
        key_audit = lambda: self.keyaudit.result  # noqa: E731 - the Key audit page's result
        self.review_page.attach(self.notes, identity, tasks, key_audit, self.changes.session,
                                self.sight)  # fmt: skip
        self.review_report = ReviewReportController(self.notes, tasks, self, self, name, key_audit)
        self.notes_export = NotesExportController(self.notes, tasks, self, self, name)
        self.leave_blind = LeaveBlind(self.notes, identity, tasks, self, self)
        pages = (self.review_page, self.keyaudit, self.switcher)  # Plan…, Adjudicate…, live
        self.extras = ReviewExtras(self.notes, identity, tasks, pages, self)

    def _wire(self) -> None:
        a, o, s, lst, nav, notes = (self.attempts, self.opening, self.selection,
                                    self.attempt_list, self.navigator, self.notes)  # fmt: skip
        status = self.statusBar().showMessage
        connections: Connections = (
            (o.session_changed, self._session_slots()),
            (o.index_ready, self._index_slots()),
            (s.changed, (self.sight.show_detail,)),  # the panels get it if the policy lets them
            (s.cleared, (self.sight.clear_detail,)),
            (s.cleared, (a.clear_detail, lambda: notes.show_detail(None))),
            (s.unreadable, (o.unreadable,)),
            (a.compare.attempt_activated, (nav.show_attempt,)),
            (a.search.highlight_changed, (a.response_view.set_search_terms,)),
            (notes.flags_changed, (self.model.set_flagged, self.keyaudit.model.set_flagged,
                                   lst.set_flagged)),
            (a.flags_panel.flags_shown, (a.question_panel.set_option_flags,)),
            (self.notes_dock.list.question_activated, (nav.jump_to_question,)),
            (self.notes_dock.list.attempt_activated, (nav.jump_to_attempt,)),
            (self.switcher.flag_requested, (self.changes.flag_question,)),
            (self.changes.explore_requested, (self.switcher.explore_without,)),
            *((src.message, (status,)) for src in (nav, notes, self.changes, self.review_page,
              self.review_report, self.notes_export, self.leave_blind, self.extras)),
        )  # fmt: skip
        _connect(connections)
        _connect(sight_connections(self.sight, a, self.compare, notes, (self.keyaudit,
                 self.notes_dock.list, self.review_page, self.switcher), self.changes))  # fmt: skip

    def _session_slots(self) -> tuple[Callable[[Any], object], ...]:
        """What the rest does when another file is open (or none), in order."""
        return (self.compare.set_session, self.selection.set_session, self.navigator.set_session,
                self.switcher.set_session, self.notes.set_session, self.review_page.set_session,
                self.extras.set_session)  # fmt: skip

    def _index_slots(self) -> tuple[Callable[[Any], object], ...]:
        """What the rest does when the open file's review index is ready, in order."""
        return (self.compare.set_index, self.switcher.index_ready, self.review_page.set_index,
                self.extras.index_ready)  # fmt: skip

    def _hand_over(self, session: object) -> None:
        """Give the rest, built after the list's part, what that part holds (the open file,
        its review index, the list's first row selected), as if it had been there then."""
        if session is None:
            return
        for slot in self._session_slots():
            slot(session)
        index: ReviewIndex | None = self.model.review_index
        if index is None:  # still being prepared: index_ready reaches the rest itself
            return
        self.navigator.follow_list()  # the first row, as after the list's reset
        for slot in self._index_slots():
            slot(index)
        self.notes.index_ready()

    def _parts(self) -> menus.WindowParts:
        return menus.WindowParts(
            self.opening, self.navigator, self.attempt_list, self.switcher, self.changes,
            self.attempts.search, self.filters, self.filters_dock.toggleViewAction(),
            self.notes_dock.toggleViewAction(), self.scores.action_map, self.close,
            lambda: show_about(self), self.review_report.ask, self.notes_export.ask,
            self.leave_blind.ask, self.extras.plan.ask, self.extras.adjudicate,
        )  # fmt: skip

    # -- the window -----------------------------------------------------------------------

    @property
    def review(self) -> ReviewView:  # the Review view, made on first use
        return self.review_page.view()

    @property
    def reviewing(self) -> ReviewController:  # its controller, made with it
        return self.review_page.controller()

    def open_path(self, path: str | Path, *, wait: bool = False) -> bool:
        """Open an audit database (see :meth:`OpeningController.open_path`)."""
        return self.opening.open_path(path, wait=wait)

    def save_layout(self) -> None:
        """Persist splitter sizes, column widths and the window geometry."""
        self.attempts.save_layout(self.settings)
        self.settings.setValue("geometry", self.saveGeometry())
        self.settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self._shut_down()
        super().closeEvent(event)

    @guarded(None, "The window did not close cleanly")
    def _shut_down(self) -> None:
        """Save the layout, end every background task, close the store and the file."""
        if self._first_rows is not None:
            self._first_rows.cancel()  # a window closing builds nothing more
        self.save_layout()
        self.tasks.shutdown()
        if self.is_built:
            self.extras.close()
            self.notes.close()
        self.opening.close()


def _connect(connections: Connections) -> None:
    for signal, slots in connections:
        for slot in slots:
            signal.connect(slot)


__all__ = ["PAGES", "MainWindow"]
