"""Hold work until the window has drawn its next frame.

A zero timer is not enough for "once the window has drawn what it just received":
Qt draws a window on an update request that comes after it (a low-priority posted
event, or the platform's frame timer), so a zero timer's work starts *before* that
frame. Work started then on a worker thread (the full-text build, the notes store's
first read, which imports SQLAlchemy) holds the interpreter while the window draws,
and every Python call the frame makes (the list's cells, the panels' size hints)
waits its turn for it: on the demo, the first rows took 100-300 ms longer to appear.

:class:`FrameGate` watches the top-level window's update requests: the first one
after :meth:`FrameGate.after_next_frame` draws the frame, and the zero timers posted
from it (one per callback held until then) run once that frame is drawn; a callback
held after that update request waits for the next one. A window that is not shown
draws nothing, so the work is started at once (from a zero timer); a window shown
but not yet exposed waits for its first frame; should no frame come, the work is
started after :data:`FRAME_WAIT_MS` anyway.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QTimer
from shiboken6 import isValid

if TYPE_CHECKING:
    from collections.abc import Callable

    from PySide6.QtGui import QWindow
    from PySide6.QtWidgets import QWidget

#: Longest wait for a frame (milliseconds): nothing to draw, a window behind others.
FRAME_WAIT_MS = 250


class FrameGate(QObject):
    """Starts callbacks once the window of ``widget`` has drawn its next frame.

    Args:
        widget: any widget of the window (``None``: there is no window to wait for).
        parent: the gate's owner.
    """

    def __init__(self, widget: QWidget | None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._widget = widget
        self._waiting: list[Callable[[], None]] = []
        self._watched: tuple[QWidget, QWindow | None] | None = None
        self._fallback = QTimer(self)
        self._fallback.setSingleShot(True)
        self._fallback.timeout.connect(self._release)

    def after_next_frame(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (on this thread) once the window's next frame is drawn."""
        window = self._shown_window()
        if window is None:
            QTimer.singleShot(0, self, callback)  # nothing will be drawn
            return
        self._waiting.append(callback)
        if self._watched is None:
            handle = window.windowHandle()
            self._watched = (window, handle)
            window.installEventFilter(self)
            if handle is not None:
                handle.installEventFilter(self)
            self._fallback.start(FRAME_WAIT_MS)

    @property
    def waiting(self) -> int:
        """Callbacks held for the next frame."""
        return len(self._waiting)

    def _shown_window(self) -> QWidget | None:
        widget = self._widget
        if widget is None:
            return None
        window = widget.window()
        # Shown but not exposed yet (its first frame still to come, as on X11 right
        # after show()): the work waits for that frame, or the fallback, too.
        return window if window.isVisible() else None

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.UpdateRequest and self._watched is not None:
            self._release()  # its zero timers run once this frame is drawn
        return False

    def _unwatch(self) -> None:
        if self._watched is not None:
            window, handle = self._watched
            self._watched = None
            for watched in (window, handle):
                if watched is not None and isValid(watched):  # a QWindow may be gone
                    watched.removeEventFilter(self)

    def _release(self) -> None:
        """Post each callback held now on a zero timer of its own (one raising stops
        no other; one held after this stays for the next frame)."""
        self._fallback.stop()
        self._unwatch()
        callbacks, self._waiting = self._waiting, []
        for callback in callbacks:
            QTimer.singleShot(0, self, callback)


__all__ = ["FRAME_WAIT_MS", "FrameGate"]
