"""What marks a question ⚑ wherever flags show (the attempt list, the flagged-only filter,
the sensitivity exploration before any decision): an open flag, or a submitted review
concern that no decision settled.

A concern keeps its question marked while the question's final state is flagged
(:attr:`.final_state.FinalState.flagged`: under review, unresolved, or agreed by K
reviewers); a question the panel confirmed (``key_confirmed``) carries none. A concern
counts as the flag category it maps to (:data:`~.values.CONCERN_CATEGORY`). Every item
counts only where the viewer's visibility policy shows it (:mod:`.visibility`): a blind
question is never marked by someone else's concern.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.review.final_state import read_verdicts_and_states
from ai4hse_desk.review.values import CONCERN_CATEGORY

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ai4hse_desk.notes.model import Flag
    from ai4hse_desk.notes.store import NotesStore
    from ai4hse_desk.review.final_state import FinalState
    from ai4hse_desk.review.records import ReviewVerdict
    from ai4hse_desk.review.visibility import Visibility


def standing(states: Mapping[str, FinalState]) -> frozenset[str]:
    """The questions whose concerns still stand: their final state is flagged."""
    return frozenset(qid for qid, state in states.items() if state.flagged)


def marked_questions(
    store: NotesStore, sight: Visibility, *, category: str | None = None
) -> set[str]:
    """The questions marked ⚑ for the viewer of ``sight``: an open flag or a standing
    concern (of ``category``, when given) that ``sight`` shows."""
    verdicts, states = store.run(read_verdicts_and_states)
    keep = standing(states)
    codes = {code for code, flag in CONCERN_CATEGORY.items() if category in (None, flag)}
    concerns = [
        verdict
        for verdict in verdicts
        if verdict.concern and verdict.question_id in keep and verdict.verdict in codes
    ]
    items: list[Flag | ReviewVerdict] = [*store.flags(states=("open",), category=category)]
    items += concerns
    return {item.question_id for item in items if sight.shows_item(item.question_id, item.reviewer)}


__all__ = ["marked_questions", "standing"]
