"""The Bayes-optimal P(key wrong) of a simulated family, knowing how it was simulated.

Not a method a reviewer could use: it is given what no audit file holds (every
run's skill, which runs copy the key, the hardness and misconception mixtures,
how repetitions are redrawn) and integrates over what it is not given (each
question's truth, hardness and misconception). Its ranking is the best any
method can reach on these records, so ``bench_keyaudit.py`` prints it beside the
methods: where even it is not 10 % above a baseline, no method can be.

Exact for families of up to 3 repetitions (every ordering of a run's answers is
summed over); ``None`` beyond, and for more than 4 options in multi-select (too many
candidate truths to enumerate cheaply).
"""

from __future__ import annotations

import itertools
import math
import random
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from keyaudit_sim import Family, Simulation

Answer = tuple[bool, ...]
_POINTS = 8  # midpoints per uniform of the hardness mixture


def _hardness(family: Family) -> tuple[np.ndarray, np.ndarray]:
    hard = 1.5 + 2.0 * (np.arange(_POINTS) + 0.5) / _POINTS
    easy = -1.0 + 1.5 * (np.arange(_POINTS) + 0.5) / _POINTS
    grid = np.concatenate([hard, easy])
    weights = np.concatenate([np.full(_POINTS, family.hard_share / _POINTS),
                              np.full(_POINTS, (1 - family.hard_share) / _POINTS)])  # fmt: skip
    return grid, weights


def _wrong(v: Answer, t: Answer, letters: bool) -> float:
    """P(a random wrong answer drawn from truth ``t`` is ``v``) (keyaudit_sim._wrong_answer)."""
    k = len(t)
    d = sum(a != b for a, b in zip(v, t, strict=True))
    if letters:
        return 1.0 / (k - 1) if d == 2 else 0.0  # two positions differ between one-hot answers
    if d == 1:
        return 0.7 / k
    if d == 2:
        return 0.3 / math.comb(k, 2)
    return 0.0


@lru_cache(maxsize=4096)
def _neighbours(t: Answer, letters: bool) -> tuple[Answer, ...]:
    k = len(t)
    if letters:
        return tuple(tuple(i == j for i in range(k)) for j in range(k) if not t[j])
    out = []
    for size in (1, 2):
        for flips in itertools.combinations(range(k), size):
            out.append(tuple(not v if i in flips else v for i, v in enumerate(t)))
    return tuple(out)


def _orderings(selections: dict[Answer, int]) -> list[tuple[Answer, ...]]:
    items = [a for a, n in selections.items() for _ in range(n)]
    return sorted(set(itertools.permutations(items)))


def _run_likelihood(
    orders: list[tuple[Answer, ...]],
    t: Answer,
    lure: Answer | None,
    p: np.ndarray,
    lure_p: float,
    letters: bool,
) -> np.ndarray:
    """P(this run's answers | truth, lure) per hardness point (honest run)."""

    def draw(v: Answer) -> np.ndarray:
        wrong = _wrong(v, t, letters)
        if lure is not None:
            wrong = lure_p * (v == lure) + (1 - lure_p) * wrong
        return p * (v == t) + (1 - p) * wrong

    total = np.zeros_like(p)
    for order in orders:
        if not order:  # no answer recorded: says nothing
            total = total + 1.0
            continue
        prob = draw(order[0])
        for prev, v in itertools.pairwise(order):
            prob = prob * (0.7 * (v == prev) + 0.3 * draw(v))
        total = total + prob
    return total


def oracle(family: Family, sim: Simulation, seed: int) -> list[float] | None:
    """P(key planted wrong) per question, or None where the oracle is not exact."""
    if family.repetitions > 3 or (not family.letters and family.options[1] > 4):
        return None
    rng = random.Random(seed)
    skills = [rng.uniform(0.35, 0.95) for _ in range(family.runs)]
    copiers = set(range(min(family.copiers, max(family.runs // 5, 1))))
    grid, weights = _hardness(family)
    run_ids = sorted(sim.runs)
    p_right = [1 / (1 + np.exp(-(math.log(s / (1 - s)) - grid))) for s in skills]
    out = []
    for question in sim.questions:
        key = question.key
        cells = sim.cells[question.question_id]
        orders = [_orderings(dict(cells[r].selections)) for r in run_ids]
        truths: list[tuple[Answer, float, bool]] = [(key, _truth_prior(key, family), False)]
        for t in _neighbours(key, family.letters):
            prior = _truth_prior(t, family) * _wrong(key, t, family.letters)
            truths.append((t, prior * family.error_rate / (1 - family.error_rate), True))
        mass = {False: 0.0, True: 0.0}
        for t, prior, planted in truths:
            lures: list[tuple[Answer | None, float]] = [(None, 1 - family.lure_share)]
            lures += [(lure, family.lure_share * _wrong(lure, t, family.letters))
                      for lure in _neighbours(t, family.letters)]  # fmt: skip
            for lure, lure_weight in lures:
                like = np.full(len(grid), lure_weight * prior)
                for j in range(len(run_ids)):
                    honest = _run_likelihood(orders[j], t, lure, p_right[j],
                                             min(1.0, 1.2 - skills[j]), family.letters)  # fmt: skip
                    if j in copiers:
                        copied = float(orders[j] == [(key,) * family.repetitions])
                        honest = 0.9 * copied + 0.1 * honest
                    like = like * honest
                mass[planted] += float(like @ weights)
        out.append(mass[True] / (mass[True] + mass[False]))
    return out


def _truth_prior(t: Answer, family: Family) -> float:
    if family.letters:
        return 1.0
    trues = sum(t)
    return 0.4**trues * 0.6 ** (len(t) - trues)


__all__ = ["oracle"]
