"""The adjudication workspace's requests: the queue, one question, a decision recorded.

The adjudicator is the name in the window (:class:`~.reviewer.ReviewerIdentity`,
asked the first time a decision is recorded); the queue holds only the questions
that person may decide (the core leaves out those they review, and refuses a
decision on one). Every read and write runs on the notes store's ``"notes"`` lane;
a refusal comes back as one line in the view. What the window's visibility policy
(:class:`~.sight.Sight`) hides is never shown. Each decision is kept for *Notes ▸
Undo* (:class:`~.session_undo.SessionUndo`), which gives the decision before it back.
An ``unresolved`` decision keeps the question in the queue; another decision moves
the view to the next open question.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QObject, Signal

from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.errors import first_line
from ai4hse_desk.gui.controllers.sight import PENDING_TEXT
from ai4hse_desk.gui.review.adjudication_reads import (
    AdjudicationRead,
    decide,
    read_adjudication,
    read_rows,
)
from ai4hse_desk.gui.review.adjudication_view import PICK
from ai4hse_desk.gui.workers.notes_store import LANE, store_problem
from ai4hse_desk.gui.workers.task import QueryOp
from ai4hse_desk.notes import ReviewError
from ai4hse_desk.review.names import decision_name

if TYPE_CHECKING:
    from collections.abc import Callable

    from ai4hse_desk.gui.controllers.notes import NotesController
    from ai4hse_desk.gui.controllers.reviewer import ReviewerIdentity
    from ai4hse_desk.gui.controllers.session_undo import SessionUndo
    from ai4hse_desk.gui.controllers.sight import Sight
    from ai4hse_desk.gui.review.adjudication_reads import DecisionChange, DecisionValues
    from ai4hse_desk.gui.review.adjudication_view import AdjudicationView
    from ai4hse_desk.gui.workers.runner import TaskRunner
    from ai4hse_desk.index import ListRow, ReviewIndex
    from ai4hse_desk.index.session import AuditSession
    from ai4hse_desk.keyaudit import KeyAuditResult
    from ai4hse_desk.notes.store import NotesStore

T = TypeVar("T")
NO_FILE = "Open an audit database to adjudicate its review."
NO_NAME = "Give your name (Reviewer name…) to see the questions you may adjudicate."


class AdjudicationController(QObject):
    """Carries the adjudication view's requests to the notes store.

    Signals:
        message: a line for the status bar.
    """

    message = Signal(str)

    def __init__(
        self,
        view: AdjudicationView,
        notes: NotesController,
        people: tuple[ReviewerIdentity, Sight],
        tasks: TaskRunner,
        key_audit: Callable[[], KeyAuditResult | None],
        undo: SessionUndo | None = None,
        parent: QObject | None = None,
    ) -> None:
        """``people``: the name in the window, and what it may see; ``undo``: for Ctrl+Z."""
        super().__init__(parent)
        self._view, self._notes, self._tasks = view, notes, tasks
        self._identity, self._sight = people
        self._key_audit, self._undo = key_audit, undo
        self._session: AuditSession | None = None
        self._index: ReviewIndex | None = None
        self._read_now: AdjudicationRead | None = None
        self._current: str | None = None
        self._generation = 0
        view.shown.connect(self.reload)
        view.question_selected.connect(self._open)
        view.decide_requested.connect(self.record)
        view.decided_toggled.connect(lambda _on: self.reload())
        view.name_requested.connect(self.change_name)
        self._identity.changed.connect(lambda _name: self.refresh())
        if undo is not None:
            undo.decision_restored.connect(self._restored)

    @property
    def queue(self) -> AdjudicationRead | None:
        """The queue as last read."""
        return self._read_now

    @property
    def current(self) -> str | None:
        """The question shown."""
        return self._current

    def set_session(self, session: AuditSession | None) -> None:
        """Another file is open (or none)."""
        self._generation += 1
        self._session, self._index, self._read_now, self._current = session, None, None, None
        self._view.show_empty(NO_FILE if session is None else "")

    def set_index(self, index: ReviewIndex | None) -> None:
        """The review index is ready (the runs' choices come from it)."""
        self._index = index
        self.refresh()

    def refresh(self) -> None:
        """What the store holds may have changed: a view on screen reads it again."""
        if self._view.isVisible():
            self.reload()

    def key_audit_ready(self) -> None:
        """The key audit finished: the evidence on screen is shown again."""
        if self._view.question is not None:
            self._view.show_evidence(self._view.question, self._key_audit())

    # -- reading --------------------------------------------------------------------------

    def _read(self, work: Callable[[NotesStore | None], T], then: Callable[[T], None]) -> None:
        notes, generation = self._notes, self._generation
        task = self._tasks.run(
            QueryOp(lambda _p: work(notes.store), lane=LANE, name="adjudication",
                    explain=store_problem)
        )  # fmt: skip

        def succeeded(result: T) -> None:
            if generation == self._generation:
                then(result)

        def failed(reason: str) -> None:
            if generation == self._generation:
                self._view.show_error(f"The adjudication queue could not be read: {reason}")

        task.succeeded.connect(succeeded)
        task.failed.connect(failed)

    def reload(self) -> None:
        """Read the queue for the name in the window, then show the current question."""
        if self._session is None:
            return
        name, blind = self._identity.name, self._sight.blind_questions()
        decided = self._view.decided_box.isChecked()
        if name is None or self._sight.pending:  # (pending: the store not read yet)
            self._view.show_queue(AdjudicationRead(None), None)
            why = NO_NAME if name is None else PENDING_TEXT
            self._view.header.setText(why)
            self._view.show_empty(why)
            return
        self._read(
            lambda store: read_adjudication(store, name, include_decided=decided, blind=blind),
            self._queue_read,
        )

    def _queue_read(self, read: AdjudicationRead) -> None:
        self._read_now = read
        chosen = self._view.show_queue(read, self._current)
        self._current = chosen
        if chosen is not None:
            self._open(chosen)

    def _open(self, question_id: str) -> None:
        self._current = question_id
        index = self._index
        self._read(lambda _store: read_rows(index, question_id), lambda rows: self._show(
            question_id, rows))  # fmt: skip

    def _show(self, question_id: str, rows: tuple[ListRow, ...]) -> None:
        read, session = self._read_now, self._session
        item = None if read is None else read.item(question_id)
        if session is None or item is None or question_id != self._current:
            return
        if not self._sight.shows_key(question_id):  # (the policy changed since the read)
            self._view.show_empty(PICK)
            return
        question = session.questions[question_id]
        self._view.show_item(question, item, rows, self._key_audit())

    # -- recording ------------------------------------------------------------------------

    def record(self, values: DecisionValues) -> None:
        """Record the decision in the form on the question shown."""
        item = self._view.item
        if item is None:
            return
        if problem := values.problem(item.official_key):
            self._view.show_error(problem)
            return
        self._view.clear_error()
        try:
            who = self._identity.ensure(self._view)
        except ReviewError as exc:
            self._view.show_error(first_line(exc))
            return
        if who is None:
            self._view.show_error("Nothing recorded: an adjudicator name is needed.")
            return
        qid, work = item.question_id, decide(item.question_id, values)
        task = self._notes.write(lambda store: work(store, who))
        if task is None:
            self._view.show_error(f"Nothing can be recorded: {self._notes.unavailable}")
            return
        generation = self._generation

        def saved(change: DecisionChange) -> None:
            if self._undo is not None:
                self._undo.record_decision(*change)
            if generation != self._generation:
                return
            after = change[1]
            self.message.emit(
                f"Decision on {display_text(qid)}: {decision_name(after.decision)} "
                "(the official key and every score stay as they are)."
            )
            if not self._view.decided_box.isChecked() and after.decision != "unresolved":
                self._current = self._next_open(qid)
            self.reload()

        def failed(reason: str) -> None:
            if generation == self._generation:
                self._view.show_error(reason)

        task.succeeded.connect(saved)
        task.failed.connect(failed)

    def _next_open(self, after: str) -> str | None:
        """The question listed after ``after`` (wrapping round), to show next."""
        read = self._read_now
        ids = [] if read is None else [i.question_id for i in read.items if i.open]
        if after not in ids or len(ids) < 2:
            return None
        return ids[(ids.index(after) + 1) % len(ids)]

    def _restored(self, question_id: str) -> None:
        self._current = question_id
        self.refresh()

    def change_name(self) -> None:
        """Reviewer name…: ask again; the queue follows the new name."""
        try:
            name = self._identity.change(self._view)
        except ReviewError as exc:
            self._view.show_error(first_line(exc))
            return
        if name is not None:
            self.message.emit(f"Adjudicating as {name}.")
            self.reload()


__all__ = ["AdjudicationController"]
