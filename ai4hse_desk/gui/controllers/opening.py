"""The session's life: opening an audit database, its review index, and going back to empty.

File ▸ Open, the command line, drag and drop and recent files all end in
:meth:`OpeningController.open_path`; a bad file shows its one-line reason
(plain text) and leaves what was open as it was. When the review index of an
opened file cannot be built, the file is closed again and the window goes back
to its empty state (no runs in the filters, the plain title).

A file is remembered (recent files, the last file, opened at the next start) only
once its review index is ready and its rows read; a file that fails to open,
whose index fails, or whose rows or attempts cannot be read (a value the schema
forbids) is forgotten, so a later start does not meet it again.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QSettings, Signal

from ai4hse_desk.gui.plain_text import Icon, plain_message, title_text
from ai4hse_desk.gui.qt_guard import READ_ERRORS, forget_problems, problem_text, report_problem
from ai4hse_desk.gui.settings import forget_file, recent_files, remember_file
from ai4hse_desk.gui.workers.index_loader import IndexLoader
from ai4hse_desk.index.session import AuditSession

if TYPE_CHECKING:
    from pathlib import Path

    from PySide6.QtWidgets import QWidget

    from ai4hse_desk.gui.workers.runner import TaskRunner
    from ai4hse_desk.index import ReviewIndex

APP_TITLE = "AI4HSE Desk"
OPEN_FAILED = "Cannot open audit database"
INDEX_FAILED = "Cannot prepare the review index"
FTS_FAILED = "Cannot build the full-text index"
READ_FAILED = "Cannot read the audit database"
EMPTY_MESSAGE = "Open an audit database (File ▸ Open, or drop a file here)."


@dataclass(frozen=True)
class FilterChoices:
    """What the filter panel offers for one database (nothing for the empty window)."""

    runs: list[tuple[str, str]] = field(default_factory=list)
    models: list[str] = field(default_factory=list)
    tracks: list[str] = field(default_factory=list)
    repetitions: list[int] = field(default_factory=list)
    facets: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def of(cls, session: AuditSession) -> FilterChoices:
        """Read the choices of ``session`` (raises what reading the file raises)."""
        db = session.db
        runs = sorted(session.runs.values(), key=lambda r: r.run_id)
        return cls(
            runs=[(run.run_id, run.model) for run in runs],
            models=list(db.models()),
            tracks=[track.value for track in db.tracks()],
            repetitions=list(range(1, max((r.repetitions for r in runs), default=0) + 1)),
            facets=db.label_facets(),
        )


class OpeningController(QObject):
    """Owns the open :class:`~ai4hse_desk.index.session.AuditSession` and its review index.

    Signals:
        session_changed: the new session, or ``None`` for the empty window. Every
            holder of the old session drops it now: it is closed right after.
        choices_changed: the :class:`FilterChoices` of the new session.
        index_ready: the session's :class:`~ai4hse_desk.index.ReviewIndex`.
        reading_progress: (bytes read, file size) of the file's fingerprint.
        index_progress: (done, total) of the index build.
        fts_state: the full-text index's state (see :class:`~.IndexLoader`).
        title_changed: the window title.
        recent_changed: the recent files, newest first.
        message: a line for the status bar.
    """

    session_changed = Signal(object)
    choices_changed = Signal(object)
    index_ready = Signal(object)
    reading_progress = Signal(int, int)
    index_progress = Signal(int, int)
    fts_state = Signal(str, int, int)
    title_changed = Signal(str)
    recent_changed = Signal(list)
    message = Signal(str)

    def __init__(
        self,
        settings: QSettings,
        tasks: TaskRunner,
        dialogs: QWidget,
        index_workers: int | None = None,
    ) -> None:
        """Own the session of a window.

        Args:
            settings: where recent files and the last file are kept.
            tasks: the window's task runner (the index builds run on it).
            dialogs: the parent of the file dialog and the message boxes.
            index_workers: processes that build a review index (None: by the file's size).
        """
        super().__init__(dialogs)
        self._settings = settings
        self._tasks = tasks
        self._dialogs = dialogs
        self._session: AuditSession | None = None
        self._unreadable: str | None = None  # why the open file cannot be read, if it cannot
        self.loader = IndexLoader(tasks, self, workers=index_workers)
        self.loader.index_ready.connect(self._index_ready)
        self.loader.reading_progress.connect(self.reading_progress)
        self.loader.index_progress.connect(self.index_progress)
        self.loader.fts_state.connect(self.fts_state)
        self.loader.failed.connect(self._index_failed)
        self.loader.index_cancelled.connect(self._index_cancelled)
        self.loader.fts_failed.connect(self._fts_failed)

    @property
    def session(self) -> AuditSession | None:
        """The open file, or ``None``."""
        return self._session

    def recent_files(self) -> list[str]:
        """The recent files, newest first."""
        return recent_files(self._settings)

    def choose_file(self) -> None:
        """File ▸ Open."""
        from PySide6.QtWidgets import QFileDialog  # (its types: not at start)

        path, _ = QFileDialog.getOpenFileName(
            self._dialogs,
            "Open audit database",
            "",
            "Audit databases (*.sqlite *.db *.sqlite3);;All files (*)",
        )
        if path:
            self.open_path(path)

    def open_path(self, path: str | Path, *, wait: bool = False) -> bool:
        """Open an audit database; on failure show the reason and keep what was open.

        Args:
            wait: return once the review index and what follows it are ready
                (headless screenshot, tests); no full-text index is built then.

        Returns:
            True when the file opened (its index may still fail).
        """
        session: AuditSession | None = None
        try:
            session = AuditSession.open(path)
            choices = FilterChoices.of(session)
        except READ_ERRORS as exc:  # AuditError, OSError, or a value the schema forbids
            if session is not None:
                session.close()
            self._forget(path)
            plain_message(self._dialogs, Icon.Critical, OPEN_FAILED, problem_text(exc), wait=False)
            return False
        forget_problems()
        self._unreadable = None
        self._switch(session, choices)
        self.title_changed.emit(title_text(f"{session.path.name} — read-only — {APP_TITLE}"))
        self.message.emit(f"Opened {session.path} (read-only); preparing the review index…")
        self.loader.load(session.db, full_text=not wait)
        if wait:
            self._tasks.wait_idle()
        return True

    def _switch(self, session: AuditSession | None, choices: FilterChoices) -> None:
        """Stop the old file's work, hand every holder the new session, close the old."""
        self.loader.stop()
        old, self._session = self._session, session
        if old is not None and old.index is not None:
            old.index.interrupt()  # a long count or search of the old file stops now
        self._tasks.drain()
        self.session_changed.emit(session)
        self.choices_changed.emit(choices)
        if old is not None:
            old.close()

    def close(self) -> None:
        """Close the open file (the window is closing); no signal."""
        self.loader.stop()
        session, self._session = self._session, None
        if session is not None:
            session.close()

    def _index_ready(self, index: ReviewIndex) -> None:
        session = self._session
        if session is None:
            index.close()
            return
        session.index = index
        self.message.emit(
            f"{session.path.name}: {index.total():,} attempts re-derived with the protocol "
            "(read-only; the file is never written)"
        )
        self.index_ready.emit(index)  # the list reads its first rows; the notes follow
        if self._unreadable is not None:  # already reported, and the file forgotten
            self.message.emit(f"{READ_FAILED}: {self._unreadable}")
            return
        remember_file(self._settings, str(session.path))
        self.recent_changed.emit(self.recent_files())

    def _index_failed(self, message: str) -> None:
        """No review index: say why, forget the file, and go back to the empty window."""
        if self._session is not None:
            self._forget(self._session.path)
        self._switch(None, FilterChoices())
        self.title_changed.emit(APP_TITLE)
        self.message.emit(f"{INDEX_FAILED}: {message}")
        plain_message(self._dialogs, Icon.Critical, INDEX_FAILED, message, wait=False)

    def cancel_opening(self) -> None:
        """The status bar's Cancel while the review index is built: the file is not opened."""
        self.loader.cancel_index()

    def _index_cancelled(self) -> None:
        """The review index build was cancelled: back to the empty window, the file
        not opened (nor remembered); opening it again starts the build again."""
        name = "" if self._session is None else f" {self._session.path.name}"
        self._switch(None, FilterChoices())
        self.title_changed.emit(APP_TITLE)
        self.message.emit(f"Opening{name} cancelled: its review index was not built.")

    def _fts_failed(self, message: str) -> None:
        self.message.emit(f"{FTS_FAILED} (plain search keeps working): {message}")
        plain_message(self._dialogs, Icon.Warning, FTS_FAILED, message, wait=False)

    def unreadable(self, message: str, where: str = "") -> None:
        """A row or attempt of the open file cannot be read (a value the schema forbids).

        The status bar names ``where``; the message box (plain text) comes once per
        distinct message, and the file is not offered at the next start.
        """
        if self._session is not None:
            self._forget(self._session.path)
            if self._unreadable is None:
                self._unreadable = message
        self.message.emit(f"{where or READ_FAILED}: {message}")
        report_problem(READ_FAILED, message)

    def _forget(self, path: str | Path) -> None:
        for name in {str(path), os.path.realpath(path)}:
            forget_file(self._settings, name)
        self.recent_changed.emit(self.recent_files())


__all__ = ["APP_TITLE", "EMPTY_MESSAGE", "FilterChoices", "OpeningController"]
