"""Issue 14, point 9: the smaller items of a review day, each with its own test."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from ai4hse_desk.audit import pin
from ai4hse_desk.audit.records import Option, Question
from ai4hse_desk.gui.controllers.opening import APP_TITLE
from ai4hse_desk.gui.dialogs.flag import FlagDialog
from ai4hse_desk.gui.dialogs.note import NoteDialog
from ai4hse_desk.gui.panels.filters import FilterPanel
from ai4hse_desk.gui.widgets.index_bar import BUILDING, READING
from ai4hse_desk.gui.workers import index_loader
from ai4hse_desk.index import build_fts, ensure_index
from ai4hse_desk.index.location import BuildCancelled

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from pytestqt.qtbot import QtBot

    from ai4hse_desk.gui.main_window import MainWindow

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
    with qtbot.waitSignal(dialog.accepted, timeout=10_000):
        qtbot.keyClick(dialog.note, Qt.Key.Key_Return, CTRL)
    assert dialog.values().note == "the key"  # no newline typed


def test_the_flag_dialog_names_categories_in_words_and_records_codes(qtbot: QtBot) -> None:
    dialog = FlagDialog(QUESTION)
    qtbot.addWidget(dialog)
    items = [dialog.category.itemText(i) for i in range(dialog.category.count())]
    assert items[0] == "Key incorrect — the answer key looks wrong"
    assert items[-1] == "Other — something else (say what in the note)"
    assert not any("_" in item for item in items)
    dialog.category.setCurrentIndex(dialog.category.count() - 1)
    assert dialog.problem_text() == (
        "A flag of category “Other” must say in its note what the problem is."
    )
    assert dialog.values().category == "other"


def test_ctrl_enter_saves_the_attempt_note(qtbot: QtBot) -> None:
    dialog = NoteDialog("A note on attempt 7")
    shown(qtbot, dialog)
    qtbot.keyClicks(dialog.note, "looks wrong")
    with qtbot.waitSignal(dialog.accepted, timeout=10_000):
        qtbot.keyClick(dialog.note, Qt.Key.Key_Return, CTRL)
    assert dialog.note.toPlainText() == "looks wrong"


def test_ctrl_enter_does_not_save_what_cannot_be_saved(qtbot: QtBot) -> None:
    dialog = NoteDialog("A note on attempt 7")
    shown(qtbot, dialog)
    qtbot.keyClick(dialog.note, Qt.Key.Key_Return, CTRL)  # the note is empty
    assert dialog.result() == 0
    assert dialog.isVisible()


# -- the Filters dock hides where it filters nothing -----------------------------


def test_the_filters_dock_hides_beside_scores_key_audit_and_review(
    window: MainWindow, pristine: Path
) -> None:
    dock, toggle = window.filters_dock, window.filters_dock.toggleViewAction()
    assert window.open_path(pristine, wait=True)
    assert dock.isVisible()
    assert toggle.isChecked()
    for show in (window.switcher.show_scores, window.switcher.show_keyaudit):
        show(wait=True)
        assert not dock.isVisible()
        assert not toggle.isChecked()  # the toggle says what is shown
        assert not toggle.isEnabled()  # and cannot bring back a dock that filters nothing
    window.switcher.show_review()
    assert not dock.isVisible()
    window.switcher.show_compare()  # back on the attempts: the reviewer's choice again
    assert dock.isVisible()
    assert toggle.isChecked()
    assert toggle.isEnabled()

    toggle.trigger()  # the reviewer closes it on the attempts page
    assert not dock.isVisible()
    window.switcher.show_scores(wait=True)
    window.switcher.show_attempt_tab()
    assert not dock.isVisible()  # and it stays closed
    assert not toggle.isChecked()
    assert toggle.isEnabled()


def _width(window: MainWindow, width: int) -> None:
    for _ in range(2):  # (as a drag does: the dock folds, then the window narrows further)
        window.resize(width, 700)
        for _ in range(3):
            QApplication.processEvents()


def test_in_a_narrow_window_the_filters_dock_folds_and_comes_back(
    window: MainWindow, pristine: Path
) -> None:
    """Two reviewers' 800-px windows side by side: the dock beside the attempts page was
    squeezed to a sliver and the page overflowed (about 840 px). Below the rule's width the
    dock folds away; crossing back it returns; between crossings the reviewer's choice holds,
    on any page."""
    dock, toggle = window.filters_dock, window.filters_dock.toggleViewAction()
    assert window.open_path(pristine, wait=True)
    rule = window.switcher.filters_rule
    assert rule is not None
    assert 800 < rule.fold_width() < 1366
    _width(window, 1366)
    assert dock.isVisible()
    _width(window, 800)
    assert not dock.isVisible()
    assert not toggle.isChecked()
    assert toggle.isEnabled()  # the reviewer may bring it back
    assert window.width() == 800
    _width(window, 1366)
    assert dock.isVisible()

    _width(window, 800)
    toggle.trigger()  # the reviewer wants it, narrow as the window is
    assert dock.isVisible()
    _width(window, 820)  # no crossing: the choice holds
    assert dock.isVisible()
    dock.close()  # closed by its ×, then the window widens: it stays closed
    _width(window, 1366)
    assert not dock.isVisible()
    toggle.trigger()
    assert dock.isVisible()

    window.switcher.show_review()  # narrowed on another page, folded on return
    _width(window, 800)
    window.switcher.show_attempt_tab()
    assert not dock.isVisible()
    window.switcher.show_review()  # widened on another page, back on return
    _width(window, 1366)
    window.switcher.show_attempt_tab()
    assert dock.isVisible()


# -- the run filter has a search box --------------------------------------------


def test_the_run_filter_search_narrows_the_list_not_the_selection(qtbot: QtBot) -> None:
    panel = FilterPanel()
    qtbot.add_widget(panel)
    runs = [(f"run-{n:04d}", f"model-{n % 7}") for n in range(1000)]
    panel.set_choices(runs, [f"model-{n}" for n in range(7)], ["tf"], [1], {})
    panel.runs.set_checked(["run-0042", "run-0500"])
    before = panel.query()
    emitted: list[object] = []
    panel.query_changed.connect(emitted.append)

    qtbot.keyClicks(panel.run_search, "run-004")
    assert panel.runs.visible_values() == [f"run-{n:04d}" for n in range(40, 50)]
    assert panel.query() == before  # run-0500 is hidden, still chosen
    assert emitted == []
    panel.run_search.setText("MODEL-3")  # the model in the label counts, in any case
    assert len(panel.runs.visible_values()) == len([r for r, m in runs if m == "model-3"])
    panel.run_search.clear()
    assert len(panel.runs.visible_values()) == 1000
    assert panel.runs.checked() == ("run-0042", "run-0500")

    panel.run_search.setText("0042")
    panel.set_choices(runs[:3], ["model-0"], ["tf"], [1], {})  # another file: all shown again
    assert panel.run_search.text() == ""
    assert panel.runs.visible_values() == ["run-0000", "run-0001", "run-0002"]


# -- Qt's standard arguments ------------------------------------------------------------

QT_ARGS_PROBE = """
import sys
from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication
from ai4hse_desk.gui import app

