"""One background call of the window: a read (:class:`QueryOp`) or a change (:class:`CollectionOp`).

Anki's split: a :class:`QueryOp` only reads (the review index, the audit file,
the notes store) and may be cancelled or dropped once nobody wants its answer; a
:class:`CollectionOp` changes the notes store and, once asked for, is carried
out (cancelling it does nothing, and closing the window waits for it).

A task wraps a plain function. :class:`~.runner.TaskRunner` calls it on the
worker thread of the task's *lane*; what it returns, the one line of plain text
it failed with, or its cancellation comes back as a signal emitted on the GUI
thread, so every slot (a lambda included) runs there. Nothing the function
raises escapes into Qt.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, ClassVar, Generic, TypeVar

from PySide6.QtCore import QObject, Qt, Signal

from ai4hse_desk.gui.qt_guard import problem_text

if TYPE_CHECKING:
    from collections.abc import Callable

    from ai4hse_desk.progress import Progress

T = TypeVar("T", covariant=True)

_SUCCEEDED, _FAILED, _CANCELLED = "succeeded", "failed", "cancelled"


def failure_text(exc: BaseException) -> str:
    """The one line ``failed`` carries (it may quote the file: shown as plain text)."""
    return problem_text(exc)


class Task(QObject, Generic[T]):
    """A function run on a worker thread; its outcome comes back as signals.

    Signals (all emitted on the GUI thread):
        progress: (done, total) as the function reports it.
        succeeded: the function's result.
        failed: one line of plain text.
        cancelled: the task was cancelled before or while it ran.
        finished: after any of the three above.
    """

    progress = Signal(int, int)
    succeeded = Signal(object)
    failed = Signal(str)
    cancelled = Signal()
    finished = Signal()
    # From the worker thread, always queued to the thread this object lives in.
    _reported = Signal(int, int)
    _ended = Signal(str, object)

    #: False for changes: once asked for, they are carried out.
    cancellable: ClassVar[bool] = True

    def __init__(
        self,
        fn: Callable[[Progress], T],
        *,
        lane: str,
        name: str = "",
        explain: Callable[[BaseException], str] = failure_text,
        parent: QObject | None = None,
    ) -> None:
        """Wrap ``fn(progress) -> result``.

        Args:
            fn: the work; ``progress(done, total)`` returns False once cancelled.
            lane: the worker thread it runs on (tasks of one lane run in order).
            name: what it is, for messages and tests (default: the lane).
            explain: turns what ``fn`` raised into the line ``failed`` carries.
        """
        super().__init__(parent)
        self.lane = lane
        self.name = name or lane
        self._fn = fn
        self._explain = explain
        self._cancel = threading.Event()
        self._delivered = False
        self._reported.connect(self.progress, Qt.ConnectionType.QueuedConnection)
        self._ended.connect(self._deliver, Qt.ConnectionType.QueuedConnection)

    # -- the GUI thread's side ------------------------------------------------------------

    def cancel(self) -> None:
        """Ask the work to stop at its next progress report (a queued task never starts).

        Does nothing for a change (:class:`CollectionOp`).
        """
        if self.cancellable:
            self._cancel.set()

    @property
    def is_cancelled(self) -> bool:
        """True once :meth:`cancel` took effect."""
        return self._cancel.is_set()

    @property
    def done(self) -> bool:
        """True once its outcome was delivered (or dropped, see :meth:`discard`)."""
        return self._delivered

    def discard(self) -> None:
        """Deliver nothing any more (the window is closing): no signal follows."""
        self._delivered = True
        self.cancel()

    def _deliver(self, kind: str, value: object) -> None:
        if self._delivered:
            return
        self._delivered = True
        if self._cancel.is_set():  # cancelled after it ended: nobody wants the answer now
            kind = _CANCELLED
        if kind == _SUCCEEDED:
            self.succeeded.emit(value)
        elif kind == _FAILED:
            self.failed.emit(str(value))
        else:
            self.cancelled.emit()
        self.finished.emit()

    # -- the worker thread's side ---------------------------------------------------------

    def _report(self, done: int, total: int) -> bool:
        self._reported.emit(done, total)
        return not self._cancel.is_set()

    def execute(self) -> None:
        """Run the function (on a worker thread); never raises."""
        if self._cancel.is_set():
            self._ended.emit(_CANCELLED, None)
            return
        try:
            result = self._fn(self._report)
        # The thread's boundary: whatever the work raises becomes ``failed``.
        except BaseException as exc:  # noqa: BLE001
            outcome: tuple[str, object] = (
                (_CANCELLED, None) if self._cancel.is_set() else (_FAILED, self._describe(exc))
            )
        else:
            outcome = (_CANCELLED, None) if self._cancel.is_set() else (_SUCCEEDED, result)
        self._ended.emit(*outcome)

    def _describe(self, exc: BaseException) -> str:
        try:
            return self._explain(exc)
        except Exception:  # noqa: BLE001 - an error whose message cannot even be read
            return type(exc).__name__


class QueryOp(Task[T]):
    """A read: the review index, the audit file or the notes store, never changed."""


class CollectionOp(Task[T]):
    """A change to the notes store: carried out once asked for, never cancelled."""

    cancellable: ClassVar[bool] = False


__all__ = ["CollectionOp", "QueryOp", "Task", "failure_text"]
