"""The status bar's progress of the review index build (hidden when there is none)."""

from __future__ import annotations

from PySide6.QtWidgets import QProgressBar, QWidget


class IndexBar(QProgressBar):
    """Shows (done, total) while the review index is built."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMaximumWidth(220)
        self.setFormat("re-deriving verdicts %p%")
        self.setAccessibleName("Review index progress")
        self.hide()

    def show_progress(self, done: int, total: int) -> None:
        """Show how far the build is; hidden once done."""
        self.setMaximum(max(total, 1))
        self.setValue(min(done, max(total, 1)))
        self.setVisible(done < total)


__all__ = ["IndexBar"]
