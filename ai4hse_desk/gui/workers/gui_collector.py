"""Python's cyclic garbage collector, run on the GUI thread only.

A Qt object must be destroyed in the thread it lives in. The automatic collector runs
on whichever thread happens to allocate: on a task's worker thread it may free a GUI
object left in a reference cycle, and Qt then destroys it from the wrong thread (a test
run hung there: a key-audit task, collecting, waited in ``~QObject`` forever). So the
window turns automatic collection off (:func:`~ai4hse_desk.verdicts.collector.
collect_only_when_asked`) and collects on the GUI thread from a timer, as Anki does:
each tick runs the oldest generation whose count is past its threshold, as the automatic
collector would at its next allocation, and nothing when none is.
"""

from __future__ import annotations

import gc

from PySide6.QtCore import QObject, QTimer

from ai4hse_desk.verdicts.collector import collect_only_when_asked

#: How often the GUI thread looks whether a collection is due.
INTERVAL_MS = 1000


class GuiThreadCollector(QObject):
    """Owns the cyclic collector of this process: from now on it runs on this (the GUI)
    thread, every :data:`INTERVAL_MS` when a generation is due."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        collect_only_when_asked()
        self._timer = QTimer(self)
        self._timer.setInterval(INTERVAL_MS)
        self._timer.timeout.connect(self.collect_due)
        self._timer.start()

    def collect_due(self) -> int:
        """Collect the oldest due generation (as the automatic collector would); return
        it, or -1 when none is due."""
        counts, thresholds = gc.get_count(), gc.get_threshold()
        for generation in (2, 1, 0):
            if thresholds[generation] and counts[generation] > thresholds[generation]:
                gc.collect(generation)
                return generation
        return -1


__all__ = ["INTERVAL_MS", "GuiThreadCollector"]
