"""Agreement between reviewers on ``key_incorrect``: Cohen's κ (two) or Krippendorff's α.

Rating units (what is compared):

* A **unit** is a question flagged by two or more reviewers, counting only flags
  whose current state is ``open`` or ``resolved`` (withdrawn flags are taken back).
* A reviewer's **rating** of a unit is 1 if they have such a flag on it with
  category ``key_incorrect`` (on the whole question or any option), and 0 if
  all their flags on it have other categories. A reviewer who did not flag the
  question did not rate it (missing, not 0): a flag list is not a full review.
* The reviewer of a flag is its author (a later edit by someone else does not
  change whose rating it is); the current state and category are used.

Statistics (computed by hand here; no library is used — the ``krippendorff``
package is GPL-licensed, and both formulas are short):

* two reviewers: **Cohen's κ** = (p_o − p_e) / (1 − p_e) over the units both
  rated; p_o the share of equal ratings, p_e = Σ_c p_A(c)·p_B(c) from each
  reviewer's own marginals. Undefined (``None``) without units, or when
  p_e = 1 (both gave every unit one and the same rating).
* three or more: **Krippendorff's α**, nominal, with missing ratings:
  α = 1 − D_o/D_e from the coincidence matrix o_ck = Σ_u Σ_{i≠j} [v_ui=c][v_uj=k]
  / (m_u − 1) over units with m_u ≥ 2 ratings; n_c = Σ_k o_ck, n = Σ_c n_c,
  D_o = Σ_{c≠k} o_ck / n, D_e = Σ_{c≠k} n_c·n_k / (n(n − 1)). Undefined
  without pairable ratings or when D_e = 0 (one rating value only).
* every pair of reviewers also gets κ over the units both rated.

Flags never change a key or a score (protocol §7); this is about the flags only.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING, Final, Protocol

if TYPE_CHECKING:
    from collections.abc import Hashable, Iterable, Mapping, Sequence

    from ai4hse_desk.notes.model import Flag

CATEGORY: Final = "key_incorrect"
#: Flag states that count as a reviewer's current opinion.
COUNTED_STATES: Final = ("open", "resolved")
DEFINITION: Final = (
    "units: questions flagged (open or resolved) by >= 2 reviewers; rating per reviewer: "
    "1 = has a key_incorrect flag on the question, 0 = flagged it only otherwise; "
    "reviewers who did not flag a question are missing; Cohen's kappa for 2 reviewers, "
    "Krippendorff's alpha (nominal) for more; per-pair kappa on the questions both flagged"
)

Result = tuple[float | None, str | None]


def cohen_kappa(first: Sequence[Hashable], second: Sequence[Hashable]) -> Result:
    """Cohen's κ of two raters' ratings of the same units, in the same order.

    Returns:
        ``(κ, None)``, or ``(None, reason)`` when κ is undefined.
    """
    if len(first) != len(second):
        raise ValueError("both raters must rate the same units")
    n = len(first)
    if n == 0:
        return None, "no question was rated by both reviewers"
    observed = sum(a == b for a, b in zip(first, second, strict=True)) / n
    count_a, count_b = Counter(first), Counter(second)
    expected = sum(count_a[c] * count_b[c] for c in count_a) / (n * n)
    if expected >= 1.0:
        return None, "no variation: both reviewers gave every question the same rating"
    return (observed - expected) / (1.0 - expected), None


def krippendorff_alpha(units: Iterable[Sequence[Hashable]]) -> Result:
    """Krippendorff's α (nominal) of ``units``: each the ratings it got (missing left out).

    Returns:
        ``(α, None)``, or ``(None, reason)`` when α is undefined.
    """
    coincidence: defaultdict[tuple[Hashable, Hashable], float] = defaultdict(float)
    for values in units:
        m = len(values)
        if m < 2:
            continue  # a unit rated once pairs with nothing
        counts = Counter(values)
        for c, count_c in counts.items():
            for k, count_k in counts.items():
                pairs = count_c * (count_k - 1 if c == k else count_k)
                if pairs:
                    coincidence[(c, k)] += pairs / (m - 1)
    totals: defaultdict[Hashable, float] = defaultdict(float)
    for (c, _k), weight in coincidence.items():
        totals[c] += weight
    n = sum(totals.values())
    if n < 2:
        return None, "no question was rated by two or more reviewers"
    observed = sum(w for (c, k), w in coincidence.items() if c != k) / n
    expected = sum(totals[c] * totals[k] for c in totals for k in totals if c != k) / (n * (n - 1))
    if expected == 0:
        return None, "no variation: every rating is the same"
    return 1.0 - observed / expected, None


def rating_units(flags: Iterable[Flag]) -> dict[str, dict[str, int]]:
    """Question → reviewer → rating (1/0), for questions rated by ≥ 2 reviewers."""
    ratings: dict[str, dict[str, int]] = {}
    for flag in flags:
        if flag.state not in COUNTED_STATES:
            continue
        given = ratings.setdefault(flag.question_id, {})
        given[flag.reviewer] = max(given.get(flag.reviewer, 0), int(flag.category == CATEGORY))
    return {
        question: dict(sorted(by.items()))
        for question, by in sorted(ratings.items())
        if len(by) >= 2
    }


@dataclass(frozen=True, slots=True)
class PairAgreement:
    """Cohen's κ of one pair of reviewers over the questions both flagged."""

    reviewers: tuple[str, str]
    questions: int
    kappa: float | None
    reason: str | None

    def to_json(self) -> dict[str, object]:
        """Plain JSON data."""
        return {
            "reviewers": list(self.reviewers),
            "questions": self.questions,
            "kappa": self.kappa,
            "undefined_reason": self.reason,
        }


