"""The counts line's per-status part, counted off the GUI thread.

Counting every status of a broad filter (half a million attempts) takes longer
than showing the first rows, so the list appears first and the per-status
counts follow; a newer filter makes an older count's answer moot. One worker
thread serves every count, so the review index keeps one extra connection.
"""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor

from PySide6.QtCore import QObject, Signal

from ai4hse_desk.index import AttemptQuery, ReviewIndex


class StatusCounter(QObject):
    """Counts attempts per desk status for the latest query only."""

    counted = Signal(object, object)  # query, {status: count}
    _finished = Signal(object, object)  # from the worker thread, queued to this one

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="status-counts")
        self._pending: list[Future[None]] = []
        self._latest: AttemptQuery | None = None
        self._finished.connect(self._done)

    def request(self, index: ReviewIndex, query: AttemptQuery) -> None:
        """Count ``query``'s attempts per status; ``counted`` follows unless superseded."""
        self._latest = query
        self._pending = [f for f in self._pending if not f.done()]

        def work() -> None:
            if query != self._latest:
                return  # superseded while queued
            try:
                counts = index.count_by_status(query)
            except Exception:  # a closed index or an interrupted query: no counts
                return
            self._finished.emit(query, counts)

        self._pending.append(self._pool.submit(work))

    def _done(self, query: AttemptQuery, counts: dict[str, int]) -> None:
        if query == self._latest:
            self.counted.emit(query, counts)

    def wait(self) -> None:
        """Let the queued counts finish and forget their answers (a new file, shutdown)."""
        self._latest = None
        for future in self._pending:
            future.result()
        self._pending.clear()

    def busy(self) -> bool:
        """True while a count is queued or runs."""
        return any(not f.done() for f in self._pending)

    def shutdown(self) -> None:
        """Stop the worker thread (the window is closing)."""
        self.wait()
        self._pool.shutdown(wait=True)
