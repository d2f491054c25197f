"""Fit the constants the desk ships in ``ai4hse_desk/keyaudit/fitted.py``.

Builds the MMLU-Redux dev audit database with the desk's writer, runs the desk's key
audit on it, tunes the suspicion weights on every dev subject (the grid point of
``keyaudit_realdata.GRID`` with the best average precision) and fits the logistic
(Platt) calibration of the score on every dev subject. Prints the two constants as
Python, to be copied into ``fitted.py``. How well this procedure does on subjects it
was not fitted on is ``bench_keyaudit_real.py``'s job (cross-validated by subject),
which also fails when ``fitted.py`` no longer matches what this script prints.

Usage: python tests/benchmarks/keyaudit_fit.py
"""

from __future__ import annotations

import sys

from keyaudit_realdata import desk_corpus, fit_all
from keyaudit_redux import DATA, available, load


def main() -> int:
    if not available():
        print(f"error: no MMLU-Redux dev data at {DATA}", file=sys.stderr)
        return 2
    redux = load()
    corpus = desk_corpus(redux)
    weights, ab = fit_all(corpus)
    errors, runs = int(corpus.wrong.sum()), len(corpus.runs)
    print(f"# {len(corpus.wrong):,} questions, {errors} key errors, {runs} runs, "
          f"{redux.unmatched} questions without outputs left out")  # fmt: skip
    print(f"WEIGHTS: dict[str, float] = {weights!r}")
    print(f"PLATT: tuple[float, float] = {ab!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
