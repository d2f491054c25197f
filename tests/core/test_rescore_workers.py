"""One process unless more really help; the sha256 beside the scan (issue 16)."""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING

import pytest
from desk_helpers import sha256

from ai4hse_desk.audit import AuditError, open_audit
from ai4hse_desk.verdicts import machine, parallel
from ai4hse_desk.verdicts.parallel import Beside, default_workers
from ai4hse_desk.verdicts.rescore import rescore

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path


def _machine(monkeypatch: pytest.MonkeyPatch, cpus: int, load: float) -> None:
    monkeypatch.setattr(machine, "usable_cpus", lambda: cpus)
    monkeypatch.setattr(machine, "busy_now", lambda _watch=None: load)


@pytest.mark.parametrize(
    ("cpus", "load", "attempts", "expected"),
    [
        pytest.param(2, 0.1, 1_000_000, 2, id="idle-two-cores-large-file"),
        pytest.param(2, 0.5, 1_000_000, 2, id="one-and-a-half-idle"),
        pytest.param(2, 0.9, 1_000_000, 2, id="one-core-idle"),
        pytest.param(2, 1.2, 1_000_000, 1, id="less-than-a-core-idle"),
        pytest.param(2, 2.5, 1_000_000, 1, id="loaded"),
        pytest.param(2, 0.0, parallel.PARALLEL_MIN_ATTEMPTS - 1, 1, id="small-file"),
        pytest.param(1, 0.0, 1_000_000, 1, id="one-cpu"),
        pytest.param(8, 3.0, 1_000_000, 2, id="many-cores-some-busy"),
    ],
)
def test_workers_only_when_cores_are_idle_and_the_file_is_large(
    monkeypatch: pytest.MonkeyPatch, cpus: int, load: float, attempts: int, expected: int
) -> None:
    _machine(monkeypatch, cpus, load)
    assert default_workers(attempts) == expected


def test_unknown_load_means_one_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(machine, "usable_cpus", lambda: 2)

    def unknown() -> tuple[float, float, float]:
        raise OSError("no load average")

    monkeypatch.setattr(machine, "busy_now", lambda _watch=None: None)  # no /proc/stat either
    monkeypatch.setattr(machine.os, "getloadavg", unknown)
    assert default_workers(10**6) == 1


def test_the_cpus_busy_now_decide_not_the_load_average(monkeypatch: pytest.MonkeyPatch) -> None:
    """A busy minute that has just ended (the load average still says 2) does not keep
    an idle machine on one process; CPUs busy now do."""
    monkeypatch.setattr(machine, "usable_cpus", lambda: 2)
    monkeypatch.setattr(machine.os, "getloadavg", lambda: (2.0, 2.0, 2.0))
    monkeypatch.setattr(machine, "busy_now", lambda _watch=None: 0.1)
    assert default_workers(10**6) == 2
    monkeypatch.setattr(machine, "busy_now", lambda _watch=None: 1.2)
    assert default_workers(10**6) == 1


@pytest.mark.skipif(
    os.nice(0) > 0, reason="a niced process's CPU time is nice time, which counts as idle"
)
def test_a_sample_of_the_cpus_sees_this_process_working() -> None:
    """/proc/stat, watched while this thread spins: at least part of a CPU is busy."""
    import threading
    import time

    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            sum(range(1000))

    worker = threading.Thread(target=spin)
    worker.start()
    try:
        time.sleep(0.02)
        busy = machine.busy_now()
    finally:
        stop.set()
        worker.join()
    assert busy is not None
    assert busy >= 0.5


@pytest.mark.parametrize(("load", "workers"), [(1.8, 0), (0.1, 2)], ids=["busy", "idle"])
def test_rescore_forks_only_on_an_idle_machine(
    demo_db: Path, monkeypatch: pytest.MonkeyPatch, load: float, workers: int
) -> None:
    _machine(monkeypatch, 2, load)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_ATTEMPTS", 1)
    with open_audit(demo_db) as db:
        result = rescore(db)
    assert result.workers == workers
    assert result.attempts == 2400


