"""The glue between the review window and the reviewer notes store.

* **Opening.** The notes of an audit file live in the default store
  (``AUDIT.review.sqlite`` beside it, or the user data folder; see
  :mod:`ai4hse_desk.notes.location`). Once the review index is ready (so the
  audit fingerprint is known), an existing store is opened; a file with no
  notes yet gets its store at the first flag or note, so merely reading an
  audit leaves nothing behind. A store first used with another audit file opens
  with a warning (status bar and a one-line message box). A store that cannot
  be opened or written leaves the window working read-only, with the reason.
* **Marks.** Only *open* flags mark a question: the attempt list's Flag column
  (⚑) and *View ▸ Flagged questions only* follow the open flags and are
  brought up to date after every change; a resolved or withdrawn flag stays
  listed (with its state) in the flags panel and the notes list.
* **Changes** (flags, attempt notes, undo, history, the reviewer's name) are
  carried out by :class:`~.notes_actions.NotesActionsMixin`, which this
  controller inherits: each one a revision in the store, under the reviewer's
  name. The audit database is never written, and no score depends on a note
  (protocol §7).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QMenu, QWidget

from ai4hse_desk.errors import first_line
from ai4hse_desk.gui.notes_actions import STORE_ERRORS, NotesActionsMixin
from ai4hse_desk.gui.notes_list import NotesDock
from ai4hse_desk.gui.plain_text import Icon, plain_message
from ai4hse_desk.gui.reviewer_identity import ReviewerIdentity
from ai4hse_desk.index import AttemptQuery, ReviewIndex
from ai4hse_desk.index.session import AuditSession
from ai4hse_desk.notes import AttemptNote, Flag, NotesStore, ReviewError, resolve_location
from ai4hse_desk.verdicts.attempt_detail import display_text

if TYPE_CHECKING:
    from ai4hse_desk.gui.main_window import MainWindow

MENU = "&Notes"


def show_message(
    parent: QWidget | None, title: str, text: str, *, warning: bool = True, wait: bool = True
) -> None:
    """A message in plain text (tests replace this function).

    Args:
        wait: block until it is closed (answers to the reviewer's own actions);
            ``False`` for notices on opening, which must not stop the window (or
            a headless screenshot) from carrying on.
    """
    plain_message(parent, Icon.Warning if warning else Icon.Information, title, text, wait=wait)


class NotesController(NotesActionsMixin, QObject):
    """Opens the notes store of the window's audit file and carries out the panel's requests."""

    changed = Signal()  # after every saved change

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.panel = window.flags_panel
        self.identity = ReviewerIdentity(window.settings)
        self.store: NotesStore | None = None
        self._session: AuditSession | None = None
        self._store_path: Path | None = None
        self._prepared = False
        self._unavailable: str | None = None
        self._flagged: frozenset[str] = frozenset()
        self._question_id: str | None = None
        self._attempt_id: int | None = None
        # Fit the question above the flags until the reviewer arranges the column.
        self._fit_question = window.settings.value("question_column") is None
        window.question_column.splitterMoved.connect(self._column_arranged)
        self.dock = NotesDock(window)
        window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, self.dock)
        self.dock.hide()
        self._build_menu()
        self._connect()
        self._show_store_line()

    # -- construction -------------------------------------------------------------

    def _build_menu(self) -> None:
        window = self.window
        menu = QMenu(MENU, window)
        window.menuBar().insertMenu(window._menus["&Help"].menuAction(), menu)
        window._menus[MENU] = menu
        self.add_flag_action = window._action(
            MENU, "Add &flag to this question…", self.add_flag, "Ctrl+Shift+F"
        )
        self.add_note_action = window._action(
            MENU, "Add &note on this attempt…", self.add_note, "Ctrl+Shift+N"
        )
        menu.addSeparator()
        self.undo_action = window._action(MENU, "&Undo last note change", self.undo, "Ctrl+Z")
        menu.addSeparator()
        self.list_action = self.dock.toggleViewAction()
        self.list_action.setText("Show notes &list")
        self.list_action.setShortcut("Ctrl+Shift+L")
        menu.addAction(self.list_action)
        window.addAction(self.list_action)
        self.reviewer_action = window._action(MENU, "&Reviewer name…", self.change_reviewer)
        menu.addSeparator()
        self.explore_action = window._action(
            MENU, "Explore scores without key-flagged questions (not official)…", self.explore
        )
        self.explore_action.setToolTip(
            "Scores ▸ Sensitivity: the metrics without the questions that have an open "
            "key_incorrect flag, beside the official ones (which never change)"
        )
        self.flagged_only_action = window._action(
            "&View", "Flagged questions only", self.set_flagged_only, "Ctrl+Shift+G"
        )
        self.flagged_only_action.setCheckable(True)
        self.flagged_only_action.setToolTip("Only attempts of questions with an open flag")

    def _connect(self) -> None:
        window, panel = self.window, self.panel
        window.attempt_shown.connect(self._attempt_shown)
        window.loader.index_ready.connect(self._index_ready)
        window.filters.query_changed.connect(self._query_changed)
        panel.add_flag_requested.connect(self.add_flag)
        panel.edit_flag_requested.connect(self.edit_flag)
        panel.flag_state_requested.connect(self.set_flag_state)
        panel.add_note_requested.connect(self.add_note)
        panel.edit_note_requested.connect(self.edit_note)
        panel.note_state_requested.connect(self.set_note_state)
        panel.history_requested.connect(self.show_history)
        self.dock.list.question_activated.connect(self.jump_to_question)
        self.dock.list.attempt_activated.connect(self.jump_to_attempt)

    # -- the store's life -----------------------------------------------------------

    def audit_opened(self, session: AuditSession) -> None:
        """A new audit file is open; its notes follow once the review index is ready."""
        self.close()
        self._session = session
        self._prepared = False
        self._unavailable = None
        self._store_path = None
        self._question_id = self._attempt_id = None
        if self.flagged_only_action.isChecked():
            self.flagged_only_action.setChecked(False)
            self.window.filters.set_flagged_only(None)
        self._refresh_all()

    def _index_ready(self, _index: ReviewIndex) -> None:
        if self._session is not None and self._session is self.window.session:
            self._prepare()

    def _prepare(self) -> None:
        """Find the default store; open it if it exists (else it is made at the first note)."""
        if self._prepared or self._session is None:
            return
        self._prepared = True
        try:
            location = resolve_location(self._session.path, None)
        except ReviewError as exc:
            self._fail(first_line(exc))
            return
        self._store_path = location.path
        if location.path is not None and location.path.exists():
            self._open_store()
        self._refresh_all()

    def _open_store(self) -> NotesStore | None:
        session = self._session
        if session is None:
            return None
        try:
            store = NotesStore.open(session.db)
        except STORE_ERRORS as exc:
            self._fail(first_line(exc))
            return None
        self.store = store
        self.dock.set_store(store)
        if store.warning:
            self.window.statusBar().showMessage(f"Reviewer notes: {store.warning}")
            show_message(self.window, "Reviewer notes", store.warning, warning=False, wait=False)
        return store

    def _fail(self, reason: str) -> None:
        self._unavailable = reason
        self.window.statusBar().showMessage(f"Reviewer notes unavailable: {reason}")
        show_message(
            self.window,
            "Reviewer notes unavailable",
            f"The reviewer notes cannot be opened or saved: {reason}\n"
            "The audit can still be reviewed (read-only); flags and notes cannot be recorded.",
            wait=False,
        )
        self._refresh_all()

    def close(self) -> None:
        """Release the store (the window is closing or another file opens)."""
        if self.store is not None:
            self.store.close()
            self.store = None
        self.dock.set_store(None)

    @property
    def writable(self) -> bool:
        """True when a change can be recorded now."""
        return self._session is not None and self._prepared and self._unavailable is None

    def _tell(self, title: str, text: str) -> None:
        """A message box answering the reviewer's own action (waits until it is closed)."""
        # Looked up in this module at call time: tests replace ``show_message`` here.
        show_message(self.window, title, text)

    # -- keeping the window in step ---------------------------------------------------

    def _attempt_shown(self, attempt_id: int) -> None:
        question_id = self.window.current_question
        if self.window.session is None or question_id is None:
            return
        self._question_id, self._attempt_id = question_id, attempt_id
        self._refresh_panel()
        self._keep_question_readable()

    def _column_arranged(self, _pos: int, _index: int) -> None:
        self._fit_question = False

    def _keep_question_readable(self) -> None:
        """Give the question panel the height its options need, from the flags panel's spare
        (until the reviewer moves the splitter, whose sizes then persist)."""
        column = self.window.question_column
        sizes = column.sizes()
        if not self._fit_question or len(sizes) != 2 or not column.isVisible():
            return
        need = self.window.question_panel.sizeHint().height()
        spare = sizes[1] - self.panel.minimumSizeHint().height()
        give = min(need - sizes[0], spare)
        if give > 0:
            column.setSizes([sizes[0] + give, sizes[1] - give])

    def _refresh_all(self) -> None:
        flagged: frozenset[str] = frozenset()
        if self.store is not None:
            try:
                flagged = frozenset(self.store.flagged_question_ids())
            except STORE_ERRORS as exc:
                self.window.statusBar().showMessage(f"Reviewer notes: {first_line(exc)}")
        self._set_flagged(flagged)
        self._refresh_panel()
        self.dock.refresh()

    def _set_flagged(self, flagged: frozenset[str]) -> None:
        self._flagged = flagged
        self.window.model.set_flagged(flagged)
        self.window.keyaudit.model.set_flagged(flagged)
        if self.flagged_only_action.isChecked():
            wanted = tuple(sorted(flagged))
            if self.window.filters.query().flagged_question_ids != wanted:
                self.window.filters.set_flagged_only(wanted)

    def _refresh_panel(self) -> None:
        flags: list[Flag] = []
        notes: list[AttemptNote] = []
        store = self.store
        try:
            if store is not None and self._question_id is not None:
                flags = store.flags(question_id=self._question_id)
            if store is not None and self._attempt_id is not None:
                notes = store.attempt_notes(attempt_id=self._attempt_id)
        except STORE_ERRORS as exc:
            self.window.statusBar().showMessage(f"Reviewer notes: {first_line(exc)}")
        self.panel.set_content(self._question_id, self._attempt_id, flags, notes)
        self._show_store_line()

    def _show_store_line(self) -> None:
        if self._session is None:
            text = "Open an audit database to see its reviewer notes."
        elif self._unavailable is not None:
            text = f"Reviewer notes unavailable (read-only): {self._unavailable}"
        elif not self._prepared:
            text = "Reviewer notes open once the review index is ready."
        elif self.store is not None:
            text = f"Notes kept in {self.store.location.path or self.store.url}"
        else:
            where = self._store_path or "the notes store"
            text = f"No notes yet; the first flag or note creates {where}"
        writable = self.writable
        self.panel.set_store_line(display_text(text), writable=writable)
        self.add_flag_action.setEnabled(writable and self._question_id is not None)
        self.add_note_action.setEnabled(writable and self._attempt_id is not None)
        self.undo_action.setEnabled(writable and self.store is not None)

    # -- filter and navigation ------------------------------------------------------------

    def set_flagged_only(self, on: bool) -> None:
        """View ▸ Flagged questions only (questions with an open flag)."""
        self.window.filters.set_flagged_only(sorted(self._flagged) if on else None)
        if on and not self._flagged:
            self.window.statusBar().showMessage("No question has an open flag.")

    def _query_changed(self, query: AttemptQuery) -> None:
        on = query.flagged_question_ids is not None
        if self.flagged_only_action.isChecked() != on:
            self.flagged_only_action.setChecked(on)

    def jump_to_question(self, question_id: str) -> None:
        """The first listed attempt of ``question_id`` (filters cleared if they hide it)."""
        found = self._first_attempt(question_id)
        if found is None:
            self.window.clear_all()
            found = self._first_attempt(question_id)
        if found is None:
            self.window.statusBar().showMessage(f"No attempt of {question_id} is listed.")
            return
        self.window.show_attempt(found)

    def _first_attempt(self, question_id: str) -> int | None:
        model = self.window.model
        index = model.review_index
        if index is None:
            return None
        sort, descending = model.sort_order
        query = replace(model.query, question_ids=(question_id,))
        keys = index.page_keys(query, sort, descending, None, 1)
        return keys[0][1] if keys else None

    def jump_to_attempt(self, attempt_id: int) -> None:
        """Show ``attempt_id`` (filters cleared if they hide it)."""
        if self.window.model.row_of(attempt_id, fetch_limit=2000) is None:
            self.window.clear_all()
        self.window.show_attempt(attempt_id)
