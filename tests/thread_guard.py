"""A test must not leave a Python thread running (napari's dangling-thread guard).

``tests/conftest.py`` wraps every test, and every test module (for module-scoped
fixtures), in :func:`no_new_threads`. A thread that has finished its work but not
yet returned is given a short grace to end; one still alive after it fails the
test, named. The audit value check is such a thread: ``AuditDB.close()`` cancels
and joins it, so a test that opens an audit database must close it.
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from collections.abc import Iterator

#: Seconds a new thread may take to end after the test: generous, as a busy machine may
#: not schedule it for a while (a thread that ends at once costs nothing).
GRACE = 10.0


def running_threads_started_after(before: set[threading.Thread], grace: float) -> list[str]:
    """Names of threads not in ``before`` still alive after joining each up to ``grace`` s."""
    deadline = time.monotonic() + grace
    left: list[str] = []
    for thread in threading.enumerate():
        if thread in before or thread is threading.current_thread():
            continue
        if isinstance(thread, threading._DummyThread):
            # A thread Python did not start (a QThread that asked for current_thread()):
            # it cannot be joined here; the GUI tests' QThread guard watches those.
            continue
        thread.join(max(0.0, deadline - time.monotonic()))
        if thread.is_alive():
            left.append(thread.name)
    return left


@contextlib.contextmanager
def no_new_threads(where: str, grace: float = GRACE) -> Iterator[None]:
    """Fail (``pytest.fail``) if a thread started inside the block outlives it."""
    before = set(threading.enumerate())
    yield
    left = running_threads_started_after(before, grace)
    if left:
        pytest.fail(
            f"{where} left {len(left)} thread(s) running: {', '.join(sorted(left))}",
            pytrace=False,
        )
