"""Duplicate questions as groups and counts, never as a list of every pair.

Questions with equal comparison texts form one *exact group* (found once, by
the text); near-duplicate links are found between the distinct texts only
(:mod:`.duplicates`), so every member of a group is a near-duplicate of every
member of a linked group without that product ever being listed. Each
question gets a :class:`~.finding.DuplicateFinding` (counts, its group, the
first :data:`LISTED` other questions by name); corpus counts of pairs are
computed from group sizes and key counts. Work and memory grow with the
number of questions plus the number of links, not with the pairs.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ai4hse_desk.keyaudit.duplicates import NEAR_DUPLICATE, comparison_text, near_duplicates
from ai4hse_desk.keyaudit.finding import DuplicateFinding

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ai4hse_desk.audit.records import Question
    from ai4hse_desk.protocol.outcome import Selection

#: Other questions named one by one per question (beyond that: counts only).
LISTED = 5


@dataclass(frozen=True, slots=True)
class DuplicatePair:
    """Two questions (indices into the list given) with equal or similar text."""

    first: int
    second: int
    similarity: float
    exact: bool


@dataclass(slots=True)
class _DuplicateGroup:
    members: list[int]  # question indices, ascending
    keys: Counter[Selection]
    other_key: int | None  # first member whose key differs from the first member's
    links: list[tuple[int, float]] = field(default_factory=list)  # (group, ratio)


@dataclass(frozen=True, slots=True)
class _Near:
    """What a group's near-duplicates are for every one of its members."""

    total: int
    head: list[tuple[int, float]]  # first LISTED near-duplicate questions (index, ratio)
    nearest: tuple[int, float]  # first question of the most similar group, ratio
    first: int  # first near-duplicate question
    other_key: int | None  # first near-duplicate whose key differs from ``first``'s
    same_key: Counter[Selection] | None  # key -> near-duplicates with it (None: count on demand)
    asked: dict[Selection, int] = field(default_factory=dict)  # counted on demand, per key


def _first_other_key(keys: Sequence[Selection], indices: Sequence[int]) -> int | None:
    first = keys[indices[0]]
    return next((i for i in indices if keys[i] != first), None)


