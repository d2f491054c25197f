"""The cyclic garbage collector runs on the GUI thread only, never on a task's thread.

A worker thread that allocates would otherwise run it, and a Qt object freed there is
destroyed from the wrong thread (a test run once hung for good in ``~QObject``).
"""

from __future__ import annotations

import gc
import threading
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pytestqt.qtbot import QtBot

    from ai4hse_desk.gui.workers.gui_collector import GuiThreadCollector


class _Cycle:
    """An object that only the cyclic collector can free; says on which thread it was."""

    def __init__(self, freed: list[int]) -> None:
        self.me = self
        self.freed = freed

    def __del__(self) -> None:
        self.freed.append(threading.get_ident())


@pytest.mark.usefixtures("gui_thread_collector")
def test_garbage_made_anywhere_is_collected_on_the_gui_thread(qtbot: QtBot) -> None:
    assert not gc.isenabled()  # no automatic collection, on any thread
    gc.collect()
    freed: list[int] = []
    kept: list[object] = []

    def allocate() -> None:  # far past the threshold at which Python would collect
        _Cycle(freed)
        kept.extend([] for _ in range(20 * gc.get_threshold()[0]))

    worker = threading.Thread(target=allocate)
    worker.start()
    worker.join()
    assert freed == []  # not on the worker thread

    def collected() -> bool:
        # Keep allocating while waiting: a collection is due only while allocations
        # outnumber deallocations by the threshold, and another test's thread freeing
        # its objects meanwhile must not leave the timer nothing to do.
        kept.extend([] for _ in range(gc.get_threshold()[0]))
        return bool(freed)

    qtbot.waitUntil(collected, timeout=10_000)  # the GUI thread's timer
    assert freed == [threading.get_ident()]


def test_a_tick_collects_only_a_generation_that_is_due(
    gui_thread_collector: GuiThreadCollector,
) -> None:
    gc.collect()
    assert gui_thread_collector.collect_due() == -1
    kept: list[list[object]] = [[] for _ in range(2 * gc.get_threshold()[0])]
    assert gui_thread_collector.collect_due() >= 0
    assert gc.get_count()[0] < gc.get_threshold()[0]
    del kept
