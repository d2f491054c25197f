"""The window's one task mechanism: every background read and change goes through here.

Work is grouped in *lanes* (``"index"``, ``"list"``, ``"notes"``, ``"scores"`` …):
the tasks of a lane run one after another on that lane's worker thread, in the
order given, so a notes change and the re-read that follows it never overtake
each other. A lane's thread starts with its first task and waits for the next
one until the window closes (:meth:`TaskRunner.shutdown` ends every lane): the
review index keeps one SQLite connection per thread, so a lane reuses its own.

The GUI thread never waits for a task, except :meth:`TaskRunner.drain` (the
old file's work is cancelled, then waited for, before that file is closed) and
:meth:`TaskRunner.wait_idle` (headless screenshots and tests, which spin the
event loop until every outcome was delivered).
"""

from __future__ import annotations

import atexit
import threading
import time
from collections import deque
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, QThread, QTimer
from PySide6.QtWidgets import QWidget

from ai4hse_desk.gui.workers.frame_gate import FrameGate
from ai4hse_desk.gui.workers.task import Task

if TYPE_CHECKING:
    from collections.abc import Callable

T = TypeVar("T")
TaskT = TypeVar("TaskT", bound=Task[object])

#: Every lane whose thread runs: a QThread destroyed while it runs aborts the process, so
#: a lane whose runner was dropped without ``shutdown`` is stopped when Python exits.
_RUNNING: set[_Lane] = set()


class _LaneThread(QThread):
    """Runs a lane's tasks, one after another, until the lane stops."""

    def __init__(self, lane: _Lane) -> None:
        super().__init__()
        self.setObjectName(f"ai4hse-{lane.name}")
        self._lane = lane

    def run(self) -> None:
        while (task := self._lane.next_task()) is not None:
            task.execute()  # never raises


class _Lane:
    """The queue of one lane and its worker thread."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._queue: deque[Task[object]] = deque()
        self._changed = threading.Condition()
        self._running = False  # the thread is executing a task
        self._stopping = False
        self._thread: _LaneThread | None = None

    def submit(self, task: Task[object]) -> None:
        """Queue ``task`` (the lane's thread starts with its first task)."""
        with self._changed:
            self._queue.append(task)
            self._changed.notify_all()
            thread = None
            if self._thread is None:
                self._stopping = False
                thread = self._thread = _LaneThread(self)
        if thread is not None:
            _RUNNING.add(self)
            thread.start()

    def next_task(self) -> Task[object] | None:
        """The next task (on the worker thread; waits for one); ``None`` ends the thread."""
        with self._changed:
            self._running = False
            self._changed.notify_all()
            while not self._queue and not self._stopping:
                self._changed.wait()
            if not self._queue:
                return None
            self._running = True
            return self._queue.popleft()

    def wait_idle(self) -> None:
        """Wait until every queued task has run (its outcome may not be delivered yet)."""
        with self._changed:
            while self._queue or self._running:
                self._changed.wait()

    def stop(self) -> None:
        """End the lane's thread once its queue is empty, and wait for it."""
        with self._changed:
            self._stopping = True
            self._changed.notify_all()
            thread, self._thread = self._thread, None
        if thread is not None:
            thread.wait()
        _RUNNING.discard(self)


@atexit.register
def _stop_every_lane() -> None:
    for lane in list(_RUNNING):
        lane.stop()


#: How often (ms) :meth:`TaskRunner.wait_idle` wakes to look at its deadline.
_TICK_MS = 50


class TaskRunner(QObject):
    """Runs :class:`~.task.Task` objects on their lanes and keeps them until delivered."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._lanes: dict[str, _Lane] = {}
        self._pending: list[Task[object]] = []
        self._closed = False  # shut down: a task queued after the paint is not started
        # ``after_paint`` tasks wait for the next frame of the window the runner belongs to.
        self._frames = FrameGate(parent if isinstance(parent, QWidget) else None, self)
        app = QCoreApplication.instance()
        if app is not None:  # quitting without closing the window still ends the lanes
            app.aboutToQuit.connect(self.shutdown)

    def run(self, task: TaskT, *, after_paint: bool = False) -> TaskT:
        """Queue ``task`` on its lane; its signals follow on the GUI thread.

        Args:
            after_paint: queue it once the window (the runner's parent) has drawn its
                next frame (:class:`~.frame_gate.FrameGate`): work that must not hold the
                interpreter while the window draws what it just received. A runner whose
                parent is no widget has no frame to wait for: the task is queued from a
                zero timer. It counts as pending from now on (:meth:`wait_idle` waits
                for it).
        """
        task.setParent(self)  # kept alive until its outcome is delivered
        self._pending.append(task)
        task.finished.connect(self._forget_finished)
        if after_paint:
            self.after_paint(lambda: self._submit(task))
        else:
            self._submit(task)
        return task

    def after_paint(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (on the GUI thread) when a task queued ``after_paint`` now
        would be queued: once the window has drawn its next frame."""
        self._frames.after_next_frame(callback)

    def _submit(self, task: Task[object]) -> None:
        if task.done or self._closed:  # discarded: the window closed meanwhile
            return
        lane = self._lanes.get(task.lane)
        if lane is None:
            lane = self._lanes[task.lane] = _Lane(task.lane)
        lane.submit(task)

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
        """Cancel every read and wait until no task runs any more (changes are finished).

        Outcomes not yet delivered still arrive through the event loop (a
        cancelled read's as ``cancelled``).
        """
        self.cancel()
        for lane in self._lanes.values():
            lane.wait_idle()

    def shutdown(self) -> None:
        """The window is closing: deliver no outcome any more, and end every lane's thread."""
        self._closed = True
        for task in self.pending():
            task.discard()
        self.drain()
        for lane in self._lanes.values():
            lane.stop()
        self._forget_finished()

    def wait_idle(self, timeout_ms: int = 120_000) -> bool:
        """Run the event loop until every task was delivered (headless screenshot, tests).

        Each turn sleeps until an event comes (a task's outcome, or the clock's tick
        every :data:`_TICK_MS`). ``processEvents`` with a time limit returns at once
        when nothing is pending: looping on it kept this thread busy, and the GIL it
        took on every turn made a 1M-attempt index build on a lane 4x slower.

        Returns:
            True if idle; False when ``timeout_ms`` passed first.
        """
        deadline = time.monotonic() + timeout_ms / 1000
        tick = QTimer()
        tick.start(_TICK_MS)  # wakes the wait below to look at the clock
        try:
            while not self.idle():
                if time.monotonic() > deadline:
                    return False
                QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
        finally:
            tick.stop()
        return True


__all__ = ["TaskRunner"]
