"""Every change of the review, told in words: the XLSX export's *History* sheet.

A verdict revision, a decision revision and a flag or note revision each become one
:class:`~.export_xlsx.Change`: when, which question, which item, by whom, what
happened ("Submitted", "Decided", "Revised" …) and what changed, field by field
("verdict: — → Key wrong; status: Draft → Submitted"). Keys and answers name the
options by letter, verdicts, decisions and flag categories are in words; the machine record of the
same changes is the JSON export's ``revisions``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ai4hse_desk.notes.model import flag_value_text
from ai4hse_desk.review.export_json import lettered
from ai4hse_desk.review.export_xlsx import Change
from ai4hse_desk.review.names import CONFIDENCE_NAMES, STATE_NAMES, decision_name, verdict_name
from ai4hse_desk.review.records import BLIND

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

    from ai4hse_desk.notes.frames import Entry
    from ai4hse_desk.review.export_json import DecisionEntry, VerdictEntry

#: Each verdict field's words, in the order changes are told; ``blind_at`` is left out
#: (its time is the revision's own).
_VERDICT_FIELDS: Final = {
    "blind": "answered blind",
    "blind_answer": "blind answer",
    "verdict": "verdict",
    "proposed_key": "proposed key",
    "confidence": "confidence",
    "source": "source checked",
    "note": "note",
    "state": "status",
}
_FLAG_FIELDS: Final = {
    "option": "option",
    "category": "category",
    "severity": "severity",
    "state": "state",
    "note": "note",
}
_ACTIONS: Final = {
    "create": "Created",
    "edit": "Edited",
    "submit": "Submitted",
    "undo": "Undone",
    "redo": "Redone",
    "state": "State changed",
}
_ITEMS: Final = {"flag": "Flag", "attempt_note": "Attempt note"}


def _shown(value: object) -> str:
    if value is None or value == "":
        return "—"
    return str(value)


def _verdict_value(name: str, value: object) -> str:
    if value is None:
        return "—"
    if name == "blind":
        return "yes" if value == BLIND else "no"
    if name in ("blind_answer", "proposed_key") and isinstance(value, tuple):
        return _shown(lettered(value))
    if name == "verdict":
        return verdict_name(str(value))
    if name == "state":
        return STATE_NAMES.get(str(value), str(value))
    if name == "confidence":
        return CONFIDENCE_NAMES.get(str(value), str(value))
    return _shown(value)


def told(
    changes: Mapping[str, tuple[object, object]],
    fields: Mapping[str, str],
    value: Callable[[str, object], str],
) -> str:
    """``changes`` (field → (old, new)) in words, in ``fields``' order; a field that reads
    the same before and after (nothing → an empty note) is left out."""
    parts = []
    for name, words in fields.items():
        if name in changes:
            old, new = (value(name, v) for v in changes[name])
            if old != new:
                parts.append(f"{words}: {old} → {new}")
    return "; ".join(parts)


def verdict_changes(entries: Iterable[VerdictEntry]) -> list[Change]:
    """Every verdict revision as a change."""
    found = []
    for entry in entries:
        record = entry.record
        for rev in record.revisions:
            found.append(Change(
                rev.at, record.question_id, "Verdict", record.reviewer,
                _ACTIONS.get(rev.action, rev.action),
                told(rev.changes, _VERDICT_FIELDS, _verdict_value),
            ))  # fmt: skip
    return found


def _decision_value(name: str, value: object) -> str:
    if name == "decision":
        return decision_name(str(value)) if value else "—"
    if name == "corrected_key":
        return _shown(lettered(value)) if isinstance(value, tuple) else "—"
    return _shown(value)


_DECISION_FIELDS: Final = {
    "decision": "decision",
    "corrected_key": "corrected key",
    "adjudicator": "adjudicator",
    "note": "note",
}


def decision_changes(entries: Iterable[DecisionEntry]) -> list[Change]:
    """Every decision revision as a change (what it changed from the one before)."""
    found = []
    for entry in entries:
        before: dict[str, object] = {}
        for number, rev in enumerate(entry.record.revisions):
            now: dict[str, object] = {"decision": rev.decision, "corrected_key": rev.corrected_key,
                   "adjudicator": rev.adjudicator, "note": rev.note}  # fmt: skip
            changes = {k: (before.get(k), v) for k, v in now.items() if before.get(k) != v}
            found.append(Change(
                rev.at, entry.record.question_id, "Decision", rev.adjudicator,
                "Decided" if number == 0 else "Revised",
                told(changes, _DECISION_FIELDS, _decision_value),
            ))  # fmt: skip
            before = now
    return found


def flag_changes(entries: Iterable[Entry]) -> list[Change]:
    """Every flag and attempt-note revision as a change."""
    found = []
    for entry in entries:
        item = _ITEMS.get(entry.item.kind, entry.item.kind)
        if entry.item.attempt_id is not None:
            item = f"{item} (attempt {entry.item.attempt_id})"
        for rev in entry.history:
            found.append(Change(
                rev.at, entry.item.question_id, item, rev.reviewer,
                _ACTIONS.get(rev.action, rev.action),
                told(rev.changes, _FLAG_FIELDS, flag_value_text),
            ))  # fmt: skip
    return found


def every_change(
    flags: Sequence[Entry], verdicts: Sequence[VerdictEntry], decisions: Sequence[DecisionEntry]
) -> list[Change]:
    """Every change of the export's contents, oldest first."""
    changes = [*flag_changes(flags), *verdict_changes(verdicts), *decision_changes(decisions)]
    return sorted(changes, key=lambda c: (c.at, c.question_id, c.item))
