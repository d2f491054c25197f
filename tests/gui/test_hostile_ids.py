"""Ids and names read from the audit file show their invisible characters in the list and
in the filter lists, so a bidi override cannot reorder what the reviewer reads."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QListWidget

from ai4hse_desk.gui.main_window import MainWindow

if TYPE_CHECKING:
    from pytestqt.qtbot import QtBot

HOSTILE_MODEL = "\u202eledom-eurt"


def test_a_bidi_override_in_a_model_name_is_shown_not_obeyed(
    qtbot: QtBot, pristine: Path, tmp_path: Path
) -> None:
    audit = Path(shutil.copyfile(pristine, tmp_path / "hostile.sqlite"))
    with sqlite3.connect(audit) as conn:
        conn.execute("UPDATE runs SET model = ? WHERE model = 'aurora-7b'", (HOSTILE_MODEL,))
    conn.close()
    win = MainWindow()
    qtbot.addWidget(win)
    assert win.open_path(audit, wait=True)
    assert win.tasks.wait_idle()
    cells = {win.model.data(win.model.index(row, 1), Qt.ItemDataRole.DisplayRole)
             for row in range(50)}  # fmt: skip
    assert "⟨RLO⟩ledom-eurt" in cells
    assert not any("\u202e" in str(cell) for cell in cells)
    labels: list[str] = []
    for widget in win.findChildren(QListWidget):
        labels.extend(widget.item(i).text() for i in range(widget.count()))
    assert any("⟨RLO⟩ledom-eurt" in label for label in labels)
    assert not any("\u202e" in label for label in labels)
    win.close()
