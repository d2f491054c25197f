"""A worker's share of the two-process rescore: runs wholly in its slice finished there,
its rows' values checked in its own scan, and the result still the serial one."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.audit import AuditError, open_audit
from ai4hse_desk.verdicts import checked_scan
from ai4hse_desk.verdicts.parallel import rescore_in_parallel
from ai4hse_desk.verdicts.rescore import rescore, selected_runs
from ai4hse_desk.verdicts.worker_share import runs_within, score_share

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path


def _interleaved(demo_db: Path, tmp_path: Path) -> Path:
    """The demo with its attempts renumbered so that the runs alternate: attempt
    1 of run A, then of run B, ... (a runner that writes question by question)."""
    path = tmp_path / "interleaved.sqlite"
    shutil.copyfile(demo_db, path)
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute(
            "CREATE TEMP TABLE renumbered AS SELECT attempt_id AS old, row_number() OVER "
            "(ORDER BY question_id, repetition, run_id) AS new FROM attempts"
        )
        conn.execute("UPDATE attempts SET attempt_id = -attempt_id")
        conn.execute(
            "UPDATE attempts SET attempt_id = "
            "(SELECT new FROM renumbered WHERE old = -attempts.attempt_id)"
        )
    return path


def test_a_worker_finishes_the_runs_wholly_in_its_slice(demo_db: Path) -> None:
    with open_audit(demo_db) as db:
        serial = {run["run_id"]: run for run in rescore(db, workers=1).runs}
        runs = selected_runs(db, None)
        # The demo writes run after run, 300 attempts each: ids 1-1,350 hold four runs
        # whole and half of a fifth.
        done, rest = score_share(db, runs, None, (1, 1350), fold=True)
    assert len(done) == 4
    assert all(run == serial[run["run_id"]] for run in done)
    assert list(rest) == ["ra-borealis-large-2026-09-11"]  # ids 1,201-1,500
    assert rest["ra-borealis-large-2026-09-11"].attempts == 150


def test_interleaved_runs_go_back_as_counts_and_the_result_is_the_serial_one(
    demo_db: Path, tmp_path: Path
) -> None:
    path = _interleaved(demo_db, tmp_path)
    with open_audit(path) as db:
        serial = rescore(db, workers=1)
        runs = selected_runs(db, None)
        done, rest = score_share(db, runs, None, (1, 1200), fold=True)
        assert done == []  # every run has attempts in both halves
        assert len(rest) == 8
        assert rescore_in_parallel(db, runs, None, 2, min_attempts=1) == serial
    with open_audit(demo_db) as db:
        assert serial == rescore(db, workers=1)  # the same attempts, in another order


def test_without_an_index_on_run_id_every_run_goes_back_as_counts(
    make_audit_db: Callable[..., Path],
) -> None:
    path = make_audit_db(untyped=True)  # no keys, no indexes
    with open_audit(path) as db:
        run_ids = [run.run_id for run in db.runs()]
        with db.raw_connection() as conn:
            assert runs_within(conn, run_ids, (1, 10**9)) == set()
        serial = rescore(db, workers=1)
        assert rescore_in_parallel(db, selected_runs(db, None), None, 2, min_attempts=1) == serial


def test_the_look_up_walks_one_runs_index_entries_not_the_table(demo_db: Path) -> None:
    """Whether a run lies in a slice is read from the index on run_id: far fewer SQLite
    VM steps than the table's 2,400 attempts, for a run of 300 (counted, not timed)."""
    steps = [0]

    def count() -> int:
        steps[0] += 1
        return 0

    with closing(sqlite3.connect(demo_db)) as conn:
        conn.set_progress_handler(count, 1)
        conn.execute("SELECT count(*) FROM attempts WHERE +repetition > 0").fetchall()
        full, steps[0] = steps[0], 0
        inside = runs_within(conn, ["ao-aurora-7b-2026-09-03"], (1, 300))
        one_run, steps[0] = steps[0], 0
        outside = runs_within(conn, ["ao-aurora-7b-2026-09-03"], (2, 300))
    assert inside == {"ao-aurora-7b-2026-09-03"}
    assert outside == set()  # attempt 1 lies outside ids 2-300
    assert full > 2400
    assert 0 < one_run < full / 3


