"""Shared set-up for the Qt widget tests: no display needed, no thread left behind."""

from __future__ import annotations

import os

import pytest

# Before anything imports Qt: render offscreen unless the caller chose a platform.
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, QThread
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QInputDialog, QMessageBox

from ai4hse_desk.gui.main_window import MainWindow
from ai4hse_desk.gui.workers.gui_collector import GuiThreadCollector
from ai4hse_desk.gui.workers.runner import TaskRunner
from ai4hse_desk.writer.demo import write_demo
from tests.gui.gui_fixtures import MessageBoxes, ShownMessage, ThreadWatch

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from pytestqt.qtbot import QtBot


def pytest_configure(config: pytest.Config) -> None:
    # The offscreen platform warns whenever a shown top-level window's size
    # constraints change (any top-level widget with a layout); with
    # qt_log_level_fail = WARNING that would fail every such test.
    config.addinivalue_line("qt_log_ignore", "This plugin does not support propagateSizeHints")


@pytest.fixture(autouse=True, scope="session")
def gui_thread_collector(qapp: QApplication) -> GuiThreadCollector:
    """As in the window (:mod:`ai4hse_desk.gui.workers.gui_collector`): the cyclic
    collector runs on this thread only, never on a task's worker thread."""
    return GuiThreadCollector(qapp)


@pytest.fixture(autouse=True)
def collected_here(gui_thread_collector: GuiThreadCollector) -> Iterator[None]:
    """What a test leaves in reference cycles is collected here, on the GUI thread, when
    a collection is due, as the window's timer does (a full collection after every test
    cost minutes and found nothing the due one does not)."""
    yield
    gui_thread_collector.collect_due()


@pytest.fixture(autouse=True)
def dangling_qthreads(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[ThreadWatch]:
    """Fail a test that leaves a QThread running (napari's guard; the Python threads are
    ``tests/conftest.py``'s). ``qtbot`` is set up first, so this checks before pytest-qt
    closes the widgets a test handed to it: a test must end the work it started."""
    request.getfixturevalue("qtbot")
    watch = ThreadWatch()
    monkeypatch.setattr(QThread, "start", watch.recording(QThread.start))
    yield watch
    left = watch.still_running()
    if left:
        watch.wait_all()
        pytest.fail(f"QThread(s) left running after the test: {', '.join(left)}", pytrace=False)


@pytest.fixture(autouse=True)
def no_modal_dialogs(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """A dialog a test did not answer itself is refused (cancelled at once, never shown, so
    it cannot hang the run) and fails the test. Tests answer a dialog by replacing the
    ``exec`` of its class (``FlagDialog.exec`` …); message boxes: ``message_boxes``."""
    opened: list[str] = []

    def refuse(what: str, answer: object) -> Callable[..., object]:
        def record(*_args: object, **_kwargs: object) -> object:
            opened.append(what)
            return answer

        return record

    monkeypatch.setattr(QDialog, "exec", refuse("QDialog.exec", 0))
    monkeypatch.setattr(QInputDialog, "getText", refuse("QInputDialog.getText", ("", False)))
    for name in ("getOpenFileName", "getSaveFileName"):
        monkeypatch.setattr(QFileDialog, name, refuse(f"QFileDialog.{name}", ("", "")))
    yield opened
    assert not opened, f"dialogs the test did not answer: {opened}"


@pytest.fixture
def tasks() -> Iterator[TaskRunner]:
    """A task runner for a view tested on its own (shut down afterwards)."""
    runner = TaskRunner()
    yield runner
    runner.shutdown()


@pytest.fixture(scope="session")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo audit database, written once; copy it before changing it."""
    path = tmp_path_factory.mktemp("demo") / "demo.sqlite"
    write_demo(path)
    return path


@pytest.fixture
def window(qtbot: QtBot) -> Iterator[MainWindow]:
    """An empty main window, shown at 1400×900 (test modules may override it)."""
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    yield win
    win.close()


@pytest.fixture(autouse=True)
def _private_desk_dirs(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every test gets its own cache (review indexes, demo), settings and data
    (notes stores that cannot live beside their audit file) folders."""
    monkeypatch.setenv("AI4HSE_DESK_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))
    monkeypatch.setenv("AI4HSE_DESK_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
    monkeypatch.setenv("AI4HSE_DESK_DATA_DIR", str(tmp_path_factory.mktemp("data")))


@pytest.fixture(autouse=True)
def message_boxes(monkeypatch: pytest.MonkeyPatch) -> Iterator[MessageBoxes]:
    """No test ever leaves a modal open (napari's way): ``exec``/``open`` of every
    QMessageBox record the box and return at once; the static helpers, which use
    rich text on auto, are recorded with the format they would have had. At the
    end, every box recorded must have been plain text."""
    from ai4hse_desk.gui import qt_guard

    shown = MessageBoxes()

    def record(box: QMessageBox, *_args: object) -> int:
        shown.append(ShownMessage(box.icon(), box.windowTitle(), box.text(), box.textFormat()))
        box.deleteLater()
        return int(QMessageBox.StandardButton.Ok)

    def static(icon: QMessageBox.Icon) -> Callable[..., int]:
        def show(_parent: object, title: str, text: str, *_args: object, **_kw: object) -> int:
            shown.append(ShownMessage(icon, title, text, Qt.TextFormat.AutoText))
            return int(QMessageBox.StandardButton.Ok)

        return show

    monkeypatch.setattr(QMessageBox, "exec", record)
    monkeypatch.setattr(QMessageBox, "open", record)
    for name, icon in (
        ("critical", QMessageBox.Icon.Critical),
        ("warning", QMessageBox.Icon.Warning),
        ("information", QMessageBox.Icon.Information),
        ("question", QMessageBox.Icon.Question),
        ("about", QMessageBox.Icon.NoIcon),
    ):
        monkeypatch.setattr(QMessageBox, name, static(icon))
    qt_guard.forget_problems()
    yield shown
    qt_guard.forget_problems()
    # Whatever a test did, every message box it caused shows its text literally.
    rich = [m for m in shown if m.text_format != Qt.TextFormat.PlainText]
    assert not rich, f"message boxes not in plain text: {rich}"
