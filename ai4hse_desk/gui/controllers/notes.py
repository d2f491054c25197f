"""The reviewer notes of the open audit file: where they are kept, and what the window shows.

* **Opening.** The notes of an audit file live in the default store
  (``AUDIT.review.sqlite`` beside it, or the user data folder; see
  :mod:`ai4hse_desk.notes.location`), looked for on the notes lane once the review
  index is ready (the first rows shown) and opened if it exists; a file with no notes
  gets its store at the first flag or note. A store first used with another audit file
  opens with a warning; one that cannot be opened or written leaves the window
  working read-only, with the reason.
* **Off the GUI thread.** Every read and write of the store runs on the ``"notes"``
  lane of the window's task runner (reads as ``QueryOp``, changes as ``CollectionOp``),
  in order; a store busy with another process is retried there.
* **Marks.** Open flags and submitted concerns no decision settled mark a question
  (:attr:`NotesController.flags_changed`, after every read: the attempt list, the key
  audit and the flagged-only filter follow it); a closed flag stays listed as such.
* **What the reviewer may see.** Every read also reads the visibility policy for the
  reviewer's name and hands it to the window's :class:`~.sight.Sight`; the marks, the
  panel and the list hold only what it lets them see.

The changes (flags, attempt notes, history, the reviewer's name) are carried out by
:class:`~.notes_changes.NoteChanges` through :meth:`NotesController.write`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QObject, Signal

from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.plain_text import Icon, plain_message
from ai4hse_desk.gui.workers.notes_store import (
    LANE,
    NotesSnapshot,
    StoreHolder,
    default_store_path,
    read_snapshot,
    sealed_line,
    store_line,
    store_problem,
)
from ai4hse_desk.gui.workers.task import CollectionOp, QueryOp, Task

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from PySide6.QtWidgets import QWidget

    from ai4hse_desk.audit.records import Question
    from ai4hse_desk.gui.controllers.reviewer import ReviewerIdentity
    from ai4hse_desk.gui.controllers.sight import Sight
    from ai4hse_desk.gui.panels.flags import FlagsPanel
    from ai4hse_desk.gui.views.notes_list import NotesDock
    from ai4hse_desk.gui.workers.runner import TaskRunner
    from ai4hse_desk.index.session import AuditSession
    from ai4hse_desk.notes import AttemptNote, Flag
    from ai4hse_desk.notes.store import NotesStore
    from ai4hse_desk.verdicts.attempt_detail import AttemptDetail

T = TypeVar("T")
REFRESH = "notes shown"


def show_message(
    parent: QWidget | None, title: str, text: str, *, warning: bool = True, wait: bool = True
) -> None:
    """A message in plain text (tests replace this function); ``wait``: until it is closed
    (answers to the reviewer's own actions), else a notice that lets the window carry on."""
    plain_message(parent, Icon.Warning if warning else Icon.Information, title, text, wait=wait)


class NotesController(QObject):
    """Opens the notes store of the open audit file and keeps the panel and the list current.

    Signals:
        flags_changed: the questions with an open flag (a ``frozenset``), after every read.
        availability_changed: (a flag can be added, a note can be added, undo can run).
        message: a line for the status bar.
    """

    flags_changed = Signal(object)
    availability_changed = Signal(bool, bool, bool)
    message = Signal(str)

    def __init__(
        self,
        panel: FlagsPanel,
        dock: NotesDock,
        tasks: TaskRunner,
        dialogs: QWidget,
        people: tuple[ReviewerIdentity, Sight],
    ) -> None:
        """``people``: the reviewer's name, and the holder of what they may see."""
        super().__init__(dialogs)
        self._panel, self._dock, self._tasks, self._dialogs = panel, dock, tasks, dialogs
        self._identity, self._sight = people
        self._sealed = ""  # others' notes on the shown question the policy hides
        self._session: AuditSession | None = None
        self._store: StoreHolder | None = None
        self._store_path: Path | None = None
        self._prepared = self._located_yet = False  # looked for; found (or not)
        self._unavailable: str | None = None
        self._detail: AttemptDetail | None = None
        self._flags: dict[str, Flag] = {}  # of the shown question, as last read
        self._notes: dict[str, AttemptNote] = {}  # of the shown attempt, as last read
        self._flagged: frozenset[str] = frozenset()
        self._select: tuple[str, str] | None = None  # ("flag" | "note", id) once listed
        dock.shown.connect(self.refresh)
        self._identity.changed.connect(lambda _name: self.refresh())
        self._show_store_line()

    # -- what the controller knows -----------------------------------------------------------

    @property
    def store(self) -> NotesStore | None:
        """The open store (``None`` before the first note, or when unavailable)."""
        return None if self._store is None else self._store.store

    @property
    def writable(self) -> bool:
        """True when a change can be recorded now."""
        return self._session is not None and self._prepared and self._unavailable is None

    @property
    def unavailable(self) -> str:
        """Why nothing can be recorded now ("" when something can)."""
        if self.writable:
            return ""
        return self._unavailable or "no audit database is ready"

    @property
    def question(self) -> Question | None:
        """The question of the attempt shown."""
        if self._session is None or self._detail is None:
            return None
        return self._session.questions.get(self._detail.question_id)

    @property
    def attempt_id(self) -> int | None:
        """The attempt shown."""
        return None if self._detail is None else self._detail.attempt_id

    def flag(self, flag_id: str) -> Flag | None:
        """A flag of the shown question, as last read."""
        return self._flags.get(flag_id)

    def note(self, note_id: str) -> AttemptNote | None:
        """A note on the shown attempt, as last read."""
        return self._notes.get(note_id)

    def select_when_listed(self, kind: str, item_id: str) -> None:
        """Select a flag (``kind`` "flag") or note ("note") once the panel lists it."""
        self._select = (kind, item_id)

    def tell(self, title: str, text: str) -> None:
        """A message box answering the reviewer's own action (waits until it is closed)."""
        show_message(self._dialogs, title, text)  # looked up here at call time: tests replace it

    # -- the store's life ---------------------------------------------------------------

    def set_session(self, session: AuditSession | None) -> None:
        """Another file is open (or none); its notes follow once its review index is ready."""
        self.close()
        self._session = session
        self._store = None if session is None else StoreHolder(session.db)
        self._prepared = self._located_yet = False
        self._unavailable = self._store_path = self._detail = self._select = None
        self.refresh()

    def index_ready(self) -> None:
        """The index is ready: find the default store on the notes lane; open it if it exists."""
        if (session := self._session) is None or self._prepared:
            return
        self._prepared = True
        query = QueryOp(default_store_path(session.path), lane=LANE, explain=store_problem)
        task = self._tasks.run(query, after_paint=True)  # the first rows are drawn first
        task.succeeded.connect(lambda path: self._located(session, path, None))
        task.failed.connect(lambda reason: self._located(session, None, reason))

    def _located(self, session: AuditSession, path: Path | None, problem: str | None) -> None:
        if session is not self._session:
            return
        self._located_yet = True  # from now on, what is read says what may be seen
        if problem is not None:
            self._fail(problem)
            return
        self._store_path = path
        if path is not None and path.exists():
            self.write(lambda _store: None)  # opening it is the change (migrations)
        else:
            self.refresh()

    def _opened(self, store: NotesStore) -> None:
        if store.warning:
            self.message.emit(f"Reviewer notes: {store.warning}")
            show_message(self._dialogs, "Reviewer notes", store.warning, warning=False, wait=False)

    def _fail(self, reason: str) -> None:
        self._unavailable = reason
        self.message.emit(f"Reviewer notes unavailable: {reason}")
        show_message(
            self._dialogs,
            "Reviewer notes unavailable",
            f"The reviewer notes cannot be opened or saved: {reason}\n"
            "The audit can still be reviewed (read-only); flags and notes cannot be recorded.",
            wait=False,
        )
        self.refresh()

    def close(self) -> None:
        """Release the store (the window is closing or another file opens).

        Called once the notes lane is idle (the window drains it first).
        """
        if self._store is not None:
            self._store.close()

    # -- reading and writing -----------------------------------------------------------------

    def write(self, work: Callable[[NotesStore], T], *, quiet: bool = False) -> Task[T] | None:
        """Run one change on the store (opened, made if need be, first), off the GUI thread;
        ``quiet``: a change no view shows (a showing), so the notes are not read again.

        Returns the task (``succeeded`` carries ``work``'s result; by then the controller
        has taken note), or ``None`` when nothing can be recorded. A store that cannot be
        opened makes the notes unavailable (said once, here), not a failed change."""
        holder, session = self._store, self._session
        if holder is None or session is None or self._unavailable is not None:
            return None
        first = holder.store is None
        task = self._tasks.run(
            CollectionOp(lambda _p: work(holder.opened()), lane=LANE, explain=store_problem)
        )
        # Before the caller's slots (connected later): they see the store as it is now.
        done = lambda _result: self._written(session, holder, first, quiet)  # noqa: E731
        task.succeeded.connect(done)
        task.failed.connect(done)
        return task

    def _written(self, session: AuditSession, holder: StoreHolder, first: bool, q: bool) -> None:
        if session is not self._session:
            return
        if holder.open_error is not None and self._unavailable is None:
            self._fail(holder.open_error)
            return
        if first and holder.store is not None:
            self._opened(holder.store)
        if first or not q:  # (q: quiet)
            self.refresh()

    def refresh(self) -> None:
        """Read the marks, the shown question's flags and attempt's notes (and the list)."""
        self._show_store_line()
        holder, session = self._store, self._session
        question_id = None if self._detail is None else self._detail.question_id
        attempt_id, viewer = self.attempt_id, self._identity.name
        with_list = self._dock.isVisible()
        if (holder is None or holder.store is None) and self._tasks.idle(LANE):
            # No store, and none being opened: there is nothing to read.
            self._show(session, read_snapshot(None, question_id, attempt_id, with_list))
            return

        def read(_progress: object) -> NotesSnapshot:
            store = None if holder is None else holder.store
            return read_snapshot(store, question_id, attempt_id, with_list, viewer)

        for older in self._tasks.pending(LANE):
            if older.name == REFRESH:  # superseded by this one
                older.cancel()
        task = self._tasks.run(QueryOp(read, lane=LANE, name=REFRESH, explain=store_problem))
        task.succeeded.connect(lambda snapshot: self._show(session, snapshot))
        task.failed.connect(lambda reason: self.message.emit(f"Reviewer notes: {reason}"))

    def _show(self, session: AuditSession | None, snapshot: NotesSnapshot) -> None:
        if session is not self._session:
            return
        if self._located_yet:  # (until then the window hides every key: not known yet)
            self._sight.take(snapshot.visibility)  # first: the views follow what it says
        self._flags = {f.flag_id: f for f in snapshot.flags}
        self._notes = {n.note_id: n for n in snapshot.notes}
        question_id = None if self._detail is None else self._detail.question_id
        self._sealed = sealed_line(question_id, snapshot.hidden)
        self._panel.set_content(question_id, self.attempt_id, snapshot.flags, snapshot.notes)
        if self._select is not None:
            (kind, item_id), self._select = self._select, None
            (self._panel.select_flag if kind == "flag" else self._panel.select_note)(item_id)
        if snapshot.every_flag is not None:
            self._dock.list.set_items(
                snapshot.every_flag, snapshot.every_note or [], has_store=self.store is not None,
                concerns=snapshot.every_concern or [], states=snapshot.states,
                hidden=(snapshot.hidden, self._sight.blind_questions()),
            )  # fmt: skip
        if snapshot.flagged != self._flagged:
            self._flagged = snapshot.flagged
            self.flags_changed.emit(snapshot.flagged)
        self._show_store_line()

    # -- keeping the window in step --------------------------------------------------------

    def show_detail(self, detail: AttemptDetail | None) -> None:
        """Show the selected attempt's flags and notes (``None``: nothing to flag or note)."""
        self._detail = detail
        self.refresh()

    def _show_store_line(self) -> None:
        text = store_line(
            self._session is not None, self._unavailable, self._prepared, self.store,
            self._store_path,
        )  # fmt: skip
        writable = self.writable
        text = " · ".join(part for part in (text, self._sealed) if part)
        self._panel.set_store_line(display_text(text), writable=writable)
        shown = writable and self._detail is not None
        self.availability_changed.emit(shown, shown, writable and self.store is not None)


__all__ = ["NotesController", "show_message"]
