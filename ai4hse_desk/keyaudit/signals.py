"""Response-based signals of one question: consensus, discrimination, difficulty, instability.

Every signal is computed from the desk's own outcomes (see :mod:`.tally`),
with **one vote per run**: a run's answer to a question is the majority of its
valid repetitions (no vote on a tie), so repetitions never count as independent
evidence. Numbers are kept per track (``by_track``) and combined only for the
ranking components, which :mod:`.ranking` weighs.

* consensus against the key — per option, the runs whose majority disagrees
  with the key there, out of every run with a valid repetition (a tied run
  abstains); on ``single_choice`` runs (one-hot keys) a run is counted against
  the *letter it chose* instead of the keyed one. Each run weighs its accuracy
  (:attr:`RunTally.weight`), so strong runs agreeing against the key count
  most. ``concentration`` is the share of those disagreeing runs that give the
  very same answer.
* discrimination — the point-biserial correlation between a run's majority being
  correct and its accuracy on the *other* questions, centred within each track
  and pooled (tracks never mixed in one mean).
* difficulty — correct share of attempts (end-to-end) and of valid attempts; for
  the ranking, the accuracy-weighted mean over runs of each run's wrong share
  of its valid repetitions (strong runs failing says more than weak ones).
* instability — share of runs whose valid repetitions give different answers.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ai4hse_desk.protocol.outcome import TRACK_ORDER, Selection, Track

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ai4hse_desk.audit.records import Question
    from ai4hse_desk.keyaudit.tally import Cell, RunTally


def rnd(value: float | None) -> float | None:
    """Round for JSON (4 decimals); ``None`` stays ``None``."""
    return None if value is None else round(value, 4)


@dataclass(slots=True)
class OptionVotes:
    """Votes of the runs on one option (pooled over tracks, counts kept per track)."""

    position: int
    key: bool
    runs: int = 0
    against: int = 0
    weight: float = 0.0
    weight_against: float = 0.0
    alternatives: Counter[Selection] = field(default_factory=Counter)
    by_track: dict[Track, list[int]] = field(default_factory=dict)  # track -> [runs, against]

    @property
    def weighted_share(self) -> float:
        """Accuracy-weighted share of the voting runs that disagree with the key here."""
        return self.weight_against / self.weight if self.weight else 0.0

    @property
    def concentration(self) -> float:
        """Share of the disagreeing runs that give the most common (same) answer."""
        return self.alternatives.most_common(1)[0][1] / self.against if self.against else 0.0

    @property
    def evidence(self) -> float:
        """Ranking component: weighted share shrunk by one pseudo-run agreeing with
        the key (n / (n + 1)), times 0.75 + 0.25 × concentration."""
        if not self.runs:
            return 0.0
        shrunk = self.weighted_share * self.runs / (self.runs + 1)
        return shrunk * (0.75 + 0.25 * self.concentration)

    def to_json(self) -> dict[str, object]:
        return {
            "position": self.position,
            "key": self.key,
            "runs": self.runs,
            "against": self.against,
            "share": rnd(self.against / self.runs) if self.runs else None,
            "weighted_share": rnd(self.weighted_share) if self.runs else None,
            "concentration": rnd(self.concentration) if self.against else None,
            "concentrated": self.runs > 0 and 2 * self.against > self.runs,
            "by_track": {
                track.value: {"runs": counts[0], "against": counts[1]}
                for track, counts in sorted(
                    self.by_track.items(), key=lambda item: TRACK_ORDER.index(item[0])
                )
            },
        }


def letter_mode(track: Track, key: Selection) -> bool:
    """True when the run picks one letter against a one-hot key (``single_choice``)."""
    return track is Track.SINGLE_CHOICE and sum(key) == 1


def consensus(
    question: Question, cells: Mapping[str, Cell], runs: Mapping[str, RunTally]
) -> list[OptionVotes]:
    """Per option, the runs' majority votes against the key.

    Every run with a valid repetition counts in ``runs``; a run without a
    majority (a tie) abstains: it never counts against the key.
    """
    key = question.key
    votes = [OptionVotes(i, k) for i, k in enumerate(key)]
    for run_id, cell in cells.items():
        if not cell.valid:
            continue
        run = runs[run_id]
        answer = cell.majority()
        if answer is not None and len(answer) != len(key):
            continue
        letters = answer is not None and letter_mode(run.track, key) and sum(answer) == 1
        for i, option in enumerate(votes):
            option.runs += 1
            option.weight += run.weight
            counts = option.by_track.setdefault(run.track, [0, 0])
            counts[0] += 1
            if answer is None:
                continue
            if answer[i] and not key[i] if letters else answer[i] != key[i]:
                option.against += 1
                option.weight_against += run.weight
                option.alternatives[answer] += 1
                counts[1] += 1
    return votes


@dataclass(frozen=True, slots=True)
class Discrimination:
    """Pooled within-track point-biserial r (``None`` when undefined)."""

    r: float | None
    runs: int
    df: int
    by_track: dict[Track, float | None]

    @property
    def suspicion(self) -> float:
        """Ranking component: (0.2 − r) / 1.2 clipped to [0, 1], times df / (df + 2)."""
        if self.r is None:
            return 0.0
        return min(1.0, max(0.0, (0.2 - self.r) / 1.2)) * self.df / (self.df + 2)

    def to_json(self) -> dict[str, object]:
        return {
            "r": rnd(self.r),
            "runs": self.runs,
            "by_track": {t.value: rnd(v) for t, v in self.by_track.items()},
        }


def _correlation(points: list[tuple[float, float]]) -> tuple[float, float, float]:
    """Centred sums (Sxy, Sxx, Syy) of one track's points."""
    mx = sum(x for x, _ in points) / len(points)
    my = sum(y for _, y in points) / len(points)
    sxy = sum((x - mx) * (y - my) for x, y in points)
    sxx = sum((x - mx) ** 2 for x, _ in points)
    syy = sum((y - my) ** 2 for _, y in points)
    return sxy, sxx, syy


