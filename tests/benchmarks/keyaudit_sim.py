"""Simulated key-audit records with planted key errors, for ``bench_keyaudit.py``.

What fools simple methods is built in: genuinely hard questions where runs
scatter; popular misconceptions where weak runs converge on one wrong answer;
runs of very different skill; a few runs that reproduce the recorded key
whatever it is; correlated repetitions (a run redraws its answer on a
repetition only now and then). The records are the key audit's own tallies
(:class:`Cell`, :class:`RunTally`), so the desk's code scores them unchanged.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import dataclass

from ai4hse_desk.audit.records import Option, Question
from ai4hse_desk.keyaudit.tally import Cell, RunTally
from ai4hse_desk.protocol.outcome import Track

Answer = tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class Family:
    name: str
    letters: bool  # single_choice (one letter) or multi-select (a Boolean per option)
    runs: int
    repetitions: int
    options: tuple[int, int]  # min, max
    questions: int = 600
    error_rate: float = 0.05
    hard_share: float = 0.2
    lure_share: float = 0.15
    copiers: int = 2


@dataclass(slots=True)
class Simulation:
    questions: list[Question]
    cells: dict[str, dict[str, Cell]]
    runs: dict[str, RunTally]
    wrong: dict[str, bool]  # question id -> key planted wrong


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def _wrong_answer(rng: random.Random, truth: Answer, letters: bool) -> Answer:
    k = len(truth)
    if letters:
        right = truth.index(True)
        pick = rng.choice([i for i in range(k) if i != right])
        return tuple(i == pick for i in range(k))
    flips = set(rng.sample(range(k), 1 if rng.random() < 0.7 else 2))
    return tuple(not v if i in flips else v for i, v in enumerate(truth))


def _draw(
    rng: random.Random, truth: Answer, lure: Answer | None, skill: float, p: float, letters: bool
) -> Answer:
    """One answer: right with probability ``p``; else the lure (weak runs more often),
    else a random wrong answer."""
    if rng.random() < p:
        return truth
    if lure is not None and rng.random() < 1.2 - skill:
        return lure
    return _wrong_answer(rng, truth, letters)


def simulate(family: Family, seed: int) -> Simulation:
    rng = random.Random(seed)
    track = Track.SINGLE_CHOICE if family.letters else Track.ANSWER_ONLY
    skills = [rng.uniform(0.35, 0.95) for _ in range(family.runs)]
    copiers = set(range(min(family.copiers, max(family.runs // 5, 1))))
    run_ids = [f"r{j:02d}" for j in range(family.runs)]
    runs = {r: RunTally(r, f"model-{r}", track) for r in run_ids}
    questions: list[Question] = []
    cells: dict[str, dict[str, Cell]] = {}
    wrong: dict[str, bool] = {}
    for q in range(family.questions):
        qid = f"Q{q:05d}"
        k = rng.randint(*family.options)
        if family.letters:
            right = rng.randrange(k)
            truth: Answer = tuple(i == right for i in range(k))
        else:
            truth = tuple(rng.random() < 0.4 for _ in range(k))
            if not any(truth):
                truth = tuple(i == rng.randrange(k) for i in range(k))
        planted = rng.random() < family.error_rate
        key = _wrong_answer(rng, truth, family.letters) if planted else truth
        hardness = (
            rng.uniform(1.5, 3.5) if rng.random() < family.hard_share else rng.uniform(-1, 0.5)
        )
        lure = (
            _wrong_answer(rng, truth, family.letters) if rng.random() < family.lure_share else None
        )
        questions.append(Question(qid, q + 1, f"Question {q}", tuple(
            Option(i, f"option {i} of {qid}", v) for i, v in enumerate(key))))  # fmt: skip
        wrong[qid] = planted
        by_run: dict[str, Cell] = {}
        for j, run_id in enumerate(run_ids):
            skill = skills[j]
            p_right = _sigmoid(math.log(skill / (1 - skill)) - hardness)

            args = (rng, truth, lure, skill, p_right, family.letters)
            copier = j in copiers and rng.random() < 0.9
            cell = Cell()
            answer = key if copier else _draw(*args)
            for rep in range(family.repetitions):
                if rep and not copier and rng.random() < 0.3:
                    answer = _draw(*args)
                cell.attempts += 1
                cell.valid += 1
                cell.selections[answer] += 1
                if answer == key:
                    cell.correct += 1
            by_run[run_id] = cell
            runs[run_id].attempts += cell.attempts
            runs[run_id].correct += cell.correct
        cells[qid] = by_run
    return Simulation(questions, cells, runs, wrong)


def plurality(question: Question, cells: dict[str, Cell]) -> tuple[float, float]:
    """(runs agreeing on one non-key answer, share of runs disagreeing with the key),
    over the runs' majority votes."""
    votes = [cell.majority() for cell in cells.values()]
    against = Counter(v for v in votes if v is not None and v != question.key)
    top = max(against.values(), default=0)
    return float(top), sum(against.values()) / max(len(votes), 1)


__all__ = ["Family", "Simulation", "plurality", "simulate"]
