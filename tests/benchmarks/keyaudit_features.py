"""Beyond the vote counts: can anything else in an audit file rank real key errors better?

The search behind ``docs/explain/key-audit-model.md`` ("What else was tried"). On
MMLU-Redux dev (``keyaudit_redux.py``, the desk's own writer and key audit), each
candidate of ``keyaudit_candidates.py`` is added to the desk's vote score with its own
weight, and judged exactly as ``bench_keyaudit_real.py`` judges the desk:

* **held out**: 5 folds of whole subjects, 6 splits; on each fold's other subjects
  the vote score's weights (``keyaudit_realdata.GRID``) and then the candidate's
  weight (:data:`WEIGHTS`, 0 included, so a candidate that does not help can stay out)
  are chosen by average precision; the fold's own subjects are ranked as a file of
  their own with them. Reported: the mean AP, P@25, P@100 over the 30 held-out folds
  with their standard error, and the paired difference from the vote score alone
  (same folds) with its standard error.
* **nested selection**: the honest figure for "pick the best candidate": within each
  training part, 4 inner folds choose one candidate (or none) by inner held-out AP;
  that choice is then fitted on the training part and judged on the held-out fold.
  Picking the best of 25 by the outer figures instead would reward luck.
* **ceilings** (fitted on the very questions they are judged on, so *not*
  validations; what no honest model can beat): the error rate of every (runs agreeing
  with the key, runs on one other answer) cell as the score; and the vote score plus
  every candidate, the weights chosen on all the data.
* logistic regression on the vote features and every candidate (ridge, strength
  chosen by inner folds), for the record.

Usage: python tests/benchmarks/keyaudit_features.py [--no-nested]
(about 15 minutes on one core; 5 without the nested selection).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np
from keyaudit_candidates import CANDIDATES, columns, context
from keyaudit_realdata import GRID, Corpus, desk_corpus, folds, ranking, score
from keyaudit_redux import DATA, available, load

#: The weights a candidate may get (0: left out).
WEIGHTS = (-0.2, -0.1, -0.05, -0.02, -0.01, 0.0, 0.01, 0.02, 0.05, 0.1, 0.2)
#: ``dedup`` is a shift of the plurality share: weight 1 replaces it by the merged one.
DEDUP_WEIGHTS = (0.0, 0.5, 1.0)
SPLITS, INNER = 6, 4
FIT_TIE_ORDERS = 4

Scorer = Callable[[np.ndarray], np.ndarray]  # row indices -> scores
Fitter = Callable[[np.ndarray], Scorer]  # training mask -> scorer


def fast_ap(values: np.ndarray, wrong: np.ndarray) -> float:
    """AP averaged over a few random orders of ties (for fitting only)."""
    total, rounded = 0.0, np.round(values, 10)
    for seed in range(FIT_TIE_ORDERS):
        tiebreak = np.random.RandomState(seed).permutation(len(values))
        hits = wrong[np.lexsort((tiebreak, -rounded))]
        precision = np.cumsum(hits) / np.arange(1, len(hits) + 1)
        total += float(precision[hits].sum() / max(hits.sum(), 1))
    return total / FIT_TIE_ORDERS


class Search:
    """The vote features, the candidates' columns and the labels of one corpus."""

    def __init__(self, corpus: Corpus, cols: dict[str, list[np.ndarray]]) -> None:
        self.corpus, self.cols, self.wrong = corpus, cols, corpus.wrong

    def vote_weights(self, rows: np.ndarray) -> dict[str, float]:
        best, best_ap = GRID[0], -1.0
        for w in GRID:
            found = fast_ap(score(self.corpus.features[rows], w), self.wrong[rows])
            if found > best_ap + 1e-9:
                best, best_ap = w, found
        return dict(best)

    def additive(self, names: Sequence[str]) -> Fitter:
        """The vote score plus one weight per column of ``names``, chosen on the rows
        fitted on (coordinate ascent, two sweeps)."""
        extra = [(n, c) for n in names for c in self.cols[n]]

        def fit(rows: np.ndarray) -> Scorer:
            base_w = self.vote_weights(rows)
            base = score(self.corpus.features, base_w)
            weights = [0.0] * len(extra)
            for _sweep in range(2 if len(extra) > 1 else 1):
                for i, (name, col) in enumerate(extra):
                    pairs = enumerate(zip(weights, extra, strict=True))
                    rest = base + sum(w * c for j, (w, (_, c)) in pairs if j != i)
                    grid = DEDUP_WEIGHTS if name == "dedup" else WEIGHTS
                    weights[i] = max(
                        grid,
                        key=lambda g, r=rest, c=col: (
                            fast_ap((r + g * c)[rows], self.wrong[rows]),
                            -abs(g),
                        ),
                    )
            total = base + sum(w * c for w, (_, c) in zip(weights, extra, strict=True))
            return lambda idx: np.asarray(total[idx])

        return fit

    def logistic(self, names: Sequence[str]) -> Fitter:
        """Ridge logistic regression on the vote features and ``names`` (standardised;
        the ridge strength chosen by inner folds)."""
        x = np.column_stack([self.corpus.features, *[c for n in names for c in self.cols[n]]])

        def fit_with(rows: np.ndarray, ridge: float) -> Scorer:
            mean, sd = x[rows].mean(0), x[rows].std(0) + 1e-9
            z = np.column_stack([np.ones(len(x)), (x - mean) / sd])
            beta = newton(z[rows], self.wrong[rows].astype(float), ridge)
            return lambda idx: np.asarray(z[idx] @ beta)

        def fit(rows: np.ndarray) -> Scorer:
            ridge = max((1.0, 10.0, 100.0, 1000.0),
                        key=lambda r: self.inner(rows, lambda tr: fit_with(tr, r)))  # fmt: skip
            return fit_with(rows, ridge)

        return fit

    def inner(self, rows: np.ndarray, fitter: Fitter) -> float:
        """Mean AP of ``fitter`` over :data:`INNER` folds of the subjects in ``rows``."""
        idx = np.flatnonzero(rows)
        inner = folds(self.corpus.subjects[idx], INNER, seed=7)
        found = []
        for g in range(INNER):
            test = idx[inner == g]
            if not self.wrong[test].any():
                continue
            train = np.zeros(len(self.wrong), dtype=bool)
            train[idx[inner != g]] = True
            found.append(fast_ap(fitter(train)(test), self.wrong[test]))
        return float(np.mean(found))

    def nested(self, names: Sequence[str], chosen: Counter[str]) -> Fitter:
        options = [[], *[[n] for n in names]]

        def fit(rows: np.ndarray) -> Scorer:
            best = max(options, key=lambda o: self.inner(rows, self.additive(o)))
            chosen["+".join(best) or "none"] += 1
            return self.additive(best)(rows)

        return fit

    def held_out(self, fitter: Fitter) -> dict[str, np.ndarray]:
        """Per held-out fold (``SPLITS`` x 5): AP, P@25, P@100, each fold ranked alone."""
        found: dict[str, list[float]] = {"ap": [], "p25": [], "p100": []}
        for seed in range(SPLITS):
            fold = folds(self.corpus.subjects, seed=seed)
            for f in sorted(set(fold.tolist())):
                test = np.flatnonzero(fold == f)
                metrics = ranking(fitter(fold != f)(test), self.wrong[test])
                for k in found:
                    found[k].append(metrics[k])
        return {k: np.array(v) for k, v in found.items()}


