"""Issue 14, point 9: the smaller items of a review day, each with its own test."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from ai4hse_desk.audit.records import Option, Question
from ai4hse_desk.gui.dialogs.flag import FlagDialog
from ai4hse_desk.gui.dialogs.note import NoteDialog

if TYPE_CHECKING:
    from pytestqt.qtbot import QtBot

QUESTION = Question("Q001", 1, "Is it safe?", (Option(0, "yes", True), Option(1, "no", False)))
CTRL = Qt.KeyboardModifier.ControlModifier


def shown(qtbot: QtBot, dialog: FlagDialog | NoteDialog) -> None:
    """Show ``dialog`` active, as the reviewer sees it, with the focus in its note."""
    qtbot.addWidget(dialog)
    with qtbot.waitActive(dialog):
        dialog.show()
        dialog.activateWindow()
    dialog.note.setFocus()


# -- Ctrl+Enter saves a dialog ---------------------------------------------------


def test_ctrl_enter_in_the_flag_note_saves_the_flag(qtbot: QtBot) -> None:
    dialog = FlagDialog(QUESTION)
    shown(qtbot, dialog)
    qtbot.keyClicks(dialog.note, "the key")
    with qtbot.waitSignal(dialog.accepted, timeout=1000):
        qtbot.keyClick(dialog.note, Qt.Key.Key_Return, CTRL)
    assert dialog.values().note == "the key"  # no newline typed


def test_ctrl_enter_saves_the_attempt_note(qtbot: QtBot) -> None:
    dialog = NoteDialog("A note on attempt 7")
    shown(qtbot, dialog)
    qtbot.keyClicks(dialog.note, "looks wrong")
    with qtbot.waitSignal(dialog.accepted, timeout=1000):
        qtbot.keyClick(dialog.note, Qt.Key.Key_Return, CTRL)
    assert dialog.note.toPlainText() == "looks wrong"


def test_ctrl_enter_does_not_save_what_cannot_be_saved(qtbot: QtBot) -> None:
    dialog = NoteDialog("A note on attempt 7")
    shown(qtbot, dialog)
    qtbot.keyClick(dialog.note, Qt.Key.Key_Return, CTRL)  # the note is empty
    assert dialog.result() == 0
    assert dialog.isVisible()
