"""The suspicion score: the order in which a reviewer should look at the keys.

Per question, from one vote per run (a run's majority over its valid repetitions,
tracks pooled) and the latent model's P(key wrong) (:mod:`.posterior`):

    S = model × clip(logit P(key wrong), ±8) / 8
        + contest − agree_weight × agree − form × log(mean option length) × [contest > 0]

* **contest**: the share of voting runs that give the same answer other than the key
  (the plurality against the key). A wrong key shows as runs converging on the true
  answer; a hard question scatters them.
* **agree**: the share of voting runs whose answer is the key. Nobody choosing the key
  is evidence of its own (``no_correct_answer`` keys scatter the runs).
* **model**: the latent model (runs as annotators with fitted abilities, copy rates
  and misconceptions; :mod:`.latent`), clipped: on real data it saturates (every
  question all runs contest gets 0.9997), so it orders within the vote counts and
  decides where the runs differ (copiers, strong and weak runs).
* **form**: on questions whose options are long statements the runs contest keys more
  often without an error than on questions whose options are short terms, numbers or
  formulas (MMLU-Redux dev: 13 of 50 keys all 10 runs contested were wrong; the wrong
  ones had short options). A tie-breaker among equal vote counts, never more.

The weights are fitted on real key errors by ``tests/benchmarks/keyaudit_fit.py``
(:mod:`.fitted`, cross-validated by subject); ``docs/explain/key-audit-model.md`` has
the figures. ``S`` only ranks; :mod:`.calibration` says when it may also be shown as
a probability.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ai4hse_desk.keyaudit import fitted
from ai4hse_desk.keyaudit.latent import logit

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ai4hse_desk.audit.records import Question
    from ai4hse_desk.keyaudit.tally import Cell
    from ai4hse_desk.protocol.outcome import Selection

#: The model's log-odds are clipped to ± this before they are weighed.
CLIP = 8.0


@dataclass(frozen=True, slots=True)
class VoteSummary:
    """One vote per run on one question.

    Attributes:
        voters: runs with a vote (a majority over their valid repetitions).
        agree: runs whose vote is the key.
        contest: runs on the most common answer other than the key.
        alternative: that answer (``None`` when every vote is the key).
        declined: runs that answered (attempts ran) but gave no usable vote.
        votes: run id → its vote.
        tied: runs with valid repetitions but no majority (they abstain).
    """

    voters: int
    agree: int
    contest: int
    alternative: Selection | None
    declined: int
    votes: dict[str, Selection]
    tied: int = 0

    @property
    def agree_share(self) -> float:
        return self.agree / self.voters if self.voters else 0.0

    @property
    def contest_share(self) -> float:
        return self.contest / self.voters if self.voters else 0.0


def summarise(question: Question, cells: Mapping[str, Cell]) -> VoteSummary:
    """The runs' votes on ``question`` (``cells``: run id → its cell)."""
    key = question.key
    votes: dict[str, Selection] = {}
    declined = tied = 0
    for run_id, cell in sorted(cells.items()):
        answer = cell.majority() if cell.valid else None
        if answer is None or len(answer) != len(key):
            declined += cell.attempts > 0 and not cell.valid
            tied += bool(cell.valid) and answer is None
            continue
        votes[run_id] = answer
    others = Counter(v for v in votes.values() if v != key)
    alternative, contest = others.most_common(1)[0] if others else (None, 0)
    agree = sum(1 for v in votes.values() if v == key)
    return VoteSummary(len(votes), agree, contest, alternative, declined, votes, tied)


def option_length(question: Question) -> float:
    """Mean length of the option texts, in characters (at least 1)."""
    lengths = [len(option.text.strip()) for option in question.options]
    return max(1.0, sum(lengths) / max(len(lengths), 1))


@dataclass(frozen=True, slots=True)
class Features:
    """What the suspicion score weighs (JSON: ``signals.suspicion``)."""

    model_logit: float  # logit P(key wrong) from the latent model, clipped to ±CLIP
    contest: float
    agree: float
    log_option_length: float

    def score(self, weights: Mapping[str, float] | None = None) -> float:
        w = fitted.WEIGHTS if weights is None else weights
        form = self.log_option_length if self.contest > 0 else 0.0
        return (
            w["model"] * self.model_logit / CLIP
            + self.contest
            - w["agree"] * self.agree
            - w["form"] * form
        )

    def to_json(self) -> dict[str, float]:
        return {
            "model_logit": round(self.model_logit, 4),
            "contest": round(self.contest, 4),
            "agree": round(self.agree, 4),
            "log_option_length": round(self.log_option_length, 4),
        }


def features(question: Question, votes: VoteSummary, model_wrong: float) -> Features:
    """The score's inputs for one question."""
    clipped = max(-CLIP, min(CLIP, logit(model_wrong)))
    return Features(
        clipped, votes.contest_share, votes.agree_share, math.log(option_length(question))
    )


__all__ = ["CLIP", "Features", "VoteSummary", "features", "option_length", "summarise"]
