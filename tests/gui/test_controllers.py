"""The window's controllers talk through signals: selection, flags, the session's life.

Each test drives one controller and checks what a reviewer would see elsewhere
(the panels, the list's ⚑ column, the filters, the title), so a signal that is
no longer connected fails here.
"""

from __future__ import annotations

import shutil
import threading
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PySide6.QtWidgets import QDialog

from ai4hse_desk.gui.controllers.opening import APP_TITLE, INDEX_FAILED
from ai4hse_desk.gui.dialogs import reviewer_name
from ai4hse_desk.gui.dialogs.flag import FlagDialog, FlagValues
from ai4hse_desk.gui.dialogs.history import HistoryDialog
from ai4hse_desk.gui.main_window import MainWindow
from ai4hse_desk.gui.models.attempt_columns import COLUMNS
from ai4hse_desk.gui.settings import recent_files
from ai4hse_desk.gui.workers import index_loader
from ai4hse_desk.index import ReviewIndex, ensure_index
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.scores import cache as scores_cache
from ai4hse_desk.verdicts.attempt_detail import AttemptDetail

if TYPE_CHECKING:
    from collections.abc import Iterator

    from pytestqt.qtbot import QtBot

    from tests.gui.gui_fixtures import MessageBoxes

FLAG_COLUMN = len(COLUMNS) - 1
GUI_THREAD = threading.get_ident()


@pytest.fixture
def audit(pristine: Path, tmp_path: Path) -> Path:
    return Path(shutil.copyfile(pristine, tmp_path / "audit.sqlite"))


@pytest.fixture
def window(qtbot: QtBot, audit: Path) -> Iterator[MainWindow]:
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    assert win.open_path(audit, wait=True)
    yield win
    win.close()


def other_detail(window: MainWindow) -> AttemptDetail:
    """The detail of an attempt of another question than the one shown."""
    shown = window.selection.detail
    assert shown is not None
    for row in range(window.model.rowCount()):
        item = window.model.row_data(row)
        if item is not None and item.question_id != shown.question_id:
            window.navigator.select_row(row)
            found = window.selection.detail
            assert found is not None
            return found
    raise AssertionError("the demo has one question only")


def test_selecting_a_row_announces_the_attempt_once(window: MainWindow, qtbot: QtBot) -> None:
    expected = window.model.attempt_id_at(3)
    with qtbot.waitSignal(window.selection.changed) as changed:
        window.navigator.select_row(3)
    (detail,) = changed.args
    assert isinstance(detail, AttemptDetail)
    assert detail.attempt_id == expected == window.selection.attempt_id
    with qtbot.assertNotEmitted(window.selection.changed):
        window.navigator.select_row(3)  # the same row again: nothing new to show


def test_the_panels_follow_the_selection_signal(window: MainWindow) -> None:
    first = window.selection.detail
    assert first is not None
    second = other_detail(window)
    window.navigator.select_row(0)
    assert window.attempts.question_panel.heading_text().startswith(first.heading[:10])
    # The panels show whatever the signal carries: they read no attempt themselves.
    window.selection.changed.emit(second)
    panels = window.attempts
    assert second.question_id in panels.question_panel.heading_text()
    assert panels.response_view.raw_text() == second.raw_response
    assert panels.verdict_panel.reason_text() == second.outcome.reason
    window.switcher.show_compare()
    assert window.tasks.wait_idle()  # the grid is read on its own lane
    grid = panels.compare
    shown = {
        grid.cell_attempt(r, c)
        for r in range(grid.table.rowCount())
        for c in range(grid.table.columnCount())
    }
    assert second.attempt_id in shown
    assert second.question_id in grid.title.text()


def test_adding_a_flag_emits_flags_changed_and_the_lists_mark_it(
    window: MainWindow, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reviewer_name, "ask_name", lambda _parent, _current: "ann")

    def accept(dialog: FlagDialog) -> int:
        dialog.set_values(FlagValues("key_incorrect", 1, "high", "B is the key"))
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(FlagDialog, "exec", accept)
    window.switcher.show_keyaudit(wait=True)
    window.switcher.show_attempt_tab()
    question = window.selection.question_id
    assert question is not None
    with qtbot.waitSignal(window.notes.flags_changed, timeout=10_000) as changed:
        window.menu_actions["add_flag"].trigger()
    assert changed.args == [frozenset({question})]
    model = window.model
    marks: dict[object, object] = {
        model.data(model.index(row, 0)): model.data(model.index(row, FLAG_COLUMN))
        for row in range(model.rowCount())
    }
    assert marks[question] == "⚑"
    assert {mark for q, mark in marks.items() if q != question} == {""}
    audit_model = window.keyaudit.model
    audit_marks = {
        audit_model.index(row, 1).data(): audit_model.index(row, 4).data()
        for row in range(audit_model.rowCount())
    }
    assert audit_marks[question] == "⚑"
    assert {mark for q, mark in audit_marks.items() if q != question} == {""}


