"""The attempt list's status cells: every status its own colour and word, and valid but
wrong never reads like correct (issue 14, point 3)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from ai4hse_desk.gui.main_window import MainWindow
from ai4hse_desk.gui.models.attempt_columns import COL_STATUS

if TYPE_CHECKING:
    from pathlib import Path

    from pytestqt.qtbot import QtBot


def test_each_status_in_the_list_has_its_own_colour_and_word(qtbot: QtBot, pristine: Path) -> None:
    win = MainWindow()
    qtbot.addWidget(win)
    assert win.open_path(pristine, wait=True)
    assert win.tasks.wait_idle()
    model = win.model
    seen: dict[str, str] = {}
    for row in range(min(model.rowCount(), 2400)):
        index = model.index(row, COL_STATUS)
        text = model.data(index, Qt.ItemDataRole.DisplayRole)
        colour = model.data(index, Qt.ItemDataRole.BackgroundRole)
        if text and text != "…" and colour is not None:
            seen.setdefault(str(text), colour.name())
    assert {"Valid ✓", "Valid ✗", "Multiple", "Malformed", "Missing", "Wrong length"} <= set(seen)
    assert len(set(seen.values())) == len(seen), seen  # one colour per status word
    win.close()
