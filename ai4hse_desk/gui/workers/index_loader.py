"""Prepares the review index of an opened audit database, off the GUI thread.

First the file's fingerprint (its sha256, which names its cached indexes) is read,
with progress in bytes; then, in the same task, stage 1 (the desk's verdicts) is found
in the cache or built with progress; both cancellable (the file is then not opened).
A file of at most :data:`QUICK_BYTES` is read here instead, on the GUI thread (a few
milliseconds), and its cached stage 1, when there is one, is ready before ``load``
returns: the window's next frame already holds its rows.
Stage 2 (the full-text index) is then built, cancellable and restartable, while plain
searching already works. All run on the ``"index"`` lane of the window's
:class:`~.runner.TaskRunner`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from ai4hse_desk.gui.workers.task import QueryOp
from ai4hse_desk.index import ReviewIndex, build_fts, ensure_index, fts_ready, open_index

if TYPE_CHECKING:
    from ai4hse_desk.audit import AuditDB
    from ai4hse_desk.gui.workers.runner import TaskRunner
    from ai4hse_desk.progress import Progress

LANE = "index"
REVIEW_INDEX = "review index"
FULL_TEXT = "full-text index"
#: Largest file whose fingerprint and cached review index are read on the GUI thread
#: (its sha256 takes well under a frame); a larger one is read by a task, with progress.
QUICK_BYTES = 8 * 1024 * 1024


class IndexLoader(QObject):
    """Finds or builds the review index and the full-text index of one database.

    Signals:
        reading_progress: (bytes read, file size) of the fingerprint.
        index_progress: (done, total) of stage 1.
        index_ready: the :class:`~ai4hse_desk.index.ReviewIndex` (the receiver owns it).
        index_cancelled: stage 1 was cancelled (:meth:`cancel_index`): there is no index.
        fts_state: (``"building"``, ``"ready"`` or ``"stopped"``, done, total).
        failed: why stage 1 failed (one line): there is no review index.
        fts_failed: why stage 2 failed (one line): plain search keeps working.
    """

    reading_progress = Signal(int, int)
    index_progress = Signal(int, int)
    _reading = Signal(int, int, int)  # (load, done, total), from the worker thread
    index_ready = Signal(object)
    index_cancelled = Signal()
    fts_state = Signal(str, int, int)
    failed = Signal(str)
    fts_failed = Signal(str)

    def __init__(
        self, tasks: TaskRunner, parent: QObject | None = None, *, workers: int | None = None
    ) -> None:
        """``workers``: processes that build a review index (None: by the file's size)."""
        super().__init__(parent)
        self._tasks = tasks
        self._workers = workers
        self._generation = 0
        #: The database whose index is ready (a full-text build can then restart).
        self._db: AuditDB | None = None
        self._reading.connect(self._read_so_far)

    def _read_so_far(self, generation: int, done: int, total: int) -> None:
        if generation == self._generation:
            self.reading_progress.emit(done, total)

    def load(self, db: AuditDB, *, full_text: bool = True) -> None:
        """Start preparing ``db``'s index (a load before it is forgotten).

        Args:
            full_text: build the full-text index afterwards (headless renders do not).
        """
        self.stop()
        generation = self._generation
        cached = self._cached_at_once(db)
        if cached is not None:
            self._built(cached, db, generation, full_text)
            return

        def build(progress: Progress) -> ReviewIndex:
            def reading(done: int, total: int) -> bool:
                self._reading.emit(generation, done, total)  # (queued to the GUI thread)
                return not task.is_cancelled

            db.fingerprint(progress=reading)  # (at once when it is known)
            return ensure_index(db, progress=progress, workers=self._workers)

        # One task, so nothing waits for a turn of the event loop between the two steps.
        task: QueryOp[ReviewIndex] = QueryOp(build, lane=LANE, name=REVIEW_INDEX)
        self._tasks.run(task)
        task.progress.connect(self.index_progress)
        task.failed.connect(lambda message: self._failed(message, generation))
        task.cancelled.connect(lambda: self._index_cancelled(generation))
        task.succeeded.connect(lambda index: self._built(index, db, generation, full_text))

    @staticmethod
    def _cached_at_once(db: AuditDB) -> ReviewIndex | None:
        """A small file's cached review index, read here; ``None`` for a large file, one
        with no current index, or any problem (the task then meets it and says why)."""
        try:
            if db.path.stat().st_size > QUICK_BYTES:
                return None
            return open_index(db)
        except Exception:  # noqa: BLE001 - reported by the task, which reads it again
            return None

    def _failed(self, message: str, generation: int) -> None:
        if generation == self._generation:
            self.failed.emit(message)

    def _index_cancelled(self, generation: int) -> None:
        if generation == self._generation:
            self.index_cancelled.emit()

    def _built(self, index: ReviewIndex, db: AuditDB, generation: int, full_text: bool) -> None:
        if generation != self._generation:
            index.close()
            return
        self._db = db
        self.index_ready.emit(index)
        if fts_ready(db):
            self.fts_state.emit("ready", 0, 0)
            return
        if not full_text:
            self.fts_state.emit("stopped", 0, 0)
            return
        self._build_fts(db, generation)

    def restart_fts(self) -> bool:
        """Build the full-text index again after it stopped (cancelled or failed);
        False when there is no ready review index, or a build runs already."""
        db = self._db
        if db is None or any(t.name == FULL_TEXT for t in self._tasks.pending(LANE)):
            return False
        if fts_ready(db):
            self.fts_state.emit("ready", 0, 0)
            return True
        self._build_fts(db, self._generation)
        return True

    def _build_fts(self, db: AuditDB, generation: int) -> None:
        def build(progress: Progress) -> object:
            return build_fts(db, progress=progress)

        # Queued once the first rows are drawn (the build keeps a core busy for a while),
        # and said then: the search bar's progress is laid out after the rows' paint too.
        self._tasks.after_paint(lambda: self._fts(generation, "building"))
        task = self._tasks.run(QueryOp(build, lane=LANE, name=FULL_TEXT), after_paint=True)
        task.progress.connect(lambda done, total: self._fts(generation, "building", done, total))
        task.succeeded.connect(lambda _path: self._fts(generation, "ready"))
        task.cancelled.connect(lambda: self._fts(generation, "stopped"))
        task.failed.connect(lambda message: self._fts_failed(message, generation))

    def _fts(self, generation: int, state: str, done: int = 0, total: int = 0) -> None:
        if generation == self._generation:
            self.fts_state.emit(state, done, total)

    def _fts_failed(self, message: str, generation: int) -> None:
        if generation == self._generation:
            self.fts_state.emit("stopped", 0, 0)
            self.fts_failed.emit(message)

    def cancel_index(self) -> bool:
        """Stop building the review index (``index_cancelled`` follows); False if none runs."""
        found = [task for task in self._tasks.pending(LANE) if task.name == REVIEW_INDEX]
        for task in found:
            task.cancel()
        return bool(found)

    def cancel_fts(self) -> None:
        """Stop building the full-text index (plain search keeps working)."""
        for task in self._tasks.pending(LANE):
            if task.name == FULL_TEXT:
                task.cancel()

    def busy(self) -> bool:
        """True while a build runs or waits."""
        return not self._tasks.idle(LANE)

    def stop(self) -> None:
        """Cancel every build; what they still deliver is ignored."""
        self._generation += 1
        self._db = None
        self._tasks.cancel(LANE)


__all__ = ["QUICK_BYTES", "IndexLoader"]
