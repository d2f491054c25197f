"""What marks a question wherever flags show (⚑, the flagged-only filter, explorations):
the open flags, and the review's concerns that no decision settled.

A submitted concern counts as an open flag of the category it maps to
(:data:`~.values.CONCERN_CATEGORY`) while the question's final state is flagged
(:attr:`.final_state.FinalState.flagged`): under review, unresolved, or agreed by K
reviewers. A question the panel confirmed (``key_confirmed``) carries none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.review.final_state import read_final_states

if TYPE_CHECKING:
    from ai4hse_desk.notes.store import NotesStore


def concerned_question_ids(store: NotesStore, category: str | None = None) -> set[str]:
    """Questions with a submitted concern no decision settled; with ``category``, only
    concerns that count as that flag category."""
    return {
        qid
        for qid, state in read_final_states(store).items()
        if state.flagged and (category is None or category in state.flag_categories())
    }


def flagged_question_ids(
    store: NotesStore, *, states: tuple[str, ...] = ("open",), category: str | None = None
) -> set[str]:
    """Ids of the questions with a flag in one of ``states`` (and ``category``), the
    review's standing concerns counted as open flags."""
    flags = store.flags(states=states, category=category)
    flagged = {flag.question_id for flag in flags}
    if "open" in states:
        flagged |= concerned_question_ids(store, category)
    return flagged
