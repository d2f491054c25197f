"""Duplicate and near-duplicate questions, fast for thousands of questions.

A question's comparison text is its normalised stem plus its normalised
options in order (:func:`comparison_text`). Two questions are

* *duplicates* when their comparison texts are equal (found by grouping, exact);
* *near-duplicates* when difflib's ratio of their token sequences (words; each
  CJK character a token of its own) is at least :data:`NEAR_DUPLICATE`.

Comparing every pair with difflib would be quadratic in slow Python, so pairs
are blocked with MinHash LSH first: each text's set of character 4-shingles
(any script) gets 96 MinHash values, cut into 32 bands of 3; only pairs equal
on at least one band are candidates (a pair with shingle Jaccard 0.5 becomes
one with probability ≈ 0.99, 0.6 ≈ 0.9999), and of those only pairs whose
MinHash estimate of Jaccard is at least ``MIN_JACCARD − 0.15`` and whose exact
Jaccard is at least :data:`MIN_JACCARD` are compared with difflib (texts 90%
alike share far more shingles). The hash seeds are fixed, so the result is the
same on every run.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ai4hse_desk.audit.records import Question
from ai4hse_desk.keyaudit.text import normalise

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

NEAR_DUPLICATE = 0.9
MIN_JACCARD = 0.4
SHINGLE = 4
BANDS = 32
ROWS = 3
_MIX = 0x100000001B3  # FNV-1a 64-bit prime
_SEED = 20261001
_CJK = "\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff"
_TOKEN = re.compile(f"[{_CJK}]|[^\\s{_CJK}]+")


@dataclass(frozen=True, slots=True)
class DuplicatePair:
    """Two questions (indices into the list given) with equal or similar text."""

    first: int
    second: int
    similarity: float
    exact: bool


def comparison_text(question: Question) -> str:
    """Normalised stem and options, joined by `` | ``."""
    return " | ".join([normalise(question.text), *(normalise(o.text) for o in question.options)])


def shingles(text: str) -> npt.NDArray[np.uint64]:
    """Sorted distinct 64-bit hashes of every character 4-gram of ``text`` (of the
    whole text when shorter), computed from the code points (deterministic)."""
    import numpy as np

    codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    if codes.size == 0:
        return np.zeros(0, dtype=np.uint64)
    width = min(SHINGLE, int(codes.size))
    span = codes.size - width + 1
    mixed = np.zeros(span, dtype=np.uint64)
    for k in range(width):
        mixed = (mixed ^ codes[k : k + span]) * _MIX  # FNV-style, wrapping
    return np.unique(mixed)


def _signatures(sets: Sequence[npt.NDArray[np.uint64]]) -> npt.NDArray[np.uint64]:
    """MinHash signatures (one row per set) with multiply-shift hashes."""
    import numpy as np

    rng = np.random.default_rng(_SEED)
    size = BANDS * ROWS
    a = rng.integers(1, 1 << 63, size=size, dtype=np.uint64) | np.uint64(1)
    b = rng.integers(0, 1 << 63, size=size, dtype=np.uint64)
    out = np.full((len(sets), size), np.iinfo(np.uint64).max, dtype=np.uint64)
    for i, values in enumerate(sets):
        if values.size:
            out[i] = ((values[:, None] * a + b) >> np.uint64(16)).min(axis=0)
    return out


def candidate_pairs(sets: Sequence[npt.NDArray[np.uint64]]) -> list[tuple[int, int]]:
    """Pairs (i < j) of shingle sets that share at least one LSH band and whose
    MinHash estimate of Jaccard is at least ``MIN_JACCARD - 0.15``, ascending."""
    import numpy as np

    signatures = _signatures(sets)
    found: set[tuple[int, int]] = set()
    for band in range(BANDS):
        buckets: dict[bytes, list[int]] = {}
        block = signatures[:, band * ROWS : (band + 1) * ROWS]
        for i, values in enumerate(sets):
            if values.size:
                buckets.setdefault(block[i].tobytes(), []).append(i)
        for members in buckets.values():
            for k, i in enumerate(members):
                found.update((i, j) for j in members[k + 1 :])
    if not found:
        return []
    pairs = np.array(sorted(found), dtype=np.int64)
    estimate = (signatures[pairs[:, 0]] == signatures[pairs[:, 1]]).mean(axis=1)
    keep = pairs[estimate >= MIN_JACCARD - 0.15]
    return [(int(i), int(j)) for i, j in keep]


def duplicate_pairs(
    questions: Sequence[Question], threshold: float = NEAR_DUPLICATE
) -> list[DuplicatePair]:
    """Duplicate and near-duplicate pairs, ordered by (first, second) index."""
    texts = [comparison_text(q) for q in questions]
    groups: dict[str, list[int]] = {}
    for i, text in enumerate(texts):
        groups.setdefault(text, []).append(i)
    pairs = {
        (i, j): DuplicatePair(i, j, 1.0, True)
        for members in groups.values()
        for k, i in enumerate(members)
        for j in members[k + 1 :]
    }
    import numpy as np

    sets = [shingles(text) for text in texts]
    for i, j in candidate_pairs(sets):
        if (i, j) in pairs:
            continue
        common = np.intersect1d(sets[i], sets[j], assume_unique=True).size
        if common < MIN_JACCARD * (sets[i].size + sets[j].size - common):
            continue
        matcher = difflib.SequenceMatcher(
            None, _TOKEN.findall(texts[i]), _TOKEN.findall(texts[j]), autojunk=False
        )
        if matcher.real_quick_ratio() < threshold or matcher.quick_ratio() < threshold:
            continue
        ratio = matcher.ratio()
        if ratio >= threshold:
            pairs[(i, j)] = DuplicatePair(i, j, ratio, False)
    return [pairs[key] for key in sorted(pairs)]


__all__ = [
    "MIN_JACCARD",
    "NEAR_DUPLICATE",
    "DuplicatePair",
    "candidate_pairs",
    "comparison_text",
    "duplicate_pairs",
    "shingles",
]
