"""The window on hostile audit files: an error in plain text, never a crash, never remembered.

The red team's file: ``attempts`` rebuilt with the official columns but no types,
and text in ``repetition``. The window died with SIGSEGV (a ``ValueError`` raised
inside the attempt model's ``data()`` while Qt measured the columns), and as the
file had been remembered as the last one, every later start died too.

Until the audit layer refuses such a file at open time, the open may succeed
and the problem shows only when a row is read: either way the window must show
a plain-text error, keep running, and not remember the file.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from ai4hse_desk.gui.app import start_window
from ai4hse_desk.gui.qt_guard import flush_problems
from ai4hse_desk.gui.settings import app_settings, recent_files
from ai4hse_desk.index import ReviewIndex
from ai4hse_desk.index.session import AuditSession
from tests.gui.gui_fixtures import HOSTILE, MessageBoxes, sha256, untyped_attempts

if TYPE_CHECKING:
    from pathlib import Path

    from pytestqt.qtbot import QtBot

    from ai4hse_desk.gui.main_window import MainWindow

FIRST_THREE = "attempt_id IN (SELECT attempt_id FROM attempts ORDER BY attempt_id LIMIT 3)"


@pytest.fixture
def hostile(pristine: Path, tmp_path: Path) -> Path:
    """A demo copy whose first three attempts have the repetition ``'x'``."""
    path = tmp_path / "hostile.sqlite"
    shutil.copyfile(pristine, path)
    untyped_attempts(path, {"repetition": "x"}, FIRST_THREE)
    return path


def _names_the_problem(text: str) -> bool:
    return "'x'" in text or "repetition" in text


def _exercise(win: MainWindow) -> None:
    """Everything that read rows when the window crashed: measuring, painting, selecting."""
    win.attempts.table.resizeColumnsToContents()
    win.grab()
    for row in range(4):
        win.navigator.select_row(row)
    win.switcher.show_scores(wait=True)
    win.switcher.show_keyaudit(wait=True)
    win.grab()
    QApplication.processEvents()
    flush_problems()


def test_text_in_an_integer_column_is_a_plain_error_not_a_crash(
    window: MainWindow, hostile: Path, pristine: Path, message_boxes: MessageBoxes
) -> None:
    before = sha256(hostile)
    opened = window.open_path(hostile, wait=True)
    if opened:
        _exercise(window)
    errors = message_boxes.critical()
    assert errors
    assert any(_names_the_problem(m.text) for m in errors)
    assert all(m.text_format == Qt.TextFormat.PlainText for m in errors)
    settings = window.settings
    assert settings.value("last_file") is None
    assert str(hostile.resolve()) not in recent_files(settings)
    assert sha256(hostile) == before
    # The window is still there and opens a good file as usual.
    assert window.open_path(pristine, wait=True)
    assert window.model.rowCount() > 0
    assert window.model.read_problem is None
    assert window.settings.value("last_file") == str(pristine.resolve())


@pytest.mark.parametrize("kind", ["not a database", "text in repetition"])
def test_a_last_file_that_fails_starts_the_window_and_shows_the_error(
    qtbot: QtBot, hostile: Path, pristine: Path, message_boxes: MessageBoxes, kind: str
) -> None:
    bad = hostile
    if kind == "not a database":
        bad = hostile.with_name("notes.sqlite")
        bad.write_text("not a database\n")
    settings = app_settings()
    settings.setValue("recent_files", [str(bad.resolve()), str(pristine.resolve())])
    settings.setValue("last_file", str(bad.resolve()))
    settings.sync()
    window = start_window(None)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: bool(message_boxes.critical()), timeout=30_000)
    assert window.isVisible()
    assert all(m.text_format == Qt.TextFormat.PlainText for m in message_boxes)
    again = app_settings()
    assert again.value("last_file") is None
    assert recent_files(again) == [str(pristine.resolve())]
    window.close()


def test_an_exception_inside_data_is_reported_in_plain_text(
    window: MainWindow, pristine: Path, message_boxes: MessageBoxes, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert window.open_path(pristine, wait=True)

    def broken(*_args: object, **_kwargs: object) -> list[object]:
        raise RuntimeError(HOSTILE)

    monkeypatch.setattr(ReviewIndex, "rows", broken)
    window.model.set_flagged(())  # empties the row cache: every row is read again
    window.attempts.table.resizeColumnsToContents()
    window.grab()
    QApplication.processEvents()
    flush_problems()
    (shown,) = message_boxes.critical()  # once, although every cell failed
    assert shown.text_format == Qt.TextFormat.PlainText
    assert shown.text == f"RuntimeError: {HOSTILE}"
    first = window.model.index(0, 0)
    assert window.model.data(first) == "…"
    assert not window.model.flags(first) & Qt.ItemFlag.ItemIsEnabled  # shown greyed out
    assert window.settings.value("last_file") is None


def test_an_attempt_that_cannot_be_read_is_said_once_and_the_file_forgotten(
    window: MainWindow, pristine: Path, message_boxes: MessageBoxes, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert window.open_path(pristine, wait=True)
    shown = window.selection.attempt_id

    def unreadable(_session: object, _attempt_id: int) -> None:
        raise ValueError("invalid literal for int() with base 10: 'x'")

    monkeypatch.setattr(AuditSession, "attempt", unreadable)
    for row in (1, 2, 3):
        window.navigator.select_row(row)
    QApplication.processEvents()
    flush_problems()
    (error,) = message_boxes.critical()  # one box for three attempts
    assert error.text == "ValueError: invalid literal for int() with base 10: 'x'"
    assert error.text_format == Qt.TextFormat.PlainText
    attempt = window.model.attempt_id_at(3)
    assert window.statusBar().currentMessage().startswith(f"Attempt {attempt} cannot be shown")
    assert window.selection.attempt_id == shown  # the panels keep the last attempt shown
    assert window.settings.value("last_file") is None


def test_screenshot_of_a_hostile_file_exits_2_with_one_error_line(
    hostile: Path, tmp_path: Path
) -> None:
    before = sha256(hostile)
    out = tmp_path / "shot.png"
    result = subprocess.run(
        [sys.executable, "-m", "ai4hse_desk", str(hostile), "--screenshot", str(out)],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert result.returncode == 2, result.stderr  # not -11 (SIGSEGV), not 0
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: "), result.stderr
    assert _names_the_problem(lines[0])
    assert not out.exists()
    assert sha256(hostile) == before
