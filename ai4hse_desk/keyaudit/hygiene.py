"""Data hygiene of the corpus text: duplicates, identical options, encoding damage.

None of this looks at responses. Texts are compared after :func:`normalise`
(Unicode NFKC, case folded, punctuation dropped, whitespace collapsed).

* **Duplicates** and near-duplicates of other questions, grouped and counted
  (:mod:`.dupgroups`), never listed pair by pair; a duplicate whose key
  differs is called out.
* **Identical options** within a question (after normalising) and empty options.
* **Encoding damage**: U+FFFD replacement characters, typical UTF-8-read-as-
  cp1252 mojibake (``Ã©``, ``â€™``, ``Â°``, ``ï»¿``), a stray byte-order mark
  and C1 control characters.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ai4hse_desk.keyaudit.dupgroups import DuplicateReport
from ai4hse_desk.keyaudit.finding import DuplicateFinding
from ai4hse_desk.keyaudit.text import normalise

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ai4hse_desk.audit.records import Question

#: Characters that follow "Ã", "Â" or "â€" when UTF-8 was read as cp1252 / Latin-1.
_CP1252_TAIL = (
    "\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u0192\u02c6\u02dc"
    "\u2013\u2014\u2018\u2019\u201a\u201c\u201d\u201e\u2020\u2021\u2022\u2026"
    "\u2030\u2039\u203a\u20ac\u2122"
)
_DAMAGE: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("replacement_character", re.compile("\ufffd")),
    ("mojibake", re.compile(f"â€[{_CP1252_TAIL}]?|[ÃÂ][{_CP1252_TAIL}]|ï»¿")),
    ("byte_order_mark", re.compile("\ufeff")),
    ("control_character", re.compile("[\u0080-\u009f]")),
)


@dataclass(frozen=True, slots=True)
class Damage:
    """One kind of encoding damage found in one text of a question."""

    position: int | None  # None: the question text; else the option's position
    issue: str
    count: int
    match: str  # the first damaged characters only (texts are private)
    offset: int  # character offset of that match

    def to_json(self) -> dict[str, object]:
        return {
            "where": "question" if self.position is None else "option",
            "position": self.position,
            "issue": self.issue,
            "count": self.count,
            "match": self.match,
            "offset": self.offset,
        }


def encoding_damage(question: Question) -> list[Damage]:
    """Every kind of damage in the question text and in each option."""
    found: list[Damage] = []
    texts: list[tuple[int | None, str]] = [(None, question.text)]
    texts += [(option.position, option.text) for option in question.options]
    for position, text in texts:
        for issue, pattern in _DAMAGE:
            matches = list(pattern.finditer(text))
            if matches:
                first = matches[0]
                found.append(Damage(position, issue, len(matches), first.group(), first.start()))
    return found


def identical_options(question: Question) -> list[tuple[int, int]]:
    """Pairs of positions whose option texts are equal after normalising (non-empty)."""
    first: dict[str, int] = {}
    pairs: list[tuple[int, int]] = []
    for option in question.options:
        text = normalise(option.text)
        if not text:
            continue
        if text in first:
            pairs.append((first[text], option.position))
        else:
            first[text] = option.position
    return pairs


def empty_options(question: Question) -> list[int]:
    """Positions of options whose text is blank."""
    return [option.position for option in question.options if not option.text.strip()]


@dataclass(slots=True)
class Hygiene:
    """Hygiene findings of one question."""

    finding: DuplicateFinding = field(default_factory=DuplicateFinding)
    identical: list[tuple[int, int]] = field(default_factory=list)
    empty: list[int] = field(default_factory=list)
    damage: list[Damage] = field(default_factory=list)

    @property
    def duplicates(self) -> list[dict[str, object]]:
        """The named duplicates and near-duplicates (at most ``LISTED``)."""
        return self.finding.listed

    @property
    def severity(self) -> float:
        """Ranking component in [0, 1]: 1 for encoding damage, identical options or a
        duplicate with another key; 0.7 a duplicate; 0.6 an empty option; 0.5 a
        near-duplicate."""
        levels = [0.0]
        if self.damage or self.identical:
            levels.append(1.0)
        if self.empty:
            levels.append(0.6)
        if self.finding.different_key:
            levels.append(1.0)
        if self.finding.exact:
            levels.append(0.7)
        if self.finding.near:
            levels.append(0.5)
        return max(levels)

    def to_json(self) -> dict[str, object]:
        return {
            "duplicates": self.duplicates,
            "duplicate_counts": self.finding.counts_json(),
            "duplicate_group": self.finding.group_json(),
            "identical_options": [list(pair) for pair in self.identical],
            "empty_options": self.empty,
            "encoding": [damage.to_json() for damage in self.damage],
        }


def corpus_hygiene(
    questions: Sequence[Question], duplicates: DuplicateReport | None = None
) -> list[Hygiene]:
    """Hygiene findings per question, in the order given (``duplicates``: the
    corpus's :class:`DuplicateReport`, computed here when not given)."""
    report = duplicates if duplicates is not None else DuplicateReport(questions)
    return [
        Hygiene(
            finding=report.finding(i),
            identical=identical_options(q),
            empty=empty_options(q),
            damage=encoding_damage(q),
        )
        for i, q in enumerate(questions)
    ]


__all__ = [
    "Damage",
    "Hygiene",
    "corpus_hygiene",
    "empty_options",
    "encoding_damage",
    "identical_options",
]
