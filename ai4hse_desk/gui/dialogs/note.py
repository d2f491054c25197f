"""Write or edit a note on one attempt ("the extraction looks wrong").

The dialog only collects the text; the notes controller writes it to the store.
"""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPlainTextEdit, QVBoxLayout, QWidget

from ai4hse_desk.gui.dialogs.save_keys import save_on_ctrl_enter
from ai4hse_desk.gui.plain_text import title_text
from ai4hse_desk.gui.widgets.labels import plain_label
from ai4hse_desk.notes.model import MAX_NOTE


class NoteDialog(QDialog):
    """Write or edit a note on one attempt ("the extraction looks wrong")."""

    def __init__(self, title: str, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._original = text
        self.setWindowTitle(title_text(title))
        self.setAccessibleName("Attempt note")
        self.setMinimumWidth(480)
        self.note = QPlainTextEdit(text)
        self.note.setAccessibleName("Note")
        self.note.setPlaceholderText("What looks wrong with this attempt?")
        self.problem = plain_label(name="Problem")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        save_on_ctrl_enter(self, self.buttons)
        layout = QVBoxLayout(self)
        layout.addWidget(plain_label(title))
        layout.addWidget(self.note, 1)
        layout.addWidget(self.problem)
        layout.addWidget(self.buttons)
        self.note.textChanged.connect(self._validate)
        self._validate()

    def problem_text(self) -> str:
        """Why the note cannot be saved yet ("" when it can)."""
        text = self.note.toPlainText()
        if not text.strip():
            return "Write the note first."
        if len(text) > MAX_NOTE:
            return f"A note is limited to {MAX_NOTE:,} characters ({len(text):,} now)."
        if self._original and text == self._original:
            return "Nothing changed yet."
        return ""

    def _validate(self) -> None:
        problem = self.problem_text()
        self.problem.setText(problem)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(not problem)

    @classmethod
    def ask(cls, parent: QWidget | None, title: str, text: str = "") -> str | None:
        """Show the dialog; the note when accepted, ``None`` when cancelled."""
        dialog = cls(title, text, parent)
        try:
            if dialog.exec() != QDialog.DialogCode.Accepted or dialog.problem_text():
                return None
            return dialog.note.toPlainText()
        finally:
            dialog.deleteLater()


__all__ = ["NoteDialog"]
