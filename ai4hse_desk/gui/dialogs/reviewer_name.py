"""The reviewer's name, asked in a one-line dialog (tests replace :func:`ask_name`)."""

from __future__ import annotations

from PySide6.QtWidgets import QInputDialog, QLineEdit, QWidget

PROMPT = "Your name as a reviewer (recorded with every flag and note you make):"


def ask_name(parent: QWidget | None, current: str) -> str | None:
    """Ask for the reviewer's name (``current`` prefilled); ``None`` when cancelled."""
    text, ok = QInputDialog.getText(
        parent, "Reviewer name", PROMPT, QLineEdit.EchoMode.Normal, current
    )
    return text if ok else None


__all__ = ["PROMPT", "ask_name"]
