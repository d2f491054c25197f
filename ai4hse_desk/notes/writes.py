"""Every write of the notes store, inside a write transaction of :mod:`.backend`.

Each function takes an open connection in a write transaction; the
:class:`~ai4hse_desk.notes.store.NotesStore` methods wrap them in
:func:`~ai4hse_desk.notes.backend.write` (which retries on "database is locked").
Rows are only ever inserted: an item's row is locked (``FOR UPDATE`` on
PostgreSQL; SQLite writers are serial under ``BEGIN IMMEDIATE``) so concurrent
changes to one item build on each other, and every new revision is stamped at
least one microsecond after the item's latest, so the order of changes is the
order of their times.
"""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, select

from ai4hse_desk.notes import backend
from ai4hse_desk.notes.chain import Step, chain_problem
from ai4hse_desk.notes.changes import diff
from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.model import (
    ItemRecord,
    Revision,
    Value,
    after,
    check_flag_note,
    clean_note,
    frozen_values,
    new_id,
    utc_now,
)
from ai4hse_desk.notes.records import (
    item_from_row,
    item_row,
    revision_from_row,
    revision_row,
    values_of_row,
)
from ai4hse_desk.notes.schema import review_items, review_meta, review_revisions

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from sqlalchemy.engine import Connection

_ITEMS, _REVS = review_items, review_revisions
_NEWEST_FIRST = (_REVS.c.at.desc(), _REVS.c.revision_id.desc())
_WHAT = {"flag": "flag", "attempt_note": "attempt note", None: "flag or note"}


def read_meta(conn: Connection) -> dict[str, str]:
    """The store's ``review_meta`` (which audit file it belongs to, since when)."""
    return {str(k): str(v) for k, v in conn.execute(select(review_meta)).all()}


def audit_warning(meta: dict[str, str], sha256: str) -> str | None:
    """A warning when the store recorded another audit file than ``sha256`` (else ``None``)."""
    stored = meta.get("audit_sha256")
    if stored is None or stored == sha256:
        return None
    return (
        f"notes were recorded for another audit file ({meta.get('audit_name', '?')}, "
        f"sha256 {stored[:16]}…); this one is sha256 {sha256[:16]}…"
    )


def record_audit(conn: Connection, sha256: str, name: str) -> str | None:
    """Record which audit file the store belongs to, the first time; afterwards compare.

    Returns:
        ``None``, or a warning when the store was first used with another audit file.
    """
    backend.lock(conn, "review_meta")
    meta = read_meta(conn)
    if meta.get("audit_sha256") is None:
        rows = {"audit_sha256": sha256, "audit_name": name, "created_at": utc_now()}
        conn.execute(insert(review_meta), [{"key": k, "value": v} for k, v in rows.items()])
        return None
    return audit_warning(meta, sha256)


def create(conn: Connection, item: ItemRecord, values: Mapping[str, Value]) -> Revision:
    """Insert a new item and its ``create`` revision (every field changed from ``None``)."""
    _check_values(item.kind, values)
    item = replace(item, created_at=backend.clock(conn))
    revision = Revision(
        revision_id=new_id(),
        item_id=item.item_id,
        reviewer=item.reviewer,
        at=item.created_at,
        action="create",
        changes=MappingProxyType({name: (None, value) for name, value in values.items()}),
        values=frozen_values(values),
    )
    conn.execute(insert(_ITEMS), [item_row(item)])
    conn.execute(insert(_REVS), [revision_row(revision)])
    return revision


def locked_item(conn: Connection, item_id: str, kind: str | None) -> ItemRecord:
    """The item ``item_id`` (of ``kind``, unless ``None``), its row locked for this transaction.

    Raises:
        ReviewError: "unknown flag: …" (or attempt note, or flag or note).
    """
    query = select(_ITEMS).where(_ITEMS.c.item_id == str(item_id)).with_for_update()
    row = conn.execute(query).first()
    if row is None or (kind is not None and row.kind != kind):
        raise ReviewError(f"unknown {_WHAT[kind]}: {item_id}")
    return item_from_row(row)


def _latest(conn: Connection, item_id: str) -> Any:
    query = select(_REVS).where(_REVS.c.item_id == item_id).order_by(*_NEWEST_FIRST).limit(1)
    return conn.execute(query).one()


