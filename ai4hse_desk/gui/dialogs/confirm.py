"""A yes-or-cancel question before a step that cannot be taken back, in plain text.

Skip blind and Leave blind mode give blind answers up for good: the window asks
first, with what will happen said plainly, and Cancel as the default button.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from ai4hse_desk.gui.plain_text import menu_text, title_text


def confirm(parent: QWidget | None, title: str, text: str, action: str) -> bool:
    """Ask ``text`` (plain); True only when the reviewer chooses ``action`` (the button's
    text), never on Cancel, Esc or closing the box."""
    box = QMessageBox(QMessageBox.Icon.Warning, title_text(title), text,
                      QMessageBox.StandardButton.Cancel, parent)  # fmt: skip
    box.setTextFormat(Qt.TextFormat.PlainText)
    chosen = box.addButton(menu_text(action), QMessageBox.ButtonRole.AcceptRole)
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.exec()
    accepted = box.clickedButton() is chosen
    box.deleteLater()
    return accepted


__all__ = ["confirm"]
