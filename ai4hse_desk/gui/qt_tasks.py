"""Background work for the window: one QThread per task, with progress and cancel.

Database work that may take long (building the review index, the full-text
index, rescoring) runs here, never on the GUI thread. A task is a plain
function ``fn(progress) -> result`` where ``progress(done, total) -> bool``
reports and returns False once the user cancelled (Anki's ``QueryOp`` idea).
Whatever the function raises comes back as ``failed`` with one line of text,
never as an exception inside the thread.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal

from ai4hse_desk.gui.qt_guard import problem_text
from ai4hse_desk.progress import Progress

TaskFn = Callable[[Progress], Any]


class QtTask(QObject):
    """Runs ``fn`` in its own QThread; signals come back on the GUI thread."""

    progress = Signal(int, int)
    succeeded = Signal(object)
    failed = Signal(str)
    cancelled = Signal()
    finished = Signal()

    def __init__(self, fn: TaskFn, name: str, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name
        self._fn = fn
        self._cancel = threading.Event()
        self._thread = _Runner(self)

    def start(self) -> None:
        """Start the work in the background."""
        self._thread.start()

    def cancel(self) -> None:
        """Ask the work to stop at its next progress report."""
        self._cancel.set()

    def is_running(self) -> bool:
        """True while the thread runs."""
        return self._thread.isRunning()

    def wait(self, msecs: int = 60_000) -> bool:
        """Block until the thread ends (tests, shutdown); True if it did."""
        return self._thread.wait(msecs)

    def _report(self, done: int, total: int) -> bool:
        self.progress.emit(done, total)
        return not self._cancel.is_set()

    def _run(self) -> None:
        try:
            result = self._fn(self._report)
        except BaseException as exc:  # nothing may escape into QThread::run
            if self._cancel.is_set():
                self.cancelled.emit()
            else:
                self.failed.emit(_message(exc))
        else:
            if self._cancel.is_set():
                self.cancelled.emit()
            else:
                self.succeeded.emit(result)
        finally:
            self.finished.emit()


def _message(exc: BaseException) -> str:
    """The one line ``failed`` carries (the error may quote the file: shown as plain text)."""
    try:
        return problem_text(exc)
    except Exception:  # a message that cannot even be turned into text
        return type(exc).__name__


class _Runner(QThread):
    def __init__(self, task: QtTask) -> None:
        super().__init__()
        self._task = task

    def run(self) -> None:
        # A Python exception escaping a QThread's run() goes to shiboken's override
        # error handler on a worker thread; _run reports every one as ``failed``.
        self._task._run()
