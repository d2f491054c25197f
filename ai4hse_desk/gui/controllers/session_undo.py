"""Undo and redo of the window's own changes: flags and notes, verdicts, decisions.

The window keeps, for this session, the order of the changes it made: a flag or note
change, a change of the reviewer's verdict, or an adjudicator's decision. *Notes ▸
Undo last change* (Ctrl+Z) takes back the latest one — a note change through the
store's own undo (:func:`.undo_steps.step`, which walks the reviewer's note changes),
a verdict by appending one revision that gives it its previous values back
(:meth:`~ai4hse_desk.review.book.ReviewBook.restore_verdict`), a decision likewise
(:meth:`~ai4hse_desk.review.adjudication.Adjudication.restore_decision`); *Redo*
re-applies what the latest undo took back, until a new change. Nothing is rewritten:
each is one more revision in the history. A blind answer is never taken back (it is
kept for good); a question's first decision, undone, becomes ``unresolved`` (the
question is back in the queue: a history keeps no way to "no decision"). A verdict or
decision changed meanwhile by another window is left alone, with the reason. With
nothing of this session's left, Undo goes on with the store's earlier note changes
(and Redo with what they took back, unless this session changed something since).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Final

from PySide6.QtCore import QObject, Signal

from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.controllers import undo_steps
from ai4hse_desk.review.names import decision_name, verdict_name

if TYPE_CHECKING:
    from collections.abc import Callable

    from ai4hse_desk.gui.controllers.notes import NotesController
    from ai4hse_desk.review.records import Decision, ReviewVerdict

#: A flag or note change of this session (the store knows which).
NOTE: Final = "note"


@dataclass(frozen=True)
class VerdictStep:
    """One change of a verdict: as it was (``None``: the blind answer made it) and as it
    became."""

    before: ReviewVerdict | None
    after: ReviewVerdict


@dataclass(frozen=True)
class DecisionStep:
    """One decision recorded: the one it replaced (``None``: the first) and itself."""

    before: Decision | None
    after: Decision


def _undecided(decision: Decision) -> Decision:
    """What undoing a question's first decision records: ``unresolved``, no key."""
    return replace(decision, decision="unresolved", corrected_key=None, note="")


def _values(verdict: ReviewVerdict) -> str:
    """``"draft, Question unclear"``: the state and the verdict, in the window's words."""
    return f"{verdict.state}, {verdict_name(verdict.verdict) or 'no verdict yet'}"


