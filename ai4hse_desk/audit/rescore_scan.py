"""The rescore's scan of the audit file: attempts in ``attempt_id`` order, in batches.

What :meth:`~.queries.AuditDB.iter_rescore_batches` reads, and how: the columns of
each row (:data:`RESCORE_COLUMNS`) and the scan itself (:func:`rescore_batches`),
with the value check beside it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Protocol, cast

from ai4hse_desk.audit.errors import AuditError, file_problems_as_audit_errors

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterator, Sequence
    from contextlib import AbstractContextManager
    from pathlib import Path


class ScannedFile(Protocol):
    """What the scan needs of the audit file it reads (an
    :class:`~.queries.AuditDB`): its connections and its value check."""

    @property
    def path(self) -> Path: ...

    def raw_connection(self) -> AbstractContextManager[sqlite3.Connection]: ...

    def start_attempts_check(self) -> None: ...

    def check_attempts(self) -> None: ...

    def record_attempts_check(self) -> None: ...

    def verify_unchanged(self) -> None: ...


#: Layout of the tuples yielded by :meth:`AuditDB.iter_rescore_rows`.
RESCORE_COLUMNS: tuple[str, ...] = (
    "attempt_id", "run_id", "question_id", "repetition", "state", "raw_response",
    "finish_reason", "parse_status", "extracted", "strict_format", "correct",
)  # fmt: skip
#: One row of :data:`RESCORE_COLUMNS`, exactly as the sqlite3 driver returns it.
RescoreRow = tuple[
    int, str, str, int, str, str | None, str | None, str | None, str | None, int | None, int | None
]


#: The audit file's smallest and largest ``attempt_id``, as two rowid seeks (one
#: ``SELECT min(…), max(…)`` made SQLite scan a whole index: it seeks for a lone min
#: or max only).
ATTEMPT_ID_BOUNDS = (
    "SELECT (SELECT min(attempt_id) FROM attempts), (SELECT max(attempt_id) FROM attempts)"
)


def rescore_batches(
    db: ScannedFile,
    run_ids: Sequence[str] | None,
    batch: int,
    id_range: tuple[int, int] | None,
    *,
    record: bool,
) -> Iterator[list[RescoreRow]]:
    """:meth:`~.queries.AuditDB.iter_rescore_batches` of ``db`` (see there)."""
    if batch < 1:
        raise ValueError(f"batch must be positive, not {batch}")
    sql = f"SELECT {', '.join(RESCORE_COLUMNS)} FROM attempts"
    params: tuple[str | int, ...] = ()
    conditions: list[str] = []
    if run_ids is not None:
        wanted = [run_ids] if isinstance(run_ids, str) else list(run_ids)
        conditions.append("+run_id IN (SELECT value FROM json_each(?))")
        params = (json.dumps(wanted),)
    if id_range is not None:
        conditions.append("attempt_id BETWEEN ? AND ?")
        params = (*params, int(id_range[0]), int(id_range[1]))
    if conditions:
        sql += " WHERE " + " AND ".join(conditions)
    sql += " ORDER BY attempt_id"
    if id_range is not None:  # a slice: whoever reads the whole file checks it
        yield from _scan(db, sql, params, batch)
        return
    db.start_attempts_check()
    with file_problems_as_audit_errors(db.path), db.raw_connection() as conn:
        cursor = conn.cursor()
        try:
            cursor.execute(sql, params)
            previous = cursor.fetchmany(batch)
            while previous:
                rows = cursor.fetchmany(batch)
                if not rows:
                    _checked(db, record=record)
                yield cast("list[RescoreRow]", previous)
                previous = rows
            _checked(db, record=record)  # (no attempts at all: nothing was handed over yet)
        except AuditError:
            raise
        except Exception:
            db.check_attempts()  # a bad value explains the failure
            raise
        finally:
            cursor.close()


def _checked(db: ScannedFile, *, record: bool) -> None:
    """The whole file was read: its values checked and its bytes unchanged (and, with
    ``record``, the check recorded)."""
    db.check_attempts()
    db.verify_unchanged()
    if record:
        db.record_attempts_check()


def _scan(
    db: ScannedFile, sql: str, params: tuple[str | int, ...], batch: int
) -> Iterator[list[RescoreRow]]:
    """The rows of ``sql``, ``batch`` at a time, unchecked."""
    with file_problems_as_audit_errors(db.path), db.raw_connection() as conn:
        cursor = conn.cursor()
        try:
            cursor.execute(sql, params)
            while rows := cursor.fetchmany(batch):
                yield cast("list[RescoreRow]", rows)
        finally:
            cursor.close()


__all__ = ["ATTEMPT_ID_BOUNDS", "RESCORE_COLUMNS", "RescoreRow", "rescore_batches"]
