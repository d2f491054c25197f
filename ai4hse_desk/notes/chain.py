"""One rule for every history an import extends: flags, attempt notes, verdicts, decisions.

A history is a chain of revisions, oldest first, each holding the item's values
after it and (where the table keeps them) its ``changes``, field → ``(old, new)``.
An import may only *extend* what the store holds (issue: "imports never rewrite
history"): every revision it adds is later than the store's latest one of that
item, and each revision's changes lead exactly from the values before it — a
listed field's old value is the value before, an unlisted field keeps it. A
revision dated inside the stored history, or one whose ``changes`` match nothing
stored, is refused; so is a forged "edit" that does not start from what is there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence


@dataclass(frozen=True, slots=True)
class Step:
    """One revision as the chain rule sees it.

    Attributes:
        where: where it is (a JSON path for an imported one, "" for a stored one).
        at: its time.
        revision_id: its id (ties of time are ordered by it).
        values: the item's fields after it.
        changes: field → ``(old, new)``; ``None`` for tables without changes
            (decisions: each revision holds the whole decision).
    """

    where: str
    at: str
    revision_id: str
    values: Mapping[str, object]
    changes: Mapping[str, tuple[object, object]] | None


def chain_problem(stored: Sequence[Step], added: Sequence[Step]) -> tuple[str, str] | None:
    """The first break of the rule (module docstring) when ``added`` extends ``stored``:
    ``(where, problem)``, or ``None`` when the history holds.

    Args:
        stored: the store's revisions of the item, oldest first (may be empty).
        added: the revisions the import would add (any order).
    """
    latest = stored[-1] if stored else None
    ordered = sorted(added, key=lambda step: (step.at, step.revision_id))
    if latest is not None and ordered and ordered[0].at <= latest.at:
        return (
            f"{ordered[0].where}.at" if ordered[0].where else "at",
            f"is dated {ordered[0].at}, inside the history this store holds (its latest "
            f"revision is dated {latest.at}); an import only adds later revisions",
        )
    before = latest
    for step in ordered:
        if before is not None and step.changes is not None:
            problem = _step_problem(before.values, step)
            if problem is not None:
                return problem
        before = step
    return None


def _step_problem(before: Mapping[str, object], step: Step) -> tuple[str, str] | None:
    changes = step.changes or {}
    for name, (old, _new) in changes.items():
        if old != before.get(name):
            return (
                f"{step.where}.changes.{name}",
                "its old value is not the value before it; the change does not extend the history",
            )
    for name, value in step.values.items():
        if name not in changes and value != before.get(name):
            return (
                f"{step.where}.values.{name}",
                "changed without a change listing it; the revision does not extend the history",
            )
    return None
