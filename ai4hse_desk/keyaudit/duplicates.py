"""Near-duplicate texts, in time and memory linear in the number of texts.

A question's comparison text is its normalised stem plus its normalised
options in order (:func:`comparison_text`). Questions with *equal* comparison
texts are grouped exactly (:mod:`.dupgroups`); this module compares the
*distinct* texts only, so a text shared by 100,000 questions is handled once.
Two texts are near-duplicates when the similarity of their token sequences
(words; each CJK character a token of its own) is at least :data:`NEAR_DUPLICATE`:
twice their longest common subsequence over their summed lengths (RapidFuzz's
normalised Indel similarity, computed in compiled code; difflib's ``ratio`` is the
same formula over a common subsequence it finds by a heuristic, never longer).

Comparing every pair would be quadratic in the number of texts, so pairs
are blocked with MinHash LSH first: each text's set of character 4-shingles
(any script) gets 96 MinHash values, cut into 32 bands of 3; only pairs equal
on at least one band are candidates (a pair with shingle Jaccard 0.5 becomes
one with probability ≈ 0.99, 0.6 ≈ 0.9999), and of those only pairs whose
MinHash estimate of Jaccard is at least ``MIN_JACCARD − 0.15`` are compared
(texts 90% alike share far more shingles). The hash seeds are fixed, so the result is the
same on every run.

Candidates stay linear however many texts share a band (a template, or
thousands of texts that differ in one word), within a budget of
:func:`budget` pairs (20,000 + 4 per text): a band's buckets of at most
:data:`FULL_BUCKET` texts give every pair, larger ones too while the band's
budget lasts (smallest first); any bucket beyond gives each text only its
next :data:`WINDOW` texts in MinHash order (alike texts sit together). When
more candidates than the budget pass the MinHash estimate, each text keeps
only its K best (highest estimate, then corpus order; a pair stays when it is
among the best of either text), K as large as the budget allows. Texts
touched by either cut are counted (``limited_texts``): for them the
near-duplicates found are a lower bound. A comparison's time grows with the
product of the two lengths, so texts longer than :data:`MAX_TOKENS` tokens (four times
the longest HSE-Bench question) are compared on their first ``MAX_TOKENS``
tokens, and counted there too. Ordinary corpora stay within the
budget (HSE-Bench, 1,020 questions: about 14,000 candidates).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ai4hse_desk.keyaudit.text import normalise

if TYPE_CHECKING:
    from collections.abc import Sequence

    import numpy as np
    import numpy.typing as npt

    from ai4hse_desk.audit.records import Question

NEAR_DUPLICATE = 0.9
MIN_JACCARD = 0.4
SHINGLE = 4
BANDS = 32
ROWS = 3
FULL_BUCKET = 16
WINDOW = 4
MAX_TOKENS = 1_000
_HASH_CELLS = 1 << 22  # shingles × MinHash values hashed at once (32 MiB)
_PAIR_CHUNK = 1 << 16  # candidate pairs estimated at once
_MIX = 0x100000001B3  # FNV-1a 64-bit prime
_SEED = 20261001
_CJK = "\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff"
_TOKEN = re.compile(f"[{_CJK}]|[^\\s{_CJK}]+")


@dataclass(frozen=True, slots=True)
class NearDuplicates:
    """Near-duplicate links between distinct texts (indices into the list given).

    Attributes:
        links: ``(i, j, ratio)`` with i < j, ascending.
        limited_texts: texts whose candidates were cut (see the module docstring).
    """

    links: list[tuple[int, int, float]]
    limited_texts: frozenset[int] = frozenset()


def _distinct(values: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Sorted distinct values (``np.unique``, which is far slower on NumPy 2.4)."""
    import numpy as np

    ordered = np.sort(values)
    if ordered.size < 2:
        return ordered
    keep = np.empty(ordered.size, dtype=bool)
    keep[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=keep[1:])
    return ordered[keep]


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
    return _distinct(mixed)


