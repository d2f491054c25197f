"""The window fits the screen it opens on, and screenshots come at any asked size."""

from __future__ import annotations

import subprocess
import sys
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray
from PySide6.QtGui import QImage

from ai4hse_desk.gui.app import fit_to_screen
from ai4hse_desk.gui.main_window import MainWindow

if TYPE_CHECKING:
    from pathlib import Path

    from pytestqt.qtbot import QtBot


def test_a_first_start_fits_the_screens_free_area(qtbot: QtBot) -> None:
    win = MainWindow()
    qtbot.addWidget(win)
    win.settings.remove("geometry")
    fit_to_screen(win)
    screen = win.screen()
    assert screen is not None
    free = screen.availableGeometry()
    assert win.width() <= max(free.width(), win.minimumWidth())
    assert win.height() <= max(free.height(), win.minimumHeight())
    assert (win.width(), win.height()) == (min(1500, free.width()), min(950, free.height()))
    win.close()


def test_a_restored_size_is_kept(qtbot: QtBot) -> None:
    first = MainWindow()
    qtbot.addWidget(first)
    screen = first.screen()
    assert screen is not None
    free = screen.availableGeometry()
    size = (free.width() - 40, free.height() - 40)  # smaller than the screen
    first.resize(*size)
    assert (first.width(), first.height()) == size
    first.settings.setValue("geometry", first.saveGeometry())
    first.close()
    win = MainWindow()
    qtbot.addWidget(win)
    assert isinstance(win.settings.value("geometry"), QByteArray)
    fit_to_screen(win)
    assert (win.width(), win.height()) == size
    win.close()


def test_a_screenshot_at_1366_by_768(pristine: Path, tmp_path: Path) -> None:
    out = tmp_path / "small.png"
    result = subprocess.run(
        [sys.executable, "-m", "ai4hse_desk", str(pristine), "--screenshot", str(out),
         "--size", "1366x768"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1366, 768)
    bad = subprocess.run(
        [sys.executable, "-m", "ai4hse_desk", str(pristine), "--screenshot", str(out),
         "--size", "12"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert bad.returncode == 2
    assert bad.stderr.startswith("error: argument --size")