def test_the_fingerprint_is_computed_beside_the_scan(demo_db: Path) -> None:
    seen: list[str] = []
    with open_audit(demo_db) as db:

        def job() -> None:
            seen.append(threading.current_thread().name)
            db.fingerprint()

        serial = rescore(db, workers=1, beside=job)
        assert db.summary()["sha256"] == sha256(demo_db)
    assert seen == ["rescore-beside"]
    with open_audit(demo_db) as db:
        assert rescore(db, workers=1) == serial


def test_the_fingerprint_is_computed_beside_two_workers(
    demo_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_audit(demo_db) as db:
        serial = rescore(db, workers=1)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_ATTEMPTS", 1)
    with open_audit(demo_db) as db:
        result = rescore(db, workers=2, beside=db.fingerprint)  # a thread would stop the fork
        assert db.summary()["sha256"] == sha256(demo_db)
    assert (result.workers, serial.workers) == (2, 0)  # both workers' shares merged
    assert result == serial


def test_what_the_job_raises_is_raised_and_no_thread_is_left(demo_db: Path) -> None:
    def broken() -> None:
        raise AuditError("cannot read the file")

    with open_audit(demo_db) as db, pytest.raises(AuditError, match="cannot read"):
        rescore(db, workers=1, beside=broken)


def test_a_failed_scan_waits_for_the_job_and_raises_its_own_error(
    make_audit_db: Callable[..., Path],
) -> None:
    import sqlite3

    path = make_audit_db()
    with sqlite3.connect(path) as con:
        con.execute("UPDATE attempts SET question_id = 'Q404' WHERE attempt_id = 3")
    ran = threading.Event()
    with open_audit(path) as db, pytest.raises(AuditError, match="Q404"):
        rescore(db, workers=1, beside=ran.set)
    # The thread guard fails the test if the job's thread were still running here.


def test_beside_without_a_job_does_nothing() -> None:
    side = Beside(None)
    side.start()
    side.join()
    assert threading.active_count() == 1


def test_niced_work_leaves_its_cpu_free_for_the_workers() -> None:
    """/proc/stat's nice time is free (a nice-19 process gives way); user time is not."""
    busy_user = machine.cpu_times("cpu  900 0 50 50 0 0 0 0 0 0")
    busy_niced = machine.cpu_times("cpu  0 900 50 50 0 0 0 0 0 0")
    assert busy_user == (50, 1000)
    assert busy_niced == (950, 1000)
    assert machine.cpu_times("cpu0 1 2 3 4 5 6 7 8") is None  # one CPU's line, not the sum
    assert machine.cpu_times("intr 1 2") is None


def _spin(seconds: float) -> None:
    import time

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        sum(range(1000))


@pytest.mark.skipif(
    os.nice(0) > 0, reason="a niced process's CPU time is nice time, which counts as idle"
)
def test_a_watch_sees_other_processes_and_not_this_ones_own_work() -> None:
    """The rescore reads its keys while the CPUs are watched: its own work then is not
    load (it stops before the workers start), another process's is."""
    import subprocess
    import sys

    other = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        _spin(0.2)  # the other process is running for sure
        watch = machine.CpuWatch()
        _spin(0.15)  # this process's own work: a whole CPU while watched
        busy = machine.busy_now(watch)
    finally:
        other.kill()
        other.wait()
    assert busy is not None
    assert busy >= 0.5  # the other process
    assert busy <= (os.cpu_count() or 1) - 0.5  # not this one's spin


def test_a_watch_older_than_the_sample_is_read_without_waiting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Work that took longer than the sample needs leaves nothing to wait for (the 50 ms
    sleep the rescore of a large file used to start with); a short one waits the rest."""
    slept: list[float] = []
    watch = machine.CpuWatch()
    _spin(machine.SAMPLE_SECONDS + 0.02)
    monkeypatch.setattr(machine.time, "sleep", slept.append)
    assert machine.busy_now(watch) is not None
    assert slept == []
    machine.busy_now(machine.CpuWatch())
    assert len(slept) == 1
    assert 0 < slept[0] <= machine.SAMPLE_SECONDS