def newton(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    """Ridge logistic regression (the intercept unpenalised)."""
    beta = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], ridge)
    penalty[0] = 1e-6
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ beta)))
        grad = x.T @ (y - p) - penalty * beta
        hess = (x.T * (p * (1 - p))) @ x + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        beta = beta + step
        if np.abs(step).max() < 1e-8:
            break
    return beta


def summary(found: dict[str, np.ndarray], ref: dict[str, np.ndarray]) -> dict[str, object]:
    """Mean ± standard error over the held-out folds, and the paired difference."""
    out: dict[str, object] = {}
    for k, v in found.items():
        d = v - ref[k]
        se = float(v.std(ddof=1) / np.sqrt(len(v)))
        out[k] = {"mean": round(float(v.mean()), 4), "se": round(se, 4),
                  "minus_votes": round(float(d.mean()), 4),
                  "minus_votes_se": round(float(d.std(ddof=1) / np.sqrt(len(d))), 4)}  # fmt: skip
    return out


def cell_ceiling(search: Search, smoothing: float = 5.0) -> Fitter:
    """Each (agree, contest) cell's error rate on *all* questions as the score, shrunk
    towards the base rate by ``smoothing`` questions (else a cell of one question with
    one error tops the ranking), ties broken by the latent model."""
    c, wrong = search.corpus, search.wrong
    cell = np.round(c.features[:, 2] * 10) * 11 + np.round(c.features[:, 1] * 10)
    base = float(wrong.mean())
    rate = {
        v: (float(wrong[cell == v].sum()) + smoothing * base) / (int((cell == v).sum()) + smoothing)
        for v in set(cell.tolist())
    }
    values = np.array([rate[v] for v in cell.tolist()]) + 1e-6 * c.features[:, 1]
    values = values + 1e-7 * c.features[:, 0]
    return lambda _rows: lambda idx: values[idx]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--no-nested", action="store_true", help="skip the nested selection")
    args = parser.parse_args()
    if not available():
        print(f"error: no MMLU-Redux dev data at {DATA}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    redux = load()
    corpus = desk_corpus(redux)
    names = list(CANDIDATES)
    search = Search(corpus, columns(context(corpus, {q.question_id: q for q in redux.questions}),
                                    names))  # fmt: skip
    ref = search.held_out(search.additive([]))
    share = corpus.features[:, 1]
    rows: dict[str, object] = {
        "vote score (the desk)": summary(ref, ref),
        "plurality": summary(search.held_out(lambda _r: lambda idx: share[idx]), ref),
    }
    for name in names:
        rows[f"+ {name} ({CANDIDATES[name][0]})"] = summary(
            search.held_out(search.additive([name])), ref
        )
        print(name, json.dumps(rows[f"+ {name} ({CANDIDATES[name][0]})"]), file=sys.stderr)
    rows["logistic regression, every candidate"] = summary(
        search.held_out(search.logistic(names)), ref
    )
    chosen: Counter[str] = Counter()
    if not args.no_nested:
        rows["nested: one candidate chosen by inner folds"] = summary(
            search.held_out(search.nested(names, chosen)), ref
        )
    every = np.ones(len(corpus.wrong), dtype=bool)
    ceilings = {
        "cell_error_rates_in_sample": summary(search.held_out(cell_ceiling(search)), ref),
        "every_candidate_weights_in_sample": summary(
            search.held_out(lambda _r: search.additive(names)(every)), ref
        ),
    }
    report = {
        "held_out": rows,
        "nested_choices": dict(chosen),
        "ceilings_not_validations": ceilings,
        "seconds": round(time.perf_counter() - start, 1),
    }
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
