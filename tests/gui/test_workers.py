"""The window's one task mechanism: lanes in order, outcomes on the GUI thread, no thread left."""

from __future__ import annotations

import subprocess
import sys
import threading
from typing import TYPE_CHECKING, Any

import pytest
from PySide6.QtCore import QThread

from ai4hse_desk.audit import open_audit
from ai4hse_desk.gui.workers import index_loader
from ai4hse_desk.gui.workers.index_loader import IndexLoader
from ai4hse_desk.gui.workers.runner import TaskRunner
from ai4hse_desk.gui.workers.task import CollectionOp, QueryOp
from ai4hse_desk.index import ensure_index
from tests.gui.gui_fixtures import HOSTILE, ThreadWatch

if TYPE_CHECKING:
    from pathlib import Path

    from pytestqt.qtbot import QtBot

    from ai4hse_desk.index import ReviewIndex
    from ai4hse_desk.progress import Progress

# Threads are told apart by ``threading.get_ident()``: ``current_thread()`` on a QThread
# would register a dummy Python thread that outlives it.
GUI_THREAD = threading.get_ident()


def test_a_lane_runs_its_tasks_in_order_on_one_worker_thread(tasks: TaskRunner) -> None:
    ran: list[tuple[int, int]] = []
    delivered: list[tuple[int, int]] = []
    for number in range(5):

        def work(_progress: Progress, number: int = number) -> int:
            ran.append((number, threading.get_ident()))
            return number

        task = tasks.run(QueryOp(work, lane="test"))
        task.succeeded.connect(lambda result: delivered.append((result, threading.get_ident())))
    assert tasks.wait_idle()
    assert [number for number, _thread in ran] == [0, 1, 2, 3, 4]
    assert GUI_THREAD not in {thread for _number, thread in ran}
    # Every outcome arrives on the GUI thread, in order, so slots may touch widgets.
    assert delivered == [(n, GUI_THREAD) for n in range(5)]
    assert tasks.idle()


def test_progress_reaches_the_gui_thread_and_cancel_stops_the_work(
    qtbot: QtBot, tasks: TaskRunner
) -> None:
    started = threading.Event()
    seen: list[int] = []

    def work(progress: Progress) -> str:
        done = 0
        started.set()
        while progress(done, 1_000_000):
            done += 1
        return "finished anyway"

    task = tasks.run(QueryOp(work, lane="test"))
    task.progress.connect(lambda done, _total: seen.append(done))
    assert started.wait(10)
    qtbot.waitUntil(lambda: len(seen) > 3, timeout=10_000)
    with qtbot.waitSignal(task.cancelled, timeout=10_000):
        task.cancel()
    assert task.done
    assert seen == sorted(seen)


def test_a_queued_read_that_is_cancelled_never_runs(tasks: TaskRunner) -> None:
    gate = threading.Event()
    ran: list[str] = []
    outcomes: list[str] = []
    tasks.run(QueryOp(lambda _p: gate.wait(10), lane="test"))
    second = tasks.run(QueryOp(lambda _p: ran.append("second"), lane="test"))
    second.cancelled.connect(lambda: outcomes.append("cancelled"))
    second.succeeded.connect(lambda _r: outcomes.append("succeeded"))
    second.cancel()
    gate.set()
    assert tasks.wait_idle()
    assert ran == []
    assert outcomes == ["cancelled"]


def test_a_change_is_carried_out_even_when_cancelled(tasks: TaskRunner) -> None:
    outcomes: list[object] = []
    change = tasks.run(CollectionOp(lambda _p: "saved", lane="notes"))
    change.succeeded.connect(outcomes.append)
    change.cancel()  # a change, once asked for, is made
    tasks.cancel()
    assert tasks.wait_idle()
    assert outcomes == ["saved"]


class _Abort(BaseException):
    """Not an ``Exception``: what ``except Exception`` in a worker would let through."""


