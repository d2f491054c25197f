"""pytest plugin of every test run under mutation (``make mutate``; never ``make test``).

``scripts/mutate.py`` has mutmut load it (``-p mutate_plugin``) into the stats run,
the clean run and each mutant's run. It makes a mutant's verdict depend on the
mutant alone:

* every memo of the code under mutation is emptied before each test, so no verdict
  computed by other code (the unmutated stats run, another test) is ever read back.
  mutmut already runs each mutant in a process forked from a server that has only
  collected the tests; this holds even if collecting a test fills a memo;
* hypothesis draws the same examples in every run (``derandomize``), keeps no
  example database and has no deadline, so neither an earlier run nor the load of
  the machine decides whether a mutant is killed;
* the quickest tests run first (by the durations of mutmut's stats run), so that a
  mutant a table test kills does not wait for the property and differential tests
  (the run stops at the first failure). Only the order changes, never the tests;
* a test gets a CPU-time budget of :data:`BUDGET_FACTOR` times its duration in the
  stats run plus :data:`BUDGET_MARGIN` seconds; past it the test process ends with
  mutmut's *timeout* code. A mutant that makes a test loop for ever is then told in
  seconds instead of at mutmut's own bound of (estimated time of every test of the
  function + 1 s) x 15 of wall time, several minutes. CPU time, so the machine's
  load does not decide; the verdict is the one mutmut gives at its bound (timeout).

A new memo in a mutated module belongs in :data:`MEMOS`;
``tests/core/test_protocol_memos.py`` fails until it is there.
"""

from __future__ import annotations

import importlib
import json
import os
import signal
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from collections.abc import Generator
    from types import FrameType

#: mutmut's record of the stats run, in the folder where it runs the tests.
STATS = Path("mutmut-stats.json")

#: A test's CPU budget: this many times its duration in the stats run …
BUDGET_FACTOR = 10
#: … plus this many seconds.
BUDGET_MARGIN = 5.0
#: mutmut's exit code for a timeout (mutmut.stats.status_by_exit_code).
TIMEOUT_EXIT = 36
#: The durations of mutmut's stats run, by test id (empty before it).
_DURATIONS: dict[str, float] = {}

#: ``(module, attribute)`` of every memo (a dict, or a function with ``cache_clear``).
MEMOS: tuple[tuple[str, str], ...] = (
    ("ai4hse_desk.protocol.compare", "_PARSED"),
    ("ai4hse_desk.protocol.lists", "STRICT_CONTENTS"),
    ("ai4hse_desk.protocol.metrics", "_PAIR_COUNTS"),
    ("ai4hse_desk.protocol.reasoning", "_FINAL_LINES"),
    ("ai4hse_desk.protocol.reasoning", "_LINE_VERDICTS"),
    ("ai4hse_desk.protocol.single_choice", "_VERDICTS"),
    ("ai4hse_desk.protocol.single_choice", "_one_hot"),
)


def clear_memos() -> None:
    """Empty every memo of :data:`MEMOS`.

    Raises:
        AttributeError: when a listed memo no longer exists (the list is stale).
    """
    for module_name, attribute in MEMOS:
        memo = getattr(importlib.import_module(module_name), attribute)
        clear = getattr(memo, "cache_clear", None)
        if clear is None:
            clear = memo.clear
        clear()


@pytest.fixture(autouse=True)
def _fresh_memos() -> None:
    clear_memos()


def pytest_configure(config: pytest.Config) -> None:  # noqa: ARG001 - pytest's hook signature
    from hypothesis import settings

    settings.register_profile("mutation", derandomize=True, database=None, deadline=None)
    settings.load_profile("mutation")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The quickest tests first; tests the stats run did not time (new ones) before all."""
    if not STATS.is_file():
        return
    durations = json.loads(STATS.read_text(encoding="utf-8")).get("duration_by_test", {})
    _DURATIONS.clear()
    _DURATIONS.update(durations)
    items.sort(key=lambda item: durations.get(item.nodeid, 0.0))


def _overrun(signum: int, frame: FrameType | None) -> None:  # noqa: ARG001 - a signal handler
    os._exit(TIMEOUT_EXIT)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    """Run the test under its CPU budget (module docstring); a new test has none."""
    duration = _DURATIONS.get(item.nodeid)
    if duration is None:
        return (yield)
    previous = signal.signal(signal.SIGPROF, _overrun)
    signal.setitimer(signal.ITIMER_PROF, BUDGET_FACTOR * duration + BUDGET_MARGIN)
    try:
        return (yield)
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, previous)
