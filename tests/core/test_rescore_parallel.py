"""The rescore over worker processes gives exactly the one-process result; the number
of processes follows the file's size and the ``workers`` setting, never the load."""

from __future__ import annotations

import shutil
import sqlite3
import threading
from contextlib import closing
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.audit import AuditError, open_audit
from ai4hse_desk.verdicts import workers as workers_module
from ai4hse_desk.verdicts.rescore import rescore
from ai4hse_desk.verdicts.workers import PARALLEL_MIN_ATTEMPTS, default_workers

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path


@pytest.mark.parametrize("workers", [2, 3])
def test_workers_equal_one_process(demo_db: Path, workers: int) -> None:
    with open_audit(demo_db) as db:
        serial = rescore(db, workers=1)
    with open_audit(demo_db) as db:
        parallel = rescore(db, workers=workers)
    assert parallel == serial
    assert parallel.attempts == 2400


def test_workers_with_a_run_filter(demo_db: Path) -> None:
    with open_audit(demo_db) as db:
        chosen = [run.run_id for run in db.runs()][:3]
        serial = rescore(db, chosen, workers=1)
        assert rescore(db, chosen, workers=2) == serial


def test_the_number_of_processes_follows_the_size_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workers_module, "usable_cpus", lambda: 2)
    assert default_workers(2400) == 1
    assert default_workers(PARALLEL_MIN_ATTEMPTS - 1) == 1
    assert default_workers(PARALLEL_MIN_ATTEMPTS) == 2
    monkeypatch.setattr(workers_module, "usable_cpus", lambda: 1)
    assert default_workers(10 * PARALLEL_MIN_ATTEMPTS) == 1


def test_a_small_file_and_a_threaded_process_stay_in_one_process(demo_db: Path) -> None:
    with open_audit(demo_db) as db:
        assert workers_module.rescore_in_processes(db, None, None) is None  # 2,400 attempts
        assert workers_module.rescore_in_processes(db, None, 1) is None
        stop = threading.Event()
        other = threading.Thread(target=stop.wait)
        other.start()
        try:  # a second thread: forking is not safe, one process it is
            assert workers_module.rescore_in_processes(db, None, 2) is None
        finally:
            stop.set()
            other.join()


def test_a_workers_data_problem_is_an_audit_error(make_audit_db: Callable[..., Path]) -> None:
    db_path = make_audit_db()
    with sqlite3.connect(db_path) as con:
        con.execute("UPDATE attempts SET question_id = 'Q404' WHERE attempt_id = 30")
    with open_audit(db_path) as db, pytest.raises(AuditError, match="Q404"):
        rescore(db, workers=2)


def test_a_bad_value_is_refused_with_the_checks_message(
    make_audit_db: Callable[..., Path],
) -> None:
    path = make_audit_db(
        untyped=True, after=["UPDATE attempts SET correct = 'yes' WHERE attempt_id = 30"]
    )
    with open_audit(path) as db, pytest.raises(AuditError, match="correct is 'yes'"):
        rescore(db, workers=2)
    with open_audit(path) as db, pytest.raises(AuditError) as serial:
        rescore(db, workers=1)
    assert "correct is 'yes'" in str(serial.value)


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


def test_a_worker_finishes_its_whole_runs_and_hands_back_the_others_counts(
    demo_db: Path,
) -> None:
    """The demo writes run after run, 300 attempts each: ids 1-1,350 hold four runs
    whole and half of a fifth."""
    with open_audit(demo_db) as db:
        serial = {run["run_id"]: run for run in rescore(db, workers=1).runs}
    with closing(sqlite3.connect(demo_db)) as conn:
        spans = conn.execute(workers_module._SPANS).fetchall()
    inside = {run for run, first, last in spans if last <= 1350}
    (straddling,) = [run for run, first, last in spans if first <= 1350 < last]
    assert len(inside) == 4
    with open_audit(demo_db) as db:
        workers_module._shared[:] = [db]
        try:
            kind, share = workers_module._score_range(None, (1, 1350), inside)
        finally:
            workers_module._shared.clear()
    assert kind == "ok"
    assert isinstance(share, tuple)
    done, rest = share
    assert sorted(str(run["run_id"]) for run in done) == sorted(inside)
    assert all(run == serial[run["run_id"]] for run in done)
    assert list(rest) == [straddling]  # ids 1,201-1,500
    assert rest[straddling].attempts == 150


def test_runs_written_interleaved_are_added_up_from_both_workers(
    demo_db: Path, tmp_path: Path
) -> None:
    path = _interleaved(demo_db, tmp_path)
    with open_audit(path) as db:
        serial = rescore(db, workers=1)
        assert rescore(db, workers=2) == serial
    with open_audit(demo_db) as db:
        assert serial == rescore(db, workers=1)  # the same attempts, in another order


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("attempt", [5, 25])
def test_a_value_that_breaks_the_schema_is_named_however_it_is_scored(
    make_audit_db: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
    workers: int,
    attempt: int,
) -> None:
    """A reply stored as bytes makes the rule fail before the value check is waited for
    (batches of 10: the first is derived before the scan's end): the rescore says which
    value breaks which rule, in one process or two."""
    from ai4hse_desk.verdicts import stream

    monkeypatch.setattr(stream, "BATCH", 10)
    path = make_audit_db()
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("UPDATE attempts SET raw_response = X'00ff' WHERE attempt_id = ?", (attempt,))
        conn.commit()
    expected = f"attempt {attempt}: raw_response is X'00FF' \\(must be text or NULL\\)"
    with open_audit(path) as db, pytest.raises(AuditError, match=expected):
        rescore(db, workers=workers)


@pytest.mark.parametrize("given", ["0", "-1", "x", "65"])
def test_rescore_refuses_a_workers_count_outside_1_to_64(
    demo_db: Path, given: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from ai4hse_desk.cli.main import build_parser, main

    with pytest.raises(SystemExit) as exit_info:
        main(["rescore", str(demo_db), "--workers", given])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines() == [
        f"error: argument --workers: not a number of processes from 1 to 64: {given!r} "
        "(see 'ai4hse-desk rescore --help')"
    ]
    largest = build_parser().parse_args(["rescore", str(demo_db), "--workers", "64"])
    assert largest.workers == 64
