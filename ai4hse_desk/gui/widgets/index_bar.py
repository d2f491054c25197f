"""The status bar's part of the index builds (hidden while there is nothing to show).

While a large file's fingerprint is read (its sha256 names its cached indexes), and
while its review index is built: the progress and a Cancel (the file is then not
opened). Once a full-text build was stopped (cancelled, or it failed): a button
that starts it again. The full-text build's own progress and Cancel are the
search bar's.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QPushButton, QSizePolicy, QWidget

#: What the bar shows, and its tooltip, while the file is read and while its index is built.
READING = (
    "reading the file %p%",
    "Reading the whole file once for its sha256, the fingerprint its review index is kept under",
)
BUILDING = (
    "review index %p%",
    "Preparing the review index: every attempt re-derived with the protocol, "
    "then the list's indexes made (the last third)",
)


class IndexBar(QWidget):
    """Shows (done, total) with a Cancel while the review index is built, and a
    *Build full-text index* button once a full-text build stopped.

    Signals:
        cancel_requested: stop building the review index (the file is not opened).
        restart_fts_requested: build the full-text index again.
    """

    cancel_requested = Signal()
    restart_fts_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Index builds")
        # As wide as its parts: the status bar gave it the width of the message, and
        # Cancel grew to half the screen.
        self.setSizePolicy(QSizePolicy.Policy.Maximum, QSizePolicy.Policy.Preferred)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(220)
        metrics = self.progress.fontMetrics()
        text = max(
            metrics.horizontalAdvance(shown.replace("%p", "100"))
            for shown, _ in (READING, BUILDING)
        )
        self.progress.setMinimumWidth(min(text + 40, 220))  # its text, with the chunk's room
        self.progress.setAccessibleName("Review index progress")
        self.cancel = QPushButton("Cancel")
        self.cancel.setToolTip("Stop preparing the review index (the file is not opened)")
        self.cancel.clicked.connect(self.cancel_requested)
        self.restart_fts = QPushButton("Build full-text index")
        self.restart_fts.setToolTip(
            "Build the full-text index again (plain search works meanwhile)"
        )
        self.restart_fts.clicked.connect(self.restart_fts_requested)
        for widget in (self.progress, self.cancel, self.restart_fts):
            layout.addWidget(widget)
            widget.hide()
        self.hide()

    def show_reading(self, done: int, total: int) -> None:
        """Show how much of the file its fingerprint has read. A file read at once shows
        nothing; one that took a while stays at 100 % until its index follows."""
        if done >= total and not self.isVisible():
            return
        self._show(READING, done, total, shown=True)

    def show_progress(self, done: int, total: int) -> None:
        """Show how far the review index build is; hidden once done."""
        self._show(BUILDING, done, total, shown=done < total)

    def _show(self, what: tuple[str, str], done: int, total: int, *, shown: bool) -> None:
        self.progress.setFormat(what[0])
        self.progress.setToolTip(what[1])
        self.progress.setMaximum(max(total, 1))
        self.progress.setValue(min(done, max(total, 1)))
        self.progress.setVisible(shown)
        self.cancel.setVisible(shown)
        self.restart_fts.hide()
        self.setVisible(shown)

    def set_fts_state(self, state: str, _done: int = 0, _total: int = 0) -> None:
        """The full-text index's state: the restart button only while it is ``stopped``."""
        stopped = state == "stopped"
        self.progress.hide()
        self.cancel.hide()
        self.restart_fts.setVisible(stopped)
        self.setVisible(stopped)


__all__ = ["IndexBar"]
