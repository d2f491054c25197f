"""Notes ▸ Export notes…: the reviewer notes written from the window (CSV, JSON, XLSX).

The same export as ``notes export`` (:func:`ai4hse_desk.notes.export_notes`):
flags, attempt notes and the review's plans, verdicts and decisions, options by
letter, every text cell through the formula guard. The file and the private-text
choice are asked explicitly (:mod:`~ai4hse_desk.gui.dialogs.export_target`); the
export runs on the notes store's lane and goes through the guarded writer. It holds
only what the visibility policy lets the reviewer at the window see
(:mod:`ai4hse_desk.review.visibility`, read as the export starts): nothing of a blind
question, and others' notes only where the reviewer's own verdict is submitted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from ai4hse_desk.gui.workers.notes_store import LANE, store_problem
from ai4hse_desk.gui.workers.task import QueryOp

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from PySide6.QtWidgets import QWidget

    from ai4hse_desk.gui.controllers.notes import NotesController
    from ai4hse_desk.gui.workers.runner import TaskRunner
    from ai4hse_desk.notes.store import NotesStore

FORMATS = (("csv", "CSV"), ("json", "JSON (can be merged by notes import)"), ("xlsx", "Excel"))
PRIVATE_QUESTION = (
    "Include question texts, option texts, answer keys and raw responses?\n\n"
    "They are private: leave them out for notes that leave this machine."
)


def export(
    store: NotesStore | None, target: Path, fmt: str, include_private: bool, viewer: str | None
) -> str:
    """Export what ``viewer`` (``None``: not known) may see of ``store``'s notes; the
    summary line the status bar shows."""
    from ai4hse_desk.review.book import ReviewBook
    from ai4hse_desk.review.exports import export_notes

    if store is None:
        raise ValueError("no notes have been recorded for this audit file yet")
    sight = ReviewBook(store).visibility(viewer)
    summary = export_notes(store, fmt, target, include_private=include_private, visibility=sight)
    counts = ", ".join(
        f"{summary[key]} {name}"
        for key, name in (("flags", "flags"), ("attempt_notes", "attempt notes"),
                          ("verdicts", "verdicts"), ("decisions", "decisions"))
        if key in summary
    )  # fmt: skip
    private = "with" if include_private else "without"
    return f"Notes written to {summary['out']} ({counts}; {private} private text)"


class NotesExportController(QObject):
    """Asks where and what, then exports the notes in the background.

    Signals:
        message: a line for the status bar.
    """

    message = Signal(str)

    def __init__(
        self,
        notes: NotesController,
        tasks: TaskRunner,
        dialogs: QWidget,
        parent: QObject | None = None,
        viewer: Callable[[], str | None] = lambda: None,
    ) -> None:
        """``viewer``: the reviewer's name (``None``: not known; under a plan, every
        planned question is then left out)."""
        super().__init__(parent)
        self._notes, self._tasks, self._dialogs = notes, tasks, dialogs
        self._viewer = viewer

    def ask(self) -> None:
        """Notes ▸ Export notes…: choose the file (its format) and the private-text choice."""
        if self._notes.store is None:
            self.message.emit("No notes have been recorded for this audit file yet.")
            return
        from ai4hse_desk.gui.dialogs.export_target import ask_export_target

        chosen = ask_export_target(
            self._dialogs, "Export the reviewer notes", "notes.csv", FORMATS, PRIVATE_QUESTION
        )
        if chosen is not None:
            self.write(chosen.path, chosen.fmt, include_private=chosen.include_private)

    def write(self, target: Path, fmt: str, *, include_private: bool) -> None:
        """Export to ``target`` as ``fmt`` on the notes lane."""
        notes, viewer = self._notes, self._viewer()
        task = self._tasks.run(
            QueryOp(
                lambda _progress: export(notes.store, target, fmt, include_private, viewer),
                lane=LANE,
                name="notes export",
                explain=store_problem,
            )
        )
        task.succeeded.connect(self.message.emit)
        task.failed.connect(lambda reason: self.message.emit(f"No notes written: {reason}"))