def _pairs_within(counts: Counter[Selection], size: int) -> tuple[int, int]:
    """(pairs, pairs with different keys) inside one group."""
    pairs = size * (size - 1) // 2
    return pairs, pairs - sum(c * (c - 1) // 2 for c in counts.values())


class DuplicateReport:
    """Exact groups of ``questions`` and near-duplicate links between them."""

    def __init__(self, questions: Sequence[Question], threshold: float = NEAR_DUPLICATE) -> None:
        self._questions = questions
        self._keys = keys = [q.key for q in questions]
        index: dict[str, int] = {}
        self._group_of = [index.setdefault(comparison_text(q), len(index)) for q in questions]
        members: list[list[int]] = [[] for _ in index]
        for i, group in enumerate(self._group_of):
            members[group].append(i)
        self._groups = [
            _DuplicateGroup(m, Counter(keys[i] for i in m), _first_other_key(keys, m))
            for m in members
        ]
        found = near_duplicates(list(index), threshold)
        self._links = found.links
        self._limited = found.limited_texts
        for a, b, ratio in found.links:
            self._groups[a].links.append((b, ratio))
            self._groups[b].links.append((a, ratio))
        self._near: dict[int, _Near] = {}

    def _near_of(self, number: int) -> _Near:
        cached = self._near.get(number)
        if cached is None:
            cached = self._near[number] = self._summarise(self._groups[number])
        return cached

    def _summarise(self, group: _DuplicateGroup) -> _Near:
        groups = self._groups
        linked = [(groups[g], ratio) for g, ratio in group.links]
        head = sorted((i, ratio) for g, ratio in linked for i in g.members[:LISTED])
        best, ratio = max(linked, key=lambda link: (link[1], -link[0].members[0]))
        pool = sorted(i for g, _ in linked for i in (g.members[0], g.other_key) if i is not None)
        # Key counts over the linked groups, unless asking each linked group per own key is cheaper.
        same_key: Counter[Selection] | None = None
        if sum(len(g.keys) for g, _ in linked) <= len(linked) * len(group.keys):
            same_key = Counter()
            for g, _ in linked:
                same_key.update(g.keys)
        return _Near(
            total=sum(len(g.members) for g, _ in linked),
            head=head[:LISTED],
            nearest=(best.members[0], ratio),
            first=pool[0],
            other_key=_first_other_key(self._keys, pool),
            same_key=same_key,
        )

    def _near_same_key(self, number: int, near: _Near, key: Selection) -> int:
        if near.same_key is not None:
            return near.same_key[key]
        found = near.asked.get(key)
        if found is None:
            links = self._groups[number].links
            found = near.asked[key] = sum(self._groups[g].keys[key] for g, _ in links)
        return found

    def finding(self, index: int) -> DuplicateFinding:
        """The duplicates of question ``index``, summarised (at most LISTED named)."""
        questions, keys = self._questions, self._keys
        key = keys[index]
        number = self._group_of[index]
        group = self._groups[number]
        size, first = len(group.members), group.members[0]
        entries = [(i, 1.0, True) for i in group.members[: LISTED + 1] if i != index]
        exact_first = entries[0][0] if entries else None
        exact_other = first if keys[first] != key else group.other_key
        near_total = near_different = 0
        nearest: tuple[str, float] | None = None
        near_other: int | None = None
        if group.links:
            near = self._near_of(number)
            entries += [(i, ratio, False) for i, ratio in near.head]
            near_total = near.total
            near_different = near.total - self._near_same_key(number, near, key)
            nearest = (questions[near.nearest[0]].question_id, near.nearest[1])
            near_other = near.first if keys[near.first] != key else near.other_key
        entries.sort()
        return DuplicateFinding(
            listed=[
                {
                    "question_id": questions[i].question_id,
                    "similarity": round(ratio, 4),
                    "exact": exact,
                    "same_key": keys[i] == key,
                }
                for i, ratio, exact in entries[:LISTED]
            ],
            exact=size - 1,
            exact_different=size - group.keys[key],
            group=(questions[first].question_id, size) if size > 1 else None,
            first_exact=self._id(exact_first),
            first_exact_different=self._id(exact_other),
            near=near_total,
            near_different=near_different,
            nearest=nearest,
            first_near_different=self._id(near_other),
            limited=number in self._limited,
        )

    def _id(self, index: int | None) -> str | None:
        return None if index is None else self._questions[index].question_id

    def findings(self) -> list[DuplicateFinding]:
        """:meth:`finding` of every question, in the order given."""
        return [self.finding(i) for i in range(len(self._questions))]

    def counts(self) -> dict[str, int]:
        """Corpus counts: pairs (computed, never listed), groups, capped texts."""
        exact = near = different = 0
        sizes = [len(g.members) for g in self._groups]
        for group, size in zip(self._groups, sizes, strict=True):
            pairs, other = _pairs_within(group.keys, size)
            exact, different = exact + pairs, different + other
        for a, b, _ in self._links:
            first, second = self._groups[a], self._groups[b]
            small, large = sorted((first.keys, second.keys), key=len)
            pairs = len(first.members) * len(second.members)
            near += pairs
            different += pairs - sum(c * large[k] for k, c in small.items())
        return {
            "duplicate_pairs": exact,
            "near_duplicate_pairs": near,
            "duplicate_pairs_with_different_keys": different,
            "duplicate_groups": sum(1 for size in sizes if size > 1),
            "largest_duplicate_group": max((s for s in sizes if s > 1), default=0),
            "near_duplicate_search_limited": len(self._limited),
        }

    def pairs(self) -> list[DuplicatePair]:
        """Every pair, expanded (quadratic in a group's size: for small sets only)."""
        found = [
            DuplicatePair(i, j, 1.0, True)
            for g in self._groups
            for k, i in enumerate(g.members)
            for j in g.members[k + 1 :]
        ]
        for a, b, ratio in self._links:
            for i in self._groups[a].members:
                found += [
                    DuplicatePair(min(i, j), max(i, j), ratio, False)
                    for j in self._groups[b].members
                ]
        return sorted(found, key=lambda pair: (pair.first, pair.second))


def duplicate_pairs(
    questions: Sequence[Question], threshold: float = NEAR_DUPLICATE
) -> list[DuplicatePair]:
    """Duplicate and near-duplicate pairs, ordered by (first, second) index.

    Lists every pair, so it is quadratic in the size of a group: for small
    sets. The key audit uses :class:`DuplicateReport` instead."""
    return DuplicateReport(questions, threshold).pairs()


__all__ = ["LISTED", "DuplicatePair", "DuplicateReport", "duplicate_pairs"]
