"""Review ▸ Report…: the review report (HTML or JSON) written from the window.

The same report as ``review report`` (:mod:`ai4hse_desk.review.report`): the
reviewer picks the file (its type from the name or the chosen filter) and says
explicitly whether question and option texts go in; the report is built on the
notes store's lane — its sensitivity pass reads every attempt, with progress and
Cancel — and written through the guarded writer (never over the audit file or
the store). The report shows every reviewer's verdicts: the window refuses it to one
of the plan's reviewers (the visibility policy, :mod:`ai4hse_desk.review.visibility`),
whose blind rule it would break; the coordinator writes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QProgressDialog, QWidget

from ai4hse_desk.gui.workers.notes_store import LANE, store_problem
from ai4hse_desk.gui.workers.task import QueryOp

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from ai4hse_desk.gui.controllers.notes import NotesController
    from ai4hse_desk.gui.workers.runner import TaskRunner
    from ai4hse_desk.keyaudit.result import KeyAuditResult
    from ai4hse_desk.notes.store import NotesStore
    from ai4hse_desk.progress import Progress

FORMATS = (("html", "Printable HTML"), ("json", "JSON"))
PRIVATE_QUESTION = (
    "Include the question and option texts of the questions concerned?\n\n"
    "They are private: leave them out for a report that leaves this machine."
)


def write_report(
    store: NotesStore | None,
    target: Path,
    *,
    include_private: bool,
    progress: Progress,
    viewer: str | None = None,
    key_audit: KeyAuditResult | None = None,
) -> Path:
    """Build the review report of ``store`` and write it to ``target``, unless ``viewer``
    (``None``: not known) is one of the plan's reviewers. ``key_audit``: the window's, whose
    ranking the report takes when it was computed from the same file."""
    from ai4hse_desk.review.book import ReviewBook
    from ai4hse_desk.review.report import write_review_report

    if store is None:
        raise ValueError("no review has been recorded for this audit file yet")
    if ReviewBook(store).visibility(viewer).limited:
        raise ValueError(
            "the review report shows every reviewer's verdicts: one of the plan's reviewers "
            "(or a window without a reviewer name) cannot write it; the coordinator can"
        )
    fmt = "json" if target.suffix.lower() == ".json" else "html"
    ranking = None
    if key_audit is not None and key_audit.audit.get("sha256") == store.audit_sha256:
        ranking = [item.question_id for item in key_audit.questions]  # computed from this file
    return write_review_report(
        store, target, fmt, include_private=include_private, progress=progress, ranking=ranking
    )


class ReviewReportController(QObject):
    """Asks where and what, then writes the review report in the background.

    Signals:
        message: a line for the status bar ("Review report written to …").
    """

    message = Signal(str)

    def __init__(
        self,
        notes: NotesController,
        tasks: TaskRunner,
        dialogs: QWidget,
        parent: QObject | None = None,
        viewer: Callable[[], str | None] = lambda: None,
        key_audit: Callable[[], KeyAuditResult | None] = lambda: None,
    ) -> None:
        """``viewer``: the reviewer's name (``None``: not known); ``key_audit``: the Key
        audit page's result, once computed (the report then does not compute it again)."""
        super().__init__(parent)
        self._notes, self._tasks, self._dialogs = notes, tasks, dialogs
        self._viewer, self._key_audit = viewer, key_audit
        self.progress_dialog: QProgressDialog | None = None

    def ask(self) -> None:
        """Review ▸ Report…: choose the file and the private-text choice, then write."""
        if self._notes.store is None:
            self.message.emit("No review has been recorded for this audit file yet.")
            return
        from ai4hse_desk.gui.dialogs.export_target import ask_export_target  # on first use

        chosen = ask_export_target(
            self._dialogs, "Write the review report", "review-report.html", FORMATS,
            PRIVATE_QUESTION,
        )  # fmt: skip
        if chosen is not None:
            self.write(chosen.path, include_private=chosen.include_private)

    def write(self, target: Path, *, include_private: bool) -> None:
        """Write the report to ``target`` in the background, with progress and Cancel."""
        notes, viewer, key_audit = self._notes, self._viewer(), self._key_audit()
        task = self._tasks.run(
            QueryOp(
                lambda progress: write_report(
                    notes.store,
                    target,
                    include_private=include_private,
                    progress=progress,
                    viewer=viewer,
                    key_audit=key_audit,
                ),
                lane=LANE,
                name="review report",
                explain=store_problem,
            )
        )
        dialog = QProgressDialog("Writing the review report…", "Cancel", 0, 0, self._dialogs)
        dialog.setWindowModality(Qt.WindowModality.WindowModal)
        dialog.setMinimumDuration(300)
        dialog.canceled.connect(task.cancel)
        self.progress_dialog = dialog

        def report(done: int, total: int) -> None:
            dialog.setMaximum(max(total, 1))
            dialog.setValue(done)

        def closed() -> None:
            dialog.reset()
            dialog.deleteLater()
            self.progress_dialog = None

        task.progress.connect(report)
        task.succeeded.connect(lambda path: self.message.emit(f"Review report written to {path}"))
        task.failed.connect(lambda reason: self.message.emit(f"No report written: {reason}"))
        task.cancelled.connect(
            lambda: self.message.emit("Review report cancelled; nothing written")
        )
        task.finished.connect(closed)