def test_every_store_read_and_write_runs_off_the_gui_thread(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[str, int]] = []
    for name in ("open", "add_flag", "flags", "attempt_notes", "undo_last", "history"):
        original = getattr(NotesStore, name)

        def record(
            *args: object, _name: str = name, _original: object = original, **kw: object
        ) -> object:
            calls.append((_name, threading.get_ident()))
            return _original(*args, **kw)  # type: ignore[operator]

        monkeypatch.setattr(NotesStore, name, record)
    monkeypatch.setattr(reviewer_name, "ask_name", lambda _parent, _current: "ann")
    monkeypatch.setattr(
        FlagDialog,
        "exec",
        lambda dialog: (
            dialog.set_values(FlagValues("other", None, "low", "look")),
            int(QDialog.DialogCode.Accepted),
        )[1],
    )
    histories: list[int] = []

    def history_shown(_dialog: HistoryDialog) -> int:
        histories.append(1)
        return 0

    monkeypatch.setattr(HistoryDialog, "exec", history_shown)
    window.changes.add_flag()
    assert window.tasks.wait_idle()
    flag = window.attempts.flags_panel.selected_flag()
    assert flag is not None
    window.changes.show_history(flag.flag_id)
    window.changes.undo()
    assert window.tasks.wait_idle()
    assert histories == [1]
    names = {name for name, _thread in calls}
    assert {"open", "add_flag", "flags", "undo_last", "history"} <= names
    assert all(thread != GUI_THREAD for _name, thread in calls), calls


def test_a_plain_search_is_counted_off_the_gui_thread(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    counted: list[int] = []
    original = ReviewIndex.count

    def count(index: ReviewIndex, query: object = None) -> int:
        counted.append(threading.get_ident())
        return original(index, query)  # type: ignore[arg-type]

    monkeypatch.setattr(ReviewIndex, "count", count)
    window.attempts.search.set_text_now("ventilation")
    assert window.tasks.wait_idle()
    assert counted
    assert GUI_THREAD not in counted
    assert "plain search (slower)" in window.attempts.counts.text()


def test_a_failed_index_build_leaves_the_empty_window(
    window: MainWindow,
    audit: Path,
    tmp_path: Path,
    message_boxes: MessageBoxes,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert window.filters.runs.count() > 0
    other = Path(shutil.copyfile(audit, tmp_path / "other.sqlite"))

    def refuse(*_args: object, **_kwargs: object) -> ReviewIndex:
        raise OSError("no space left on device")

    built = ensure_index  # the one index_loader calls (imported there)
    # The copy has the same bytes, hence the index already made: none is found this time.
    monkeypatch.setattr(index_loader, "open_index", lambda _db: None)
    monkeypatch.setattr(index_loader, "ensure_index", refuse)
    assert window.open_path(other, wait=True)  # the file opens; its index does not
    (shown,) = message_boxes.critical()
    assert (shown.title, shown.text) == (INDEX_FAILED, "no space left on device")
    assert window.opening.session is None
    assert window.windowTitle() == APP_TITLE
    assert window.filters.runs.count() == 0  # not the failed file's runs
    assert window.filters.models.count() == 0
    assert window.model.rowCount() == 0
    assert window.selection.detail is None
    assert window.attempts.question_panel.heading_text() == "No attempt selected"
    assert window.attempts.counts.text() == ""
    assert str(other.resolve()) not in recent_files(window.settings)
    assert "Cannot prepare the review index" in window.statusBar().currentMessage()
    assert not window.menu_actions["add_flag"].isEnabled()
    # The window still opens a good file afterwards.
    monkeypatch.setattr(index_loader, "ensure_index", built)
    assert window.open_path(audit, wait=True)
    assert window.filters.runs.count() > 0
    assert window.model.rowCount() > 0


def test_a_file_opened_on_the_scores_page_is_scored_from_its_index(
    qtbot: QtBot, audit: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[object] = []
    load = scores_cache.load_scores  # the scores view reads it when a load starts

    def recording(*args: object, **kwargs: object) -> object:
        asked.append(kwargs.get("index"))
        return load(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(scores_cache, "load_scores", recording)
    win = MainWindow()
    qtbot.addWidget(win)
    win.switcher.show_scores()  # no file yet: nothing to compute
    assert win.open_path(audit, wait=True)
    assert len(asked) == 1
    assert isinstance(asked[0], ReviewIndex)  # the stored verdicts, not a second derivation
    assert win.scores.data is not None
    win.close()
