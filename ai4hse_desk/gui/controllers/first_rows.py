"""When a starting window builds the rest of itself: once its first rows are drawn.

A start shows the attempt list first (:class:`~ai4hse_desk.gui.main_window.MainWindow`
with ``rest_after_first_rows``); the selected attempt's panels, the other pages, the
notes and the menus' entries follow. :class:`FirstRows` decides when: after the frame
drawn once the list has settled, that is once

* the file's review index is ready (its first rows are in the list), or
* the index has to be built (progress comes: the rows will take a while), or
* the opening ended without a file (it failed, was cancelled, or no file was given:
  :meth:`FirstRows.settle`),

and at the latest :data:`REST_WAIT_MS` after it was made (a fingerprint of a very large
file still being read, say), so the menus never wait long.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

if TYPE_CHECKING:
    from collections.abc import Callable

    from ai4hse_desk.gui.controllers.opening import OpeningController
    from ai4hse_desk.gui.workers.runner import TaskRunner

#: Longest wait (milliseconds) for the list to settle before the rest is built anyway.
REST_WAIT_MS = 1000


class FirstRows(QObject):
    """Calls ``build`` once, after the frame drawn when the list has settled.

    Args:
        parent: the owner (the window).
        opening: the window's opening controller (its signals tell the list's state).
        tasks: the window's task runner (its frame gate holds ``build`` for the frame).
        build: what to call (the window's ``build_rest``).
    """

    def __init__(
        self,
        parent: QObject,
        opening: OpeningController,
        tasks: TaskRunner,
        build: Callable[[], None],
    ) -> None:
        super().__init__(parent)
        self._opening = opening
        self._tasks = tasks
        self._build = build
        self._settled = False
        self._cancelled = False
        opening.index_ready.connect(self.settle)
        opening.index_progress.connect(self.settle)
        opening.session_changed.connect(self._session_changed)
        self._latest = QTimer(self)
        self._latest.setSingleShot(True)
        self._latest.timeout.connect(self._build_now)
        self._latest.start(REST_WAIT_MS)

    def settle(self, *_args: object) -> None:
        """The list has settled: build the rest once the next frame is drawn."""
        if self._stop_waiting():
            self._tasks.after_paint(self._build_unless_cancelled)

    def cancel(self) -> None:
        """The window is closing: build nothing (a build held for the frame is dropped)."""
        self._stop_waiting()
        self._cancelled = True

    def _session_changed(self, session: object) -> None:
        if session is None:  # the opening failed or was cancelled: no rows will come
            self.settle()

    def _build_now(self) -> None:
        if self._stop_waiting():
            self._build()

    def _build_unless_cancelled(self) -> None:
        if not self._cancelled:
            self._build()

    def _stop_waiting(self) -> bool:
        """Stop watching the list and the clock; False if that was done already."""
        if self._settled:
            return False
        self._settled = True
        self._latest.stop()
        self._disconnect()
        return True

    def _disconnect(self) -> None:
        opening = self._opening
        opening.index_ready.disconnect(self.settle)
        opening.index_progress.disconnect(self.settle)
        opening.session_changed.disconnect(self._session_changed)


__all__ = ["REST_WAIT_MS", "FirstRows"]
