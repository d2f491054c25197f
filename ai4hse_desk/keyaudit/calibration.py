"""When the suspicion score may be shown as a probability, and which.

The score is turned into P(key wrong) by a logistic map fitted on real key errors
(:data:`.fitted.PLATT`, MMLU-Redux dev). That number means what it says only on a
corpus like the one it was fitted on, so it is shown only when **all** of these hold
(else the window shows the rank and the evidence in words, and JSON has
``"probability": null``):

* the question is a single-answer question (a one-hot key) with
  :data:`OPTIONS` options, and every run that votes on it is a ``single_choice`` run;
* :data:`MIN_RUNS` to :data:`MAX_RUNS` runs vote on it (the calibration was measured
  with 10 runs and re-measured with 8 and 9 of them; fewer runs make a consensus
  cheaper, more runs make it rarer: neither was measured);
* the corpus's single-choice runs answer :data:`ACCURACY` of the questions as keyed
  on average (the calibration runs: 0.80–0.86; runs much weaker or stronger contest
  keys at other rates).

The rule is :func:`corpus_calibration` (corpus-wide) and :func:`question_calibrated`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ai4hse_desk.keyaudit import fitted
from ai4hse_desk.protocol.outcome import Track

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ai4hse_desk.audit.records import Question
    from ai4hse_desk.keyaudit.suspicion import VoteSummary
    from ai4hse_desk.keyaudit.tally import RunTally

OPTIONS = 4
MIN_RUNS, MAX_RUNS = 8, 10
ACCURACY = (0.70, 0.95)


def probability(score: float) -> float:
    """The calibration map: P(key wrong) for a suspicion ``score``."""
    alpha, beta = fitted.PLATT
    x = max(-700.0, min(700.0, alpha + beta * score))
    return 1.0 / (1.0 + math.exp(-x))


@dataclass(frozen=True, slots=True)
class CorpusCalibration:
    """Whether the corpus's runs are like the calibration runs, and why not."""

    applies: bool
    reason: str
    mean_accuracy: float | None

    def to_json(self) -> dict[str, object]:
        return {
            "applies": self.applies,
            "reason": self.reason,
            "single_choice_mean_accuracy": (
                None if self.mean_accuracy is None else round(self.mean_accuracy, 4)
            ),
            "fitted_on": fitted.SOURCE,
            "map": {"intercept": fitted.PLATT[0], "slope": fitted.PLATT[1]},
            "rule": {
                "options": OPTIONS,
                "runs": [MIN_RUNS, MAX_RUNS],
                "mean_accuracy": list(ACCURACY),
                "tracks": [Track.SINGLE_CHOICE.value],
            },
        }


def corpus_calibration(runs: Mapping[str, RunTally]) -> CorpusCalibration:
    """The corpus-wide part of the rule (the single-choice runs' mean accuracy)."""
    accuracies = [
        run.accuracy
        for run in runs.values()
        if run.track is Track.SINGLE_CHOICE and run.accuracy is not None
    ]
    if not accuracies:
        return CorpusCalibration(
            False, "no single-choice runs: the calibration was measured on single-answer "
            "questions only", None)  # fmt: skip
    mean = sum(accuracies) / len(accuracies)
    lo, hi = ACCURACY
    if not lo <= mean <= hi:
        return CorpusCalibration(
            False, f"the single-choice runs answer {mean:.0%} as keyed on average; the "
            f"calibration holds for {lo:.0%} to {hi:.0%}", mean)  # fmt: skip
    return CorpusCalibration(True, "runs like the calibration runs", mean)


def question_calibrated(
    question: Question, votes: VoteSummary, runs: Mapping[str, RunTally]
) -> bool:
    """The per-question part of the rule (see the module doc)."""
    if question.n_options != OPTIONS or sum(question.key) != 1:
        return False
    if not MIN_RUNS <= votes.voters <= MAX_RUNS:
        return False
    return all(runs[r].track is Track.SINGLE_CHOICE for r in votes.votes)


__all__ = [
    "ACCURACY",
    "MAX_RUNS",
    "MIN_RUNS",
    "OPTIONS",
    "CorpusCalibration",
    "corpus_calibration",
    "probability",
    "question_calibrated",
]