def test_a_task_that_raises_anything_reports_failed_in_one_line(
    qtbot: QtBot, tasks: TaskRunner
) -> None:
    def work(_progress: Progress) -> None:
        raise _Abort(f"{HOSTILE}\nsecond line")

    task = QueryOp(work, lane="test")
    with qtbot.waitSignal(task.failed, timeout=10_000) as failed:
        tasks.run(task)
    assert failed.args == [f"_Abort: {HOSTILE}"]
    assert tasks.wait_idle()
    lane = QueryOp(lambda _p: "the lane still works", lane="test")
    with qtbot.waitSignal(lane.succeeded, timeout=10_000) as later:
        tasks.run(lane)
    assert later.args == ["the lane still works"]


def test_a_lane_keeps_its_thread_and_shutdown_ends_every_lane(
    dangling_qthreads: ThreadWatch,
) -> None:
    runner = TaskRunner()
    threads: dict[str, set[int]] = {"a": set(), "b": set()}
    for _ in range(3):
        for lane, seen in threads.items():

            def note_thread(_progress: Progress, seen: set[int] = seen) -> None:
                seen.add(threading.get_ident())

            runner.run(QueryOp(note_thread, lane=lane))
        assert runner.wait_idle()
    # One thread per lane, reused (the review index keeps one connection per thread).
    assert [len(seen) for seen in threads.values()] == [1, 1]
    assert len(dangling_qthreads.started) == 2
    runner.shutdown()
    assert dangling_qthreads.still_running(grace_ms=0) == []


def test_drain_cancels_reads_and_waits_for_the_changes(tasks: TaskRunner) -> None:
    started = threading.Event()
    ran: list[str] = []

    def endless(progress: Progress) -> None:
        started.set()
        while progress(0, 1):
            pass
        ran.append("read stopped")

    def change(_progress: Progress) -> None:
        ran.append("change made")

    read = tasks.run(QueryOp(endless, lane="test"))
    tasks.run(CollectionOp(change, lane="test"))
    assert started.wait(10)
    tasks.drain()  # returns once nothing runs: the read stopped, the change was made
    assert read.is_cancelled
    assert ran == ["read stopped", "change made"]
    assert tasks.wait_idle()


def test_the_guard_sees_a_qthread_left_running(dangling_qthreads: ThreadWatch) -> None:
    release = threading.Event()

    class Blocked(QThread):
        def run(self) -> None:
            release.wait(30)

    thread = Blocked()
    thread.setObjectName("blocked-on-purpose")
    thread.start()
    try:
        assert dangling_qthreads.still_running(grace_ms=50) == ["blocked-on-purpose"]
    finally:
        release.set()
        assert thread.wait(10_000)
    assert dangling_qthreads.still_running() == []


@pytest.mark.parametrize("kind", [QueryOp, CollectionOp])
def test_a_discarded_task_delivers_nothing(
    tasks: TaskRunner, kind: type[QueryOp[str]] | type[CollectionOp[str]]
) -> None:
    outcomes: list[object] = []
    task = tasks.run(kind(lambda _p: "late", lane="test"))
    task.succeeded.connect(outcomes.append)
    task.finished.connect(lambda: outcomes.append("finished"))
    tasks.shutdown()  # the window is closing
    assert tasks.idle()
    assert outcomes == []