class NoWindow(QObject):  # what the start is given back instead of a window
    rest_built = Signal()

def start(path, index_workers=None):
    style = QApplication.style().name()
    print(style, QApplication.isRightToLeft(), path.name, flush=True)
    QTimer.singleShot(0, QApplication.quit)
    return NoWindow()

app.start_window = start
sys.exit(app.run_window(sys.argv[1:]))
"""


def test_qt_standard_arguments_reach_the_application(tmp_path: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "AI4HSE_DESK_CACHE_DIR": str(tmp_path)}
    args = ["--demo", "-style", "Fusion", "-reverse"]
    done = subprocess.run(
        [sys.executable, "-c", QT_ARGS_PROBE, *args],
        env=env, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[:2] == ["fusion", "True"]


@pytest.mark.parametrize(
    ("argv", "desk", "qt"),
    [
        (["--demo", "-style", "Fusion"], ["--demo"], ["-style", "Fusion"]),
        (["-style=Fusion", "a.sqlite"], ["a.sqlite"], ["-style=Fusion"]),
        (
            ["-platform", "offscreen", "-reverse", "--demo", "-stylesheet", "x.qss"],
            ["--demo"],
            ["-platform", "offscreen", "-reverse", "-stylesheet", "x.qss"],
        ),
        (["--demo", "--screenshot", "o.png", "--view", "scores"], None, []),
        (["--", "-style"], ["--", "-style"], []),  # after "--", a file named "-style"
    ],
)
def test_qt_arguments_are_split_from_the_desks(
    argv: list[str], desk: list[str] | None, qt: list[str]
) -> None:
    from ai4hse_desk.gui.app import split_qt_arguments

    assert split_qt_arguments(argv) == (argv if desk is None else desk, qt)


# -- index builds: Cancel for the first, restart for the full-text one -----------


def slow_build(real: Callable[..., object], gate: threading.Event) -> Callable[..., object]:
    """``real``, after reporting progress until cancelled or until ``gate`` opens."""

    def build(db: object, *, progress: Callable[[int, int], bool], **options: object) -> object:
        done = 0
        while not gate.is_set():
            if not progress(done, 1000):
                raise BuildCancelled
            done = min(done + 1, 999)
            time.sleep(0.005)
        return real(db, progress=progress, **options)

    return build


def _cancel_opening(window: MainWindow, qtbot: QtBot) -> None:
    """Click the status bar's Cancel: the window goes back to empty, and says so."""
    window.index_bar.cancel.click()
    qtbot.waitUntil(lambda: window.opening.session is None, timeout=10_000)
    assert window.tasks.wait_idle()
    assert not window.index_bar.isVisible()
    assert window.windowTitle() == APP_TITLE
    assert "cancelled" in window.statusBar().currentMessage()


