"""Checking a whole notes export (:mod:`.exports`) before anything of it is imported.

:class:`ExportChecker` walks the document and checks every field — its JSON type,
its enum (kind, category, severity, state, action), ids (canonical UUIDs, each
item and revision once), times (real UTC times, none in the future beyond
:data:`~ai4hse_desk.notes.model.MAX_CLOCK_SKEW`), that each question, option
position and attempt exists in *this* audit database — and that the parts agree:
one ``create`` revision per item, dated ``created_at`` and by its author, no
revision before it, an ``undo`` naming an earlier revision of the same item, and
the item's summary columns equal to its latest revision. The first problem is
raised as one :class:`~ai4hse_desk.notes.errors.ReviewError` naming its JSON path
(``flags[3].revisions[1].at: …``); nothing has been written then. Version 1
files (flags and notes only) are read as before; version 2 adds the review lists,
checked by :class:`~.import_check.ReviewChecker`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from ai4hse_desk.notes import import_fields as f
from ai4hse_desk.notes.frames import EXPORT_COLUMNS
from ai4hse_desk.notes.model import (
    ACTIONS,
    ItemRecord,
    Revision,
    check_choice,
    check_time,
    frozen_values,
)
from ai4hse_desk.notes.records import fields_of
from ai4hse_desk.review.exports import EXPORT_FORMAT, EXPORT_VERSION
from ai4hse_desk.review.history import ReviewData
from ai4hse_desk.review.import_check import REVIEW_LISTS, ReviewChecker

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ai4hse_desk.notes.store import NotesStore

#: The JSON lists of an export and the item kind each holds.
LISTS: Final = {"flags": "flag", "attempt_notes": "attempt_note"}
_TOP: Final = frozenset({"format", "version", "exported_at", "audit", "include_private", *LISTS})
#: The versions this desk reads, and the top-level fields of each.
READ_VERSIONS: Final = {1: _TOP, EXPORT_VERSION: _TOP | frozenset(REVIEW_LISTS)}
_REVISION: Final = frozenset(
    {"revision_id", "item_id", "reviewer", "at", "action", "changes", "values", "reverts"}
)
_PUBLIC: Final = frozenset(c.name for c in EXPORT_COLUMNS if not c.private)
_PRIVATE: Final = frozenset(c.name for c in EXPORT_COLUMNS if c.private)
_SUMMARY: Final = ("option", "category", "severity", "note", "state")


@dataclass
class CheckedExport:
    """What a checked export holds, ready for :meth:`NotesStore.merge`."""

    audit_sha256: str
    items: list[ItemRecord] = field(default_factory=list)
    revisions: list[Revision] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    review: ReviewData = field(default_factory=ReviewData)


def _state_change(rev: Revision) -> bool:
    """``rev`` changes the state, and the note only by appending to it (the reason)."""
    if "state" not in rev.changes or set(rev.changes) - {"state", "note"}:
        return False
    if "note" not in rev.changes:
        return True
    old, new = rev.changes["note"]
    return isinstance(new, str) and new.startswith(str(old or ""))


def _redo_of_redo(target: Revision, by_id: Mapping[str, Revision]) -> bool:
    """Whether an undo of ``target`` would undo a redo (an undo of an undo reverts a
    change; only that first undo can be redone, and a redo is never reverted)."""
    if target.action != "undo":
        return False
    reverted = by_id.get(target.reverts or "")
    return reverted is None or reverted.action == "undo"


def _check_action(rev: Revision, kind: str, where: str) -> None:
    """The changes and ``reverts`` of ``rev`` fit its action (as the store writes them)."""
    at = f.child(where, "changes")
    if rev.action == "create":
        if dict(rev.changes) != {name: (None, rev.values[name]) for name in fields_of(kind)}:
            f.fail(at, "a create revision sets every field, each from null")
    elif any(old == new for old, new in rev.changes.values()):
        f.fail(at, "a change must change its field")
    elif rev.action in ("edit", "state") and not rev.changes:
        f.fail(at, f"an {rev.action} revision must change something")
    elif rev.action == "state" and not _state_change(rev):
        f.fail(at, "a state revision changes the state (and may append its reason to the note)")
    elif rev.action == "edit" and "state" in rev.changes:
        f.fail(at, "an edit revision does not change the state")
    if (rev.action == "undo") != (rev.reverts is not None):
        reverts = f.child(where, "reverts")
        f.fail(reverts, "an undo names the revision it reverts; no other revision does")


class ExportChecker:
    """Checks one export against one store's audit database (see the module docstring)."""

    def __init__(self, store: NotesStore, now: datetime | None = None) -> None:
        self.store = store
        self.now = now or datetime.now(UTC).replace(tzinfo=None)
        self._checked: set[tuple[str, int | None]] = set()
        self._items: dict[str, str] = {}
        self._revisions: dict[str, str] = {}

    def _question(self, question_id: str, option: Any, where: str) -> None:
        if (question_id, option) not in self._checked:
            with f.located(where):
                self.store.check_question(question_id, option)
            self._checked.add((question_id, option))

    def _once(self, seen: dict[str, str], key: str, where: str) -> None:
        if key in seen:
            f.fail(where, f"occurs twice in the file (also at {seen[key]})")
        seen[key] = where

    def document(self, doc: object) -> CheckedExport:
        """Check the whole document; its items and revisions."""
        if not isinstance(doc, dict) or doc.get("format") != EXPORT_FORMAT:
            f.fail("", f"not a reviewer notes export (format {EXPORT_FORMAT})")
        version = doc.get("version")
        if type(version) is not int or version not in READ_VERSIONS:
            reads = f"this desk reads versions {', '.join(map(str, READ_VERSIONS))}"
            f.fail("", f"export version {f.shown(version)} is not supported ({reads})")
        f.exact_object(doc, "", READ_VERSIONS[version])
        check_time(doc["exported_at"], "exported_at", now=self.now)
        audit = f.exact_object(doc["audit"], "audit", frozenset({"sha256", "name"}))
        checked = CheckedExport(f.sha256(audit["sha256"], "audit.sha256"))
        f.text(audit["name"], "audit.name")
        private = f.flag(doc["include_private"], "include_private")
        keys = _PUBLIC | _PRIVATE if private else _PUBLIC
        for key, kind in LISTS.items():
            raw_items = doc[key]
            if not isinstance(raw_items, list):
                f.fail(key, f"must be a list, not {f.json_kind(raw_items)}")
            for index, raw in enumerate(raw_items):
                item, revisions = self.item(raw, kind, f.child(key, index), keys)
                checked.items.append(item)
                checked.revisions.extend(revisions)
            checked.counts[key] = len(raw_items)
        if version >= 2:
            checked.review = ReviewChecker(self.store, self.now).review(doc, private)
        return checked

    def item(
        self, raw: object, kind: str, where: str, keys: frozenset[str]
    ) -> tuple[ItemRecord, list[Revision]]:
        """One flag or attempt note with its revisions."""
        obj = f.exact_object(raw, where, keys)
        if obj["kind"] != kind:
            f.fail(f.child(where, "kind"), f"must be {kind!r} in this list")
        item_id = f.canonical_uuid(obj["item_id"], f.child(where, "item_id"))
        self._once(self._items, item_id, f.child(where, "item_id"))
        question_id = f.text(obj["question_id"], f.child(where, "question_id"))
        self._question(question_id, None, f.child(where, "question_id"))
        attempt_id, run_id = self._attempt(obj, kind, question_id, where)
        sha = obj["audit_sha256"]
        item = ItemRecord(
            item_id=item_id,
            kind=kind,
            question_id=question_id,
            reviewer=f.reviewer(obj["reviewer"], f.child(where, "reviewer")),
            created_at=check_time(obj["created_at"], f.child(where, "created_at"), now=self.now),
            attempt_id=attempt_id,
            run_id=run_id,
            audit_sha256=None if sha is None else f.sha256(sha, f.child(where, "audit_sha256")),
        )
        for name in sorted(keys & _PRIVATE):
            f.optional_text(obj[name], f.child(where, name))  # read, checked, never stored
        raw_revisions = obj["revisions"]
        at = f.child(where, "revisions")
        if not isinstance(raw_revisions, list) or not raw_revisions:
            f.fail(at, "must be the item's non-empty list of revisions")
        revisions = [
            self.revision(rev, item, f.child(at, index)) for index, rev in enumerate(raw_revisions)
        ]
        self._history(item, revisions, obj, where)
        return item, revisions

    def _attempt(
        self, obj: Mapping[str, Any], kind: str, question_id: str, where: str
    ) -> tuple[int | None, str | None]:
        attempt_at, run_at = f.child(where, "attempt_id"), f.child(where, "run_id")
        if kind == "flag":
            if obj["attempt_id"] is not None:
                f.fail(attempt_at, "a flag has no attempt (must be null)")
            if obj["run_id"] is not None:
                f.fail(run_at, "a flag has no run (must be null)")
            return None, None
        attempt_id = f.integer(obj["attempt_id"], attempt_at)
        run_id = f.text(obj["run_id"], run_at)
        found = self.store.audit.attempts_by_ids([attempt_id])
        if not found or (found[0].question_id, found[0].run_id) != (question_id, run_id):
            f.fail(attempt_at, f"unknown attempt {attempt_id} of run {run_id!r} on {question_id}")
        return attempt_id, run_id

    def writer_clock(self, obj: Mapping[str, Any], where: str) -> str | None:
        """A revision's optional ``writer_clock`` (a time; absent or null: none)."""
        raw = obj.get("writer_clock")
        if raw is None:
            return None
        return check_time(raw, f.child(where, "writer_clock"), now=self.now)

    def revision(self, raw: object, item: ItemRecord, where: str) -> Revision:
        """One revision of ``item``."""
        obj = f.exact_object(raw, where, _REVISION, f.WRITER_CLOCK)
        revision_id = f.canonical_uuid(obj["revision_id"], f.child(where, "revision_id"))
        self._once(self._revisions, revision_id, f.child(where, "revision_id"))
        if obj["item_id"] != item.item_id:
            f.fail(f.child(where, "item_id"), "belongs to another item")
        with f.located(f.child(where, "action")):
            action = check_choice(obj["action"], ACTIONS, "revision action")
        values = f.field_values(obj["values"], f.child(where, "values"), item.kind)
        if item.kind == "flag":
            self._question(item.question_id, values["option"], f.child(where, "values.option"))
        reverts = obj["reverts"]
        if reverts is not None:
            reverts = f.canonical_uuid(reverts, f.child(where, "reverts"))
        rev = Revision(
            revision_id=revision_id,
            item_id=item.item_id,
            reviewer=f.reviewer(obj["reviewer"], f.child(where, "reviewer")),
            at=check_time(obj["at"], f.child(where, "at"), now=self.now),
            action=action,
            changes=MappingProxyType(
                f.field_changes(obj["changes"], f.child(where, "changes"), item.kind, values)
            ),
            values=frozen_values(values),
            reverts=reverts,
            writer_clock=self.writer_clock(obj, where),
        )
        _check_action(rev, item.kind, where)
        return rev

    def _history(
        self, item: ItemRecord, revisions: list[Revision], obj: Mapping[str, Any], where: str
    ) -> None:
        """The revisions agree with each other and with the item's summary columns."""
        at = f.child(where, "revisions")
        creates = [i for i, rev in enumerate(revisions) if rev.action == "create"]
        if len(creates) != 1:
            f.fail(at, f"needs exactly one create revision, not {len(creates)}")
        create = revisions[creates[0]]
        if create.at != item.created_at:
            f.fail(f.child(f.child(at, creates[0]), "at"), "differs from the item's created_at")
        if create.reviewer != item.reviewer:
            f.fail(f.child(f.child(at, creates[0]), "reviewer"), "differs from the item's reviewer")
        by_id = {rev.revision_id: rev for rev in revisions}
        for index, rev in enumerate(revisions):
            if rev.at < item.created_at:
                f.fail(f.child(f.child(at, index), "at"), "is before the item was created")
            target = by_id.get(rev.reverts) if rev.reverts else None
            if rev.reverts and (
                target is None or _redo_of_redo(target, by_id) or target.at > rev.at
            ):
                f.fail(
                    f.child(f.child(at, index), "reverts"),
                    "must name an earlier revision of this item that is not a redo",
                )
        latest = max(revisions, key=lambda rev: (rev.at, rev.revision_id))
        summary = {name: latest.values.get(name) for name in _SUMMARY}
        summary.update(updated_by=latest.reviewer, updated_at=latest.at)
        for name, value in summary.items():
            if type(obj[name]) is not type(value) or obj[name] != value:
                f.fail(f.child(where, name), "differs from the item's latest revision")