def test_a_runner_dropped_without_shutdown_does_not_crash_the_exit() -> None:
    """A QThread destroyed while it runs aborts the process; the lanes end at exit."""
    code = (
        "from PySide6.QtCore import QCoreApplication\n"
        "from ai4hse_desk.gui.workers.runner import TaskRunner\n"
        "from ai4hse_desk.gui.workers.task import QueryOp\n"
        "app = QCoreApplication([])\n"
        "runner = TaskRunner()\n"
        "runner.run(QueryOp(lambda _p: 42, lane='lane'))\n"
        "assert runner.wait_idle()\n"
        "del runner\n"
        "print('done')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert (result.returncode, result.stdout) == (0, "done\n"), result.stderr
    assert "QThread" not in result.stderr


def test_waiting_for_the_lanes_leaves_the_cpu_to_them(tasks: TaskRunner) -> None:
    """A headless screenshot waits for the index build: the GUI thread sleeps meanwhile.

    Looping on a ``processEvents`` that returned at once took a core and the GIL on
    every turn (a 1M-attempt build on a lane took 65 s instead of 14 s). The thread's
    CPU time while a task sleeps for 0.4 s is measured.
    """
    import time

    release = threading.Event()

    def work(_progress: Progress) -> int:
        release.wait(0.4)
        return 1

    tasks.run(QueryOp(work, lane="test"))
    start = time.thread_time()
    assert tasks.wait_idle()
    busy = time.thread_time() - start
    assert busy < 0.1, f"the waiting thread ran {busy:.2f} s of 0.4 s"


# -- the review index of a small file: read at once --------------------------------------


def _loader_with(tasks: TaskRunner) -> tuple[IndexLoader, list[ReviewIndex]]:
    loader = IndexLoader(tasks)
    ready: list[ReviewIndex] = []
    loader.index_ready.connect(ready.append)
    return loader, ready


def test_a_small_files_cached_index_is_ready_before_load_returns(
    tasks: TaskRunner, pristine: Path
) -> None:
    """So the window's first frame already holds its rows."""
    with open_audit(pristine) as db:
        ensure_index(db).close()
    loader, ready = _loader_with(tasks)
    with open_audit(pristine) as db:
        loader.load(db, full_text=False)
        assert len(ready) == 1  # no turn of the event loop
        assert tasks.idle()
        ready[0].close()


@pytest.mark.parametrize("cached", [True, False], ids=["large-cached", "small-uncached"])
def test_a_large_file_or_one_without_an_index_is_read_by_a_task(
    qtbot: QtBot,
    tasks: TaskRunner,
    pristine: Path,
    monkeypatch: pytest.MonkeyPatch,
    cached: bool,
) -> None:
    if cached:
        with open_audit(pristine) as db:
            ensure_index(db).close()
        monkeypatch.setattr(index_loader, "QUICK_BYTES", pristine.stat().st_size - 1)
    loader, ready = _loader_with(tasks)
    with open_audit(pristine) as db:
        loader.load(db, full_text=False)
        assert ready == []
        qtbot.waitUntil(lambda: len(ready) == 1, timeout=30_000)
        assert tasks.wait_idle()
        ready[0].close()


def test_asked_for_two_processes_the_window_spawns_a_worker_from_its_task_thread(
    qtbot: QtBot, tasks: TaskRunner, pristine: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``ai4hse-desk --workers 2``: the index task (a thread of this Qt process) spawns a
    fresh worker process, and the index holds every attempt."""
    import concurrent.futures

    pools: list[object] = []
    real_pool = concurrent.futures.ProcessPoolExecutor

    def counted_pool(*args: Any, **kwargs: Any) -> concurrent.futures.ProcessPoolExecutor:
        pool = real_pool(*args, **kwargs)
        pools.append(pool)
        return pool

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", counted_pool)
    loader = IndexLoader(tasks, workers=2)
    ready: list[ReviewIndex] = []
    loader.index_ready.connect(ready.append)
    with open_audit(pristine) as db:
        loader.load(db, full_text=False)
        qtbot.waitUntil(lambda: len(ready) == 1, timeout=60_000)
        assert tasks.wait_idle()
        assert len(pools) == 1
        assert ready[0].count(None) == db.count_attempts() > 0
        ready[0].close()


@pytest.mark.parametrize("given", ["0", "x", "65"])
def test_the_windows_workers_flag_takes_1_to_64(
    given: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from ai4hse_desk.gui.app import window_parser

    assert window_parser().parse_args(["--workers", "2"]).workers == 2
    assert window_parser().parse_args([]).workers is None
    with pytest.raises(SystemExit) as exit_info:
        window_parser().parse_args(["--workers", given])
    assert exit_info.value.code == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("error: argument --workers: not a number of processes")


def test_the_headless_help_says_where_the_windows_options_are() -> None:
    from ai4hse_desk.cli.main import build_parser
    from ai4hse_desk.gui.app import window_parser

    headless_help = " ".join(build_parser().format_help().split())
    assert "its options: ai4hse-desk --demo --help" in headless_help
    window_help = " ".join(window_parser().format_help().split())
    assert "--workers N processes that build a file's review index" in window_help
