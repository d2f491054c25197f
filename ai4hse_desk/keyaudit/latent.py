"""P(key wrong): a Dawid–Skene latent-class model with runs as annotators.

Every run is an annotator of unknown reliability; the true answer of each
question is a latent class; the recorded key is a prior on it. EM fits both at
once: the true answers are inferred from the runs weighed by how reliable they
are, and a run's reliability is how often it agrees with the inferred truths.

* **One vote per run.** A run's repetitions share its weights, its prompt and
  its misconceptions: they are not independent annotators, and counting them
  as such would let a run with ten repetitions outvote nine runs with one. A
  run votes its majority over its valid repetitions; on a tie it abstains (it
  has no answer, and picking one would invent evidence).
* **Two kinds of item, fitted apart per track.** On the multi-select tracks
  every (question, option) is a Boolean item; a run has a sensitivity
  (P(votes TRUE | truly TRUE)) and a specificity (P(votes FALSE | truly
  FALSE)). On ``single_choice`` with a one-hot key the item is the question and
  the class a letter; a run has one accuracy (P(votes the true letter)) and
  its errors are spread evenly over at most :data:`ERROR_SPREAD` other letters
  (a per-letter confusion matrix is not identifiable: letters mean nothing
  across questions; and misconceptions make errors concentrate).
* **The prior.** P(the recorded key of a question is right) = :data:`PRIOR`
  (0.95: published re-checks of benchmark keys find a few per cent wrong), the
  same in both kinds: a Boolean option's key is right with probability
  ``PRIOR ** (1 / options)``, so all options right is ``PRIOR``. Hygiene findings
  that make a wrong key likelier lower it to :data:`HYGIENE_PRIOR` (see
  :func:`.posterior.question_prior`).
* **Reliabilities are smoothed** by a Beta(:data:`BETA_RIGHT`,
  :data:`BETA_WRONG`) prior, so a run with few votes sits near 0.8, and
  clipped to [0.01, 0.99].
* **Tracks combined for the ranking only**: per question, each track's
  posterior log-odds that the key is wrong, minus the prior's, are added to the
  prior's (independent evidence).

Everything is vectorised with numpy: 1,000 questions × 50 runs fit in well under
a second (README "Key audit").
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

#: P(a question's recorded key is right) before any response is seen.
PRIOR = 0.95
#: The prior after a hygiene finding that makes a wrong key likelier: identical
#: options, encoding damage, or an exact or near duplicate with a different key.
HYGIENE_PRIOR = 0.80
#: Beta pseudo-counts of a run's reliability (right, wrong).
BETA_RIGHT = 4.0
BETA_WRONG = 1.0
#: Letters a run's errors are taken to spread over (at most): misconceptions make
#: wrong answers concentrate, so spreading them evenly over 9 letters of a
#: 10-option question would count a weak run's vote as strong evidence.
ERROR_SPREAD = 2.0
MAX_ITERATIONS = 200
TOLERANCE = 1e-6

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]


def _clip(values: Floats) -> Floats:
    return np.clip(values, 0.01, 0.99)


@dataclass(frozen=True, slots=True)
class BooleanFit:
    """One track's Boolean items: posterior P(item's key right) and run reliabilities."""

    right: Floats  # (items,)
    sensitivity: Floats  # (runs,)
    specificity: Floats  # (runs,)
    iterations: int


def fit_boolean(votes: Ints, key: npt.NDArray[np.bool_], prior_right: Floats) -> BooleanFit:
    """EM over Boolean items.

    Args:
        votes: (items, runs): 1 TRUE, 0 FALSE, -1 no vote.
        key: (items,) the recorded key.
        prior_right: (items,) P(the key of the item is right) before the votes.
    """
    yes = (votes == 1).astype(np.float64)
    no = (votes == 0).astype(np.float64)
    voted = yes + no
    prior_true = np.where(key, prior_right, 1.0 - prior_right)
    # Start from the prior and the runs' plain majority, half and half.
    share = yes.sum(1) / np.maximum(voted.sum(1), 1.0)
    t = 0.5 * prior_true + 0.5 * np.where(voted.sum(1) > 0, share, prior_true)
    se = sp = np.full(votes.shape[1], 0.8)
    iterations = 0
    for iterations in range(1, MAX_ITERATIONS + 1):  # noqa: B007
        se = _clip((t @ yes + BETA_RIGHT) / (t @ voted + BETA_RIGHT + BETA_WRONG))
        sp = _clip(((1 - t) @ no + BETA_RIGHT) / ((1 - t) @ voted + BETA_RIGHT + BETA_WRONG))
        log1 = np.log(prior_true) + yes @ np.log(se) + no @ np.log(1 - se)
        log0 = np.log(1 - prior_true) + no @ np.log(sp) + yes @ np.log(1 - sp)
        new = 1.0 / (1.0 + np.exp(np.clip(log0 - log1, -700, 700)))
        done = float(np.max(np.abs(new - t))) < TOLERANCE if len(t) else True
        t = new
        if done:
            break
    right = np.where(key, t, 1.0 - t)
    return BooleanFit(right=right, sensitivity=se, specificity=sp, iterations=iterations)


@dataclass(frozen=True, slots=True)
class LetterFit:
    """One track's letter questions: posterior over letters and run accuracies."""

    posterior: Floats  # (questions, max options); 0 beyond a question's options
    accuracy: Floats  # (runs,)
    iterations: int


