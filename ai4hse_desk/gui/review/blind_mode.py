"""Review ▸ Leave blind mode…: give up the blind answers still owed, and see every key.

A reviewer of the plan who will not answer blind any more records "not blind" on
every question of their queue they have recorded nothing on yet
(:meth:`~ai4hse_desk.review.book.ReviewBook.leave_blind`). The store keeps it: from
then on those questions' keys show in every view and every client, and their blind
answers can never be given. The window reads how many questions it concerns (for the
name the window records under, asked if need be) and asks before it writes anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from ai4hse_desk.display.format import plural
from ai4hse_desk.errors import first_line
from ai4hse_desk.gui.dialogs import confirm
from ai4hse_desk.gui.workers.notes_store import LANE, store_problem
from ai4hse_desk.gui.workers.task import QueryOp
from ai4hse_desk.notes.errors import ReviewError

if TYPE_CHECKING:
    from PySide6.QtWidgets import QWidget

    from ai4hse_desk.gui.controllers.notes import NotesController
    from ai4hse_desk.gui.controllers.reviewer import ReviewerIdentity
    from ai4hse_desk.gui.workers.runner import TaskRunner
    from ai4hse_desk.notes.store import NotesStore
    from ai4hse_desk.review.visibility import Visibility

TITLE = "Leave blind mode"
QUESTION = (
    'Record "not blind" on the {count} of your queue you have not answered yet?\n\n'
    "Their keys, the runs' answers and the evidence then show at once, in every view. "
    "The store keeps it: these questions' blind answers can never be given afterwards."
)


def _sight(store: NotesStore, name: str) -> Visibility:
    from ai4hse_desk.review.book import ReviewBook

    return ReviewBook(store).visibility(name)


def _leave(store: NotesStore, name: str) -> int:
    from ai4hse_desk.review.book import ReviewBook

    return ReviewBook(store).leave_blind(name)


class LeaveBlind(QObject):
    """Asks, then records "not blind" on the reviewer's blind questions.

    Signals:
        message: a line for the status bar.
    """

    message = Signal(str)

    def __init__(
        self,
        notes: NotesController,
        identity: ReviewerIdentity,
        tasks: TaskRunner,
        dialogs: QWidget,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._notes, self._identity, self._tasks, self._dialogs = notes, identity, tasks, dialogs

    def ask(self) -> None:
        """Review ▸ Leave blind mode…: how many questions, then the question, then the write."""
        store = self._notes.store
        if store is None or not self._notes.writable:
            self.message.emit("No review plan is in force here: no question is blind.")
            return
        try:
            name = self._identity.ensure(self._dialogs)
        except ReviewError as exc:
            self._notes.tell("Reviewer name", first_line(exc))
            return
        if name is None:
            self.message.emit("Blind mode is left under your reviewer name: none was given.")
            return
        task = self._tasks.run(
            QueryOp(lambda _p: _sight(store, name), lane=LANE, explain=store_problem)
        )
        task.succeeded.connect(lambda sight: self._counted(name, sight))
        task.failed.connect(lambda reason: self._notes.tell(TITLE, reason))

    def _counted(self, name: str, sight: Visibility) -> None:
        if not sight.planned or not sight.reviewer:
            self.message.emit(
                f"{name} is not one of the review plan's reviewers: nothing is blind."
            )
            return
        if not sight.blind:
            self.message.emit(f"Every question of {name}'s queue is answered: nothing is blind.")
            return
        count = plural(len(sight.blind), "question")
        if not confirm.confirm(self._dialogs, TITLE, QUESTION.format(count=count),
                               "Leave blind mode"):  # fmt: skip
            return
        task = self._notes.write(lambda store: _leave(store, name))
        if task is None:
            self._notes.tell(TITLE, f"Nothing can be recorded: {self._notes.unavailable}")
            return
        task.succeeded.connect(
            lambda done: self.message.emit(
                f"Blind mode left: {plural(done, 'question')} of {name}'s queue recorded as "
                "not blind; their keys now show."
            )
        )
        task.failed.connect(lambda reason: self._notes.tell(TITLE, reason))


__all__ = ["LeaveBlind"]
