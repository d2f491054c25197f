"""Opening an audit database in the window, and the review index that follows.

A mixin of :class:`~ai4hse_desk.gui.main_window.MainWindow`: File ▸ Open, the
command line, drag and drop and recent files all end in :meth:`open_path`; a bad
file shows its one-line reason and leaves what was open as it was.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFileDialog, QMessageBox

from ai4hse_desk.gui.audit_session import AuditSession
from ai4hse_desk.gui.settings import remember_file
from ai4hse_desk.index import ReviewIndex

if TYPE_CHECKING:
    from ai4hse_desk.gui.main_window import MainWindow

    _Base = MainWindow
else:
    _Base = object

APP_TITLE = "AI4HSE Desk"


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

        Args:
            wait: build the review index before returning (headless screenshot, tests).
        """
        from ai4hse_desk.audit import AuditError

        try:
            session = AuditSession.open(path)
        except (AuditError, OSError) as exc:
            QMessageBox.critical(self, "Cannot open audit database", str(exc).splitlines()[0])
            return False
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
        name = session.path.name
        self.setWindowTitle(f"{name} — read-only — {APP_TITLE}")
        remember_file(self.settings, str(session.path))
        self._fill_recent_menu()
        db = session.db
        runs = sorted(session.runs.values(), key=lambda r: r.run_id)
        self.filters.set_choices(
            runs=[(run.run_id, run.model) for run in runs],
            models=db.models(),
            tracks=[track.value for track in db.tracks()],
            repetitions=list(range(1, max((r.repetitions for r in runs), default=0) + 1)),
            facets=db.label_facets(),
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

    def _index_ready(self, index: ReviewIndex) -> None:
        if self.session is None:
            index.close()
            return
        self.session.index = index
        self.index_bar.hide()
        self.model.set_index(index)
        if not self._columns_restored:
            self.table.resizeColumnsToContents()
            self._columns_restored = True
        self.statusBar().showMessage(
            f"{self.session.path.name}: {index.total():,} attempts re-derived with the protocol "
            "(read-only; the file is never written)"
        )
        if self.model.rowCount() and self.current_attempt is None:
            self.select_row(0)

    def _index_progress(self, done: int, total: int) -> None:
        self.index_bar.setMaximum(max(total, 1))
        self.index_bar.setValue(min(done, max(total, 1)))
        self.index_bar.setVisible(done < total)

    def _index_failed(self, message: str) -> None:
        self.index_bar.hide()
        QMessageBox.critical(self, "Cannot prepare the review index", message)

    def _fts_state(self, state: str, done: int, total: int) -> None:
        self.search.set_fts_state(state, done, total)

    # -- filters and counts -----------------------------------------------------
