"""Constants fitted on real key errors: the suspicion score's weights and its calibration.

Written from the output of ``tests/benchmarks/keyaudit_fit.py`` run on MMLU-Redux's
dev subjects (``../shared/data/mmlu-redux-dev``: 29 subjects, 2,898 questions with
the original keys, 87 key errors as the experts judged them; the 10 HELM models as
single-choice runs). The weights are the grid point with the best average precision
over subjects held out (five folds by subject); the calibration is a logistic (Platt)
map of the score fitted on every dev subject. ``bench_keyaudit_real.py`` re-fits both
and fails when they no longer match these numbers.
"""

from __future__ import annotations

#: The suspicion score's weights (:class:`~ai4hse_desk.keyaudit.suspicion.Features`).
WEIGHTS: dict[str, float] = {"model": 1.0, "agree": 0.0, "form": 0.005}
#: P(key wrong) = 1 / (1 + exp(-(PLATT[0] + PLATT[1] * score))) on a calibrated corpus.
PLATT: tuple[float, float] = (-3.1767, 1.0792)
#: What the constants were fitted on (shown in the corpus JSON).
SOURCE = "MMLU-Redux dev subjects (2,898 questions, 87 key errors, 10 single-choice runs)"

__all__ = ["PLATT", "SOURCE", "WEIGHTS"]
