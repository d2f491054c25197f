"""Work held for the window's next frame starts after that frame is drawn, not before."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QLabel, QMainWindow

from ai4hse_desk.gui.workers import frame_gate
from ai4hse_desk.gui.workers.frame_gate import FrameGate
from ai4hse_desk.gui.workers.runner import TaskRunner
from ai4hse_desk.gui.workers.task import QueryOp

if TYPE_CHECKING:
    import pytest
    from pytestqt.qtbot import QtBot


class _Painted(QObject):
    """Appends "painted" to ``order`` each time the watched widget is painted."""

    def __init__(self, order: list[str]) -> None:
        super().__init__()
        self._order = order

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self._order.append("painted")
        return False


def _shown(qtbot: QtBot) -> tuple[QMainWindow, QLabel]:
    window = QMainWindow()
    label = QLabel("first")
    window.setCentralWidget(label)
    qtbot.addWidget(window)
    window.resize(400, 300)
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(50)  # the first frames are drawn
    return window, label


def test_held_work_starts_once_the_frame_with_the_new_text_is_drawn(qtbot: QtBot) -> None:
    window, label = _shown(qtbot)
    order: list[str] = []
    painted = _Painted(order)
    label.installEventFilter(painted)
    gate = FrameGate(label, window)
    label.setText("the first rows")  # what the window just received, not drawn yet
    gate.after_next_frame(lambda: order.append("work"))
    assert gate.waiting == 1
    qtbot.waitUntil(lambda: "work" in order, timeout=10_000)
    # A zero timer would have run the work first: Qt draws on an update request that
    # comes a few milliseconds later.
    assert order[:2] == ["painted", "work"]
    assert gate.waiting == 0


def test_a_window_not_shown_draws_nothing_so_the_work_starts_at_once(qtbot: QtBot) -> None:
    hidden = QMainWindow()
    qtbot.addWidget(hidden)
    done: list[str] = []
    gate = FrameGate(hidden, hidden)
    gate.after_next_frame(lambda: done.append("work"))
    assert gate.waiting == 0  # not held
    qtbot.waitUntil(lambda: done == ["work"], timeout=10_000)
    unowned = FrameGate(None)
    unowned.after_next_frame(lambda: done.append("no window"))
    qtbot.waitUntil(lambda: done == ["work", "no window"], timeout=10_000)


def test_with_nothing_to_draw_the_work_still_starts(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(frame_gate, "FRAME_WAIT_MS", 100)
    window, _label = _shown(qtbot)
    done: list[str] = []
    gate = FrameGate(window, window)
    gate.after_next_frame(lambda: done.append("work"))  # nothing changed: no frame comes
    qtbot.waitUntil(lambda: done == ["work"], timeout=10_000)


def test_the_runners_after_paint_task_runs_after_the_frame_it_waited_for(
    qtbot: QtBot,
) -> None:
    window, label = _shown(qtbot)
    tasks = TaskRunner(window)
    order: list[str] = []
    lock = threading.Lock()
    painted = _Painted(order)
    label.installEventFilter(painted)

    def work(_progress: object) -> str:
        with lock:
            order.append("work")
        return "done"

    tasks.run(QueryOp(lambda _progress: None, lane="notes", name="warm-up"))
    assert tasks.wait_idle(5000)  # the lane's thread runs: a task submitted starts at once
    label.setText("the first rows")
    task = tasks.run(QueryOp(work, lane="notes", name="after the rows"), after_paint=True)
    assert not tasks.idle()  # pending from the start
    assert tasks.wait_idle(5000)
    assert task.done
    with lock:
        assert order[:2] == ["painted", "work"]
    # What is said about such a task (the full-text build's "building") waits for the
    # same frame: the runner's own after_paint.
    label.setText("more rows")
    tasks.after_paint(lambda: order.append("said"))
    qtbot.waitUntil(lambda: "said" in order, timeout=10_000)
    assert order[2:] == ["painted", "said"]
    tasks.shutdown()


def test_work_held_after_a_frame_began_waits_for_the_next_frame(qtbot: QtBot) -> None:
    window, label = _shown(qtbot)
    order: list[str] = []
    painted = _Painted(order)
    label.installEventFilter(painted)
    gate = FrameGate(label, window)

    def boom() -> None:
        raise ValueError("one callback raising")

    def second() -> None:  # new content and work after the first frame, before its release
        label.setText("second content")
        order.append("second held")
        gate.after_next_frame(lambda: order.append("second work"))

    label.setText("first content")
    gate.after_next_frame(boom)
    gate.after_next_frame(lambda: order.append("first work"))
    gate.after_next_frame(second)
    with qtbot.captureExceptions() as raised:
        qtbot.waitUntil(lambda: "second work" in order, timeout=10_000)
    assert [str(exc) for _type, exc, _tb in raised] == ["one callback raising"]
    assert order[:2] == ["painted", "first work"]  # the raising callback stopped no other
    assert order[order.index("second held") :][:3] == ["second held", "painted", "second work"]
