"""What the reviewer records in the notes store: flags, attempt notes, undo, history.

A mixin of :class:`~ai4hse_desk.gui.notes_controller.NotesController`, which
opens the store and keeps the window in step; the attributes it uses
(``window``, ``panel``, ``identity``, ``store``, the shown question and
attempt …) are the controller's, and so is ``_tell``, its message box.

Changes are made under the reviewer's name (asked once, see
:mod:`.reviewer_identity`), each one revision in the store; *Notes ▸ Undo last
note change* (Ctrl+Z) appends one more revision reverting the reviewer's latest
change. Problems a reviewer can fix come back as a message box, never a
traceback. The audit database is never written, and no score depends on a note
(protocol §7).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from sqlalchemy.exc import SQLAlchemyError

from ai4hse_desk.audit.records import Question
from ai4hse_desk.errors import first_line
from ai4hse_desk.gui.flag_dialog import FlagDialog, FlagValues, HistoryDialog, NoteDialog
from ai4hse_desk.notes import Flag, NotesStore, ReviewError
from ai4hse_desk.verdicts.attempt_detail import display_text

if TYPE_CHECKING:
    from ai4hse_desk.gui.notes_controller import NotesController

    _Base = NotesController
else:
    _Base = object

T = TypeVar("T")
_DONE = {"open": "reopened", "resolved": "resolved", "withdrawn": "withdrawn"}
#: What a store may raise: a reviewer's problem, a database refusing, a file system refusing.
STORE_ERRORS = (ReviewError, SQLAlchemyError, OSError)


class NotesActionsMixin(_Base):
    """The panel's and the Notes menu's requests: add, edit, resolve, undo, history, explore."""

    # -- writing ------------------------------------------------------------------------

    def _reviewer(self) -> str | None:
        """The reviewer's name (asked the first time), or ``None`` when not available."""
        if not self._prepared:
            self._prepare()
        if not self.writable:
            reason = self._unavailable or "no audit database is ready"
            self._tell("Reviewer notes", f"Notes cannot be recorded: {reason}")
            return None
        try:
            return self.identity.ensure(self.window)
        except ReviewError as exc:
            self._tell("Reviewer name", first_line(exc))
            return None

    def _write(self, done: str, work: Callable[[NotesStore], T]) -> T | None:
        """Run one change on the store (made on first use); ``None`` if it failed."""
        store = self.store or self._open_store()
        if store is None:
            return None
        try:
            result = work(store)
        except STORE_ERRORS as exc:
            self._tell("The change was not saved", first_line(exc))
            self._refresh_all()
            return None
        self._refresh_all()
        if done:
            self.window.statusBar().showMessage(done)
        self.changed.emit()
        return result

    def _question(self) -> Question | None:
        session = self.window.session
        if session is None or self._question_id is None:
            return None
        return session.questions.get(self._question_id)

    def add_flag(self, *, preset: FlagValues | None = None) -> None:
        """Add flag… : a flag on the shown question (or one of its options).

        Args:
            preset: values the dialog starts from (the key audit's F key).
        """
        question = self._question()
        if question is None:
            self.window.statusBar().showMessage("Select an attempt to flag its question.")
            return
        reviewer = self._reviewer()
        if reviewer is None:
            return
        values = FlagDialog.ask(self.window, question, preset=preset)
        if values is None:
            return
        flag = self._write(
            f"Flag added on {question.question_id} (the key and every score stay as they are)",
            lambda store: store.add_flag(
                question_id=question.question_id,
                category=values.category,
                note=values.note,
                reviewer=reviewer,
                option=values.option,
                severity=values.severity,
            ),
        )
        if flag is not None:
            self.panel.select_flag(flag.flag_id)

    def _flag(self, flag_id: str) -> Flag | None:
        if self.store is None:
            return None
        try:
            found = [
                f for f in self.store.flags(question_id=self._question_id) if f.flag_id == flag_id
            ]
        except STORE_ERRORS as exc:
            self._tell("Reviewer notes", first_line(exc))
            return None
        return found[0] if found else None

    def edit_flag(self, flag_id: str) -> None:
        """Edit… : change the category, option, severity or note of a flag."""
        question, flag = self._question(), self._flag(flag_id)
        if question is None or flag is None:
            return
        reviewer = self._reviewer()
        if reviewer is None:
            return
        values = FlagDialog.ask(self.window, question, flag)
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
        """Resolve, Withdraw, Reopen."""
        reviewer = self._reviewer()
        if reviewer is None:
            return
        self._write(
            f"Flag {_DONE.get(state, state)}",
            lambda store: store.set_flag_state(flag_id, state, reviewer=reviewer),
        )

    def add_note(self) -> None:
        """Add note on this attempt…"""
        attempt_id, question_id = self._attempt_id, self._question_id
        if attempt_id is None or question_id is None:
            self.window.statusBar().showMessage("Select an attempt to write a note on it.")
            return
        reviewer = self._reviewer()
        if reviewer is None:
            return
        title = f"Note on attempt #{attempt_id} ({display_text(question_id)})"
        text = NoteDialog.ask(self.window, title)
        if text is None:
            return
        note = self._write(
            f"Note added on attempt #{attempt_id}",
            lambda store: store.add_attempt_note(
                attempt_id=attempt_id, note=text, reviewer=reviewer
            ),
        )
        if note is not None:
            self.panel.select_note(note.note_id)

    def edit_note(self, note_id: str) -> None:
        """Edit… on an attempt note."""
        store, attempt_id = self.store, self._attempt_id
        if store is None or attempt_id is None:
            return
        try:
            found = [n for n in store.attempt_notes(attempt_id=attempt_id) if n.note_id == note_id]
        except STORE_ERRORS as exc:
            self._tell("Reviewer notes", first_line(exc))
            return
        if not found:
            return
        reviewer = self._reviewer()
        if reviewer is None:
            return
        text = NoteDialog.ask(self.window, f"Note on attempt #{attempt_id}", found[0].note)
        if text is None:
            return
        self._write(
            f"Note on attempt #{attempt_id} changed",
            lambda s: s.edit_attempt_note(note_id, reviewer=reviewer, note=text),
        )

    def set_note_state(self, note_id: str, state: str) -> None:
        """Resolve, Withdraw, Reopen on an attempt note."""
        reviewer = self._reviewer()
        if reviewer is None:
            return
        self._write(
            f"Note {_DONE.get(state, state)}",
            lambda store: store.set_attempt_note_state(note_id, state, reviewer=reviewer),
        )

    def undo(self) -> None:
        """Notes ▸ Undo last note change: revert this reviewer's latest change."""
        if self.store is None:
            self.window.statusBar().showMessage("No note change to undo.")
            return
        reviewer = self._reviewer()
        if reviewer is None:
            return
        # Wrapped in a tuple: ``None`` from _write means failure, (None,) nothing to undo.
        result = self._write("", lambda store: (store.undo_last(reviewer),))
        if result is None:
            return
        revision = result[0]
        if revision is None:
            self.window.statusBar().showMessage(f"Nothing of {reviewer}'s left to undo.")
            return
        changed = ", ".join(revision.changes) or "nothing"
        self.window.statusBar().showMessage(
            f"Undone: {reviewer}'s last change{self._concerning(revision.item_id)} ({changed}); "
            "the history keeps both revisions."
        )

    def _concerning(self, item_id: str) -> str:
        """Where a flag or note is, for messages: ' on Q015', ' on attempt #15' or ''."""
        store = self.store
        if store is None:
            return ""
        try:
            for flag in store.flags():
                if flag.flag_id == item_id:
                    return f" on {flag.question_id}"
            for note in store.attempt_notes():
                if note.note_id == item_id:
                    return f" on attempt #{note.attempt_id}"
        except STORE_ERRORS:
            pass
        return ""

    def change_reviewer(self) -> None:
        """Notes ▸ Reviewer name…"""
        try:
            name = self.identity.change(self.window)
        except ReviewError as exc:
            self._tell("Reviewer name", first_line(exc))
            return
        if name is not None:
            self.window.statusBar().showMessage(f"Flags and notes are now recorded as {name}.")

    # -- reading ------------------------------------------------------------------------

    def show_history(self, item_id: str) -> None:
        """History… : every revision of a flag or note."""
        if self.store is None:
            return
        try:
            revisions = self.store.history(item_id)
        except STORE_ERRORS as exc:
            self._tell("Reviewer notes", first_line(exc))
            return
        flag = self._flag(item_id)
        if flag is not None:
            title = f"History of a flag on {flag.question_id}"
        else:
            title = f"History of a note on attempt #{self._attempt_id}"
        dialog = HistoryDialog(display_text(title), revisions, self.window)
        dialog.exec()
        dialog.deleteLater()

    def explore(self) -> None:
        """Hand the questions with an open ``key_incorrect`` flag to the scores' sensitivity
        exploration (protocol §7: computed on the side, never the official score)."""
        ids: set[str] = set()
        if self.store is not None:
            try:
                ids = self.store.flagged_question_ids(category="key_incorrect")
            except STORE_ERRORS as exc:
                self._tell("Reviewer notes", first_line(exc))
                return
        if not ids:
            self.window.statusBar().showMessage("No question has an open key_incorrect flag.")
            return
        self.window.show_scores()
        reason = f"{len(ids)} question(s) with an open key_incorrect flag (reviewer notes)"
        self.window.scores.set_excluded_questions(ids, reason)
        self.window.statusBar().showMessage(
            f"Scores ▸ Sensitivity — not official: the metrics without {reason}."
        )
