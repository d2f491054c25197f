"""Ctrl+Enter saves a dialog, even from inside its multi-line note.

A plain Enter in a note types a new line, as it should; Ctrl+Enter (either Enter
key) presses the dialog's OK button, and only when that button is enabled, so a
dialog that cannot be saved yet stays open with its problem shown.
"""

from __future__ import annotations

from typing import Final

from PySide6.QtWidgets import QDialog, QDialogButtonBox

from ai4hse_desk.gui.widgets.focus_keys import focus_keys

#: The keys that save: Ctrl+Return and Ctrl+Enter on the keypad.
SAVE_KEYS: Final = ("Ctrl+Return", "Ctrl+Enter")


def save_on_ctrl_enter(dialog: QDialog, buttons: QDialogButtonBox) -> None:
    """Let Ctrl+Enter press ``buttons``' OK button (when it is enabled)."""

    def save() -> None:
        ok = buttons.button(QDialogButtonBox.StandardButton.Ok)
        if ok is not None and ok.isEnabled():
            ok.click()

    focus_keys(dialog, [(keys, save) for keys in SAVE_KEYS])


__all__ = ["SAVE_KEYS", "save_on_ctrl_enter"]
