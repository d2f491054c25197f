"""The rescore scan of every attempt with the value check folded in: one pass, not two.

:meth:`AuditDB.iter_rescore_batches` checks the values on a second scan beside
it (:meth:`AuditDB.check_attempts`, on a thread), which reads the whole file
again. Folded into the rescore scan, the same rules cost about 12% less CPU in
all (realistic 1M file: 4.5 s against 5.2 s for the scan and the check), all of
it on the scanning thread; the rescore loop folds them when no core is idle for
a second scan (:data:`~.verdict_loop.FOLD_BELOW_IDLE_CORES`).

The columns the scan returns are checked on each fetched batch, column by column,
in a few C passes per column: their value rules
(:func:`~ai4hse_desk.audit.value_rules.column_keeps`: the types and values as
Python's ``sqlite3`` hands them over), and what they refer to (a known run and
question, a repetition within its run's). The scan's ``WHERE`` is the rules of
the other columns ``OR`` a function that records a failing row and keeps it.
Measured in instructions on the realistic data, a worker's scan and loop do 8%
less work than with every rule in the scan's SQL (where SQLite's VM evaluates
each rule per row), and the index walks that looked for unknown runs and
questions and repetitions too high (about 0.3 s of CPU on the realistic 1M file,
beside the workers) are gone. A failing row stops the scan before its batch is
handed over, and the full check runs for its message
(:func:`~ai4hse_desk.audit.value_check.check_attempts`, which refuses it). After
the last row the uniqueness checks run (mostly answered by the schema's own
``UNIQUE`` index) and the file must be unchanged. Only then is the last batch
handed over, so a consumer that reaches the end has read valid values of one
committed state, as with the threaded check. Nothing is printed before that: the
CLI writes its JSON (and ``--per-attempt``'s spooled lines) after the rescore
returns.

A worker process of the two-process rescore (:mod:`.parallel`), or of the review
index's split build, scans only its slice of attempt ids (``id_range``) the same
way, and its parent runs the uniqueness checks (:func:`check_ids_unique`) and the
file's last look instead of a whole second scan.
"""

from __future__ import annotations

import itertools
from operator import gt
from typing import TYPE_CHECKING, NamedTuple, cast

from ai4hse_desk.audit.errors import AuditError, file_problems_as_audit_errors
from ai4hse_desk.audit.rescore_scan import RESCORE_COLUMNS
from ai4hse_desk.audit.value_check import check_attempt_ids_unique
from ai4hse_desk.audit.value_rules import TABLE_RULES, Rule, column_keeps

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterator

    from ai4hse_desk.audit.queries import AuditDB
    from ai4hse_desk.audit.rescore_scan import RescoreRow

_names = itertools.count()
_RUN, _QUESTION, _REPETITION = (
    RESCORE_COLUMNS.index(name) for name in ("run_id", "question_id", "repetition")
)


def _split_rules() -> tuple[str, list[tuple[int, Rule]]]:
    """The attempt rules the scan's SQL checks (as one condition), and those checked on
    the fetched columns, with their column's position in a row."""
    in_sql: list[Rule] = []
    on_columns: list[tuple[int, Rule]] = []
    for rule in TABLE_RULES["attempts"][1]:
        if rule.types is not None and rule.column in RESCORE_COLUMNS:
            on_columns.append((RESCORE_COLUMNS.index(rule.column), rule))
        else:
            in_sql.append(rule)
    return " AND ".join(f"({rule.holds})" for rule in in_sql) or "1", on_columns


class _Known(NamedTuple):
    """What every attempt must refer to: each run's number of repetitions, the questions."""

    repetitions: dict[str, int]
    questions: frozenset[str]


def _known(db: AuditDB) -> _Known:
    return _Known({run.run_id: run.repetitions for run in db.runs()}, frozenset(db.answer_keys()))


