"""The key audit on MMLU-Redux dev: features, tuning, calibration and metrics.

Shared by ``keyaudit_fit.py`` (fits the constants the desk ships in
:mod:`ai4hse_desk.keyaudit.fitted`) and ``bench_keyaudit_real.py`` (judges the same
procedure on subjects it was not tuned on). Nothing here is a method of its own: the
features are read from the desk's key-audit result on a database the desk's writer
made (``keyaudit_redux.py``).

* **Tuning**: the suspicion weights are the point of :data:`GRID` with the best
  average precision on the subjects tuned on (expected over random orders of tied
  scores). The model weight starts at 1: below it the simulation families
  (``bench_keyaudit.py``) miss their targets, so the grid never goes there.
* **Calibration**: a logistic (Platt) map of the score, fitted by maximum likelihood on
  the subjects tuned on.
* **Metrics**: AP, P@25, P@100 (each expected over random orders of ties); the
  reliability table in :data:`BINS` (finer where the scores are, as a 3 % base rate
  puts nearly everything in the first tenth); ECE over those bins; the share of
  questions shown at >= 0.9 whose key is really wrong.
"""

from __future__ import annotations

import itertools
import random
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from keyaudit_redux import Redux, build_audit_db

from ai4hse_desk.audit import open_audit
from ai4hse_desk.keyaudit import compute_key_audit
from ai4hse_desk.keyaudit.tally import collect

GRID: tuple[dict[str, float], ...] = tuple(
    {"model": m, "agree": a, "form": f}
    for m in (1.0, 2.0, 4.0)
    for a in (0.0, 0.25, 0.5)
    for f in (0.0, 0.005, 0.01, 0.02)
)
BINS = (0.0, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 1.0)
TIE_ORDERS = 20
FOLDS = 5


@dataclass(frozen=True, slots=True)
class Corpus:
    """Per question (desk ranking order): features, label, subject, the runs' letters."""

    question_ids: list[str]
    features: np.ndarray  # (n, 4): model_logit, contest, agree, log_option_length
    wrong: np.ndarray  # (n,) bool: the experts call the key wrong
    subjects: np.ndarray  # (n,) str
    letters: np.ndarray  # (n, runs) chosen letter index, -1 no vote
    keys: np.ndarray  # (n,) key index
    shown: np.ndarray  # (n,) bool: the desk shows a probability (its calibration rule)
    runs: list[str]


def desk_corpus(redux: Redux, models: list[str] | None = None) -> Corpus:
    """Build the audit database with the desk's writer, run the desk's key audit on it
    and read what the benchmarks need."""
    by_id = {q.question_id: q for q in redux.questions}
    with tempfile.TemporaryDirectory(prefix="keyaudit-redux-") as folder:
        audit = build_audit_db(redux, Path(folder), models)
        with open_audit(audit) as db:
            result = compute_key_audit(db)
            tallies = collect(db)
    runs = sorted(tallies.runs)
    ids = [item.question_id for item in result.questions]
    feats = np.array([[item.signals["suspicion"][k] for k in
                       ("model_logit", "contest", "agree", "log_option_length")]
                      for item in result.questions])  # fmt: skip
    letters = np.full((len(ids), len(runs)), -1, dtype=int)
    for i, qid in enumerate(ids):
        for j, run in enumerate(runs):
            cell = tallies.cells.get(qid, {}).get(run)
            vote = cell.majority() if cell is not None and cell.valid else None
            if vote is not None and sum(vote) == 1:
                letters[i, j] = vote.index(True)
    return Corpus(
        ids, feats, np.array([by_id[q].key_error for q in ids]),
        np.array([by_id[q].subject for q in ids]), letters,
        np.array([by_id[q].key for q in ids]),
        np.array([item.probability is not None for item in result.questions]), runs,
    )  # fmt: skip


def score(features: np.ndarray, w: dict[str, float]) -> np.ndarray:
    """The suspicion score (as :meth:`ai4hse_desk.keyaudit.suspicion.Features.score`)."""
    model, contest, agree, length = features.T
    scores: np.ndarray = (w["model"] * model / 8.0 + contest - w["agree"] * agree
                          - w["form"] * length * (contest > 0))  # fmt: skip
    return scores