def test_the_first_index_build_can_be_cancelled(
    window: MainWindow, pristine: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = threading.Event()
    monkeypatch.setattr(index_loader, "ensure_index", slow_build(ensure_index, gate))
    bar = window.index_bar
    assert window.open_path(pristine)
    qtbot.waitUntil(lambda: bar.cancel.isVisible(), timeout=10_000)
    assert bar.progress.isVisible()
    _cancel_opening(window, qtbot)
    gate.set()
    assert window.open_path(pristine, wait=True)  # and the file opens again at once after
    assert window.opening.session is not None
    assert window.model.matching > 0


def test_a_large_files_fingerprint_shows_its_reading_and_can_be_cancelled(
    window: MainWindow, pristine: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading a large file for its sha256 (which names its cached index) takes seconds
    for gigabytes: the status bar says so with its progress and a Cancel, before any
    index is looked for; cancelled, the file is not opened."""
    gate = threading.Event()
    real = pin._report

    def slow(progress: Callable[[int, int], bool], done: int, total: int) -> None:
        while not gate.is_set():
            if not progress(done, total):
                raise pin.FingerprintCancelled
            time.sleep(0.005)
        real(progress, done, total)

    monkeypatch.setattr(pin, "CHUNK", 64 * 1024)
    monkeypatch.setattr(pin, "REPORT_CHUNKS", 1)
    monkeypatch.setattr(pin, "_report", slow)
    monkeypatch.setattr(index_loader, "QUICK_BYTES", 0)  # a file too large to read at once
    bar = window.index_bar
    assert window.open_path(pristine)
    qtbot.waitUntil(lambda: bar.cancel.isVisible(), timeout=10_000)
    assert bar.progress.format() == READING[0]
    assert 0 < bar.progress.value() < bar.progress.maximum()
    _cancel_opening(window, qtbot)
    gate.set()
    read: list[tuple[int, int]] = []
    window.opening.reading_progress.connect(lambda done, total: read.append((done, total)))
    assert window.open_path(pristine, wait=True)
    assert window.model.matching > 0
    size = pristine.stat().st_size
    assert read[-1] == (size, size)  # read whole, then the index
    assert not bar.progress.isVisible()
    assert not bar.cancel.isVisible()


def test_a_small_file_read_at_once_shows_no_reading_and_the_bar_says_which_phase(
    window: MainWindow,
) -> None:
    """A file read in one go (most files) never flashes the bar; a long read stays at
    100 % until the index build's own progress takes the bar over, with its own text."""
    bar = window.index_bar
    bar.hide()
    bar.show_reading(100, 100)
    assert not bar.isVisible()
    bar.show_reading(40, 100)
    assert bar.isVisible()
    assert bar.progress.format() == READING[0]
    bar.show_reading(100, 100)
    assert bar.isVisible()
    assert bar.cancel.isVisible()
    bar.show_progress(5, 100)
    assert bar.progress.format() == BUILDING[0]
    assert bar.progress.value() == 5
    bar.show_progress(100, 100)
    assert not bar.isVisible()


def test_a_cancelled_full_text_build_can_be_restarted(
    window: MainWindow, pristine: Path, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    gate = threading.Event()
    monkeypatch.setattr(index_loader, "build_fts", slow_build(build_fts, gate))
    search, bar = window.attempts.search, window.index_bar
    assert window.open_path(pristine)
    qtbot.waitUntil(lambda: search.cancel.isVisible(), timeout=10000)
    assert not bar.restart_fts.isVisible()
    search.cancel.click()
    qtbot.waitUntil(lambda: bar.restart_fts.isVisible(), timeout=10_000)
    assert search.mode.text() == "plain search (slower): full-text index not built"
    gate.set()
    bar.restart_fts.click()
    qtbot.waitUntil(lambda: search.mode.text() == "full-text search", timeout=10000)
    assert window.tasks.wait_idle()
    assert not bar.restart_fts.isVisible()
