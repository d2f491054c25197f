"""Answer-key position skew across the corpus (a corpus-level signal).

Two forms, chosen by the corpus:

* ``one_hot`` — every key has exactly one TRUE (single-answer sets such as
  HSE-Bench and EnviroExam): the number of keys at each position against a
  uniform choice among each question's options (expected count at position i
  = Σ over questions with more than i options of 1 / n). Pearson χ²
  goodness of fit, df = positions − 1.
* ``true_share`` — multi-select keys: the share of TRUE keys per position,
  tested for homogeneity across positions (a 2 × positions table), df =
  positions − 1.

Reported with the p-value (χ² survival function, computed here: no SciPy),
Cohen's w = √(χ² / N) as the effect size, and ``skewed`` when p < 0.01 and
w ≥ 0.1. ``leaning`` lists the positions holding at least 10% more keys than
expected, most over-represented first. Skew is a property of the corpus, not
evidence that any one key is wrong, so it does not enter any question's score.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ai4hse_desk.display.format import option_letter

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ai4hse_desk.audit.records import Question

ALPHA = 0.01
MIN_EFFECT = 0.1


def _gamma_q(a: float, x: float) -> float:
    """Regularised upper incomplete gamma Q(a, x) (series or continued fraction)."""
    if x <= 0:
        return 1.0
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:
        term = total = 1.0 / a
        ap = a
        for _ in range(10_000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


def chi_square_sf(statistic: float, df: int) -> float:
    """P(χ²_df ≥ statistic)."""
    if df <= 0:
        return 1.0
    return _gamma_q(df / 2, statistic / 2)


def position_skew(questions: Sequence[Question]) -> dict[str, object]:
    """The corpus-level skew report (see the module docstring)."""
    keyed = [q for q in questions if q.options]
    width = max((q.n_options for q in keyed), default=0)
    one_hot = bool(keyed) and all(sum(q.key) == 1 for q in keyed)
    observed = [0.0] * width
    expected = [0.0] * width
    present = [0] * width
    for q in keyed:
        for i, is_true in enumerate(q.key):
            present[i] += 1
            observed[i] += is_true
            if one_hot:
                expected[i] += 1 / q.n_options
    if not one_hot:
        true_share = sum(observed) / sum(present) if keyed else 0.0
        expected = [true_share * count for count in present]
    statistic = 0.0
    used = 0
    for i in range(width):
        if one_hot:
            cells = [(observed[i], expected[i])]
        else:  # TRUE and FALSE cells of the column
            cells = [
                (observed[i], expected[i]),
                (present[i] - observed[i], present[i] - expected[i]),
            ]
        if expected[i] <= 0 or (not one_hot and present[i] - expected[i] <= 0):
            continue
        used += 1
        statistic += sum((o - e) ** 2 / e for o, e in cells)
    df = max(0, used - 1)
    total = len(keyed) if one_hot else sum(present)
    p_value = chi_square_sf(statistic, df) if df else None
    effect = math.sqrt(statistic / total) if total else None
    leaning = sorted(
        (i for i in range(width) if expected[i] > 0 and observed[i] >= 1.1 * expected[i]),
        key=lambda i: (-observed[i] / expected[i], i),
    )
    return {
        "method": "one_hot" if one_hot else "true_share",
        "questions": len(keyed),
        "positions": [
            {
                "position": i,
                "letter": option_letter(i),
                "questions": present[i],
                "true": int(observed[i]),
                "share": round(observed[i] / present[i], 4) if present[i] else None,
                "expected_share": round(expected[i] / present[i], 4) if present[i] else None,
            }
            for i in range(width)
        ],
        "chi_square": round(statistic, 4),
        "df": df,
        "p_value": None if p_value is None else float(f"{p_value:.4g}"),
        "effect_w": None if effect is None else round(effect, 4),
        "skewed": p_value is not None
        and effect is not None
        and p_value < ALPHA
        and effect >= MIN_EFFECT,
        "leaning": [option_letter(i) for i in leaning],
    }


def skew_words(report: Mapping[str, object]) -> tuple[str, str]:
    """The :func:`position_skew` report for a reader: a plain phrase, and the detail
    (the test, its p-value and effect size, each with its meaning) for a tooltip."""
    if not report:
        return "", ""
    one_hot = report.get("method") == "one_hot"
    if report.get("p_value") is None:
        return (
            "",
            "No test of the keys' positions: fewer than two positions where a key could "
            "fall either way.",
        )
    if report.get("skewed"):
        leaning = report.get("leaning")
        letters = ", ".join(str(x) for x in leaning) if isinstance(leaning, list) else ""
        subject = "answer keys" if one_hot else "TRUE keys"
        phrase = f"{subject} lean to {letters or 'some positions'} more than chance explains"
    else:
        phrase = "answer keys spread about evenly over the option positions"
    detail = (
        f"Pearson's χ² test of the keys' positions against an even spread: p = "
        f"{report.get('p_value')} (how often keys placed evenly at random would look at "
        f"least this uneven), effect size w = {report.get('effect_w')} (0.1 is small, 0.3 "
        f"medium). Called a lean when p < {ALPHA} and w ≥ {MIN_EFFECT}. A property of the "
        "corpus, never evidence that any one key is wrong: it does not enter any rank."
    )
    return phrase, detail


__all__ = ["chi_square_sf", "position_skew", "skew_words"]
