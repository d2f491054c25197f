"""The rescore over worker processes gives exactly the one-process result; the number
of processes follows the file's size and the ``workers`` setting, never the load."""

from __future__ import annotations

import sqlite3
import threading
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
        scorers = {}
        assert not workers_module.score_in_processes(db, scorers, None, None)  # 2,400 attempts
        assert not workers_module.score_in_processes(db, scorers, None, 1)
        stop = threading.Event()
        other = threading.Thread(target=stop.wait)
        other.start()
        try:  # a second thread: forking is not safe, one process it is
            assert not workers_module.score_in_processes(db, scorers, None, 2)
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
