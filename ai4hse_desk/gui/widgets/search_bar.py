"""Search box over raw responses and question texts, with the full-text index's progress.

Until the FTS5 index of the opened audit is built (in the background, with a
progress bar and cancel), searches run as a plain ``LIKE`` and the bar says so.
The text is handed on as a value; it never becomes SQL.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QWidget,
)

DEBOUNCE_MS = 250


class SearchBar(QWidget):
    """Search text (debounced) plus the state of the full-text index."""

    text_changed = Signal(str)
    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Search")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.edit = QLineEdit()
        self.edit.setPlaceholderText("Search responses and questions  ( / or Ctrl+F )")
        self.edit.setAccessibleName("Search responses and questions")
        self.edit.setClearButtonEnabled(True)
        self.mode = QLabel()
        self.mode.setTextFormat(Qt.TextFormat.PlainText)
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(160)
        self.progress.setFormat("full-text index %p%")
        self.progress.setAccessibleName("Full-text index progress")
        self.cancel = QPushButton("Cancel")
        self.cancel.setToolTip("Stop building the full-text index (plain search keeps working)")
        self.cancel.clicked.connect(self.cancel_requested)
        layout.addWidget(self.edit, 1)
        layout.addWidget(self.mode)
        layout.addWidget(self.progress)
        layout.addWidget(self.cancel)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._fire)
        self.edit.textChanged.connect(lambda _text: self._timer.start())
        self.edit.returnPressed.connect(self._fire)
        self.set_fts_state("none")

    def text(self) -> str:
        """The search text as typed."""
        return self.edit.text()

    def set_text_now(self, text: str) -> None:
        """Set the text and search at once (no debounce)."""
        self.edit.setText(text)
        self._fire()

    def clear(self) -> None:
        """Empty the box and search for nothing."""
        self.set_text_now("")

    def clear_quietly(self) -> None:
        """Empty the box without searching (the filters are being set together)."""
        self._timer.stop()
        self.edit.blockSignals(True)
        self.edit.clear()
        self.edit.blockSignals(False)

    def focus(self) -> None:
        """Put the cursor in the box, selecting what is there."""
        self.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.edit.selectAll()

    def set_fts_state(self, state: str, done: int = 0, total: int = 0) -> None:
        """Show the index state: ``none``, ``building`` (with progress), ``ready``, ``stopped``."""
        building = state == "building"
        self.progress.setVisible(building)
        self.cancel.setVisible(building)
        if building:
            self.progress.setMaximum(max(total, 1))
            self.progress.setValue(min(done, max(total, 1)))
        texts = {
            "ready": "full-text search",
            "building": "plain search (slower) until the index is ready",
            "stopped": "plain search (slower): full-text index not built",
            "none": "",
        }
        self.mode.setText(texts.get(state, ""))

    def _fire(self) -> None:
        self._timer.stop()
        self.text_changed.emit(self.edit.text().strip())
