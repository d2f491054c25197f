"""Review ▸ Plan…: a review plan made from the window, its creator the name in the window.

:class:`PlanController` asks for the plan's settings (:class:`~ai4hse_desk.gui.dialogs.plan.
PlanDialog`), then makes it on the notes store's lane
(:meth:`~ai4hse_desk.review.book.ReviewBook.make_plan`, ``created_by`` the name in the
window — asked the first time). The key audit's order uses the window's key audit when
it is computed (else it is computed there). What the store refuses (a plan already in
force, a name that is one person's twice …) comes back in the dialog as one plain line,
the values kept. Every view follows the new plan (the notes are read again after a
change: the visibility policy, the queues, the marks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from ai4hse_desk.display.format import plural
from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.errors import first_line
from ai4hse_desk.notes import ReviewError

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from PySide6.QtWidgets import QWidget

    from ai4hse_desk.gui.controllers.notes import NotesController
    from ai4hse_desk.gui.controllers.reviewer import ReviewerIdentity
    from ai4hse_desk.gui.dialogs.plan import PlanValues
    from ai4hse_desk.index.session import AuditSession
    from ai4hse_desk.keyaudit import KeyAuditResult
    from ai4hse_desk.notes.store import NotesStore
    from ai4hse_desk.review.records import StoredPlan


def make_plan(
    store: NotesStore, values: PlanValues, creator: str, ranking: Sequence[str] | None
) -> StoredPlan:
    """Make the plan ``values`` ask for, by ``creator`` (every question of the file)."""
    from ai4hse_desk.review.book import ReviewBook

    book = ReviewBook(store)
    if not values.replace and book.plan_header() is not None:  # (the store checks it again)
        raise ReviewError(
            "a review plan already exists; tick “Replace the plan in force” to make a new "
            "one (every verdict stays)"
        )
    if values.order == "keyaudit" and ranking is None:
        from ai4hse_desk.keyaudit import compute_key_audit

        ranking = [item.question_id for item in compute_key_audit(store.audit).questions]
    return book.make_plan(
        reviewers=values.reviewers, per_question=values.per_question, order=values.order,
        seed=values.seed, ranking=ranking, replace=values.replace, created_by=creator,
    )  # fmt: skip


def plan_line(plan: StoredPlan) -> str:
    """The status bar's line once the plan is made."""
    made = plan.plan
    who = ", ".join(display_text(name) for name in made.reviewers)
    seed = f", seed {made.seed}" if made.seed is not None else ""
    return (
        f"Review plan made by {display_text(plan.created_by)}: "
        f"{plural(len(made.questions), 'question')}, {made.per_question} reviewers each "
        f"({who}), {made.order} order{seed}."
    )


class PlanController(QObject):
    """Asks for the plan's settings, then makes the plan in the background.

    Signals:
        message: a line for the status bar.
    """

    message = Signal(str)

    def __init__(
        self,
        notes: NotesController,
        identity: ReviewerIdentity,
        key_audit: Callable[[], KeyAuditResult | None],
        dialogs: QWidget,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self._notes, self._identity, self._key_audit = notes, identity, key_audit
        self._dialogs = dialogs
        self._session: AuditSession | None = None

    def set_session(self, session: AuditSession | None) -> None:
        """Another file is open (or none)."""
        self._session = session

    def ask(self) -> None:
        """Review ▸ Plan…: the dialog, then the plan."""
        self._ask(None, "")

    def _ask(self, start: PlanValues | None, problem: str) -> None:
        """The dialog (again with ``start`` and the store's ``problem`` after a refusal)."""
        session = self._session
        if session is None or not self._notes.writable:
            self.message.emit(f"No plan can be made now: {self._notes.unavailable}.")
            return
        try:
            creator = self._identity.ensure(self._dialogs)
        except ReviewError as exc:
            self._notes.tell("Reviewer name", first_line(exc))
            return
        if creator is None:
            self.message.emit("No plan made: the plan records who made it (a name is needed).")
            return
        from ai4hse_desk.gui.dialogs.plan import PlanDialog  # loaded when first asked for

        values = PlanDialog.ask(self._dialogs, len(session.questions), creator, start, problem)
        if values is None:
            return
        result = self._key_audit()
        ranking = None if result is None else [item.question_id for item in result.questions]
        task = self._notes.write(lambda store: make_plan(store, values, creator, ranking))
        if task is None:
            self.message.emit(f"No plan made: {self._notes.unavailable}.")
            return
        task.succeeded.connect(lambda plan: self.message.emit(plan_line(plan)))
        task.failed.connect(lambda reason: self._ask(values, f"No plan made: {reason}"))


__all__ = ["PlanController", "make_plan", "plan_line"]