def _signatures(sets: Sequence[npt.NDArray[np.uint64]]) -> npt.NDArray[np.uint64]:
    """MinHash signatures (one row per set) with multiply-shift hashes, hashed in
    slices of at most :data:`_HASH_CELLS` cells (memory bounded whatever the sizes)."""
    import numpy as np

    rng = np.random.default_rng(_SEED)
    size = BANDS * ROWS
    a = rng.integers(1, 1 << 63, size=size, dtype=np.uint64) | np.uint64(1)
    b = rng.integers(0, 1 << 63, size=size, dtype=np.uint64)
    out = np.full((len(sets), size), np.iinfo(np.uint64).max, dtype=np.uint64)
    per_slice = max(1, _HASH_CELLS // size)
    batch: list[int] = []
    held = 0

    def hashed(values: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
        cells = a[:, None] * values[None, :]  # one row per MinHash value: contiguous
        cells += b[:, None]
        cells >>= np.uint64(16)
        return cells

    def flush(rows: list[int]) -> None:
        values = np.concatenate([sets[i] for i in rows])
        starts = np.cumsum([0] + [sets[i].size for i in rows[:-1]])
        out[rows] = np.minimum.reduceat(hashed(values), starts, axis=1).T

    for i, values in enumerate(sets):
        if values.size > per_slice:  # one long text: its own slices
            for start in range(0, values.size, per_slice):
                part = values[start : start + per_slice]
                np.minimum(out[i], hashed(part).min(axis=1), out[i])
        elif values.size:
            if held + values.size > per_slice:
                flush(batch)
                batch, held = [], 0
            batch.append(i)
            held += values.size
    if batch:
        flush(batch)
    return out


def budget(texts: int) -> int:
    """Candidate pairs allowed per band and compared: 20,000 + 4 per text."""
    return 20_000 + 4 * texts


def _band_codes(
    signatures: npt.NDArray[np.uint64],
    live: npt.NDArray[np.int64],
    order_key: npt.NDArray[np.int64],
    band: int,
    limited: set[int],
) -> npt.NDArray[np.int64]:
    """Candidate pairs of one band as codes ``i * n + j`` (i < j), ascending."""
    import numpy as np

    n = signatures.shape[0]
    if live.size < 2:
        return np.zeros(0, dtype=np.int64)
    block = signatures[live, band * ROWS : (band + 1) * ROWS]
    order = np.lexsort((order_key[live], *(block[:, k] for k in reversed(range(ROWS)))))
    ordered = block[order]
    starts = np.any(ordered[1:] != ordered[:-1], axis=1)
    ranked = np.concatenate(([0], np.cumsum(starts)))  # bucket of each sorted text
    members = live[order]
    sizes = np.bincount(ranked)
    if sizes.max(initial=0) < 2:
        return np.zeros(0, dtype=np.int64)
    large, count = np.unique(sizes[sizes > FULL_BUCKET], return_counts=True)
    spent = np.cumsum(count * (large * (large - 1) // 2))
    whole = int(large[spent <= budget(n)].max(initial=FULL_BUCKET))
    windowed = sizes[ranked] > whole
    limited.update(members[windowed].tolist())
    codes: list[npt.NDArray[np.int64]] = []
    for chosen, reach in ((~windowed, whole - 1), (windowed, WINDOW)):
        ids, keys = members[chosen], ranked[chosen]
        for step in range(1, min(reach, ids.size - 1) + 1):
            same = keys[:-step] == keys[step:]
            if not same.any():
                break  # every bucket left is smaller than the step
            first, second = ids[:-step][same], ids[step:][same]
            codes.append(np.minimum(first, second) * n + np.maximum(first, second))
    return _distinct(np.concatenate(codes)) if codes else np.zeros(0, dtype=np.int64)


def _estimates(
    signatures: npt.NDArray[np.uint64], pairs: npt.NDArray[np.int64]
) -> npt.NDArray[np.float64]:
    """MinHash estimate of Jaccard for each pair, in chunks (bounded memory)."""
    import numpy as np

    out = np.zeros(len(pairs), dtype=np.float64)
    for start in range(0, len(pairs), _PAIR_CHUNK):
        part = pairs[start : start + _PAIR_CHUNK]
        out[start : start + len(part)] = (signatures[part[:, 0]] == signatures[part[:, 1]]).mean(
            axis=1
        )
    return out


def _within_budget(
    pairs: npt.NDArray[np.int64], estimate: npt.NDArray[np.float64], allowed: int, limited: set[int]
) -> npt.NDArray[np.int64]:
    """At most ``allowed`` of ``pairs`` (ascending): those among the K best of
    either text (highest estimate, then lowest partner), K as large as fits."""
    import numpy as np

    if len(pairs) <= allowed:
        return pairs
    source = np.concatenate((pairs[:, 0], pairs[:, 1]))
    partner = np.concatenate((pairs[:, 1], pairs[:, 0]))
    order = np.lexsort((partner, -np.tile(estimate, 2), source))
    ranked = source[order]
    rank = np.empty(ranked.size, dtype=np.int64)
    rank[order] = np.arange(ranked.size) - np.searchsorted(ranked, ranked, side="left")
    best = np.minimum(rank[: len(pairs)], rank[len(pairs) :])  # the better of the two texts
    cut = int(np.sort(best)[allowed])  # K: keeping best < K stays within ``allowed``
    kept: npt.NDArray[np.bool_] = best < cut
    limited.update(_distinct(pairs[~kept].reshape(-1)).tolist())
    chosen: npt.NDArray[np.int64] = pairs[kept]
    return chosen


def candidate_pairs(
    sets: Sequence[npt.NDArray[np.uint64]], limited: set[int] | None = None
) -> list[tuple[int, int]]:
    """Pairs (i < j) of shingle sets that share at least one LSH band and whose
    MinHash estimate of Jaccard is at least ``MIN_JACCARD - 0.15``, ascending,
    within :func:`budget` (``limited`` collects the texts whose pairs were cut)."""
    import numpy as np

    cut = limited if limited is not None else set()
    signatures = _signatures(sets)
    n = len(sets)
    live = np.flatnonzero([values.size > 0 for values in sets]).astype(np.int64)
    order_key = np.empty(n, dtype=np.int64)  # rank in lexicographic MinHash order
    order_key[np.lexsort(signatures.T[::-1])] = np.arange(n)
    codes = np.zeros(0, dtype=np.int64)
    for band in range(BANDS):
        codes = _distinct(
            np.concatenate((codes, _band_codes(signatures, live, order_key, band, cut)))
        )
    if not codes.size:
        return []
    pairs = np.stack((codes // n, codes % n), axis=1)
    estimate = _estimates(signatures, pairs)
    passed = estimate >= MIN_JACCARD - 0.15
    keep = _within_budget(pairs[passed], estimate[passed], budget(n), cut)
    return [(int(i), int(j)) for i, j in keep]


def _tokens(
    cache: dict[int, list[str]], texts: Sequence[str], index: int, limited: set[int]
) -> list[str]:
    """The text's first :data:`MAX_TOKENS` tokens (a comparison is quadratic in length)."""
    found = cache.get(index)
    if found is None:
        found = _TOKEN.findall(texts[index])
        if len(found) > MAX_TOKENS:
            found = found[:MAX_TOKENS]
            limited.add(index)
        cache[index] = found
    return found


def near_duplicates(texts: Sequence[str], threshold: float = NEAR_DUPLICATE) -> NearDuplicates:
    """Near-duplicate links between the (distinct) ``texts``."""
    from rapidfuzz.distance import Indel

    sets = [shingles(text) for text in texts]
    limited: set[int] = set()
    candidates = candidate_pairs(sets, limited)
    tokens: dict[int, list[str]] = {}
    links: list[tuple[int, int, float]] = []
    for i, j in candidates:
        first, second = _tokens(tokens, texts, i, limited), _tokens(tokens, texts, j, limited)
        ratio = Indel.normalized_similarity(first, second, score_cutoff=threshold)
        if ratio >= threshold:
            links.append((i, j, ratio))
    links.sort()
    return NearDuplicates(links, frozenset(limited))


__all__ = [
    "FULL_BUCKET",
    "MAX_TOKENS",
    "MIN_JACCARD",
    "NEAR_DUPLICATE",
    "WINDOW",
    "NearDuplicates",
    "budget",
    "candidate_pairs",
    "comparison_text",
    "near_duplicates",
    "shingles",
]