def _r(sxy: float, sxx: float, syy: float) -> float | None:
    if sxx <= 1e-12 or syy <= 1e-12:
        return None
    return max(-1.0, min(1.0, sxy / math.sqrt(sxx * syy)))


def discrimination(
    question: Question, cells: Mapping[str, Cell], runs: Mapping[str, RunTally]
) -> Discrimination:
    """Correlate each run's majority being right with its accuracy elsewhere."""
    key = question.key
    points: dict[Track, list[tuple[float, float]]] = {}
    for run_id, cell in cells.items():
        run = runs[run_id]
        answer = cell.majority()
        rest = run.rest_accuracy(cell)
        if answer is None or rest is None:
            continue
        points.setdefault(run.track, []).append((rest, 1.0 if answer == key else 0.0))
    total = [0.0, 0.0, 0.0]
    by_track: dict[Track, float | None] = {}
    df = 0
    for track in TRACK_ORDER:
        if track not in points:
            continue
        sums = _correlation(points[track])
        total = [a + b for a, b in zip(total, sums, strict=True)]
        df += len(points[track]) - 1
        by_track[track] = _r(*sums) if len(points[track]) >= 3 else None
    pooled = _r(*total) if df >= 2 else None
    return Discrimination(pooled, sum(map(len, points.values())), df, by_track)


@dataclass(slots=True)
class Counts:
    """Attempt counts (difficulty) and run stability, per track and pooled."""

    attempts: int = 0
    valid: int = 0
    correct: int = 0
    stable_runs: int = 0
    unstable_runs: int = 0
    weight: float = 0.0
    weight_wrong: float = 0.0

    def add(self, cell: Cell, weight: float) -> None:
        if cell.valid:
            self.weight += weight
            self.weight_wrong += weight * (1 - cell.correct / cell.valid)
        self.attempts += cell.attempts
        self.valid += cell.valid
        self.correct += cell.correct
        if cell.valid >= 2:
            if cell.unstable:
                self.unstable_runs += 1
            else:
                self.stable_runs += 1

    @property
    def never_correct(self) -> bool:
        return self.valid > 0 and self.correct == 0

    @property
    def difficulty(self) -> float:
        """Ranking component: accuracy-weighted mean over runs of the share of
        their valid repetitions that are wrong (0 without valid attempts)."""
        return self.weight_wrong / self.weight if self.weight else 0.0

    @property
    def instability(self) -> float:
        """Ranking component: unstable runs / runs with two or more valid repetitions."""
        eligible = self.stable_runs + self.unstable_runs
        return self.unstable_runs / eligible if eligible else 0.0

    def difficulty_json(self) -> dict[str, object]:
        return {
            "attempts": self.attempts,
            "valid": self.valid,
            "correct": self.correct,
            "share_correct": rnd(self.correct / self.attempts) if self.attempts else None,
            "valid_share_correct": rnd(self.correct / self.valid) if self.valid else None,
            "never_correct": self.never_correct,
            "weighted_share_wrong": rnd(self.difficulty) if self.weight else None,
        }

    def instability_json(self) -> dict[str, object]:
        eligible = self.stable_runs + self.unstable_runs
        return {
            "runs": eligible,
            "unstable_runs": self.unstable_runs,
            "share": rnd(self.instability) if eligible else None,
        }


def counts(
    cells: Mapping[str, Cell], runs: Mapping[str, RunTally]
) -> tuple[Counts, dict[Track, Counts]]:
    """Pooled and per-track :class:`Counts` of one question."""
    pooled = Counts()
    per_track: dict[Track, Counts] = {}
    for run_id, cell in cells.items():
        run = runs[run_id]
        pooled.add(cell, run.weight)
        per_track.setdefault(run.track, Counts()).add(cell, run.weight)
    return pooled, {t: per_track[t] for t in TRACK_ORDER if t in per_track}


__all__ = [
    "Counts",
    "Discrimination",
    "OptionVotes",
    "consensus",
    "counts",
    "discrimination",
    "letter_mode",
    "rnd",
]
