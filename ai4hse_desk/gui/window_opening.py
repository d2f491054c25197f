"""Opening an audit database in the window, and the review index that follows.

A mixin of :class:`~ai4hse_desk.gui.main_window.MainWindow`: File ▸ Open, the
command line, drag and drop and recent files all end in :meth:`open_path`; a bad
file shows its one-line reason (plain text) and leaves what was open as it was.

A file is remembered (recent files, the last file, opened at the next start) only
once its review index is ready and its rows read; a file that fails to open,
whose index fails, or whose rows or attempts cannot be read (a value the schema
forbids) is forgotten, so a later start does not meet it again.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFileDialog

from ai4hse_desk.gui.plain_text import Icon, plain_message, title_text
from ai4hse_desk.gui.qt_guard import forget_problems, problem_text, report_problem
from ai4hse_desk.gui.settings import forget_file, remember_file
from ai4hse_desk.index import ReviewIndex
from ai4hse_desk.index.session import AuditSession

if TYPE_CHECKING:
    from ai4hse_desk.gui.main_window import MainWindow

    _Base = MainWindow
else:
    _Base = object

APP_TITLE = "AI4HSE Desk"
OPEN_FAILED = "Cannot open audit database"
INDEX_FAILED = "Cannot prepare the review index"
READ_FAILED = "Cannot read the audit database"


@dataclass(frozen=True)
class _Choices:
    """What the filter panel offers for one database (read before it is shown)."""

    runs: list[tuple[str, str]]
    models: list[str]
    tracks: list[str]
    repetitions: list[int]
    facets: dict[str, list[str]]

    @classmethod
    def of(cls, session: AuditSession) -> _Choices:
        db = session.db
        runs = sorted(session.runs.values(), key=lambda r: r.run_id)
        return cls(
            runs=[(run.run_id, run.model) for run in runs],
            models=list(db.models()),
            tracks=[track.value for track in db.tracks()],
            repetitions=list(range(1, max((r.repetitions for r in runs), default=0) + 1)),
            facets=db.label_facets(),
        )


class OpeningMixin(_Base):
    """Open a file (keeping the old one on failure) and bring up its review index."""

    def choose_file(self) -> None:
        """File ▸ Open."""
        path, _ = QFileDialog.getOpenFileName(
            self,
            "Open audit database",
            "",
            "Audit databases (*.sqlite *.db *.sqlite3);;All files (*)",
        )
        if path:
            self.open_path(path)

    def open_path(self, path: str | Path, *, wait: bool = False) -> bool:
        """Open an audit database; on failure show the reason and keep what was open.

        A file is remembered (recent files, the file opened at the next start) only
        once its review index is ready; one that fails is forgotten.

        Args:
            wait: build the review index before returning (headless screenshot, tests).
        """
        session: AuditSession | None = None
        try:
            session = AuditSession.open(path)
            choices = _Choices.of(session)
        except Exception as exc:  # AuditError, OSError, or a value the schema forbids
            if session is not None:
                session.close()
            self._open_failed(path, problem_text(exc))
            return False
        forget_problems()
        old, self.session = self.session, session
        self.loader.shutdown()
        self.status_counter.wait()
        self.scores.clear()
        self.keyaudit.clear()
        self._keyaudit_loaded_for = None
        self._scores_loaded_for = None
        self.model.set_index(None)
        if old is not None:
            old.close()
        self.current_attempt = None
        self.current_question = None
        self._show_empty_state()
        self.setWindowTitle(title_text(f"{session.path.name} — read-only — {APP_TITLE}"))
        self.filters.set_choices(
            runs=choices.runs,
            models=choices.models,
            tracks=choices.tracks,
            repetitions=choices.repetitions,
            facets=choices.facets,
        )
        self.search.edit.blockSignals(True)
        self.search.edit.clear()
        self.search.edit.blockSignals(False)
        self.statusBar().showMessage(
            f"Opened {session.path} (read-only); preparing the review index…"
        )
        self.notes.audit_opened(session)
        self.loader.load(session.db, wait=wait)
        return True

    def _open_failed(self, path: str | Path, reason: str) -> None:
        """A file did not open: say why (plain text) and do not offer it again."""
        self._forget(path)
        plain_message(self, Icon.Critical, OPEN_FAILED, reason, wait=False)

    def _forget(self, path: str | Path) -> None:
        for name in {str(path), os.path.realpath(path)}:
            forget_file(self.settings, name)
        self._fill_recent_menu()

    def _index_ready(self, index: ReviewIndex) -> None:
        session = self.session
        if session is None:
            index.close()
            return
        session.index = index
        self.index_bar.hide()
        try:
            self.model.set_index(index)
            if not self._columns_restored:
                self.table.resizeColumnsToContents()
                self._columns_restored = True
        except Exception as exc:  # the model reports row problems itself; this is the rest
            self._index_failed(problem_text(exc))
            return
        self.statusBar().showMessage(
            f"{session.path.name}: {index.total():,} attempts re-derived with the protocol "
            "(read-only; the file is never written)"
        )
        if self.model.read_problem is None:
            remember_file(self.settings, str(session.path))
            self._fill_recent_menu()
        else:  # already reported, and the file forgotten
            self.statusBar().showMessage(f"{READ_FAILED}: {self.model.read_problem}")
        if self.model.rowCount() and self.current_attempt is None:
            self.select_row(0)

    def _index_progress(self, done: int, total: int) -> None:
        self.index_bar.setMaximum(max(total, 1))
        self.index_bar.setValue(min(done, max(total, 1)))
        self.index_bar.setVisible(done < total)

    def _index_failed(self, message: str) -> None:
        self.index_bar.hide()
        if self.session is not None:
            self._forget(self.session.path)
        self.statusBar().showMessage(f"{INDEX_FAILED}: {message}")
        plain_message(self, Icon.Critical, INDEX_FAILED, message, wait=False)

    def unreadable(self, message: str, where: str = "") -> None:
        """A row or attempt of the open file cannot be read (a value the schema forbids).

        The status bar names ``where``; the message box (plain text) comes once per
        distinct message, and the file is not offered at the next start.
        """
        if self.session is not None:
            self._forget(self.session.path)
        self.statusBar().showMessage(f"{where or READ_FAILED}: {message}")
        report_problem(READ_FAILED, message)

    def _fts_state(self, state: str, done: int, total: int) -> None:
        self.search.set_fts_state(state, done, total)
