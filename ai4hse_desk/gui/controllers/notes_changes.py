"""What the reviewer records in the notes store: flags, attempt notes, undo, history.

Changes are made under the reviewer's name (asked once, see :mod:`.reviewer`), each
one revision in the store, off the GUI thread (through :meth:`~.notes.NotesController.write`).
*Notes ▸ Undo last change* (Ctrl+Z) and *Redo* (Ctrl+Shift+Z) walk the window's changes
of this session, flags, notes and verdicts alike (:mod:`.session_undo`). Problems a
reviewer can fix come back as a message box, never a traceback. The audit database
is never written, and no score depends on a note (protocol §7).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QObject, Signal

from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.errors import first_line
from ai4hse_desk.gui.controllers.session_undo import SessionUndo
from ai4hse_desk.gui.dialogs import reason as reason_dialog
from ai4hse_desk.gui.dialogs.note import NoteDialog
from ai4hse_desk.gui.workers.notes_store import DECIDED, LANE, store_problem, to_explore
from ai4hse_desk.gui.workers.task import QueryOp
from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.model import category_name

if TYPE_CHECKING:
    from collections.abc import Callable

    from PySide6.QtWidgets import QWidget

    from ai4hse_desk.gui.controllers.notes import NotesController
    from ai4hse_desk.gui.controllers.reviewer import ReviewerIdentity
    from ai4hse_desk.gui.dialogs.flag import FlagValues
    from ai4hse_desk.gui.panels.flags import FlagsPanel
    from ai4hse_desk.gui.workers.runner import TaskRunner
    from ai4hse_desk.notes import Revision
    from ai4hse_desk.notes.store import NotesStore
    from ai4hse_desk.review.final_state import Exploration

T = TypeVar("T")
_DONE = {"open": "reopened", "resolved": "resolved", "withdrawn": "withdrawn"}
#: Before any decision, questions whose open key_incorrect flags the exploration leaves out.
EXPLORE_CATEGORY = "key_incorrect"
_NOTHING_FLAGGED = f"No question has an open “{category_name(EXPLORE_CATEGORY)}” flag"


class NoteChanges(QObject):
    """Carries out the flags panel's and the Notes menu's requests.

    Signals:
        message: a line for the status bar.
        explore_requested: (an :class:`~ai4hse_desk.review.final_state.Exploration`, why)
            for the scores' sensitivity exploration.
    """

    message = Signal(str)
    explore_requested = Signal(object, str)

    def __init__(
        self,
        notes: NotesController,
        panel: FlagsPanel,
        identity: ReviewerIdentity,
        tasks: TaskRunner,
        dialogs: QWidget,
    ) -> None:
        """Carry out ``panel``'s requests (and the menu's) on ``notes``' store."""
        super().__init__(notes)
        self._notes, self._identity, self._tasks, self._dialogs = notes, identity, tasks, dialogs
        #: The window's changes of this session, to undo and redo (verdicts too).
        self.session = SessionUndo(notes, self._reviewer, self)
        self.session.message.connect(self.message)
        panel.add_flag_requested.connect(lambda: self.add_flag())
        panel.edit_flag_requested.connect(self.edit_flag)
        panel.flag_state_requested.connect(self.set_flag_state)
        panel.add_note_requested.connect(self.add_note)
        panel.edit_note_requested.connect(self.edit_note)
        panel.note_state_requested.connect(self.set_note_state)
        panel.history_requested.connect(self.show_history)

    # -- writing ------------------------------------------------------------------------

    def _reviewer(self) -> str | None:
        """The reviewer's name (asked the first time), or ``None`` when not available."""
        if not self._notes.writable:
            self._notes.tell(
                "Reviewer notes", f"Notes cannot be recorded: {self._notes.unavailable}"
            )
            return None
        try:
            return self._identity.ensure(self._dialogs)
        except ReviewError as exc:
            self._notes.tell("Reviewer name", first_line(exc))
            return None

    def _write(
        self, done: str, work: Callable[[NotesStore], T], then: Callable[[T], None] | None = None
    ) -> None:
        """Run one change; say ``done`` once saved, or why it was not."""
        task = self._notes.write(work)
        if task is None:
            return

        def saved(result: T) -> None:
            self.session.record_note()
            if done:
                self.message.emit(done)
            if then is not None:
                then(result)

        task.succeeded.connect(saved)
        task.failed.connect(self._not_saved)

    def _not_saved(self, reason: str) -> None:
        if self._notes.writable:  # else the store became unavailable, and that was said
            self._notes.tell("The change was not saved", reason)

    def add_flag(self, *, question_id: str | None = None, preset: FlagValues | None = None) -> None:
        """Add flag… : a flag on the shown question (or one of its options).

        Args:
            question_id: the question (default: the shown attempt's).
            preset: values the dialog starts from (the key audit's F key).
        """
        question = self._notes.question
        if question is None or (question_id is not None and question.question_id != question_id):
            self.message.emit("Select an attempt to flag its question.")
            return
        reviewer = self._reviewer()
        if reviewer is None:
            return
        from ai4hse_desk.gui.dialogs.flag import FlagDialog  # loaded when first asked for

        values = FlagDialog.ask(self._dialogs, question, preset=preset)
        if values is None:
            return
        self._write(
            f"Flag added on {question.question_id} (the key and every score stay as they are)",
            lambda store: store.add_flag(
                question_id=question.question_id,
                category=values.category,
                note=values.note,
                reviewer=reviewer,
                option=values.option,
                severity=values.severity,
            ),
            lambda flag: self._notes.select_when_listed("flag", flag.flag_id),
        )

    def flag_question(self, question_id: str, preset: FlagValues) -> None:
        """A flag on ``question_id``, the dialog starting from ``preset`` (the key audit's F)."""
        self.add_flag(question_id=question_id, preset=preset)

    def edit_flag(self, flag_id: str) -> None:
        """Edit… : change the category, option, severity or note of a flag."""
        question, flag = self._notes.question, self._notes.flag(flag_id)
        if question is None or flag is None:
            return
        reviewer = self._reviewer()
        if reviewer is None:
            return
        from ai4hse_desk.gui.dialogs.flag import FlagDialog

        values = FlagDialog.ask(self._dialogs, question, flag)
        if values is None:
            return
        self._write(
            f"Flag on {question.question_id} changed",
            lambda store: store.edit_flag(
                flag_id,
                reviewer=reviewer,
                note=values.note,
                category=values.category,
                severity=values.severity,
                option=values.option,
            ),
        )

    def set_flag_state(self, flag_id: str, state: str) -> None:
        """Resolve…, Withdraw… (each asks why), Reopen."""
        reviewer = self._reviewer()
        if reviewer is None:
            return
        flag = self._notes.flag(flag_id)
        what = "the flag" + ("" if flag is None else f" on {display_text(flag.question_id)}")
        reason = reason_dialog.reason_for(self._dialogs, state, what)
        if reason is None:
            return
        self._write(
            f"Flag {_DONE.get(state, state)}",
            lambda store: store.set_flag_state(flag_id, state, reviewer=reviewer, reason=reason),
        )

    def add_note(self) -> None:
        """Add note on this attempt…"""
        attempt_id, question = self._notes.attempt_id, self._notes.question
        if attempt_id is None or question is None:
            self.message.emit("Select an attempt to write a note on it.")
            return
        reviewer = self._reviewer()
        if reviewer is None:
            return
        title = f"Note on attempt #{attempt_id} ({display_text(question.question_id)})"
        text = NoteDialog.ask(self._dialogs, title)
        if text is None:
            return
        self._write(
            f"Note added on attempt #{attempt_id}",
            lambda store: store.add_attempt_note(
                attempt_id=attempt_id, note=text, reviewer=reviewer
            ),
            lambda note: self._notes.select_when_listed("note", note.note_id),
        )

    def edit_note(self, note_id: str) -> None:
        """Edit… on an attempt note."""
        attempt_id, note = self._notes.attempt_id, self._notes.note(note_id)
        if attempt_id is None or note is None:
            return
        reviewer = self._reviewer()
        if reviewer is None:
            return
        text = NoteDialog.ask(self._dialogs, f"Note on attempt #{attempt_id}", note.note)
        if text is None:
            return
        self._write(
            f"Note on attempt #{attempt_id} changed",
            lambda store: store.edit_attempt_note(note_id, reviewer=reviewer, note=text),
        )

    def set_note_state(self, note_id: str, state: str) -> None:
        """Resolve…, Withdraw… (each asks why), Reopen on an attempt note."""
        reviewer = self._reviewer()
        if reviewer is None:
            return
        attempt_id = self._notes.attempt_id
        what = "the note" + ("" if attempt_id is None else f" on attempt #{attempt_id}")
        reason = reason_dialog.reason_for(self._dialogs, state, what)
        if reason is None:
            return
        self._write(
            f"Note {_DONE.get(state, state)}",
            lambda store: store.set_attempt_note_state(
                note_id, state, reviewer=reviewer, reason=reason
            ),
        )

    def undo(self) -> None:
        """Notes ▸ Undo last change: take back the window's latest change (see :attr:`session`)."""
        self.session.undo()

    def redo(self) -> None:
        """Notes ▸ Redo: re-apply what the latest undo took back."""
        self.session.redo()

    def change_reviewer(self) -> None:
        """Notes ▸ Reviewer name…"""
        try:
            name = self._identity.change(self._dialogs)
        except ReviewError as exc:
            self._notes.tell("Reviewer name", first_line(exc))
            return
        if name is not None:
            self.message.emit(f"Flags and notes are now recorded as {name}.")

    # -- reading ------------------------------------------------------------------------

    def _read(self, work: Callable[[NotesStore], T], then: Callable[[T], None]) -> None:
        """Read the store off the GUI thread; ``then`` the answer (problems are told)."""
        store = self._notes.store
        if store is None:
            return
        task = self._tasks.run(
            QueryOp(lambda _progress: work(store), lane=LANE, explain=store_problem)
        )
        task.succeeded.connect(then)
        task.failed.connect(lambda reason: self._notes.tell("Reviewer notes", reason))

    def show_history(self, item_id: str) -> None:
        """History… : every revision of a flag or note."""
        flag = self._notes.flag(item_id)
        if flag is not None:
            title = f"History of a flag on {flag.question_id}"
        else:
            title = f"History of a note on attempt #{self._notes.attempt_id}"

        def show(revisions: list[Revision]) -> None:
            from ai4hse_desk.gui.dialogs.history import HistoryDialog

            dialog = HistoryDialog(display_text(title), revisions, self._dialogs)
            dialog.exec()
            dialog.deleteLater()

        self._read(lambda store: store.history(item_id), show)

    def explore(self) -> None:
        """Hand the review's decisions (the report's own: excluded questions, corrected keys;
        before any decision, questions with an open ``key_incorrect`` flag or key concern)
        to the scores' exploration, as far as the visibility policy lets the reviewer see."""
        if self._notes.store is None:
            self._explore(to_explore(None, None, EXPLORE_CATEGORY))
            return
        viewer = self._identity.name
        self._read(lambda store: to_explore(store, viewer, EXPLORE_CATEGORY), self._explore)

    def _explore(self, found: tuple[Exploration, str]) -> None:
        explored, reason = found
        if explored.empty:
            self.message.emit(
                "The review's decisions exclude no question and correct no key: the official "
                "figures stand." if reason.startswith(DECIDED)
                else f"{_NOTHING_FLAGGED}, and the review has decided none."
            )  # fmt: skip
            return
        self.explore_requested.emit(explored, reason)
        self.message.emit(f"Scores ▸ Sensitivity — not official: the metrics with {reason}.")


__all__ = ["EXPLORE_CATEGORY", "NoteChanges"]