def fit_letters(votes: Ints, key: Ints, options: Ints, prior_right: Floats) -> LetterFit:
    """EM over single-answer questions (one-coin Dawid–Skene per run).

    Args:
        votes: (questions, runs): the letter a run voted (0-based), -1 no vote.
        key: (questions,) the keyed letter.
        options: (questions,) number of options (≥ 2).
        prior_right: (questions,) P(the key is right) before the votes.
    """
    n, width = votes.shape[0], int(options.max()) if len(options) else 2
    letters = np.arange(width)
    valid = letters[None, :] < options[:, None]
    rows = np.arange(n)
    others = np.clip(options - 1, 1, ERROR_SPREAD).astype(np.float64)
    log_prior = np.where(valid, np.log((1 - prior_right) / others)[:, None], -np.inf)
    log_prior[rows, key] = np.log(prior_right)
    voted = votes >= 0
    q_idx, r_idx = np.nonzero(voted)
    v_idx = votes[q_idx, r_idx]
    counts = np.zeros((n, width))
    np.add.at(counts, (q_idx, v_idx), 1.0)
    total = voted.sum(1, keepdims=True)
    t = np.where(valid, 0.5 * np.exp(log_prior) + 0.5 * counts / np.maximum(total, 1), 0.0)
    t[total[:, 0] == 0] = np.exp(log_prior[total[:, 0] == 0])
    t /= t.sum(1, keepdims=True)
    acc = np.full(votes.shape[1], 0.8)
    log_others = np.log(others)
    iterations = 0
    for iterations in range(1, MAX_ITERATIONS + 1):  # noqa: B007
        hit = np.zeros(votes.shape[1])
        np.add.at(hit, r_idx, t[q_idx, v_idx])
        acc = _clip((hit + BETA_RIGHT) / (voted.sum(0) + BETA_RIGHT + BETA_WRONG))
        miss = np.log(1 - acc)
        base = voted @ miss - total[:, 0] * log_others  # every vote as a miss
        bonus = np.log(acc)[r_idx] - miss[r_idx] + log_others[q_idx]
        log_post = log_prior + base[:, None]
        np.add.at(log_post, (q_idx, v_idx), bonus)
        log_post -= log_post.max(1, keepdims=True)
        new = np.where(valid, np.exp(log_post), 0.0)
        new /= new.sum(1, keepdims=True)
        done = float(np.max(np.abs(new - t))) < TOLERANCE if n else True
        t = new
        if done:
            break
    return LetterFit(posterior=t, accuracy=acc, iterations=iterations)


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
    "BETA_RIGHT",
    "BETA_WRONG",
    "ERROR_SPREAD",
    "HYGIENE_PRIOR",
    "PRIOR",
    "BooleanFit",
    "Driver",
    "LetterFit",
    "TrackPosterior",
    "combine",
    "fit_boolean",
    "fit_letters",
    "logit",
]
