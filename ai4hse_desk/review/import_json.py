"""Merge another reviewer's JSON export (:mod:`.exports`) into a notes store.

Everything in the file is checked first — format and version, UUIDs, times,
categories, states, that each question, option and attempt exists in *this*
audit database — and then the items and revisions whose UUIDs the store does
not hold yet are added in one transaction. Importing the same file twice adds
nothing; importing two reviewers' files in either order gives the same store.
An export made from another audit file (other sha256) is imported with a
warning. Private texts in the file (question text …) are ignored.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from ai4hse_desk.review.errors import ReviewError
from ai4hse_desk.review.exports import EXPORT_FORMAT, EXPORT_VERSION
from ai4hse_desk.review.model import (
    ACTIONS,
    CATEGORIES,
    SEVERITIES,
    STATES,
    ItemRecord,
    Revision,
    Value,
    check_choice,
    check_time,
    check_uuid,
    clean_note,
    clean_reviewer,
    frozen_values,
)
from ai4hse_desk.review.records import fields_of
from ai4hse_desk.review.store import NotesStore

_LISTS = {"flags": "flag", "attempt_notes": "attempt_note"}


@dataclass(frozen=True, slots=True)
class ImportResult:
    """What an import found and added."""

    source: str
    flags: int
    attempt_notes: int
    revisions: int
    items_added: int
    revisions_added: int
    warnings: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        """The JSON ``notes import`` prints."""
        return {
            "source": self.source,
            "flags": self.flags,
            "attempt_notes": self.attempt_notes,
            "revisions": self.revisions,
            "items_added": self.items_added,
            "revisions_added": self.revisions_added,
            "warnings": list(self.warnings),
        }


def _load(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ReviewError(f"no such file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ReviewError(f"cannot read {path}: {exc}") from None
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise ReviewError(f"{path.name}: not JSON ({exc})") from None
    if not isinstance(doc, dict) or doc.get("format") != EXPORT_FORMAT:
        raise ReviewError(f"{path.name}: not a reviewer notes export (format {EXPORT_FORMAT})")
    if doc.get("version") != EXPORT_VERSION:
        raise ReviewError(
            f"{path.name}: export version {doc.get('version')!r} is not supported "
            f"(this desk reads version {EXPORT_VERSION})"
        )
    return doc


class _Checker:
    """Turns the JSON items of one file into records, checking them against the audit."""

    def __init__(self, store: NotesStore) -> None:
        self.store = store

    def values(self, raw: object, kind: str, what: str) -> dict[str, Value]:
        if not isinstance(raw, dict) or set(raw) != set(fields_of(kind)):
            raise ReviewError(f"{what}: values must have exactly {', '.join(fields_of(kind))}")
        values: dict[str, Value] = {
            "note": clean_note(raw["note"], required=False),
            "state": check_choice(raw["state"], STATES, "state"),
        }
        if kind == "flag":
            values["category"] = check_choice(raw["category"], CATEGORIES, "category")
            values["severity"] = check_choice(raw["severity"], SEVERITIES, "severity")
            option = raw["option"]
            if option is not None and (isinstance(option, bool) or not isinstance(option, int)):
                raise ReviewError(f"{what}: option must be a position or null")
            values["option"] = option
        return values

    def changes(self, raw: object, kind: str, what: str) -> Mapping[str, tuple[Value, Value]]:
        allowed = set(fields_of(kind))
        if not isinstance(raw, dict) or not set(raw) <= allowed:
            raise ReviewError(f"{what}: changes must name only {', '.join(sorted(allowed))}")
        out: dict[str, tuple[Value, Value]] = {}
        for name, pair in raw.items():
            ok = isinstance(pair, list) and len(pair) == 2
            if not ok or not all(v is None or isinstance(v, str | int) for v in pair):
                raise ReviewError(f"{what}: change of {name} must be [old, new]")
            out[name] = (pair[0], pair[1])
        return MappingProxyType(out)

    def revision(self, raw: object, item: ItemRecord, what: str) -> Revision:
        if not isinstance(raw, dict):
            raise ReviewError(f"{what}: a revision must be an object")
        rev_id = check_uuid(raw.get("revision_id"), what)
        what = f"{what} revision {rev_id}"
        if raw.get("item_id") != item.item_id:
            raise ReviewError(f"{what}: belongs to another item")
        values = self.values(raw.get("values"), item.kind, what)
        if item.kind == "flag":
            option = values["option"]
            self.store.check_question(item.question_id, option if isinstance(option, int) else None)
        reverts = raw.get("reverts")
        return Revision(
            revision_id=rev_id,
            item_id=item.item_id,
            reviewer=clean_reviewer(raw.get("reviewer")),
            at=check_time(raw.get("at"), what),
            action=check_choice(raw.get("action"), ACTIONS, "revision action"),
            changes=self.changes(raw.get("changes"), item.kind, what),
            values=frozen_values(values),
            reverts=None if reverts is None else check_uuid(reverts, what),
        )

    def item(self, raw: object, kind: str, label: str) -> tuple[ItemRecord, list[Revision]]:
        if not isinstance(raw, dict):
            raise ReviewError(f"{label}: an item must be an object")
        item_id = check_uuid(raw.get("item_id"), label)
        what = f"{label} {item_id}"
        question_id = raw.get("question_id")
        if not isinstance(question_id, str):
            raise ReviewError(f"{what}: question_id must be text")
        self.store.check_question(question_id)
        attempt_id, run_id = raw.get("attempt_id"), raw.get("run_id")
        if kind == "attempt_note":
            found = (
                self.store.audit.attempts_by_ids([attempt_id]) if type(attempt_id) is int else []
            )
            if not found or (found[0].question_id, found[0].run_id) != (question_id, run_id):
                raise ReviewError(f"{what}: unknown attempt {attempt_id!r} of {question_id}")
        elif attempt_id is not None or run_id is not None:
            raise ReviewError(f"{what}: a flag has no attempt")
        sha = raw.get("audit_sha256")
        item = ItemRecord(
            item_id=item_id,
            kind=kind,
            question_id=question_id,
            reviewer=clean_reviewer(raw.get("reviewer")),
            created_at=check_time(raw.get("created_at"), what),
            attempt_id=attempt_id if kind == "attempt_note" else None,
            run_id=str(run_id) if kind == "attempt_note" else None,
            audit_sha256=sha if isinstance(sha, str) else None,
        )
        revisions = raw.get("revisions")
        if not isinstance(revisions, list) or not revisions:
            raise ReviewError(f"{what}: needs its list of revisions")
        return item, [self.revision(rev, item, what) for rev in revisions]


def import_notes(store: NotesStore, path: str | os.PathLike[str]) -> ImportResult:
    """Merge the JSON export at ``path`` into ``store``; idempotent.

    Raises:
        ReviewError: unreadable file, wrong format or version, or any item that
            does not fit this audit database (nothing is imported then).
    """
    source = Path(path)
    doc = _load(source)
    checker = _Checker(store)
    items: list[ItemRecord] = []
    revisions: list[Revision] = []
    counts = {}
    for key, kind in _LISTS.items():
        raw_items = doc.get(key, [])
        if not isinstance(raw_items, list):
            raise ReviewError(f"{source.name}: {key} must be a list")
        for raw in raw_items:
            item, revs = checker.item(raw, kind, f"{source.name}: {kind.replace('_', ' ')}")
            items.append(item)
            revisions.extend(revs)
        counts[key] = len(raw_items)
    if len({r.revision_id for r in revisions}) != len(revisions):
        raise ReviewError(f"{source.name}: a revision id occurs twice")
    warnings = []
    audit = doc.get("audit")
    sha = audit.get("sha256") if isinstance(audit, dict) else None
    if sha != store.audit_sha256:
        warnings.append(
            f"{source.name} was exported from another audit file (sha256 {str(sha)[:16]}…); "
            f"this one is sha256 {store.audit_sha256[:16]}…"
        )
    added_items, added_revisions = store.merge(items, revisions)
    return ImportResult(
        source=str(source),
        flags=counts["flags"],
        attempt_notes=counts["attempt_notes"],
        revisions=len(revisions),
        items_added=added_items,
        revisions_added=added_revisions,
        warnings=tuple(warnings),
    )
