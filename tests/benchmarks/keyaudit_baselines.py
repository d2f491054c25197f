"""Library baselines of the key audit, run in the benchmarks' own environment.

Run by ``bench_keyaudit_real.py`` with the Python of ``.venv-bench`` (created by
``scripts/bench.sh``: crowd-kit and cleanlab, never dependencies of the desk).
Reads JSON on stdin: ``{"votes": [[letter index or -1 per run] per question],
"keys": [key index per question], "options": K}``; prints JSON:
``{"dawid_skene": [...], "crowdlab": [...], "versions": {...}}``, one suspicion per
question, higher = more likely a wrong key.

* **Dawid–Skene** (crowd-kit ``DawidSkene``, 100 iterations): each run an annotator
  with a full confusion matrix; the suspicion is 1 − the posterior of the keyed letter.
* **CROWDLAB** (cleanlab ``get_label_quality_multiannotator``): the runs and the key
  are the annotators (the key as one more annotator, so cleanlab scores the quality
  of *its* label); the classifier's ``pred_probs`` are the runs' vote shares with a
  half pseudo-count per letter (no classifier sees these questions; the vote shares
  are the nearest thing). The suspicion is 1 − the key's label-quality score.

This file imports neither the desk nor anything the desk's environment has.
"""

from __future__ import annotations

import json
import sys
from importlib.metadata import version


def main() -> int:
    import numpy as np
    import pandas as pd
    from cleanlab.multiannotator import get_label_quality_multiannotator
    from crowdkit.aggregation import DawidSkene

    data = json.load(sys.stdin)
    votes = np.array(data["votes"], dtype=int)
    keys = np.array(data["keys"], dtype=int)
    k = int(data["options"])
    n, runs = votes.shape
    rows = [(i, j, int(votes[i, j])) for i in range(n) for j in range(runs) if votes[i, j] >= 0]
    frame = pd.DataFrame(rows, columns=["task", "worker", "label"])
    ds = DawidSkene(n_iter=100).fit(frame)
    probas = ds.probas_.reindex(index=range(n), columns=range(k)).fillna(0.0).to_numpy()
    dawid_skene = 1.0 - probas[np.arange(n), keys]

    labels = np.where(votes >= 0, votes, np.nan).astype(float)
    annotators = np.column_stack([labels, keys.astype(float)])
    counts = np.stack([(votes == c).sum(1) for c in range(k)], axis=1).astype(float)
    pred_probs = (counts + 0.5) / (counts.sum(1, keepdims=True) + 0.5 * k)
    names = [f"run{j}" for j in range(runs)] + ["key"]
    result = get_label_quality_multiannotator(
        pd.DataFrame(annotators, columns=names), pred_probs, verbose=False
    )
    quality = result["detailed_label_quality"]["quality_annotator_key"].to_numpy()
    crowdlab = 1.0 - quality
    json.dump(
        {
            "dawid_skene": [float(x) for x in dawid_skene],
            "crowdlab": [float(x) for x in crowdlab],
            "versions": {"crowd-kit": version("crowd-kit"), "cleanlab": version("cleanlab")},
        },
        sys.stdout,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
