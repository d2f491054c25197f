"""Reviewer effort: each time the Review page shows a question, recorded off the GUI thread.

The report's active time runs from a question shown to the verdict submitted
(:mod:`ai4hse_desk.review.effort`). :class:`Showings` appends a showing through the
notes store's lane (:meth:`~ai4hse_desk.review.book.ReviewBook.record_shown`; nothing
is written once the reviewer's verdict on it is submitted). A question shown before
the file has a notes store (a review without a plan, nothing recorded yet) is
recorded with the reviewer's first answer on it, in the same write: looking at the
Review page creates no store.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable

    from ai4hse_desk.gui.controllers.notes import NotesController
    from ai4hse_desk.gui.controllers.reviewer import ReviewerIdentity
    from ai4hse_desk.notes.store import NotesStore

T = TypeVar("T")


def record(store: NotesStore, question_id: str, reviewer: str) -> bool:
    """Append a showing of ``question_id`` to ``reviewer`` (False: nothing written — the
    verdict is submitted, or the name is not one of the plan's reviewers)."""
    from ai4hse_desk.notes import ReviewError
    from ai4hse_desk.review.book import ReviewBook

    try:
        return ReviewBook(store).record_shown(question_id, reviewer)
    except ReviewError:
        return False


class Showings:
    """The Review page's showings of questions, recorded for the reviewer named."""

    def __init__(self, notes: NotesController, identity: ReviewerIdentity) -> None:
        self._notes, self._identity = notes, identity
        self._waiting: str | None = None  # shown before the store existed

    def shown(self, question_id: str) -> None:
        """``question_id`` is on screen now (a new showing: another question, or the page
        shown again)."""
        reviewer = self._identity.name
        self._waiting = None
        if reviewer is None or not self._notes.writable:
            return
        if self._notes.store is None:
            self._waiting = question_id  # recorded with the first answer (no store yet)
            return
        self._notes.write(lambda store: record(store, question_id, reviewer), quiet=True)

    def with_first(
        self, question_id: str, work: Callable[[NotesStore, str], T]
    ) -> Callable[[NotesStore, str], T]:
        """``work`` on ``question_id``, preceded by its showing if that is still to record."""
        if self._waiting != question_id:
            return work
        self._waiting = None

        def both(store: NotesStore, who: str) -> T:
            record(store, question_id, who)
            return work(store, who)

        return both


__all__ = ["Showings", "record"]