class SessionUndo(QObject):
    """The window's changes of this session, in order, and their undo and redo.

    Signals:
        message: a line for the status bar.
        verdict_restored: the question whose verdict an undo or redo gave back.
        decision_restored: the question whose decision an undo or redo gave back.
    """

    message = Signal(str)
    verdict_restored = Signal(str)
    decision_restored = Signal(str)

    def __init__(
        self,
        notes: NotesController,
        reviewer: Callable[[], str | None],
        parent: QObject | None = None,
    ) -> None:
        """``reviewer``: the reviewer's name, asked if need be (``None``: not given)."""
        super().__init__(parent)
        self._notes, self._reviewer = notes, reviewer
        self._done: list[VerdictStep | DecisionStep | str] = []
        self._undone: list[VerdictStep | DecisionStep | str] = []
        self._now: dict[str, ReviewVerdict] = {}  # each verdict as this window last left it
        self._decided: dict[str, Decision] = {}  # each question's decision, likewise

    def record_note(self) -> None:
        """A flag or note change was saved (a new change: nothing is left to redo)."""
        self._done.append(NOTE)
        self._undone.clear()

    def record_verdict(self, before: ReviewVerdict | None, after: ReviewVerdict) -> None:
        """A verdict change was saved: ``before`` (``None``: it was made now) → ``after``."""
        self._done.append(VerdictStep(before, after))
        self._undone.clear()
        self._now[after.verdict_id] = after

    def record_decision(self, before: Decision | None, after: Decision) -> None:
        """A decision was recorded: ``before`` (``None``: the first) → ``after``."""
        self._done.append(DecisionStep(before, after))
        self._undone.clear()
        self._decided[after.question_id] = after

    def undo(self) -> None:
        """Take back the latest change of this session (else the store's latest note change)."""
        self._step(redo=False)

    def redo(self) -> None:
        """Re-apply what the latest undo took back."""
        self._step(redo=True)

    def _step(self, *, redo: bool) -> None:
        stack = self._undone if redo else self._done
        if redo and not stack and self._done:  # a change since the last undo: none to redo
            if (reviewer := self._reviewer()) is not None:
                self.message.emit(undo_steps.step_message(reviewer, (None, ""), redo=True))
            return
        top = stack[-1] if stack else NOTE
        if isinstance(top, VerdictStep):
            self._verdict(top, redo=redo)
        elif isinstance(top, DecisionStep):
            self._decision(top, redo=redo)
        else:
            self._note(redo=redo)

    def _note(self, *, redo: bool) -> None:
        word = "redo" if redo else "undo"
        reviewer = None if self._notes.store is None else self._reviewer()
        if reviewer is None:
            if self._notes.store is None:
                self.message.emit(f"No note change to {word}.")
            return
        task = self._notes.write(lambda store: undo_steps.step(store, reviewer, redo=redo))
        if task is None:
            return
        stack, other = (self._undone, self._done) if redo else (self._done, self._undone)

        def done(result: undo_steps.Step) -> None:
            if result[0] is not None and stack and stack[-1] == NOTE:
                other.append(stack.pop())
            self.message.emit(undo_steps.step_message(reviewer, result, redo=redo))

        task.succeeded.connect(done)
        task.failed.connect(lambda reason: self._notes.tell(f"Nothing to {word}", reason))

    def _verdict(self, step: VerdictStep, *, redo: bool) -> None:
        from ai4hse_desk.review.book import ReviewBook  # loaded with the store already

        stack, other = (self._undone, self._done) if redo else (self._done, self._undone)
        stack.pop()
        who, where = display_text(step.after.reviewer), display_text(step.after.question_id)
        if step.before is None:
            self.message.emit(
                f"Nothing undone: {who}'s blind answer on {where} is kept for good "
                "(it was given before the key was shown)."
            )
            return
        current = self._now.get(step.after.verdict_id, step.after)
        target, action = (step.after, "redo") if redo else (step.before, "undo")
        task = self._notes.write(
            lambda store: ReviewBook(store).restore_verdict(current, target, action=action)
        )
        if task is None:
            stack.append(step)  # nothing can be written now: it stays to be undone
            return

        def done(restored: ReviewVerdict) -> None:
            self._now[restored.verdict_id] = restored
            other.append(step)
            what = "Redone" if redo else "Undone"
            self.message.emit(
                f"{what}: {who}'s verdict on {where} is back to {_values(restored)}; "
                "the history keeps every revision."
            )
            self.verdict_restored.emit(step.after.question_id)

        task.succeeded.connect(done)
        task.failed.connect(lambda reason: self._notes.tell(f"Nothing to {action}", reason))

    def _decision(self, step: DecisionStep, *, redo: bool) -> None:
        from ai4hse_desk.review.adjudication import Adjudication  # loaded with the store

        stack, other = (self._undone, self._done) if redo else (self._done, self._undone)
        stack.pop()
        qid = step.after.question_id
        current = self._decided.get(qid, step.after)
        target = step.after if redo else (step.before or _undecided(step.after))
        task = self._notes.write(
            lambda store: Adjudication(store).restore_decision(current, target)
        )
        if task is None:
            stack.append(step)  # nothing can be written now: it stays to be undone
            return
        action = "redo" if redo else "undo"

        def done(restored: Decision) -> None:
            self._decided[qid] = restored
            other.append(step)
            self.message.emit(
                f"{'Redone' if redo else 'Undone'}: the decision on {display_text(qid)} is "
                f"back to {decision_name(restored.decision)}; the history keeps every revision."
            )
            self.decision_restored.emit(qid)

        task.succeeded.connect(done)
        task.failed.connect(lambda reason: self._notes.tell(f"Nothing to {action}", reason))


__all__ = ["NOTE", "DecisionStep", "SessionUndo", "VerdictStep"]