def ranking(values: np.ndarray, wrong: np.ndarray) -> dict[str, float]:
    """AP, P@25 and P@100, each the mean over :data:`TIE_ORDERS` random orders of ties."""
    found = {"ap": 0.0, "p25": 0.0, "p100": 0.0}
    rounded = np.round(values, 10)
    for seed in range(TIE_ORDERS):
        tiebreak = np.random.RandomState(seed).permutation(len(values))
        hits = wrong[np.lexsort((tiebreak, -rounded))]
        precision = np.cumsum(hits) / np.arange(1, len(hits) + 1)
        found["ap"] += float(precision[hits].sum() / max(hits.sum(), 1))
        found["p25"] += float(hits[:25].mean())
        found["p100"] += float(hits[:100].mean())
    return {k: round(v / TIE_ORDERS, 4) for k, v in found.items()}


def reliability(p: np.ndarray, wrong: np.ndarray) -> tuple[list[dict[str, object]], float]:
    """The reliability table over :data:`BINS` and the ECE over the same bins."""
    table, ece = [], 0.0
    for lo, hi in itertools.pairwise(BINS):
        inside = (p >= lo) & ((p < hi) | ((hi == 1.0) & (p <= hi)))
        if not inside.any():
            continue
        mean, rate = float(p[inside].mean()), float(wrong[inside].mean())
        ece += inside.sum() / len(p) * abs(mean - rate)
        table.append({"bin": f"{lo:.2f}-{hi:.2f}", "questions": int(inside.sum()),
                      "mean_probability": round(mean, 4),
                      "wrong_share": round(rate, 4)})  # fmt: skip
    return table, round(ece, 4)


def calibration_metrics(p: np.ndarray, wrong: np.ndarray) -> dict[str, object]:
    table, ece = reliability(p, wrong)
    high = p >= 0.9
    return {
        "ece": ece,
        "shown_at_0_9": int(high.sum()),
        "wrong_share_at_0_9": round(float(wrong[high].mean()), 4) if high.any() else None,
        "reliability": table,
    }


def fit_platt(values: np.ndarray, wrong: np.ndarray) -> tuple[float, float]:
    """Maximum-likelihood logistic map P = sigmoid(a + b x) (Newton, a tiny ridge)."""
    x = np.column_stack([np.ones_like(values), values])
    y = wrong.astype(float)
    beta = np.array([np.log(max(y.mean(), 1e-6) / max(1 - y.mean(), 1e-6)), 0.0])
    for _ in range(100):
        p = 1 / (1 + np.exp(-(x @ beta)))
        grad = x.T @ (y - p) - 1e-6 * beta
        hess = -(x.T * (p * (1 - p))) @ x - 1e-6 * np.eye(2)
        step = np.linalg.solve(hess, grad)
        beta = beta - step
        if np.abs(step).max() < 1e-10:
            break
    return round(float(beta[0]), 4), round(float(beta[1]), 4)


def platt(values: np.ndarray, ab: tuple[float, float]) -> np.ndarray:
    return np.asarray(1 / (1 + np.exp(-(ab[0] + ab[1] * values))))


def tune(corpus: Corpus, rows: np.ndarray) -> dict[str, float]:
    """The grid point with the best AP on ``rows`` (the first one of equal AP)."""
    best, best_ap = GRID[0], -1.0
    for w in GRID:
        found = ranking(score(corpus.features[rows], w), corpus.wrong[rows])["ap"]
        if found > best_ap + 1e-9:
            best, best_ap = w, found
    return dict(best)


def folds(subjects: np.ndarray, count: int = FOLDS, seed: int = 0) -> np.ndarray:
    """Fold number per question: whole subjects, shuffled with ``seed``, dealt round."""
    names = sorted(set(subjects.tolist()))
    random.Random(seed).shuffle(names)
    fold = {name: i % count for i, name in enumerate(names)}
    return np.array([fold[s] for s in subjects])


def fit_all(corpus: Corpus) -> tuple[dict[str, float], tuple[float, float]]:
    """What the desk ships: weights tuned on every dev subject, Platt on every subject."""
    every = np.ones(len(corpus.wrong), dtype=bool)
    weights = tune(corpus, every)
    return weights, fit_platt(score(corpus.features, weights), corpus.wrong)


__all__ = [
    "BINS",
    "GRID",
    "Corpus",
    "calibration_metrics",
    "desk_corpus",
    "fit_all",
    "fit_platt",
    "folds",
    "platt",
    "ranking",
    "reliability",
    "score",
    "tune",
]
