"""Rows of the notes store ↔ the records of :mod:`.model`, and the current-state query.

The current state of an item is its latest revision by ``(at, revision_id)``,
picked with ``row_number() OVER (PARTITION BY item_id …)`` (SQLite ≥ 3.25 and
PostgreSQL alike). Conversions from stored values happen only here; a value no
desk writes (text where a number belongs, ``changes`` that are not JSON pairs) is a
:class:`ReviewError` naming the damaged row, never a crash.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from sqlalchemy import ColumnElement, Select, func, select

from ai4hse_desk.notes import changes as revision_changes
from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.model import (
    FLAG_FIELDS,
    NOTE_FIELDS,
    AttemptNote,
    Flag,
    ItemRecord,
    Revision,
    Value,
    frozen_values,
)
from ai4hse_desk.notes.schema import review_items, review_revisions

#: Revision column holding each field of :data:`FLAG_FIELDS`/:data:`NOTE_FIELDS`.
FIELD_COLUMNS: dict[str, str] = {
    "option": "option_pos",
    "category": "category",
    "severity": "severity",
    "note": "note",
    "state": "state",
}


def fields_of(kind: str) -> tuple[str, ...]:
    """The revisable fields of an item ``kind``."""
    return FLAG_FIELDS if kind == "flag" else NOTE_FIELDS


def _opt_int(value: Any) -> int | None:
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise ReviewError(f"the notes store holds a damaged row: {value!r} where a number belongs")


def _int(value: Any) -> int:
    number = _opt_int(value)
    if number is None:
        raise ReviewError("the notes store holds a damaged row: a number is missing")
    return number


def current_query(kind: str, *where: ColumnElement[bool]) -> Select[Any]:
    """Items of ``kind`` (``where`` filters on ``review_items``) with their latest values.

    Columns: every ``review_items`` column, ``option_pos``, ``category``,
    ``severity``, ``note``, ``state``, ``updated_by``, ``updated_at``.
    """
    items, revs = review_items, review_revisions
    rank = func.row_number().over(
        partition_by=revs.c.item_id, order_by=(revs.c.at.desc(), revs.c.revision_id.desc())
    )
    inner = (
        select(
            *items.c,
            revs.c.option_pos,
            revs.c.category,
            revs.c.severity,
            revs.c.note,
            revs.c.state,
            revs.c.reviewer.label("updated_by"),
            revs.c.at.label("updated_at"),
            rank.label("rank"),
        )
        .join(revs, revs.c.item_id == items.c.item_id)
        .where(items.c.kind == kind, *where)
        .subquery("current")
    )
    return select(inner).where(inner.c.rank == 1)


def flags_query(
    question_id: str | None,
    states: tuple[str, ...] | None,
    category: str | None,
    reviewer: str | None,
) -> Select[Any]:
    """Current flags, filtered (``reviewer`` is the author), oldest first."""
    where = [] if question_id is None else [review_items.c.question_id == question_id]
    if reviewer is not None:
        where.append(review_items.c.reviewer == reviewer)
    current = current_query("flag", *where).subquery("flags")
    query = select(current)
    if states is not None:
        query = query.where(current.c.state.in_(list(states)))
    if category is not None:
        query = query.where(current.c.category == category)
    return query.order_by(current.c.created_at, current.c.item_id)


def notes_query(attempt_id: int | None, reviewer: str | None) -> Select[Any]:
    """Current attempt notes, filtered (``reviewer`` is the author), oldest first."""
    where = [] if attempt_id is None else [review_items.c.attempt_id == attempt_id]
    if reviewer is not None:
        where.append(review_items.c.reviewer == reviewer)
    current = current_query("attempt_note", *where).subquery("notes")
    return select(current).order_by(current.c.created_at, current.c.item_id)


def revisions_query(item_id: str | None = None) -> Select[Any]:
    """Revisions (of ``item_id``, or all) with their item's ``kind``, oldest first."""
    revs = review_revisions
    query = select(revs, review_items.c.kind).join(
        review_items, review_items.c.item_id == revs.c.item_id
    )
    if item_id is not None:
        query = query.where(revs.c.item_id == item_id)
    return query.order_by(revs.c.at, revs.c.revision_id)


def _current_fields(row: Any) -> dict[str, Any]:
    """The fields flags and attempt notes share, from a :func:`current_query` row."""
    return {
        "question_id": str(row.question_id),
        "note": str(row.note),
        "state": str(row.state),
        "reviewer": str(row.reviewer),
        "created_at": str(row.created_at),
        "updated_by": str(row.updated_by),
        "updated_at": str(row.updated_at),
        "audit_sha256": row.audit_sha256,
    }


def flag_from_row(row: Any) -> Flag:
    """A :class:`Flag` from a :func:`current_query` row."""
    return Flag(
        flag_id=str(row.item_id),
        option=_opt_int(row.option_pos),
        category=str(row.category),
        severity=str(row.severity),
        **_current_fields(row),
    )


def note_from_row(row: Any) -> AttemptNote:
    """An :class:`AttemptNote` from a :func:`current_query` row."""
    return AttemptNote(
        note_id=str(row.item_id),
        attempt_id=_int(row.attempt_id),
        run_id=str(row.run_id),
        **_current_fields(row),
    )


def item_from_row(row: Any) -> ItemRecord:
    """An :class:`ItemRecord` from a ``review_items`` row."""
    return ItemRecord(
        item_id=str(row.item_id),
        kind=str(row.kind),
        question_id=str(row.question_id),
        reviewer=str(row.reviewer),
        created_at=str(row.created_at),
        attempt_id=_opt_int(row.attempt_id),
        run_id=None if row.run_id is None else str(row.run_id),
        audit_sha256=row.audit_sha256,
    )


def values_of_row(row: Any, kind: str) -> dict[str, Value]:
    """The revisable field values held by a revision (or current-state) row."""
    values: dict[str, Value] = {}
    for name in fields_of(kind):
        value = getattr(row, FIELD_COLUMNS[name])
        values[name] = _opt_int(value) if name == "option" else value
    return values


def revision_from_row(row: Any, kind: str) -> Revision:
    """A :class:`Revision` from a ``review_revisions`` row of an item of ``kind``."""
    changes = revision_changes.read_column(
        row.changes, f"the notes store holds a damaged revision: {row.revision_id}"
    )
    return Revision(
        revision_id=str(row.revision_id),
        item_id=str(row.item_id),
        reviewer=str(row.reviewer),
        at=str(row.at),
        action=str(row.action),
        changes=MappingProxyType(changes),
        values=frozen_values(values_of_row(row, kind)),
        reverts=row.reverts,
        writer_clock=row.writer_clock,
    )


def revision_row(revision: Revision) -> dict[str, Any]:
    """The ``review_revisions`` row that stores ``revision``."""
    row: dict[str, Any] = {
        "revision_id": revision.revision_id,
        "item_id": revision.item_id,
        "reviewer": revision.reviewer,
        "at": revision.at,
        "action": revision.action,
        "changes": revision_changes.column_text(revision.changes),
        "reverts": revision.reverts,
        "writer_clock": revision.writer_clock,
        "option_pos": None,
        "category": None,
        "severity": None,
    }
    for name, value in revision.values.items():
        row[FIELD_COLUMNS[name]] = value
    return row


def item_row(item: ItemRecord) -> dict[str, Any]:
    """The ``review_items`` row that stores ``item``."""
    return item.to_json()
