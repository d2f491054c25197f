"""The Review view's requests: the reviewer's queue, one question at a time, blind first.

The queue is the reviewer's in the review plan, or — without a plan — every question
in corpus order; the reviewer is the one the window records flags under
(:class:`~.reviewer.ReviewerIdentity`, asked the first time something is recorded).
Every read and write of the notes store runs on its ``"notes"`` lane (reads here,
changes through :meth:`~.notes.NotesController.write`), in order. A question this
reviewer has not answered is read — and shown — without its key
(:mod:`ai4hse_desk.gui.review.reads`); a refusal of the store comes back as one line
in the view. *Skip blind* asks first (it gives the blind answer up for good); every
verdict change is kept for Notes ▸ Undo (:class:`~.session_undo.SessionUndo`). Each
new showing of a question is recorded for the report's effort (:mod:`.showings`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QObject, Signal

from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.errors import first_line
from ai4hse_desk.gui.dialogs import confirm
from ai4hse_desk.gui.review import changes
from ai4hse_desk.gui.review.form import starting_key
from ai4hse_desk.gui.review.reads import blind_question, read_page, read_queue
from ai4hse_desk.gui.review.showings import Showings
from ai4hse_desk.gui.review.view import BLIND, REVEALED
from ai4hse_desk.gui.workers.notes_store import LANE, store_problem
from ai4hse_desk.gui.workers.task import QueryOp
from ai4hse_desk.notes import ReviewError

if TYPE_CHECKING:
    from collections.abc import Callable

    from ai4hse_desk.gui.controllers.notes import NotesController
    from ai4hse_desk.gui.controllers.reviewer import ReviewerIdentity
    from ai4hse_desk.gui.controllers.session_undo import SessionUndo
    from ai4hse_desk.gui.review.changes import Change
    from ai4hse_desk.gui.review.form import VerdictValues
    from ai4hse_desk.gui.review.reads import QuestionRead, ReviewQueue
    from ai4hse_desk.gui.review.view import ReviewView
    from ai4hse_desk.gui.workers.runner import TaskRunner
    from ai4hse_desk.index import ReviewIndex
    from ai4hse_desk.index.session import AuditSession
    from ai4hse_desk.keyaudit import KeyAuditResult
    from ai4hse_desk.notes.store import NotesStore

T = TypeVar("T")
PAGE = "review page"
NO_FILE = "Open an audit database to review its questions."
WAITING = "The review opens once the review index is ready."


class ReviewController(QObject):
    """Carries the Review view's requests to the notes store and shows what comes back.

    Signals:
        message: a line for the status bar.
    """

    message = Signal(str)

    def __init__(
        self,
        view: ReviewView,
        notes: NotesController,
        identity: ReviewerIdentity,
        tasks: TaskRunner,
        key_audit: Callable[[], KeyAuditResult | None],
        undo: SessionUndo | None = None,
        parent: QObject | None = None,
    ) -> None:
        """``key_audit``: the key audit so far (its evidence shows); ``undo``: for Ctrl+Z."""
        super().__init__(parent)
        self._view, self._notes, self._identity = view, notes, identity
        self._tasks, self._key_audit, self._undo = tasks, key_audit, undo
        self._wanted: str | None = None  # a question asked for from another view
        self._session: AuditSession | None = None
        self._index: ReviewIndex | None = None
        self._queue: ReviewQueue | None = None
        self._current: str | None = None
        self._shown: tuple[str, str] | None = None  # (question, phase) on screen
        self._showings, self._reshown = Showings(notes, identity), False
        self._history: list[str] = []
        self._generation = 0
        for signal, slot in (
            (view.shown, self.activate), (view.blind_requested, self.record_blind),
            (view.skip_blind_requested, self.skip_blind), (view.skip_requested, self.skip),
            (view.submit_requested, lambda values: self.save(values, submit=True)),
            (view.draft_requested, lambda values: self.save(values, submit=False)),
            (view.back_requested, self.back), (view.name_requested, self.change_name),
            (view.queue_picked, lambda qid: self._open(qid, remember=True, keep_input=True)),
        ):  # fmt: skip
            signal.connect(slot)

    @property
    def queue(self) -> ReviewQueue | None:  # the queue as last read
        return self._queue

    @property
    def current(self) -> str | None:  # the question shown
        return self._current

    # -- the file -------------------------------------------------------------------------

    def set_session(self, session: AuditSession | None) -> None:
        """Another file is open (or none): its review follows once its index is ready."""
        self._generation += 1
        self._session, self._index, self._queue = session, None, None
        self._current, self._shown, self._history = None, None, []
        self._view.show_idle(NO_FILE if session is None else WAITING)

    def set_index(self, index: ReviewIndex | None) -> None:
        """The review index is ready: a Review view shown now reads its queue."""
        self._index = index
        if self._view.isVisible():
            self.reload()

    def activate(self) -> None:
        """The view is shown: read the queue (again if the reviewer changed), else the page."""
        if self._session is None or self._index is None:
            return
        queue, self._reshown = self._queue, True  # a new showing of what comes on screen
        if queue is None or self._current is None or queue.reviewer != self._identity.name:
            self.reload()
        elif self._wanted is not None:
            self.reload(keep_input=True)
        else:
            self._open(self._current, remember=False, keep_input=True)

    # -- reading --------------------------------------------------------------------------

    def _read(self, work: Callable[[NotesStore | None], T], then: Callable[[T], None]) -> None:
        notes, generation = self._notes, self._generation
        op = QueryOp(lambda _p: work(notes.store), lane=LANE, name=PAGE, explain=store_problem)
        task = self._tasks.run(op)

        def succeeded(result: T) -> None:
            if generation == self._generation:
                then(result)

        def failed(reason: str) -> None:
            if generation == self._generation:
                self._view.show_error(f"The review could not be read: {reason}")

        task.succeeded.connect(succeeded)
        task.failed.connect(failed)

    def reload(self, *, advance: bool = False, keep_input: bool = False) -> None:
        """Read the queue, then show the current question (``advance``: the next open one;
        ``keep_input``: what the reviewer typed or ticked on it stays)."""
        session, reviewer = self._session, self._identity.name
        if session is None or self._index is None:
            return
        corpus = [session.by_ordinal[n].question_id for n in sorted(session.by_ordinal)]
        self._read(lambda store: read_queue(store, reviewer, corpus),
                   lambda queue: self._queue_read(queue, advance, keep_input))  # fmt: skip

    def _queue_read(self, queue: ReviewQueue, advance: bool, keep_input: bool) -> None:
        self._queue = queue
        if empty := queue.empty_reason():
            self._view.show_idle(empty)
            return
        current = self._current if self._current in queue.questions else None
        wanted, self._wanted = self._wanted, None
        if wanted is not None and wanted not in queue.questions:
            self.message.emit(f"{display_text(wanted)} is not in your review queue.")
        target: str | None = None
        if wanted in queue.questions:
            target, advance = wanted, True  # (remembered, as a move of the reviewer's)
        elif advance:
            target = queue.next_open(current)
            if target is None or target == current:
                total = len(queue.questions)
                self.message.emit(f"All {total:,} questions of your queue are submitted.")
                target = current
        else:
            target = current or queue.next_open(None)
        self._open(target or queue.questions[0], remember=advance, keep_input=keep_input)

    def _open(self, question_id: str, *, remember: bool, keep_input: bool = False) -> None:
        if remember and self._current not in (None, question_id):
            self._history.append(str(self._current))
        if question_id != self._current:
            self._view.clear_error()
        self._current = question_id
        reviewer, index = self._identity.name, self._index
        self._read(lambda store: read_page(store, index, question_id, reviewer),
                   lambda page: self._page_read(page, keep_input))  # fmt: skip

    def _page_read(self, page: QuestionRead, keep_input: bool) -> None:
        session, queue = self._session, self._queue
        if session is None or queue is None or page.question_id != self._current:
            return
        blind = blind_question(question := session.questions[page.question_id])
        phase = BLIND if page.reveal is None or page.own is None else REVEALED
        same = self._shown == (page.question_id, phase) and self._view.phase == phase
        if page.reveal is None or page.own is None:
            if not same:  # else the reviewer's ticks so far stay
                self._view.show_blind(blind)
        elif same and keep_input:
            self._view.update_reveal(question, page.own, page.reveal, self._key_audit())
        else:
            start = starting_key(page.own.blind_answer, question.key)
            self._view.show_revealed(blind, question, page.own, page.reveal, self._key_audit(),
                                     start)  # fmt: skip
        if self._reshown or self._shown is None or self._shown[0] != page.question_id:
            self._showings.shown(page.question_id)
        self._shown, self._reshown = (page.question_id, phase), False
        self._view.show_place(queue, page.question_id)

    def key_audit_ready(self) -> None:
        """The key audit finished: a reveal on screen shows its evidence now."""
        session, current = self._session, self._current
        if session is not None and current is not None and self._view.phase == REVEALED:
            self._view.reveal.show_evidence(session.questions[current], self._key_audit())

    # -- moving ---------------------------------------------------------------------------

    def open_question(self, question_id: str) -> None:
        """Show ``question_id`` (another view asked: answer it blind here)."""
        self._wanted = question_id
        if self._view.isVisible() and self._queue is not None:
            self.reload(keep_input=True)

    def skip(self) -> None:
        """The next question not yet submitted, without saving anything."""
        queue, current = self._queue, self._current
        target = None if queue is None else queue.next_open(current)
        if queue is not None and (target is None or target == current):
            self.message.emit("No other question of your queue is waiting.")
        elif target is not None:
            self._open(target, remember=True)

    def back(self) -> None:
        """The question shown before (else the one before it in the queue)."""
        queue, current = self._queue, self._current
        if queue is None or current is None:
            return
        target = self._history.pop() if self._history else queue.previous(current)
        if target is None:
            self.message.emit("This is the first question of your queue.")
        else:
            self._open(target, remember=False)

    # -- recording ------------------------------------------------------------------------

    def record_blind(self, answer: tuple[str, ...] | None) -> None:
        """Enter (``answer``) or Skip blind (``None``): record it; the reveal follows."""
        if self._current is not None:
            self._write(*changes.blind_answer(self._current, answer), advance=False)

    def skip_blind(self) -> None:
        """Skip blind: asks first, then records "not blind" (the key is shown)."""
        qid = self._current
        if qid is not None and confirm.confirm(
            self._view, "Skip the blind answer", changes.SKIP_BLIND.format(qid=display_text(qid)),
            "Skip blind, show the key",
        ):  # fmt: skip
            self.record_blind(None)

    def save(self, values: VerdictValues, *, submit: bool) -> None:
        """Submit & next (``submit``) or Save draft."""
        session, question_id = self._session, self._current
        if session is None or question_id is None:
            return
        if problem := values.problem(session.questions[question_id].key, submit=submit):
            self._view.show_error(problem)
            return
        self._write(*changes.verdict(question_id, values, submit=submit), advance=submit)

    def _write(
        self, work: Callable[[NotesStore, str], Change], done: str, *, advance: bool
    ) -> None:
        self._view.clear_error()
        try:
            reviewer = self._identity.ensure(self._view)
        except ReviewError as exc:
            self._view.show_error(first_line(exc))
            return
        if reviewer is None:
            self._view.show_error("Nothing recorded: a reviewer name is needed.")
            return
        work = self._showings.with_first(str(self._current), work)
        task, generation = self._notes.write(lambda store: work(store, reviewer)), self._generation
        if task is None:
            self._view.show_error(f"Nothing can be recorded: {self._notes.unavailable}")
            return

        def saved(change: Change) -> None:
            if self._undo is not None:
                self._undo.record_verdict(*change)
            if generation == self._generation:
                self.message.emit(display_text(done))
                self.reload(advance=advance)

        def failed(reason: str) -> None:
            if generation == self._generation:
                self._view.show_error(reason)
                self.reload(keep_input=True)  # what the store holds; the input stays

        task.succeeded.connect(saved)
        task.failed.connect(failed)

    def change_name(self) -> None:
        """Reviewer name…: ask again; the queue follows the new name."""
        try:
            name = self._identity.change(self._view)
        except ReviewError as exc:
            self._view.show_error(first_line(exc))
            return
        if name is not None:
            self.message.emit(f"Reviewing as {name}.")
            self._shown = None
            self.reload()


__all__ = ["ReviewController"]