def _columns_keep(
    rows: list[RescoreRow], on_columns: list[tuple[int, Rule]], known: _Known
) -> bool:
    """True if every value of ``rows`` keeps the rules of its column (``on_columns``:
    the rules, each with its column's position in a row), and every row refers to a
    known run and question, within the run's repetitions."""
    if not rows:
        return True
    columns = list(zip(*rows, strict=True))
    if not all(column_keeps(rule, columns[at]) for at, rule in on_columns):
        return False
    run_ids = cast("tuple[str, ...]", columns[_RUN])
    repetitions = cast("tuple[int, ...]", columns[_REPETITION])
    # A run's rows lie together: its id is compared with its neighbour's, not hashed.
    runs = {run_id for run_id, _ in itertools.groupby(run_ids)}
    if not (known.repetitions.keys() >= runs and known.questions >= set(columns[_QUESTION])):
        return False
    allowed = known.repetitions.__getitem__
    if max(repetitions) <= min(map(allowed, runs)):  # (one C pass: runs mostly share it)
        return True
    return not any(map(gt, repetitions, map(allowed, run_ids)))


def checked_batches(
    db: AuditDB, batch: int, id_range: tuple[int, int] | None = None
) -> Iterator[list[RescoreRow]]:
    """Every attempt in attempt_id order, ``batch`` rows at a time, its values checked.

    The values of the columns the scan returns are checked on each fetched batch
    (:func:`~ai4hse_desk.audit.value_rules.column_keeps`: the same rules, a few C
    passes per column instead of SQL evaluated per row); the other columns' rules
    are the scan's ``WHERE``.

    With ``id_range`` (inclusive) only that slice of attempt ids is read and
    checked, and the uniqueness checks are left to the caller
    (:func:`check_ids_unique`, then ``db.verify_unchanged()``).

    Raises:
        AuditError: a value breaks the schema, an attempt refers to an unknown run
            or question or to a repetition beyond its run's (the full check's
            message), or the file changed while read.
    """
    failed: list[object] = []

    def failing(attempt_id: object) -> int:
        failed.append(attempt_id)
        return 1  # the row is kept: the scan's consumer never sees the batch it is in

    in_sql, on_columns = _split_rules()
    known = _known(db)

    def check(rows: list[RescoreRow]) -> None:
        if not _columns_keep(rows, on_columns, known):
            failed.append(None)

    name = f"ai4hse_failing_row_{next(_names)}"
    sliced = "attempt_id BETWEEN ? AND ? AND " if id_range is not None else ""
    params = () if id_range is None else (int(id_range[0]), int(id_range[1]))
    sql = (
        f"SELECT {', '.join(RESCORE_COLUMNS)} FROM attempts "
        f"WHERE {sliced}(({in_sql}) OR {name}(attempt_id)) ORDER BY attempt_id"
    )
    whole = id_range is None
    with file_problems_as_audit_errors(db.path), db.raw_connection() as conn:
        conn.create_function(name, 1, failing)
        cursor = conn.cursor()
        try:
            cursor.execute(sql, params)
            previous = cursor.fetchmany(batch)
            check(previous)
            if not previous and not failed and whole:  # no attempts at all
                _ids_unique(db, conn)
                db.verify_unchanged()
            while previous and not failed:
                rows = cursor.fetchmany(batch)
                check(rows)
                if failed:
                    break
                if not rows and whole:
                    _ids_unique(db, conn)
                    db.verify_unchanged()
                yield cast("list[RescoreRow]", previous)
                previous = rows
        except AuditError:
            raise
        except Exception:
            db.check_attempts()  # a bad value explains the failure
            raise
        finally:
            cursor.close()
            conn.create_function(name, 1, None)
    if failed:
        db.check_attempts()  # raises, naming the first bad rows
        # The same rules, so the full check refuses; should it not, the scan's finding stands.
        raise AuditError(f"{db.path}: values break the audit schema", db.path)
    if whole:
        db.attempts_checked()


def check_ids_unique(db: AuditDB) -> None:
    """What :func:`checked_batches`' scans leave to their caller: unique attempt ids and
    unique run x question x repetition; raises :class:`AuditError`."""
    with file_problems_as_audit_errors(db.path), db.raw_connection() as conn:
        _ids_unique(db, conn)


def _ids_unique(db: AuditDB, conn: sqlite3.Connection) -> None:
    """The uniqueness checks, on the scan's own connection."""
    with file_problems_as_audit_errors(db.path, broad=True):
        check_attempt_ids_unique(conn, db.path)
