"""Go to… (Ctrl+G): a question id, an attempt id or a row number, in one line.

What the reviewer types is read by :func:`parse_go_to`:

* ``#123456``, ``attempt 123456``: the attempt with that id;
* ``row 500000`` or a bare number ``500000``: that row of the list, counted from 1
  (a question whose id is a number: ``question 12``);
* anything else (``Q060``): a question id, exactly or ignoring ASCII case; the list
  goes to the question's first attempt in the current order.

The dialog only collects the text (tests replace :meth:`GoToDialog.exec`); the
attempt list controller looks it up.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.widgets.labels import plain_label

#: What the box says when empty: every form it accepts.
PLACEHOLDER = "Q060 (question) · #123456 or attempt 123456 · 500000 or row 500000 (row, from 1)"
PROMPT = "Go to a question, an attempt or a row of the list:"

_ATTEMPT = re.compile(r"(?:#|attempt\s*#?)\s*(\d+)", re.IGNORECASE)
_ROW = re.compile(r"(?:row\s*#?\s*)?(\d{1,3}(?:[,_ ]\d{3})+|\d+)", re.IGNORECASE)
_QUESTION = re.compile(r"question\s+(\S.*)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class GoToTarget:
    """Where Go to should go: ``value`` is the attempt id, the row (from 1) or the
    question id as typed."""

    kind: Literal["attempt", "row", "question"]
    value: int | str

    def describe(self) -> str:
        """The target in words ("row 500,000", "attempt #12", "question Q060")."""
        if self.kind == "row":
            return f"row {int(self.value):,}"
        if self.kind == "attempt":
            return f"attempt #{self.value}"
        return f"question {display_text(str(self.value), 60)}"


def parse_go_to(text: str) -> GoToTarget | None:
    """Read what was typed into Go to (see the module docstring); ``None`` if blank."""
    text = " ".join(text.split())
    if not text:
        return None
    if found := _ATTEMPT.fullmatch(text):
        return GoToTarget("attempt", int(found[1]))
    if found := _ROW.fullmatch(text):
        return GoToTarget("row", int(re.sub(r"[,_ ]", "", found[1])))
    if found := _QUESTION.fullmatch(text):
        return GoToTarget("question", found[1])
    return GoToTarget("question", text)


class GoToDialog(QDialog):
    """One line for a question id, an attempt id or a row number; what it will go
    to is shown under it as it is typed."""

    def __init__(self, parent: QWidget | None = None, rows: int = 0) -> None:
        super().__init__(parent)
        self.setWindowTitle("Go to")
        self.setAccessibleName("Go to")
        self.setMinimumWidth(520)
        self._rows = rows
        self.edit = QLineEdit()
        self.edit.setAccessibleName("Question, attempt or row")
        self.edit.setPlaceholderText(PLACEHOLDER)
        self.edit.setClearButtonEnabled(True)
        self.target = plain_label(name="Goes to")
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        for widget in (plain_label(PROMPT), self.edit, self.target, self.buttons):
            layout.addWidget(widget)
        self.edit.textChanged.connect(self._update)
        self._update("")

    def text(self) -> str:
        """What was typed."""
        return self.edit.text()

    def _update(self, text: str) -> None:
        target = parse_go_to(text)
        ok = target is not None
        if target is None:
            self.target.setText(f"The list has {self._rows:,} rows." if self._rows else "")
        elif target.kind == "row" and not 1 <= int(target.value) <= max(self._rows, 1):
            self.target.setText(f"Rows are numbered 1 to {self._rows:,}.")
            ok = False
        else:
            self.target.setText(f"Goes to {target.describe()}.")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(ok)

    @classmethod
    def ask(cls, parent: QWidget | None, rows: int) -> str | None:
        """Show the dialog; the text when accepted, ``None`` when cancelled."""
        dialog = cls(parent, rows)
        try:
            if dialog.exec() != QDialog.DialogCode.Accepted:
                return None
            return dialog.text()
        finally:
            dialog.deleteLater()


__all__ = ["PLACEHOLDER", "GoToDialog", "GoToTarget", "parse_go_to"]