@dataclass(frozen=True, slots=True)
class Agreement:
    """Agreement on ``key_incorrect`` (see the module docstring for the definition).

    Attributes:
        statistic: ``cohen_kappa``, ``krippendorff_alpha_nominal``, or ``None``
            with fewer than two reviewers.
        value: the statistic, ``None`` when undefined (then ``reason`` says why).
        units: question → reviewer → rating.
    """

    questions: int
    reviewers: tuple[str, ...]
    statistic: str | None
    value: float | None
    reason: str | None
    pairs: tuple[PairAgreement, ...]
    units: Mapping[str, Mapping[str, int]] = field(hash=False)

    def to_json(self) -> dict[str, object]:
        """The JSON ``notes agreement`` prints."""
        return {
            "category": CATEGORY,
            "definition": DEFINITION,
            "questions": self.questions,
            "reviewers": list(self.reviewers),
            "statistic": self.statistic,
            "value": self.value,
            "undefined_reason": self.reason,
            "pairs": [pair.to_json() for pair in self.pairs],
            "units": {q: dict(by) for q, by in self.units.items()},
        }


def agreement_of(flags: Iterable[Flag]) -> Agreement:
    """Agreement on ``key_incorrect`` among the authors of ``flags``."""
    units = rating_units(flags)
    reviewers = tuple(sorted({r for by in units.values() for r in by}))
    pairs = []
    for a, b in combinations(reviewers, 2):
        both = [by for by in units.values() if a in by and b in by]
        kappa, why = cohen_kappa([by[a] for by in both], [by[b] for by in both])
        pairs.append(PairAgreement((a, b), len(both), kappa, why))
    statistic: str | None
    value: float | None
    reason: str | None
    if len(reviewers) < 2:
        statistic, value = None, None
        reason = "fewer than two reviewers flagged the same question"
    elif len(reviewers) == 2:
        statistic, value, reason = "cohen_kappa", pairs[0].kappa, pairs[0].reason
    else:
        statistic = "krippendorff_alpha_nominal"
        value, reason = krippendorff_alpha([list(by.values()) for by in units.values()])
    return Agreement(len(units), reviewers, statistic, value, reason, tuple(pairs), units)


class FlagSource(Protocol):
    """Anything with ``flags()``, such as a :class:`~ai4hse_desk.notes.store.NotesStore`."""

    def flags(self) -> list[Flag]: ...


def key_agreement(store: FlagSource) -> Agreement:
    """Agreement on ``key_incorrect`` among every reviewer of a notes store."""
    return agreement_of(store.flags())
