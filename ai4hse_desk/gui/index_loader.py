"""Prepares the review index of an opened audit database, off the GUI thread.

Stage 1 (the desk's verdicts) is found in the cache or built with progress;
stage 2 (the full-text index) is then built in the background, cancellable,
while plain searching already works.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from ai4hse_desk.audit import AuditDB
from ai4hse_desk.gui.qt_guard import problem_text
from ai4hse_desk.gui.qt_tasks import QtTask
from ai4hse_desk.index import ReviewIndex, build_fts, ensure_index, fts_ready
from ai4hse_desk.progress import Progress


class IndexLoader(QObject):
    """Finds or builds the review index and the full-text index of one database."""

    index_progress = Signal(int, int)
    index_ready = Signal(object)  # ReviewIndex
    fts_state = Signal(str, int, int)  # state, done, total
    failed = Signal(str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._tasks: list[QtTask] = []
        self._generation = 0

    def load(self, db: AuditDB, *, wait: bool = False) -> None:
        """Start preparing ``db``'s index (``wait``: build it now, no full-text stage)."""
        self.shutdown()
        self._generation += 1
        generation = self._generation
        if wait:
            try:
                index = ensure_index(db)
            except Exception as exc:
                self.failed.emit(problem_text(exc))
                return
            self.index_ready.emit(index)
            self.fts_state.emit("ready" if fts_ready(db) else "stopped", 0, 0)
            return

        def build(progress: Progress) -> ReviewIndex:
            return ensure_index(db, progress=progress)

        task = self._start(build, "review index")
        task.progress.connect(self.index_progress)
        task.succeeded.connect(lambda index: self._stage_one_done(index, db, generation))

    def _stage_one_done(self, index: ReviewIndex, db: AuditDB, generation: int) -> None:
        if generation != self._generation:
            index.close()
            return
        self.index_ready.emit(index)
        if fts_ready(db):
            self.fts_state.emit("ready", 0, 0)
            return

        def build(progress: Progress) -> object:
            return build_fts(db, progress=progress)

        self.fts_state.emit("building", 0, 0)
        task = self._start(build, "full-text index")
        task.progress.connect(lambda done, total: self.fts_state.emit("building", done, total))
        task.succeeded.connect(lambda _path: self.fts_state.emit("ready", 0, 0))
        task.cancelled.connect(lambda: self.fts_state.emit("stopped", 0, 0))

    def _start(self, fn: object, name: str) -> QtTask:
        task = QtTask(fn, name, self)  # type: ignore[arg-type]
        task.failed.connect(self.failed)
        task.finished.connect(lambda: self._forget(task))
        self._tasks.append(task)
        task.start()
        return task

    def _forget(self, task: QtTask) -> None:
        if task in self._tasks and not task.is_running():
            self._tasks.remove(task)

    def cancel_fts(self) -> None:
        """Stop building the full-text index (plain search keeps working)."""
        for task in self._tasks:
            if task.name == "full-text index":
                task.cancel()

    def busy(self) -> bool:
        """True while any build runs."""
        return any(task.is_running() for task in self._tasks)

    def shutdown(self) -> None:
        """Cancel every build and wait for the threads to end."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            task.wait()
        self._tasks.clear()
