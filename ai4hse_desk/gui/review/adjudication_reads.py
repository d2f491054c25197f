"""The adjudication workspace's reads and its one write, as the ``"notes"`` lane runs them.

No Qt here. :func:`read_adjudication` reads the queue for the adjudicator named in
the window (:meth:`~ai4hse_desk.review.adjudication.Adjudication.queue`: only the
questions that person may decide — never one they review) and leaves out what the
window's visibility policy hides (``blind``); :func:`decide` records a decision
(the core refuses a question not in the queue, a correction equal to the official
key, an adjudicator who reviews the question) and returns it with the decision it
replaced, for *Notes ▸ Undo*.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ai4hse_desk.review.values import CORRECTED_IS_OFFICIAL, corrects_to_the_official_key

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence, Set

    from ai4hse_desk.index import ListRow, ReviewIndex
    from ai4hse_desk.notes.store import NotesStore
    from ai4hse_desk.review.queue import QueueItem
    from ai4hse_desk.review.records import Decision

#: A decision before a change (``None``: the first one) and after it.
DecisionChange = tuple["Decision | None", "Decision"]
CHOOSE: Final = "Choose a decision before recording it."


@dataclass(frozen=True)
class DecisionValues:
    """What the decision form holds (``key`` only for ``key_corrected``)."""

    decision: str | None
    key: tuple[str, ...] | None
    note: str

    def problem(self, official: Sequence[bool]) -> str:
        """Why these values cannot be recorded against the ``official`` key ("" if they can)."""
        if self.decision is None:
            return CHOOSE
        if corrects_to_the_official_key(self.decision, self.key, tuple(official)):
            return f"{CORRECTED_IS_OFFICIAL}."
        return ""


@dataclass(frozen=True)
class AdjudicationRead:
    """The queue as the adjudicator named in the window may see it.

    Attributes:
        items: the questions shown, corpus order (the open ones; with "decided too",
            also those decided).
        open, decided: how many of the questions this person may decide are open or decided.
        own: questions of the queue they review (another person decides them).
        hidden: questions the visibility policy hides from them (never shown).
    """

    adjudicator: str | None
    items: tuple[QueueItem, ...] = ()
    open: int = 0
    decided: int = 0
    own: int = 0
    hidden: int = 0

    def item(self, question_id: str | None) -> QueueItem | None:
        """The item of ``question_id`` if it is shown."""
        return next((i for i in self.items if i.question_id == question_id), None)


def read_adjudication(
    store: NotesStore | None,
    adjudicator: str | None,
    *,
    include_decided: bool,
    blind: Set[str] = frozenset(),
) -> AdjudicationRead:
    """The adjudication queue of ``store`` for ``adjudicator`` (``None``: not known yet)."""
    if store is None or adjudicator is None:
        return AdjudicationRead(adjudicator)
    from ai4hse_desk.review.adjudication import Adjudication  # SQLAlchemy, as the store has

    adjudication = Adjudication(store)
    everyone = adjudication.queue(include_decided=True)
    mine = adjudication.queue(include_decided=True, adjudicator=adjudicator)
    allowed = {item.question_id for item in mine}
    seen = [item for item in mine if item.question_id not in blind]
    shown = seen if include_decided else [item for item in seen if item.open]
    opened = sum(item.open for item in seen)
    return AdjudicationRead(
        adjudicator,
        tuple(shown),
        opened,
        len(seen) - opened,
        sum(item.question_id not in allowed for item in everyone),
        len(mine) - len(seen),
    )


def read_rows(index: ReviewIndex | None, question_id: str) -> tuple[ListRow, ...]:
    """Every attempt of ``question_id`` (the compare grid's rows: the runs' choices)."""
    return () if index is None else tuple(index.compare_grid(question_id))


def decide(question_id: str, values: DecisionValues) -> Callable[[NotesStore, str], DecisionChange]:
    """The work recording ``values`` on ``question_id`` as the adjudicator given to it."""

    def work(store: NotesStore, who: str) -> DecisionChange:
        from ai4hse_desk.review.adjudication import Adjudication

        adjudication = Adjudication(store)
        before = next((d for d in adjudication.decisions() if d.question_id == question_id), None)
        after = adjudication.adjudicate(
            question_id, who, str(values.decision), key=values.key, note=values.note
        )
        return before, after

    return work


__all__ = [
    "AdjudicationRead",
    "DecisionChange",
    "DecisionValues",
    "decide",
    "read_adjudication",
    "read_rows",
]
