"""Search box with its scope (responses / questions / options) and the full-text index's progress.

Three checkable buttons beside the box choose where the text is looked for (any
combination, at least one; responses alone by default); the scope travels in
the query (:attr:`~ai4hse_desk.index.AttemptQuery.text_scope`) into the SQL. A
question id typed in the box finds that question's attempts in every scope.
Enter searches at once and hands the keyboard back to the list (``submitted``).
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
    QToolButton,
    QWidget,
)

from ai4hse_desk.index.filters import SEARCH_SCOPES
from ai4hse_desk.index.search import RESPONSES, search_terms

DEBOUNCE_MS = 250
#: Where a search looks when the window opens.
DEFAULT_SCOPE: tuple[str, ...] = (RESPONSES,)
_SCOPE_TIPS = {
    "responses": "Search the raw model responses",
    "questions": "Search the question texts",
    "options": "Search the option texts",
}


def placeholder(scope: tuple[str, ...]) -> str:
    """The empty box's hint: where it searches, and that a question id works."""
    return f"Search {' + '.join(scope)}, or a question id  ( / or Ctrl+F )"


class SearchBar(QWidget):
    """Search text (debounced), its scope, plus the state of the full-text index.

    Signals:
        text_changed: the stripped search text (debounced; at once on Enter).
        scope_changed: the scope (a tuple of :data:`SEARCH_SCOPES`) after a toggle.
        highlight_changed: the terms to mark in the response shown (none when
            responses are not in scope or the box is empty).
        submitted: Enter was pressed (the search is already out).
        cancel_requested: stop building the full-text index.
    """

    text_changed = Signal(str)
    scope_changed = Signal(object)
    highlight_changed = Signal(list)
    submitted = Signal()
    cancel_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Search")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.edit = QLineEdit()
        self.edit.setAccessibleName("Search")
        self.edit.setClearButtonEnabled(True)
        self.scope_buttons: dict[str, QToolButton] = {}
        for name in SEARCH_SCOPES:
            button = QToolButton()
            button.setText(name.capitalize())
            button.setCheckable(True)
            button.setChecked(name in DEFAULT_SCOPE)
            button.setToolTip(f"{_SCOPE_TIPS[name]} (at least one place stays on)")
            button.setAccessibleName(f"Search in {name}")
            button.toggled.connect(lambda on, n=name: self._scope_toggled(n, on))
            self.scope_buttons[name] = button
        self.mode = QLabel()
        self.mode.setTextFormat(Qt.TextFormat.PlainText)
        self.progress = QProgressBar()
        self.progress.setFormat("full-text index %p%")
        # Wide enough for its text at 100% (a crowded 1366-pixel bar squeezed it unread).
        text_width = self.progress.fontMetrics().horizontalAdvance("full-text index 100%")
        self.progress.setMinimumWidth(text_width + 24)
        self.progress.setMaximumWidth(max(160, text_width + 24))
        self.progress.setAccessibleName("Full-text index progress")
        self.cancel = QPushButton("Cancel")
        self.cancel.setToolTip("Stop building the full-text index (plain search keeps working)")
        self.cancel.clicked.connect(self.cancel_requested)
        layout.addWidget(self.edit, 1)
        for button in self.scope_buttons.values():
            layout.addWidget(button)
        layout.addWidget(self.mode)
        layout.addWidget(self.progress)
        layout.addWidget(self.cancel)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(DEBOUNCE_MS)
        self._timer.timeout.connect(self._fire)
        self.edit.textChanged.connect(lambda _text: self._timer.start())
        self.edit.returnPressed.connect(self._submit)
        self._show_scope()
        self.set_fts_state("none")

    def text(self) -> str:
        """The search text as typed."""
        return self.edit.text()

    def scope(self) -> tuple[str, ...]:
        """Where the text is looked for, in :data:`SEARCH_SCOPES` order."""
        return tuple(n for n, b in self.scope_buttons.items() if b.isChecked())

    def set_scope(self, scope: tuple[str, ...]) -> None:
        """Check exactly ``scope`` (some of :data:`SEARCH_SCOPES`) and search again."""
        wanted = tuple(n for n in SEARCH_SCOPES if n in scope)
        if not wanted:
            raise ValueError("a search looks in at least one place")
        for name, button in self.scope_buttons.items():
            button.blockSignals(True)
            button.setChecked(name in wanted)
            button.blockSignals(False)
        self._scope_set()

    def highlight_terms(self) -> list[str]:
        """The terms to mark in a response: the box's terms when responses are in scope."""
        return search_terms(self.edit.text()) if RESPONSES in self.scope() else []

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
        self.highlight_changed.emit([])

    def focus(self) -> None:
        """Put the cursor in the box, selecting what is there."""
        self.edit.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.edit.selectAll()

    def set_fts_state(self, state: str, done: int = 0, total: int = 0) -> None:
        """Show the index state: ``none``, ``building`` (with progress), ``ready``, ``stopped``."""
        building = state == "building"
        if building:  # set while hidden: a shown bar's setValue repaints it at once
            self.progress.setMaximum(max(total, 1))
            self.progress.setValue(min(done, max(total, 1)))
        self.progress.setVisible(building)
        self.cancel.setVisible(building)
        texts = {
            "ready": "full-text search",
            "building": "plain search (slower) until the index is ready",
            "stopped": "plain search (slower): full-text index not built",
            "none": "",
        }
        self.mode.setText(texts.get(state, ""))

    def _scope_toggled(self, name: str, on: bool) -> None:
        if not on and not self.scope():  # the last place stays on
            button = self.scope_buttons[name]
            button.blockSignals(True)
            button.setChecked(True)
            button.blockSignals(False)
            return
        self._scope_set()

    def _scope_set(self) -> None:
        self._show_scope()
        self.scope_changed.emit(self.scope())
        self.highlight_changed.emit(self.highlight_terms())

    def _show_scope(self) -> None:
        self.edit.setPlaceholderText(placeholder(self.scope()))

    def _fire(self) -> None:
        self._timer.stop()
        self.text_changed.emit(self.edit.text().strip())
        self.highlight_changed.emit(self.highlight_terms())

    def _submit(self) -> None:
        self._fire()
        self.submitted.emit()
