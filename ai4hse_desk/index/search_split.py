"""A search's statement run over two halves of the attempt ids at once.

Resolving a search that matches many responses is almost all SQLite reading those
responses (a third of the realistic 1M file: 315,000 texts, about 0.45 s), which it
does without Python's GIL. On a machine with two CPUs and a large index, the ids are
split in two at their midpoint: this thread reads one half while a thread beside it
(one per index, started on first use) reads the other on its own connection, and
the two answers are joined in id order. A small index, or one CPU, runs one
statement, as before. Both halves use the same statement, so the answer is the same.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from ai4hse_desk.audit.rescore_scan import id_bounds_sql
from ai4hse_desk.verdicts import machine

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from concurrent.futures import ThreadPoolExecutor

    Run = Callable[[str, Sequence[Any]], list[Any]]

#: Attempt ids an index must span before a search is split.
SPLIT_SPAN = 100_000


class SplitRun:
    """Runs a statement with an ``attempt_id`` range over one or two ranges.

    Args:
        run: executes one statement on the calling thread's own connection.
        span: the least span of attempt ids that is split (default :data:`SPLIT_SPAN`).
    """

    def __init__(self, run: Run, span: int | None = None) -> None:
        self._run = run
        self._span = span
        self._lock = threading.Lock()
        self._beside: ThreadPoolExecutor | None = None
        self._bounds: tuple[int, int] | None = None

    def ranges(self) -> list[tuple[int, int]]:
        """The id ranges one statement each: the whole span, or its two halves."""
        if self._bounds is None:
            low, high = self._run(id_bounds_sql("rows"), ())[0]
            self._bounds = (int(low or 0), int(high or 0))
        low, high = self._bounds
        span = SPLIT_SPAN if self._span is None else self._span
        if high - low < span or machine.usable_cpus() < 2:
            return [(low, high)]
        middle = low + (high - low) // 2
        return [(low, middle), (middle + 1, high)]

    def rows(self, sql: str, params: Callable[[int, int], Sequence[Any]]) -> list[list[Any]]:
        """Each range's rows of ``sql`` (``params(low, high)`` binds its range), in
        range order; the first on this thread, the second beside it."""
        ranges = self.ranges()
        if len(ranges) == 1:
            return [self._run(sql, params(*ranges[0]))]
        from concurrent.futures import ThreadPoolExecutor, wait  # (not at the window's start)

        with self._lock:
            if self._beside is None:
                self._beside = ThreadPoolExecutor(1, thread_name_prefix="ai4hse-search")
            beside = self._beside
        second = beside.submit(self._run, sql, params(*ranges[1]))
        try:
            first = self._run(sql, params(*ranges[0]))
        except BaseException:
            wait([second])  # never left reading; the first half's problem is the one raised
            raise
        return [first, second.result()]

    def close(self) -> None:
        """End the thread beside (its connection is closed with the index's)."""
        with self._lock:
            beside, self._beside = self._beside, None
        if beside is not None:
            beside.shutdown(wait=True)


__all__ = ["SPLIT_SPAN", "SplitRun"]
