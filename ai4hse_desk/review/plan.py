"""A review plan: each selected question to exactly K distinct reviewers, balanced.

The questions are put in the plan's order (``corpus``: the corpus ordinal;
``random``: a shuffle seeded by ``seed``, reproducible; ``keyaudit``: most
suspect first, as the key audit ranks them). Question ``i`` of that order goes to
the K reviewers at positions ``i·K … i·K + K − 1`` of the reviewer list, taken
round: consecutive positions are distinct as long as K ≤ the number of
reviewers, and every reviewer gets ⌊nK/R⌋ or ⌈nK/R⌉ questions — each reviewer's
count within one of every other's. A reviewer's queue is their questions in the
plan's order.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ai4hse_desk.notes.errors import ReviewError

if TYPE_CHECKING:
    from collections.abc import Sequence

ORDERS: Final = ("corpus", "random", "keyaudit")


@dataclass(frozen=True, slots=True)
class Plan:
    """Who reviews what, and in which order.

    Attributes:
        per_question: K, reviewers per question.
        order: how questions were ordered (:data:`ORDERS`).
        seed: the shuffle's seed (``random`` order), else ``None``.
        reviewers: everyone in the plan, as given.
        questions: the questions in plan order.
        assignments: question → its K reviewers, in name order.
    """

    per_question: int
    order: str
    seed: int | None
    reviewers: tuple[str, ...]
    questions: tuple[str, ...]
    assignments: dict[str, tuple[str, ...]]

    def queue(self, reviewer: str) -> list[str]:
        """``reviewer``'s questions in plan order."""
        return [q for q in self.questions if reviewer in self.assignments[q]]

    def counts(self) -> dict[str, int]:
        """Questions assigned per reviewer."""
        return {r: sum(r in who for who in self.assignments.values()) for r in self.reviewers}


def plan_review(
    questions: Sequence[str],
    reviewers: Sequence[str],
    per_question: int,
    *,
    order: str = "corpus",
    seed: int | None = None,
    ranking: Sequence[str] | None = None,
) -> Plan:
    """A balanced plan (module docstring).

    Args:
        questions: the selected question ids, in corpus order.
        reviewers: distinct reviewer names.
        per_question: K, 1 ≤ K ≤ len(reviewers).
        order: ``corpus``, ``random`` (needs nothing else; ``seed`` defaults to 0)
            or ``keyaudit`` (needs ``ranking``: question ids, most suspect first).
        ranking: the key audit's order, for ``keyaudit``.

    Raises:
        ReviewError: no questions, duplicate reviewers, K out of range, an unknown order.
    """
    if order not in ORDERS:
        raise ReviewError(f"unknown plan order {order!r} (one of {', '.join(ORDERS)})")
    if not questions:
        raise ReviewError("a plan needs at least one question")
    if len(set(reviewers)) != len(reviewers):
        raise ReviewError("each reviewer may be named once in a plan")
    if not 1 <= per_question <= len(reviewers):
        raise ReviewError(
            f"--per-question {per_question} needs at least that many reviewers "
            f"({len(reviewers)} given)"
        )
    ordered = list(dict.fromkeys(questions))
    if order == "random":
        seed = 0 if seed is None else seed
        random.Random(seed).shuffle(ordered)
    elif order == "keyaudit":
        rank = {qid: n for n, qid in enumerate(ranking or ())}
        ordered.sort(key=lambda qid: rank.get(qid, len(rank)))
    if order != "random":
        seed = None
    people = len(reviewers)
    assignments = {
        qid: tuple(sorted(reviewers[(n * per_question + j) % people] for j in range(per_question)))
        for n, qid in enumerate(ordered)
    }
    return Plan(per_question, order, seed, tuple(reviewers), tuple(ordered), assignments)