def current_values(conn: Connection, item: ItemRecord) -> dict[str, Value]:
    """The item's fields as its latest revision left them."""
    return values_of_row(_latest(conn, item.item_id), item.kind)


def append(
    conn: Connection,
    item: ItemRecord,
    new: Mapping[str, Value],
    reviewer: str,
    action: str,
    reverts: str | None = None,
) -> Revision | None:
    """Append a revision setting the item's fields to ``new``.

    Returns:
        The revision, or ``None`` when nothing would change (an ``undo`` is always
        recorded, so that the reverted revision counts as undone).
    """
    latest = _latest(conn, item.item_id)
    changes = diff(values_of_row(latest, item.kind), new)
    if not changes and action != "undo":
        return None
    at, writer_clock = after(
        str(latest.at), backend.clock(conn), f"{_WHAT[item.kind]} {item.item_id}"
    )
    revision = Revision(
        revision_id=new_id(),
        item_id=item.item_id,
        reviewer=reviewer,
        at=at,
        action=action,
        changes=MappingProxyType(changes),
        values=frozen_values(new),
        reverts=reverts,
        writer_clock=writer_clock,
    )
    conn.execute(insert(_REVS), [revision_row(revision)])
    return revision


def change(
    conn: Connection,
    item_id: str,
    kind: str,
    reviewer: str,
    action: str,
    updates: Mapping[str, Value],
) -> Revision | None:
    """Lock the item, then append a revision applying ``updates`` to its current fields."""
    item = locked_item(conn, item_id, kind)
    new = {**current_values(conn, item), **updates}
    _check_values(kind, new)
    return append(conn, item, new, reviewer, action)


def _check_values(kind: str, values: Mapping[str, Value]) -> None:
    """The rules across fields of the values a new flag or an edit writes (a state change,
    an undo and an import keep what was written)."""
    if kind == "flag":
        check_flag_note(str(values["category"]), str(values["note"]))


def with_reason(note: Value, state: str, reason: str) -> str:
    """``note`` with ``reason`` for the new ``state`` appended on a line of its own
    ("vague" → "vague\n— resolved: key fixed")."""
    line = f"— {state}: {reason.strip()}"
    return f"{note}\n{line}" if note else line


def change_state(
    conn: Connection, item_id: str, kind: str, reviewer: str, state: str, reason: str = ""
) -> Revision | None:
    """Lock the item, then append a ``state`` revision; a non-blank ``reason`` is
    appended to the note in that same revision (so one undo takes back both), and
    only when the state changes. The note with its reason must still be a valid note.
    """
    item = locked_item(conn, item_id, kind)
    new = current_values(conn, item)
    if new["state"] != state and reason.strip():
        new["note"] = clean_note(with_reason(new["note"], state, reason), required=False)
    new["state"] = state
    return append(conn, item, new, reviewer, "state")


def _undo_chain(rows: Sequence[Any]) -> tuple[set[str], list[Any]]:
    """The revisions undone now and the redo chain (undos that can be redone, last on
    top), from one reviewer's revisions, newest first.

    An ``undo`` reverting a change undoes it and goes on the chain; an ``undo``
    reverting an undo is a redo: the change counts again and the undo leaves the
    chain; any other change clears the chain (as in every editor).
    """
    action = {str(row.revision_id): str(row.action) for row in rows}
    undone: set[str] = set()
    chain: list[Any] = []
    for row in reversed(rows):
        if row.action != "undo":
            chain.clear()
        elif action.get(str(row.reverts)) == "undo":  # a redo
            chain = [u for u in chain if str(u.revision_id) != str(row.reverts)]
            undone.discard(next(str(r.reverts) for r in rows if r.revision_id == row.reverts))
        else:
            undone.add(str(row.reverts))
            chain.append(row)
    return undone, chain


def _reviewer_rows(conn: Connection, reviewer: str) -> list[Any]:
    backend.lock(conn, f"undo:{reviewer}")
    query = select(_REVS).where(_REVS.c.reviewer == reviewer).order_by(*_NEWEST_FIRST)
    return list(conn.execute(query).all())


def _revert(conn: Connection, target: Any, reviewer: str) -> Revision | None:
    """Append an ``undo`` revision reverting ``target`` (of any action).

    Reverting a ``create`` withdraws the item; reverting anything else puts back
    the old values of the fields it changed (other fields stay).
    """
    item = locked_item(conn, str(target.item_id), None)
    new = current_values(conn, item)
    if target.action == "create":
        new["state"] = "withdrawn"
    else:
        for name, (old, _new) in revision_from_row(target, item.kind).changes.items():
            new[name] = old
    return append(conn, item, new, reviewer, "undo", reverts=str(target.revision_id))


