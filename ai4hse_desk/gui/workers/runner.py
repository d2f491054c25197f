"""The window's one task mechanism: every background read and change goes through here.

Work is grouped in *lanes* (``"index"``, ``"list"``, ``"notes"``, ``"scores"`` …):
the tasks of a lane run one after another on that lane's worker thread, in the
order given, so a notes change and the re-read that follows it never overtake
each other, and a lane's SQLite connections are used by one thread at a time.
A lane's thread starts when a task arrives and ends as soon as the lane is
empty: no idle thread is left behind.

The GUI thread never waits for a task, except :meth:`TaskRunner.drain` (the
old file's work is cancelled, then joined, before that file is closed) and
:meth:`TaskRunner.wait_idle` (headless screenshots and tests, which spin the
event loop until every outcome was delivered).
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import TypeVar

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, QThread

from ai4hse_desk.gui.workers.task import Task

T = TypeVar("T")
TaskT = TypeVar("TaskT", bound=Task[object])


class _LaneThread(QThread):
    """Runs a lane's tasks until the lane is empty, then ends."""

    def __init__(self, lane: _Lane) -> None:
        super().__init__()
        self.setObjectName(f"ai4hse-{lane.name}")
        self._lane = lane

    def run(self) -> None:
        while (task := self._lane.next_task(self)) is not None:
            task.execute()  # never raises


class _Lane:
    """The queue of one lane and the thread draining it (if any)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._queue: deque[Task[object]] = deque()
        self._lock = threading.Lock()
        self._thread: _LaneThread | None = None
        self._threads: list[_LaneThread] = []  # started, maybe not yet ended

    def submit(self, task: Task[object]) -> None:
        with self._lock:
            self._queue.append(task)
            if self._thread is not None:
                return
            thread = self._thread = _LaneThread(self)
        self._threads = [t for t in self._threads if not t.isFinished()]
        self._threads.append(thread)
        thread.start()

    def next_task(self, thread: _LaneThread) -> Task[object] | None:
        """The next task for ``thread`` (on the worker thread); ``None`` ends it."""
        with self._lock:
            if self._queue:
                return self._queue.popleft()
            if self._thread is thread:
                self._thread = None
            return None

    def join(self) -> None:
        """Wait for every thread of the lane to end."""
        for thread in self._threads:
            thread.wait()
        self._threads = [t for t in self._threads if not t.isFinished()]


class TaskRunner(QObject):
    """Runs :class:`~.task.Task` objects on their lanes and keeps them until delivered."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._lanes: dict[str, _Lane] = {}
        self._pending: list[Task[object]] = []

    def run(self, task: TaskT) -> TaskT:
        """Queue ``task`` on its lane; its signals follow on the GUI thread."""
        task.setParent(self)  # kept alive until its outcome is delivered
        self._pending.append(task)
        task.finished.connect(self._forget_finished)
        lane = self._lanes.get(task.lane)
        if lane is None:
            lane = self._lanes[task.lane] = _Lane(task.lane)
        lane.submit(task)
        return task

    def _forget_finished(self) -> None:
        kept = [task for task in self._pending if not task.done]
        for task in self._pending:
            if task.done:
                task.deleteLater()
        self._pending = kept

    def pending(self, lane: str | None = None) -> list[Task[object]]:
        """Tasks queued, running or not yet delivered (of ``lane``, or all)."""
        return [t for t in self._pending if not t.done and lane in (None, t.lane)]

    def idle(self, lane: str | None = None) -> bool:
        """True when no task (of ``lane``) waits, runs or awaits delivery."""
        return not self.pending(lane)

    def cancel(self, lane: str | None = None) -> None:
        """Cancel every read (of ``lane``, or all); changes are still carried out."""
        for task in self.pending(lane):
            task.cancel()

    def drain(self) -> None:
        """Cancel every read and wait for every thread to end (changes are finished).

        Outcomes not yet delivered still arrive through the event loop.
        """
        self.cancel()
        for lane in self._lanes.values():
            lane.join()

    def shutdown(self) -> None:
        """The window is closing: :meth:`drain`, and deliver no outcome any more."""
        for task in self.pending():
            task.discard()
        self.drain()
        self._forget_finished()

    def wait_idle(self, timeout_ms: int = 120_000) -> bool:
        """Spin the event loop until every task was delivered (headless screenshot, tests).

        Returns:
            True if idle; False when ``timeout_ms`` passed first.
        """
        deadline = time.monotonic() + timeout_ms / 1000
        while not self.idle():
            if time.monotonic() > deadline:
                return False
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents, 50)
        return True


__all__ = ["TaskRunner"]
