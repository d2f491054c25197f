"""The two-process rescore gives exactly the serial result."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.audit import AuditError, open_audit
from ai4hse_desk.verdicts.parallel import rescore_in_parallel
from ai4hse_desk.verdicts.rescore import rescore, selected_runs

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path


@pytest.mark.parametrize("workers", [2, 3])
def test_parallel_equals_serial(demo_db: Path, workers: int) -> None:
    with open_audit(demo_db) as db:
        serial = rescore(db, workers=1)
        parallel = rescore_in_parallel(db, selected_runs(db, None), None, workers, min_attempts=1)
    assert parallel == serial
    assert parallel.attempts == 2400


def test_parallel_with_a_run_filter(demo_db: Path) -> None:
    with open_audit(demo_db) as db:
        chosen = [run.run_id for run in db.runs()][:3]
        serial = rescore(db, chosen, workers=1)
        runs = selected_runs(db, chosen)
        assert rescore_in_parallel(db, runs, chosen, 2, min_attempts=1) == serial


def test_small_databases_stay_serial(demo_db: Path) -> None:
    with open_audit(demo_db) as db:
        assert rescore_in_parallel(db, selected_runs(db, None), None, 2) is None


def test_worker_data_problem_is_an_audit_error(make_audit_db: Callable[..., Path]) -> None:
    import sqlite3

    db_path = make_audit_db()
    with sqlite3.connect(db_path) as con:
        con.execute("UPDATE attempts SET question_id = 'Q404' WHERE attempt_id = 30")
    with open_audit(db_path) as db, pytest.raises(AuditError, match="Q404"):
        rescore_in_parallel(db, selected_runs(db, None), None, 2, min_attempts=1)


def _vm_steps(conn: object, call: Callable[[], object]) -> int:
    """SQLite virtual-machine steps ``call`` makes on ``conn`` (counted, not timed)."""
    import sqlite3

    assert isinstance(conn, sqlite3.Connection)
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0

    conn.set_progress_handler(count, 1)
    try:
        call()
    finally:
        conn.set_progress_handler(None, 1)
    return steps[0]


def test_the_split_bounds_are_two_seeks_not_a_scan(demo_db: Path) -> None:
    """The id bounds the workers split by (and a large search's two halves) are read
    by two rowid seeks: a few VM steps whatever the size, not one per attempt."""
    import sqlite3
    from contextlib import closing

    from ai4hse_desk.audit.rescore_scan import ATTEMPT_ID_BOUNDS
    from ai4hse_desk.index.search_split import SplitRun

    with closing(sqlite3.connect(demo_db)) as conn:
        one_statement = "SELECT min(attempt_id), max(attempt_id) FROM attempts"
        scan = _vm_steps(conn, lambda: conn.execute(one_statement).fetchall())
        seeks = _vm_steps(conn, lambda: conn.execute(ATTEMPT_ID_BOUNDS).fetchall())
        assert conn.execute(ATTEMPT_ID_BOUNDS).fetchall() == [(1, 2400)]
        # the review index's rows table keys its rows the same way
        conn.execute("CREATE TEMP TABLE rows (attempt_id INTEGER PRIMARY KEY, run_id TEXT)")
        conn.execute("INSERT INTO rows SELECT attempt_id, run_id FROM attempts")
        split = SplitRun(lambda sql, params: conn.execute(sql, params).fetchall())
        halves = _vm_steps(conn, split.ranges)
        assert split.ranges() == [(1, 2400)]  # the bounds read (2,400 ids: not split)
        split.close()
    assert scan > 2400  # the single statement visits every attempt
    assert seeks < 100
    assert halves < 100
    with open_audit(demo_db) as db:
        assert db.attempt_id_bounds() == (1, 2400)
