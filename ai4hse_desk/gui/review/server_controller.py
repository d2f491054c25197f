"""The server window's reads and writes: each a call of the review server, off the GUI thread.

:class:`ServerReviewController` holds the login's
:class:`~ai4hse_desk.review.server.client.ReviewServer` and runs every call on the window's
``"server"`` lane (reads as
:class:`~ai4hse_desk.gui.workers.task.QueryOp`, writes as
:class:`~ai4hse_desk.gui.workers.task.CollectionOp`, one after another in the order
asked). What the database answers comes back as signals on the GUI thread; what it
refuses comes back as one plain line (``problem``) — the password never in it. The
controller decides nothing about what may be shown: the server's functions do.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from ai4hse_desk.gui.workers.task import CollectionOp, QueryOp
from ai4hse_desk.review.names import decision_name
from ai4hse_desk.review.server import shapes

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ai4hse_desk.gui.workers.runner import TaskRunner
    from ai4hse_desk.review.server.client import ReviewServer

LANE = "server"


class ServerReviewController(QObject):
    """The login's review on the server (see the module docstring).

    Signals:
        identity: ``whoami`` (role, reviewer, adjudicator, coordinator, audit).
        question: a ``review show`` object (``None``: the queue is done).
        progress: the login's progress (assigned, submitted, drafts, remaining).
        own_queue: the reviewer's own queue (question id, position, state of their verdict).
        queue: the adjudication queue (cli.md's objects).
        detail: a ``review show`` object of a question of the adjudication queue.
        stored: one line saying what was recorded.
        problem: one plain line (a refusal, a lost connection, an unreachable server).
    """

    identity = Signal(object)
    question = Signal(object)
    progress = Signal(object)
    own_queue = Signal(object)
    queue = Signal(object)
    detail = Signal(object)
    stored = Signal(str)
    problem = Signal(str)

    def __init__(self, server: ReviewServer, tasks: TaskRunner, parent: QObject | None = None):
        super().__init__(parent)
        self._server = server
        self._tasks = tasks

    @property
    def shown(self) -> str:
        """The server's URL without its password."""
        return self._server.shown

    def _read(self, work: Callable[[], object], done: Callable[[Any], None]) -> None:
        task: QueryOp[object] = QueryOp(lambda _p: work(), lane=LANE, name="server read")
        task.succeeded.connect(done)
        task.failed.connect(self.problem)
        self._tasks.run(task)

    def _write(self, work: Callable[[], object], done: Callable[[Any], None]) -> None:
        task: CollectionOp[object] = CollectionOp(lambda _p: work(), lane=LANE, name="server write")
        task.succeeded.connect(done)
        task.failed.connect(self.problem)
        self._tasks.run(task)

    # -- reads ---------------------------------------------------------------------------

    def start(self) -> None:
        """Who the login is, then its next question (a reviewer) or queue (an adjudicator)."""

        def started(me: dict[str, Any]) -> None:
            self.identity.emit(me)
            if me.get("reviewer"):
                self.load_next()
                self.load_own_queue()
            if me.get("adjudicator") or me.get("coordinator"):
                self.load_queue()

        self._read(self._server.whoami, started)

    def load_next(self) -> None:
        """The login's next question not yet submitted, and its progress."""

        def loaded(answer: dict[str, Any]) -> None:
            shaped = shapes.next_answer(answer)
            self.progress.emit(shaped["progress"])
            self.question.emit(shaped["question"])

        self._read(self._server.next, loaded)

    def load_own_queue(self) -> None:
        """The reviewer's own queue, with the state of their verdict on each question."""
        self._read(self._server.own_queue, self.own_queue.emit)

    def _own_changed(self) -> None:
        """After a write of one's own: the queue's states and the progress, read again."""
        self.load_own_queue()
        self._read(self._server.progress, lambda p: self.progress.emit(shapes.progress(p)))

    def load_question(self, question_id: str) -> None:
        """One question of the login's queue, as the server shows it now."""
        self._read(lambda: shapes.shown(self._server.show(question_id)), self.question.emit)

    def load_queue(self) -> None:
        """The adjudication queue as this login may read it."""

        def loaded(items: list[dict[str, Any]]) -> None:
            self.queue.emit([shapes.queue_item(item) for item in items])

        self._read(self._server.adjudication_queue, loaded)

    def load_detail(self, question_id: str) -> None:
        """A question of the adjudication queue, with its key, runs and verdicts."""
        self._read(lambda: shapes.shown(self._server.show(question_id)), self.detail.emit)

    # -- writes --------------------------------------------------------------------------

    def record_blind(self, question_id: str, answer: Sequence[str] | None) -> None:
        """Record the blind answer (``None``: "not blind"), then show the question again."""

        def recorded(_verdict: object) -> None:
            self.stored.emit(f"Blind answer on {question_id} recorded.")
            self.load_question(question_id)
            self._own_changed()

        self._write(lambda: self._server.record_blind(question_id, answer), recorded)

    def save_verdict(self, question_id: str, values: Any, *, submit: bool) -> None:
        """Record the verdict form's ``values``; a submit moves to the next question."""

        def saved(_verdict: object) -> None:
            self.stored.emit(f"Verdict on {question_id} {'submitted' if submit else 'saved'}.")
            if submit:
                self.load_next()  # the next question, with the progress
                self.load_own_queue()
            else:
                self.load_question(question_id)
                self._own_changed()

        self._write(
            lambda: self._server.save_verdict(
                question_id,
                verdict=values.verdict,
                not_blind=True,
                proposed_key=values.proposed_key,
                confidence=values.confidence,
                source=values.source,
                note=values.note,
                submit=submit,
            ),
            saved,
        )

    def adjudicate(self, question_id: str, decision: str, key: str | None, note: str) -> None:
        """Record the login's decision; the queue is read again."""

        def decided(_decision: object) -> None:
            self.stored.emit(f"Decision on {question_id} recorded: {decision_name(decision)}.")
            self.load_queue()

        self._write(
            lambda: self._server.adjudicate(question_id, decision, key=key or None, note=note),
            decided,
        )

    def close(self) -> None:
        """Close the login's connection (on its lane, after what was asked)."""
        self._tasks.run(CollectionOp(lambda _p: self._server.close(), lane=LANE, name="close"))
