"""P(key wrong): a latent-truth model of the runs' votes, with runs as annotators.

Every run is an annotator of unknown reliability; the true answer of each item is
hidden; the recorded key is a prior on it. The fit (:mod:`.latent_fit`) infers both
at once: the true answers from the runs weighed by how reliable they are, and a
run's reliability from how often it agrees with the inferred truths.

* **One vote per run.** A run's repetitions share its weights, its prompt and its
  misconceptions: they are not independent annotators, and counting them as such
  would let a run with ten repetitions outvote nine runs with one. A run votes its
  majority over its valid repetitions; on a tie it abstains.
* **Items, fitted apart per track.** On the multi-select tracks every (question,
  option) is a Boolean item; on ``single_choice`` with a one-hot key the item is the
  question and its categories the letters.
* **What a run does.** On an item it copies the recorded key with its *copy rate*
  (a run trained on the benchmark, or shown the key); otherwise it is right with
  probability sigmoid(ability - shift x hard), where *hard* is the item's
  difficulty class (ordinary or hard, with a shift shared by every run: hard
  items take the same logits off every run); otherwise it picks a wrong answer.
  An item may have a *misconception* (a wrong answer that draws runs, or none).
  On a letter item it is a wrong letter, and a run that is wrong picks it with
  its *pull* (else any wrong letter at random). On a Boolean option there is
  only one wrong answer to pick, so there the misconception makes runs wrong
  more often instead: it takes the run's own *lure shift* off its ability
  (sigmoid(ability - lure shift - shift x hard)). A shift in logits multiplies
  the run's odds of being wrong: a run that is seldom wrong stays seldom wrong,
  so weak runs are drawn and strong runs are not, and each run's own shift says
  how easily it is drawn.
* **Why those parts.** Each answers a way the plain count is fooled: a hard
  question scatters the runs, but the strong runs still beat the weak ones on it;
  a misconception makes the weak runs agree on one wrong answer while the strong
  runs keep the key (on a Boolean option that looks like a hard item on which
  even the ordinary hard shift leaves too few runs right, and it used to read as
  a wrong key); a copier agrees with the key where everyone else contests it. A
  wrong key cannot pass for a misconception: there the strong runs are the ones
  that contest the key, and they are the runs it barely draws.
* **Runs alike until shown otherwise.** A run's ability has a normal prior about the
  runs' mean ability (fitted, each run weighed by the share of its votes that are
  not copies), sd 0.5 logits: a run with hundreds of votes is read from its votes,
  but one whose honest votes are few (a copier: most of its votes are the key)
  is read as near the others, not as the best run of all, so its rare votes
  against the key weigh what an ordinary run's do.
* **The prior.** P(the recorded key of a question is right) = :data:`PRIOR` (0.95:
  published re-checks of benchmark keys find a few per cent wrong); a Boolean
  option's key is right with probability ``PRIOR ** (1 / options)``, so all options
  right is ``PRIOR``. Hygiene findings that make a wrong key likelier lower it to
  :data:`HYGIENE_PRIOR` (see :func:`.posterior.question_prior`).
* **Tracks combined for the ranking only**: per question, each track's posterior
  log-odds that the key is wrong, minus the prior's, are added to the prior's
  (independent evidence).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

#: P(a question's recorded key is right) before any response is seen.
PRIOR = 0.95
#: The prior after a hygiene finding that makes a wrong key likelier: identical
#: options, encoding damage, or an exact or near duplicate with a different key.
HYGIENE_PRIOR = 0.80


def logit(p: float) -> float:
    p = min(max(p, 1e-12), 1 - 1e-12)
    return math.log(p / (1 - p))


def combine(prior_wrong: float, track_wrong: list[float]) -> float:
    """Add the tracks' evidence (posterior log-odds minus the prior's) to the prior."""
    if not track_wrong:
        return prior_wrong
    base = logit(prior_wrong)
    total = base + sum(logit(p) - base for p in track_wrong)
    return 1.0 / (1.0 + math.exp(-max(-700.0, min(700.0, total))))


@dataclass(slots=True)
class Driver:
    """A run whose vote pushes a question's P(key wrong) up."""

    run_id: str
    reliability: float
    log_ratio: float


@dataclass(slots=True)
class TrackPosterior:
    """One track's verdict on one question."""

    track: str
    wrong: float  # P(key wrong) from this track
    option: int | None  # the option most likely wrong (Booleans) or chosen instead (letters)
    option_wrong: float  # P(that option's key is wrong)
    drivers: list[Driver] = field(default_factory=list)


__all__ = [
    "HYGIENE_PRIOR",
    "PRIOR",
    "Driver",
    "TrackPosterior",
    "combine",
    "logit",
]
