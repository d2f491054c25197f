"""A status line with the progress bar and Cancel button of one background computation."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget


class TaskStatus(QWidget):
    """What a long computation is doing: a plain-text line, its progress, a Cancel button.

    Signals:
        cancel_requested: the Cancel button was clicked.
    """

    cancel_requested = Signal()

    def __init__(
        self, text: str = "", *, progress_format: str = "", parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.label = QLabel(text)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setWordWrap(True)
        self.progress = QProgressBar()
        if progress_format:
            self.progress.setFormat(progress_format)
        self.progress.hide()
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.hide()
        self.cancel_button.clicked.connect(self.cancel_requested)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.progress)
        layout.addWidget(self.cancel_button)

    def say(self, text: str) -> None:
        """Show ``text`` on the line."""
        self.label.setText(text)

    def started(self, text: str = "", *, cancellable: bool = True) -> None:
        """A computation began (``text``: what it does); its progress shows once reported."""
        if text:
            self.say(text)
        self.cancel_button.setVisible(cancellable)

    def report(self, done: int, total: int) -> None:
        """(done, total) of the computation."""
        self.progress.setVisible(True)
        self.progress.setRange(0, max(total, 1))
        self.progress.setValue(min(done, max(total, 1)))

    def ended(self) -> None:
        """The computation ended (finished, failed or cancelled)."""
        self.progress.hide()
        self.cancel_button.hide()


__all__ = ["TaskStatus"]
