"""Key audit against baselines on simulated records with planted key errors (issue 15).

Per family (``keyaudit_sim.FAMILIES``), side by side in the same run: the desk's
ranking (``desk``: the suspicion score, :mod:`ai4hse_desk.keyaudit.suspicion`, with
the weights fitted on real key errors), the latent model alone (``model``: P(key
wrong), :func:`ai4hse_desk.keyaudit.posterior.fit_corpus`), the previous
weighted score (:func:`ai4hse_desk.keyaudit.ranking.assess` without a posterior,
which still computes it), a plurality baseline (runs agreeing on one non-key
answer) and a share-disagreeing baseline. Metrics: average precision,
precision at 10 and 25, Brier score (baselines read as probabilities: plurality
/ runs, the share itself, the old score itself), and the model's reliability
table (of the questions given 0.8-0.9, which share was really wrong). Ties (scores
equal at 10 decimals) are broken by a fixed random order, never by the planted
answer. Then the fit time on 1,000 questions x 50 runs x 5 repetitions
(multi-select and single-choice).

Beside them, not a method: the oracle (``keyaudit_oracle.py``), the Bayes-optimal
P(key wrong) given how the records were simulated (true skills, copiers, the
hardness and misconception mixtures, the repetition process); its AP and P@25 are
the best any method can reach on the family (``null`` where it is not exact).

Targets (issue 15, kept by issue 35): the desk ranking's AP and P@25 >= 1.1 x the
best *baseline* on every family, the baselines being the two the issue defines,
plurality and share-disagreeing; the latent model's Brier score below every other
method's (the previous score too; the suspicion score is not a probability on these
corpora: the desk withholds one there). The real-data check is
``bench_keyaudit_real.py``. The previous score is "today's score" of the issue,
reported beside them, not a baseline: ``beats_previous`` says per family whether the
desk ranking's AP and P@25 are
at least the previous score's, so a regression against it stays visible. Each
family also reports its ceiling (the best P@25 any ranking can reach: planted
errors / 25, at most 1) and ``target_above_ceiling``: whether 1.1 x the best
baseline is above it (then no ranking can meet the target there). Exits 1 when a
target is missed (``beats_previous`` is reported, not an exit condition).

Usage: python tests/benchmarks/bench_keyaudit.py [--seeds N] [--quick]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import statistics
import time

from keyaudit_oracle import oracle
from keyaudit_sim import Family, Simulation, plurality, simulate

from ai4hse_desk.keyaudit.hygiene import Hygiene
from ai4hse_desk.keyaudit.posterior import fit_corpus
from ai4hse_desk.keyaudit.ranking import assess
from ai4hse_desk.keyaudit.suspicion import features, summarise

FAMILIES = (
    Family("multi 5 runs x1 rep, 4 options", False, 5, 1, (4, 4)),
    Family("multi 10 runs x3 reps, 4-6 options", False, 10, 3, (4, 6)),
    Family("multi 40 runs x10 reps, 4-10 options", False, 40, 10, (4, 10)),
    Family("multi 20 runs x3, many misconceptions", False, 20, 3, (4, 6), lure_share=0.4),
    Family("single 5 runs x1 rep, 4 options", True, 5, 1, (4, 4)),
    Family("single 20 runs x3 reps, 4-10 options", True, 20, 3, (4, 10)),
    Family("single 40 runs x10 reps, 10 options", True, 40, 10, (10, 10)),
    Family("single 10 runs x3, hard and misconceptions", True, 10, 3, (4, 5), hard_share=0.4,
           lure_share=0.4),
)  # fmt: skip
METHODS = ("desk", "model", "previous", "plurality", "share")
#: The baselines the targets are measured against (issue 15): not the previous score.
BASELINES = ("plurality", "share")


def scores(sim: Simulation) -> dict[str, list[float]]:
    fit = fit_corpus(sim.questions, sim.cells, sim.runs)
    out: dict[str, list[float]] = {m: [] for m in METHODS}
    for q in sim.questions:
        cells = sim.cells[q.question_id]
        p_wrong = fit.posteriors[q.question_id].probability
        out["desk"].append(features(q, summarise(q, cells), p_wrong).score())
        out["model"].append(p_wrong)
        out["previous"].append(assess(q, cells, sim.runs, Hygiene()).score)
        top, share = plurality(q, cells)
        out["plurality"].append(top / max(len(cells), 1))
        out["share"].append(share)
    return out


def metrics(score: list[float], truth: list[bool], seed: int) -> dict[str, float]:
    tiebreak = list(range(len(score)))
    random.Random(seed).shuffle(tiebreak)
    # Equal evidence gives scores equal up to rounding (1e-15 apart, from the order of a
    # sum): compared at 10 decimals, those are ties too, broken by the fixed order.
    rounded = [round(s, 10) for s in score]
    order = sorted(range(len(score)), key=lambda i: (-rounded[i], tiebreak[i]))
    hits, precisions = 0, []
    for rank, i in enumerate(order, 1):
        if truth[i]:
            hits += 1
            precisions.append(hits / rank)
    return {
        "ap": sum(precisions) / max(sum(truth), 1),
        "p10": sum(truth[i] for i in order[:10]) / 10,
        "p25": sum(truth[i] for i in order[:25]) / 25,
        "brier": statistics.fmean((s - t) ** 2 for s, t in zip(score, truth, strict=True)),
    }


def reliability_table(pairs: list[tuple[float, bool]]) -> list[dict[str, object]]:
    table = []
    for b in range(10):
        lo, hi = b / 10, (b + 1) / 10
        inside = [t for p, t in pairs if lo <= p < hi or (b == 9 and p == 1.0)]
        if inside:
            table.append({"bin": f"{lo:.1f}-{hi:.1f}", "questions": len(inside),
                          "wrong_share": round(sum(inside) / len(inside), 3)})  # fmt: skip
    return table


def fit_time() -> dict[str, float]:
    out = {}
    for letters in (False, True):
        sim = simulate(Family("timing", letters, 50, 5, (4, 4), questions=1000), seed=99)
        start = time.perf_counter()
        fit_corpus(sim.questions, sim.cells, sim.runs)
        out["single_choice" if letters else "multi_select"] = round(time.perf_counter() - start, 3)
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="one seed, 300 questions")
    parser.add_argument("--no-oracle", action="store_true", help="skip the (slow) oracle")
    args = parser.parse_args()
    seeds = 1 if args.quick else args.seeds
    rows: list[dict[str, object]] = []
    calibration: list[tuple[float, bool]] = []
    ok = True
    for family in FAMILIES:
        if args.quick:
            family = dataclasses.replace(family, questions=300)
        found: dict[str, list[dict[str, float]]] = {m: [] for m in METHODS}
        truths: list[list[bool]] = []
        for seed in range(seeds):
            sim = simulate(family, seed=1000 + seed)
            truth = [sim.wrong[q.question_id] for q in sim.questions]
            truths.append(truth)
            got = scores(sim)
            for method in METHODS:
                found[method].append(metrics(got[method], truth, seed))
            best_possible = None if args.no_oracle else oracle(family, sim, 1000 + seed)
            if best_possible is not None:
                found.setdefault("oracle", []).append(metrics(best_possible, truth, seed))
            calibration.extend(zip(got["model"], truth, strict=True))
        row: dict[str, object] = {"family": family.name}
        for method in (*METHODS, "oracle"):
            runs = found.get(method)
            row[method] = {k: round(statistics.fmean(m[k] for m in runs), 3)
                           for k in ("ap", "p10", "p25", "brier")} if runs else None  # fmt: skip
        mean = {m: {k: statistics.fmean(r[k] for r in found[m]) for k in ("ap", "p25", "brier")}
                for m in METHODS}  # fmt: skip
        best = {k: max(mean[b][k] for b in BASELINES) for k in ("ap", "p25")}
        brier = min(mean[b]["brier"] for b in METHODS[2:])
        met = (
            mean["desk"]["ap"] >= 1.1 * best["ap"]
            and mean["desk"]["p25"] >= 1.1 * best["p25"]
            and mean["model"]["brier"] < brier
        )
        ceiling = statistics.fmean(min(sum(t), 25) / 25 for t in truths)
        row["p25_ceiling"] = round(ceiling, 3)
        row["target_above_ceiling"] = bool(1.1 * best["ap"] > 1.0 or 1.1 * best["p25"] > ceiling)
        row["targets_met"] = met
        row["beats_previous"] = all(mean["desk"][k] >= mean["previous"][k] for k in ("ap", "p25"))
        ok = ok and met
        rows.append(row)
    report = {
        "families": rows,
        "model_reliability_table": reliability_table(calibration),
        "fit_seconds_1000q_50runs_5reps": fit_time(),
        "all_targets_met": ok,
        "all_beat_previous": all(bool(r["beats_previous"]) for r in rows),
    }
    print(json.dumps(report, indent=1))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
