"""What the Review view records, as the notes lane runs it (no Qt here).

Each change is a function of the store and the reviewer's name, run by
:meth:`~ai4hse_desk.gui.controllers.notes.NotesController.write`, with the status
bar's line once it is saved. It returns the reviewer's verdict before and after it
(:data:`Change`), which the window keeps for *Notes ▸ Undo last change*
(:class:`~ai4hse_desk.gui.controllers.session_undo.SessionUndo`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ai4hse_desk.review.names import verdict_name

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ai4hse_desk.gui.review.form import VerdictValues
    from ai4hse_desk.notes.store import NotesStore
    from ai4hse_desk.review.records import ReviewVerdict

#: A verdict before a change (``None``: the change made it) and after it.
Change = tuple["ReviewVerdict | None", "ReviewVerdict"]
#: Work on the store for a reviewer, and what the status bar says once it is saved.
Recording = tuple["Callable[[NotesStore, str], Change]", str]
SKIP_BLIND: Final = (
    "See the key of {qid} without answering it blind first?\n\nThe store records that you "
    "saw it without a blind answer: this question's blind answer is given up for good."
)


def blind_answer(question_id: str, answer: Sequence[str] | None) -> Recording:
    """Record the blind answer on ``question_id`` (``None``: skip blind, "not blind")."""

    def work(store: NotesStore, who: str) -> Change:
        from ai4hse_desk.review.book import ReviewBook

        return None, ReviewBook(store).record_blind(question_id, who, answer)

    if answer is None:
        return work, f"{question_id}: recorded as not blind."
    return work, f"Blind answer on {question_id} recorded."


def verdict(question_id: str, values: VerdictValues, *, submit: bool) -> Recording:
    """Submit (``submit``) or save as a draft the verdict ``values`` on ``question_id``."""

    def work(store: NotesStore, who: str) -> Change:
        from ai4hse_desk.review.book import ReviewBook

        book = ReviewBook(store)
        before = book.own_verdict(question_id, who)
        return before, book.save_verdict(
            question_id, who, verdict=values.verdict, proposed_key=values.proposed_key,
            confidence=values.confidence, source=values.source, note=values.note, submit=submit,
        )  # fmt: skip

    what = verdict_name(values.verdict) if values.verdict else "no verdict yet"
    return work, f"{'Submitted' if submit else 'Draft saved'}: {question_id} ({what})."


__all__ = ["SKIP_BLIND", "Change", "Recording", "blind_answer", "verdict"]
