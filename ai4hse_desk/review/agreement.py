"""Agreement over reviewed questions, and the experts' agreement with the key.

cli.md, "Review". **Units** are questions with two or more *submitted* verdicts
(a question two experts both passed as fine counts as much as one they both
questioned; the old flag-based agreement only saw questions somebody flagged).

* ``concern``: each verdict rated 1 (a concern) or 0 (``key_ok``); Cohen's κ when
  exactly two reviewers rated the units, Krippendorff's α (nominal, missing
  allowed) with more.
* ``category``: the verdict itself (nominal), the same statistic choice.
* ``blind_options``: each question × option of those units rated by its blind
  answer (TRUE/FALSE; UNSURE and not-blind are missing): Krippendorff's α.
* ``blind_vs_key``: every submitted verdict with a blind answer (each reviewer ×
  question once): options answered (UNSURE left out) equal to the key, and whole
  blind answers with no UNSURE equal to the key, each with a 95% Wilson interval
  (protocol.md section 6) — the benchmark's "expert agreement with the key".

κ and α are :mod:`.agreement`'s (hand-written, checked against worked examples
and, in the tests, scikit-learn's ``cohen_kappa_score``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ai4hse_desk.notes.agreement import cohen_kappa, krippendorff_alpha
from ai4hse_desk.protocol.wilson import wilson_interval
from ai4hse_desk.review.values import TRUE, UNSURE, Answer, is_concern

if TYPE_CHECKING:
    from collections.abc import Hashable, Mapping, Sequence

KAPPA: Final = "cohen_kappa"
ALPHA: Final = "krippendorff_alpha"


@dataclass(frozen=True, slots=True)
class Rated:
    """One submitted verdict, as the statistics see it."""

    question_id: str
    reviewer: str
    verdict: str
    blind_answer: Answer | None


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _nominal(units: Mapping[str, Mapping[str, Hashable]]) -> dict[str, object]:
    """κ for two reviewers, α for more, over ``units`` (question → reviewer → rating)."""
    raters = sorted({r for by in units.values() for r in by})
    if len(raters) == 2:
        both = [by for by in units.values() if len(by) == 2]
        value, reason = cohen_kappa([by[raters[0]] for by in both], [by[raters[1]] for by in both])
        statistic, count = KAPPA, len(both)
    else:
        value, reason = krippendorff_alpha([list(by.values()) for by in units.values()])
        statistic, count = ALPHA, len(units)
    if not units:
        value, reason = None, "no question has two or more submitted verdicts"
    return {"statistic": statistic, "value": _round(value), "units": count,
            "reviewers": len(raters), "undefined_reason": reason}  # fmt: skip


def _share(agree: int, of: int) -> dict[str, object]:
    interval = wilson_interval(agree, of)
    return {
        "agree": agree,
        "of": of,
        "share": _round(agree / of) if of else None,
        "wilson_low": _round(interval[0]) if interval else None,
        "wilson_high": _round(interval[1]) if interval else None,
    }


def _blind_vs_key(
    rated: Sequence[Rated], keys: Mapping[str, tuple[bool, ...]]
) -> dict[str, object]:
    options_agree = options_of = whole_agree = whole_of = 0
    for item in rated:
        if item.blind_answer is None:
            continue
        key = keys[item.question_id]
        answered = [(a, k) for a, k in zip(item.blind_answer, key, strict=True) if a != UNSURE]
        options_of += len(answered)
        options_agree += sum((a == TRUE) == k for a, k in answered)
        if len(answered) == len(key):
            whole_of += 1
            whole_agree += all((a == TRUE) == k for a, k in answered)
    return {"options": _share(options_agree, options_of),
            "questions": _share(whole_agree, whole_of)}  # fmt: skip


def review_agreement(
    rated: Sequence[Rated], keys: Mapping[str, tuple[bool, ...]]
) -> dict[str, object]:
    """The ``agreement`` object of ``review report`` (module docstring).

    Args:
        rated: every submitted verdict (one per reviewer × question).
        keys: the official key of every question in ``rated``.
    """
    by_question: dict[str, dict[str, Rated]] = {}
    for item in rated:
        by_question.setdefault(item.question_id, {})[item.reviewer] = item
    units = {q: by for q, by in sorted(by_question.items()) if len(by) >= 2}
    concern = {q: {r: int(is_concern(v.verdict)) for r, v in by.items()} for q, by in units.items()}
    category = {q: {r: v.verdict for r, v in by.items()} for q, by in units.items()}
    option_units: list[list[Hashable]] = []
    for by in units.values():
        answers = [v.blind_answer for v in by.values() if v.blind_answer is not None]
        for position in range(len(answers[0]) if answers else 0):
            given = [a[position] for a in answers if a[position] != UNSURE]
            option_units.append(list(given))
    alpha, reason = krippendorff_alpha(option_units)
    if not units:
        reason = "no question has two or more submitted verdicts"
    blind_options = {
        "statistic": ALPHA,
        "value": _round(alpha),
        "units": sum(len(unit) >= 2 for unit in option_units),
        "undefined_reason": reason,
    }
    return {
        "definition": "units: questions with two or more submitted verdicts",
        "concern": _nominal(concern),
        "category": _nominal(category),
        "blind_options": blind_options,
        "blind_vs_key": _blind_vs_key(rated, keys),
    }
