"""Why a flag or note is resolved or withdrawn, asked in a one-line dialog.

The reason is optional; the store appends it to the item's note in the same
revision that changes the state (tests replace :func:`ask_reason`).
"""

from __future__ import annotations

from typing import Final

from PySide6.QtWidgets import QInputDialog, QLineEdit, QWidget

from ai4hse_desk.gui.plain_text import title_text

PROMPT: Final = "Why? (optional; added to the note, and kept in its history)"
#: The verb each state is asked with, in the dialog's title.
VERBS: Final = {"resolved": "Resolve", "withdrawn": "Withdraw"}


def asks_reason(state: str) -> bool:
    """Whether a change to ``state`` asks for a reason (Resolve, Withdraw; not Reopen)."""
    return state in VERBS


def ask_reason(parent: QWidget | None, state: str, what: str) -> str | None:
    """Ask why ``what`` ("the flag on Q015") becomes ``state``; the reason ("" for none)
    when accepted, ``None`` when cancelled (nothing is then recorded)."""
    title = title_text(f"{VERBS.get(state, state)} {what}")
    text, ok = QInputDialog.getText(parent, title, PROMPT, QLineEdit.EchoMode.Normal, "")
    return text if ok else None


def reason_for(parent: QWidget | None, state: str, what: str) -> str | None:
    """Why, when ``state`` asks (:func:`ask_reason`); "" when it does not (Reopen)."""
    return ask_reason(parent, state, what) if asks_reason(state) else ""


__all__ = ["PROMPT", "VERBS", "ask_reason", "asks_reason", "reason_for"]
