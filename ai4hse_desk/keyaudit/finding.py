"""One question's duplicates, summarised: counts, its group and a few named others.

Built by :class:`~ai4hse_desk.keyaudit.dupgroups.DuplicateReport`. When every
other question concerned is named (at most ``LISTED``), the reasons name each
one, as ever ("duplicate of Q001", "near-duplicate of Q007 (similarity 0.93)");
otherwise one sentence per kind counts them ("duplicate of Q002 and 99,998
others; 14,285 of them with a different key (the first: Q008)").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ai4hse_desk.display.format import plural


def _different(count: int, total: int, first: str | None) -> str:
    if not count:
        return ""
    if total == 1:
        return " with a different key"
    which = "all of them" if count == total else f"{count:,} of them"
    return f"; {which} with a different key (the first: {first})"


@dataclass(frozen=True, slots=True)
class DuplicateFinding:
    """Duplicates of one question.

    Attributes:
        listed: at most ``LISTED`` other questions in corpus order, as JSON
            objects ``{"question_id", "similarity", "exact", "same_key"}``.
        exact: other questions with the very same comparison text.
        exact_different: of those, how many have a different key.
        group: ``(id, size)`` of the question's exact group (the id is the
            group's first question in corpus order); ``None`` without duplicates.
        first_exact: the first other question of the group.
        first_exact_different: the first of the group with a different key.
        near: near-duplicate questions found.
        near_different: of those, how many have a different key.
        nearest: ``(question id, similarity)`` of the most similar one.
        first_near_different: the first near-duplicate with a different key.
        limited: the near-duplicate search was capped for this text, so
            ``near`` is a lower bound (README "Key audit").
    """

    listed: list[dict[str, object]] = field(default_factory=list)
    exact: int = 0
    exact_different: int = 0
    group: tuple[str, int] | None = None
    first_exact: str | None = None
    first_exact_different: str | None = None
    near: int = 0
    near_different: int = 0
    nearest: tuple[str, float] | None = None
    first_near_different: str | None = None
    limited: bool = False

    @property
    def different_key(self) -> int:
        """Duplicates and near-duplicates with a different key."""
        return self.exact_different + self.near_different

    @property
    def complete(self) -> bool:
        """True when every duplicate and near-duplicate is in :attr:`listed`."""
        return len(self.listed) == self.exact + self.near

    def counts_json(self) -> dict[str, object]:
        return {
            "exact": self.exact,
            "near": self.near,
            "different_key": self.different_key,
            "listed": len(self.listed),
            "near_search_limited": self.limited,
        }

    def group_json(self) -> dict[str, object] | None:
        if self.group is None:
            return None
        return {"id": self.group[0], "size": self.group[1]}

    def reasons(self) -> list[str]:
        """Sentences for the ranking (one per named question, or one per kind)."""
        if self.complete:
            return [_listed_reason(entry) for entry in self.listed]
        reasons: list[str] = []
        if self.exact:
            tail = f" and {plural(self.exact - 1, 'other')}" if self.exact > 1 else ""
            different = _different(self.exact_different, self.exact, self.first_exact_different)
            reasons.append(f"duplicate of {self.first_exact}{tail}{different}")
        if self.near and self.nearest is not None:
            other, similarity = self.nearest
            if self.near == 1:
                tail = ", with a different key" if self.near_different else ""
                reasons.append(f"near-duplicate of {other} (similarity {similarity:.2f}{tail})")
            else:
                more = "at least " if self.limited else ""
                different = _different(self.near_different, self.near, self.first_near_different)
                reasons.append(
                    f"near-duplicate of {other} (similarity {similarity:.2f}) and {more}"
                    f"{plural(self.near - 1, 'other')}{different}"
                )
        return reasons


def _listed_reason(entry: dict[str, object]) -> str:
    other = entry["question_id"]
    if entry["exact"]:
        tail = "" if entry["same_key"] else " with a different key"
        return f"duplicate of {other}{tail}"
    tail = "" if entry["same_key"] else ", with a different key"
    return f"near-duplicate of {other} (similarity {entry['similarity']:.2f}{tail})"


__all__ = ["DuplicateFinding"]
