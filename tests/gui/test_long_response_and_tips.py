"""A 5 MB response opens scrolled to its highlighted list; every list cell and header
says its whole text in a tooltip (issue 14, point 9)."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from ai4hse_desk.gui.main_window import MainWindow
from ai4hse_desk.gui.models.attempt_columns import COL_STATUS, COLUMNS
from ai4hse_desk.gui.panels.response import ResponseView

if TYPE_CHECKING:
    from pathlib import Path

    from pytestqt.qtbot import QtBot


def _long_response(size: int) -> tuple[str, tuple[int, int]]:
    rng = random.Random(5)
    words = ("hazard", "ventilation", "exposure", "limit", "control", "operator", "risk")
    lines = []
    total = 0
    while total < size:
        line = " ".join(rng.choice(words) for _ in range(12)) + f" {total}"
        lines.append(line)
        total += len(line) + 1
    answer = "FINAL_ANSWER: [TRUE, FALSE, TRUE, FALSE]"
    text = "\n".join(lines) + "\n" + answer
    start = text.index("[TRUE, FALSE, TRUE, FALSE]")
    return text, (start, start + len("[TRUE, FALSE, TRUE, FALSE]"))


def test_a_five_megabyte_response_opens_at_its_highlighted_list(qtbot: QtBot) -> None:
    view = ResponseView()
    qtbot.addWidget(view)
    view.resize(640, 400)
    raw, span = _long_response(5_000_000)
    view.set_response(raw, [span])  # set before the view is shown: no size yet
    view.show()
    qtbot.waitExposed(view)
    editor = view.text_edit()
    first_visible = editor.cursorForPosition(editor.viewport().rect().topLeft()).position()
    last_visible = editor.cursorForPosition(editor.viewport().rect().bottomRight()).position()
    shown = view.visible_text().to_qt(span[0])
    assert first_visible <= shown <= last_visible
    assert "[TRUE, FALSE, TRUE, FALSE]" in view.highlighted_text()


def test_every_cell_and_header_of_the_list_has_a_tooltip(qtbot: QtBot, pristine: Path) -> None:
    win = MainWindow()
    qtbot.addWidget(win)
    assert win.open_path(pristine, wait=True)
    assert win.tasks.wait_idle()
    model = win.model
    tip = Qt.ItemDataRole.ToolTipRole
    for column, spec in enumerate(COLUMNS):
        header = model.headerData(column, Qt.Orientation.Horizontal, tip)
        assert header, spec.header
        cell = model.data(model.index(0, column), tip)
        text = model.data(model.index(0, column), Qt.ItemDataRole.DisplayRole)
        if column == COL_STATUS:
            assert str(cell).startswith("desk: ")
        else:
            assert cell == text
    win.close()