def undo_last(conn: Connection, reviewer: str) -> Revision | None:
    """Revert ``reviewer``'s latest revision that is not an undo and not undone now.

    Reverting a ``create`` withdraws the item; reverting an edit or state change
    puts back the old values of the fields it changed (other fields stay).
    """
    rows = _reviewer_rows(conn, reviewer)
    undone, _chain = _undo_chain(rows)
    target = next((r for r in rows if r.action != "undo" and r.revision_id not in undone), None)
    return None if target is None else _revert(conn, target, reviewer)


def redo_last(conn: Connection, reviewer: str) -> Revision | None:
    """Re-apply the change ``reviewer``'s latest undo (still on the redo chain) reverted,
    by appending an ``undo`` of that undo; ``None`` when there is nothing to redo.

    The chain is the undos since the reviewer's last change of their own: a new
    flag, note, edit or state change clears it, and a redo takes its top.
    """
    rows = _reviewer_rows(conn, reviewer)
    _undone, chain = _undo_chain(rows)
    return _revert(conn, chain[-1], reviewer) if chain else None


def _chunks(ids: Sequence[str], size: int = 500) -> list[Sequence[str]]:
    """``ids`` in slices small enough for any backend's bound-parameter limit."""
    return [ids[start : start + size] for start in range(0, len(ids), size)]


def _step(rev: Revision, where: str = "") -> Step:
    return Step(where, rev.at, rev.revision_id, dict(rev.values), dict(rev.changes))


def _check_extends(conn: Connection, added: Sequence[Revision]) -> None:
    """Refuse revisions that do not extend their item's stored history exactly
    (:mod:`.chain`): dated inside it, or with changes that do not lead from it."""
    by_item: dict[str, list[Revision]] = {}
    for rev in added:
        by_item.setdefault(rev.item_id, []).append(rev)
    for item_id, revs in by_item.items():
        rows = conn.execute(
            select(_REVS, _ITEMS.c.kind)
            .join(_ITEMS, _ITEMS.c.item_id == _REVS.c.item_id)
            .where(_REVS.c.item_id == item_id)
            .order_by(_REVS.c.at, _REVS.c.revision_id)
        ).all()
        stored = [_step(revision_from_row(row, str(row.kind))) for row in rows]
        broken = chain_problem(stored, [_step(rev, f"revision {rev.revision_id}") for rev in revs])
        if broken is not None:
            raise ReviewError(f"{broken[0]} of item {item_id}: {broken[1]}")


def merge(
    conn: Connection, items: Sequence[ItemRecord], revisions: Sequence[Revision]
) -> tuple[int, int]:
    """Insert the items and revisions whose ids are not present; ``(items, revisions)`` added.

    Raises:
        ReviewError: an item id already present names a different item, or a
            revision id already present belongs to another item.
    """
    backend.lock(conn, "merge")
    known: dict[str, ItemRecord] = {}
    for chunk in _chunks([item.item_id for item in items]):
        for row in conn.execute(select(_ITEMS).where(_ITEMS.c.item_id.in_(chunk))):
            known[str(row.item_id)] = item_from_row(row)
    for item in items:
        if item.item_id in known and known[item.item_id] != item:
            raise ReviewError(f"item {item.item_id} differs from the one in this store")
    new_items = [item_row(item) for item in items if item.item_id not in known]
    owner = {rev.revision_id: rev.item_id for rev in revisions}
    have: set[str] = set()
    for chunk in _chunks(list(owner)):
        present = select(_REVS.c.revision_id, _REVS.c.item_id).where(_REVS.c.revision_id.in_(chunk))
        for rev_id, item_id in conn.execute(present).all():
            if owner[str(rev_id)] != str(item_id):
                raise ReviewError(f"revision {rev_id} belongs to another item in this store")
            have.add(str(rev_id))
    added = [rev for rev in revisions if rev.revision_id not in have]
    _check_extends(conn, added)
    new_revisions = [revision_row(rev) for rev in added]
    if new_items:
        conn.execute(insert(_ITEMS), new_items)
    if new_revisions:
        conn.execute(insert(_REVS), new_revisions)
    return len(new_items), len(new_revisions)
