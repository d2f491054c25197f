"""Pausing Python's cyclic garbage collector while verdicts stream in.

The consumers of the verdict stream that run it to its end pause it: ``rescore``, the
review report's sensitivity and the review index's ``insert_rows``. They allocate
millions of acyclic objects (rows, tuples, outcomes, tallies) while the stream's memo
and the scorers hold many more: each automatic collection walks all of them, and
frees nothing (reference counting frees these objects).

:func:`collector_paused` is safe to nest and to use from several threads at once
(the window builds and rescores on worker threads): the collector is paused while
any pause is open, and left as it was found when the last one ends (cycles another
thread made meanwhile wait for the collector's next run).
"""

from __future__ import annotations

import gc
import threading
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator

_lock = threading.Lock()
_pauses = [0, False]  # pauses open now, whether the collector was on before the first


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for the block (see the module docstring)."""
    with _lock:
        if _pauses[0] == 0:
            _pauses[1] = gc.isenabled()
            gc.disable()
        _pauses[0] += 1
    try:
        yield
    finally:
        with _lock:
            _pauses[0] -= 1
            if _pauses[0] == 0 and _pauses[1]:
                gc.enable()


def collect_only_when_asked() -> None:
    """Turn automatic collection off for good: the collector runs only when ``gc.collect``
    is called (the window calls it on its GUI thread:
    :mod:`ai4hse_desk.gui.workers.gui_collector`). A pause open now ends with the
    collector still off, as every later pause does."""
    with _lock:
        _pauses[1] = False
        gc.disable()


__all__ = ["collect_only_when_asked", "collector_paused"]
