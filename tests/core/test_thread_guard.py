"""The dangling-thread guard of ``tests/conftest.py`` fails a test that leaves a thread running."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.audit import open_audit
from tests.thread_guard import no_new_threads

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path


def test_a_thread_left_running_fails() -> None:
    stop = threading.Event()
    leaky = threading.Thread(target=stop.wait, name="leaky-worker")

    def leave_it_running() -> None:
        with no_new_threads("this block", grace=0.05):
            leaky.start()

    try:
        with pytest.raises(pytest.fail.Exception, match=r"left 1 thread.*leaky-worker"):
            leave_it_running()
    finally:
        stop.set()
        leaky.join()


def test_a_thread_that_ends_within_the_grace_passes() -> None:
    done = threading.Event()
    with no_new_threads("this block", grace=5.0):
        threading.Thread(target=done.set, name="quick").start()
    assert done.is_set()


def test_closing_an_audit_database_ends_its_value_check(
    make_audit_db: Callable[..., Path],
) -> None:
    """The check runs on a daemon thread; ``close()`` cancels and joins it."""
    path = make_audit_db(extra_questions=400)
    with no_new_threads("open, check, close", grace=0.0):
        db = open_audit(path)
        db.start_attempts_check()
        db.close()