def test_a_bad_value_in_a_workers_slice_is_refused_with_the_checks_message(
    make_audit_db: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every run, attempt_id the rowid: the workers check their rows in their scans and
    the parent only runs the uniqueness checks."""
    links: list[str] = []
    check_ids_unique = checked_scan.check_ids_unique

    def spy(db: object) -> None:
        links.append("links")
        check_ids_unique(db)  # type: ignore[arg-type]

    monkeypatch.setattr(checked_scan, "check_ids_unique", spy)
    path = make_audit_db(
        extra_questions=40,
        after=["UPDATE attempts SET correct = 'yes' WHERE attempt_id = (SELECT max(attempt_id) "
               "FROM attempts)"],
    )  # fmt: skip
    with open_audit(path) as db, pytest.raises(AuditError, match="correct is 'yes'"):
        rescore_in_parallel(db, selected_runs(db, None), None, 2, min_attempts=1)
    assert links == ["links"]


def test_after_the_workers_checked_their_slices_the_file_counts_as_checked(
    demo_db: Path,
) -> None:
    with open_audit(demo_db) as db:
        serial = rescore(db, workers=1)
    with open_audit(demo_db) as db:
        assert not db.attempts_valid
        assert rescore_in_parallel(db, selected_runs(db, None), None, 2, min_attempts=1) == serial
        assert db.attempts_valid  # a later read does not check every row again


def test_a_run_filter_keeps_the_parents_check_of_every_attempt(
    make_audit_db: Callable[..., Path],
) -> None:
    """With a run filter the workers read only those runs: the parent checks all rows."""
    path = make_audit_db(
        extra_questions=40,
        after=["UPDATE attempts SET correct = 'yes' WHERE attempt_id = (SELECT max(attempt_id) "
               "FROM attempts)"],
    )  # fmt: skip
    with open_audit(path) as db:
        first = db.runs()[0].run_id
        with pytest.raises(AuditError, match="correct is 'yes'"):
            rescore_in_parallel(db, selected_runs(db, [first]), [first], 2, min_attempts=1)


def _rebuilt_attempts(path: Path, old: str, new: str, *after: str) -> None:
    """Rebuild ``attempts`` with ``old`` replaced by ``new`` in its definition (rows and
    indexes kept), then run ``after``."""
    with closing(sqlite3.connect(path)) as conn, conn:
        sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = 'attempts'").fetchone()[0]
        changed = sql.replace(old, new).replace("CREATE TABLE attempts", "CREATE TABLE rebuilt")
        assert changed != sql.replace("CREATE TABLE attempts", "CREATE TABLE rebuilt")
        indexes = [row[0] for row in conn.execute(
            "SELECT sql FROM sqlite_master WHERE tbl_name = 'attempts' AND type = 'index' "
            "AND sql IS NOT NULL")]  # fmt: skip
        conn.execute(changed)
        conn.execute("INSERT INTO rebuilt SELECT * FROM attempts")
        conn.execute("DROP TABLE attempts")
        conn.execute("ALTER TABLE rebuilt RENAME TO attempts")
        for index in indexes:
            conn.execute(index)
        for statement in after:
            conn.execute(statement)


def test_an_integer_primary_key_desc_is_no_rowid_and_its_null_ids_are_refused(
    make_audit_db: Callable[..., Path],
) -> None:
    """``INTEGER PRIMARY KEY DESC`` is an ordinary column (SQLite's exception): NULL ids
    lie outside every slice of the id bounds, so the parent checks every attempt."""
    path = make_audit_db(extra_questions=40)
    _rebuilt_attempts(
        path,
        "INTEGER PRIMARY KEY",
        "INTEGER PRIMARY KEY DESC",
        "UPDATE attempts SET attempt_id = NULL WHERE attempt_id IN (30, 31)",
    )
    with open_audit(path) as db:
        with pytest.raises(AuditError, match="attempt_id is NULL"):
            rescore_in_parallel(db, selected_runs(db, None), None, 2, min_attempts=1)
        assert not db.attempts_valid
    with closing(sqlite3.connect(path)) as conn:
        (run_id,) = conn.execute("SELECT run_id FROM attempts WHERE attempt_id IS NULL").fetchone()
        everything = (-(2**63), 2**63 - 1)
        assert runs_within(conn, [run_id], everything) == set()  # a NULL id lies outside


def test_a_run_index_sqlite_cannot_search_sends_every_run_back_as_counts(
    demo_db: Path, tmp_path: Path
) -> None:
    """An index on run_id of another collation cannot answer ``run_id = ?``: one look-up
    per run would read the whole table, so the worker finishes no run (same result)."""
    path = tmp_path / "nocase-index.sqlite"
    shutil.copyfile(demo_db, path)
    _rebuilt_attempts(
        path,
        "UNIQUE (run_id, question_id, repetition)",
        "UNIQUE (question_id, run_id, repetition)",
        "CREATE INDEX hostile ON attempts(run_id COLLATE NOCASE)",
    )
    with open_audit(path) as db:
        serial = rescore(db, workers=1)
        runs = selected_runs(db, None)
        done, rest = score_share(db, runs, None, (1, 1350), fold=True)
        assert (done, len(rest)) == ([], 5)
        assert rescore_in_parallel(db, runs, None, 2, min_attempts=1) == serial


def test_a_bad_value_is_named_before_an_unknown_run_as_in_one_process(
    make_audit_db: Callable[..., Path],
) -> None:
    path = make_audit_db(
        extra_questions=40,
        after=[
            "UPDATE attempts SET correct = 'yes' WHERE attempt_id = 30",
            "PRAGMA foreign_keys = OFF",
            "UPDATE attempts SET run_id = 'nope' WHERE attempt_id = (SELECT max(attempt_id) "
            "FROM attempts)",
        ],
    )
    with open_audit(path) as db, pytest.raises(AuditError) as serial:
        rescore(db, workers=1)
    with open_audit(path) as db, pytest.raises(AuditError) as parallel:
        rescore_in_parallel(db, selected_runs(db, None), None, 2, min_attempts=1)
    assert "correct is 'yes'" in str(serial.value)
    assert str(parallel.value) == str(serial.value)
