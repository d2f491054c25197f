"""Reviewer notes in the window: the flags panel, the notes list, undo, the reviewer's name.

Each test reviews its own copy of the demo database, so its notes store
(``AUDIT.review.sqlite`` beside it) starts empty. Dialogs are driven through
their widgets (``exec`` replaced); message boxes are collected, never shown.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QDialog
from sqlalchemy.exc import OperationalError

from ai4hse_desk.audit import open_audit
from ai4hse_desk.gui.controllers import notes as notes_controller
from ai4hse_desk.gui.controllers.views import TAB_COMPARE, VIEW_ATTEMPTS
from ai4hse_desk.gui.dialogs import reason as reason_dialog
from ai4hse_desk.gui.dialogs import reviewer_name
from ai4hse_desk.gui.dialogs.flag import FlagDialog, FlagValues
from ai4hse_desk.gui.dialogs.history import HistoryDialog
from ai4hse_desk.gui.dialogs.note import NoteDialog
from ai4hse_desk.gui.main_window import MainWindow
from ai4hse_desk.gui.models.attempt_columns import COLUMNS
from ai4hse_desk.notes import Flag, ReviewError
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.list_rows import COLUMNS as COLUMNS_LIST
from ai4hse_desk.verdicts.rescore import iter_verdicts, rescore
from tests.gui.gui_fixtures import cell, sha256, shown_text

if TYPE_CHECKING:
    from collections.abc import Iterator

    from pytestqt.qtbot import QtBot

FLAG_COLUMN = len(COLUMNS) - 1
NOTE_HTML = "<b>x</b> & <i>y</i>"


@pytest.fixture(scope="module")
def attempts_by_question(pristine: Path) -> dict[str, set[int]]:
    found: dict[str, set[int]] = {}
    with open_audit(pristine) as db:
        for verdict in iter_verdicts(db):
            found.setdefault(verdict.question_id, set()).add(verdict.attempt_id)
    return found


@pytest.fixture
def audit(pristine: Path, tmp_path: Path) -> Path:
    """A private copy of the demo (same bytes), in a folder of its own."""
    folder = tmp_path / "audit"
    folder.mkdir()
    return Path(shutil.copyfile(pristine, folder / "audit.sqlite"))


@dataclass(frozen=True)
class ShownHistory:
    """What a history dialog showed (the dialog itself is deleted once closed)."""

    rows: list[tuple[str, ...]]
    details: str


class Recorder:
    """Stands in for the reviewer: the name dialog, message boxes, the history dialog."""

    def __init__(self, name: str | None = "ann") -> None:
        self.name = name
        self.asked = 0
        self.messages: list[tuple[str, str]] = []
        self.histories: list[ShownHistory] = []
        self.reason: str | None = ""  # what the reviewer answers when asked why (None: Cancel)
        self.reasons_asked: list[tuple[str, str]] = []

    def ask_name(self, _parent: object, _current: str) -> str | None:
        self.asked += 1
        return self.name

    def show_message(self, _parent: object, title: str, text: str, **_kw: object) -> None:
        self.messages.append((title, text))

    def ask_reason(self, _parent: object, state: str, what: str) -> str | None:
        self.reasons_asked.append((state, what))
        return self.reason


@pytest.fixture
def reviewer(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    recorder = Recorder()
    monkeypatch.setattr(reviewer_name, "ask_name", recorder.ask_name)
    monkeypatch.setattr(notes_controller, "show_message", recorder.show_message)
    monkeypatch.setattr(reason_dialog, "ask_reason", recorder.ask_reason)

    def history_exec(dialog: HistoryDialog) -> int:
        recorder.histories.append(ShownHistory(dialog.row_texts(), dialog.details.toPlainText()))
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(HistoryDialog, "exec", history_exec)
    return recorder


def open_window(qtbot: QtBot, path: Path) -> MainWindow:
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1600, 1000)
    win.show()
    assert win.open_path(path, wait=True)
    return win


def settle(win: MainWindow) -> None:
    """Let every background read and write of the window deliver (the store is off-thread)."""
    assert win.tasks.wait_idle()


@pytest.fixture
def window(qtbot: QtBot, audit: Path, request: pytest.FixtureRequest) -> Iterator[MainWindow]:
    request.getfixturevalue("reviewer")  # the reviewer answers before the window asks
    win = open_window(qtbot, audit)
    yield win
    win.close()


def flag_dialog_answers(monkeypatch: pytest.MonkeyPatch, values: FlagValues) -> list[str]:
    """The flag dialog, when shown, gets ``values`` typed in and is accepted."""
    seen: list[str] = []

    def fake_exec(dialog: FlagDialog) -> int:
        seen.append(dialog.windowTitle())
        dialog.set_values(values)
        assert dialog.problem_text() == ""
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(FlagDialog, "exec", fake_exec)
    return seen


def note_dialog_answers(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    def fake_exec(dialog: NoteDialog) -> int:
        dialog.note.setPlainText(text)
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(NoteDialog, "exec", fake_exec)


def listed_rows(win: MainWindow) -> list[tuple[str, str]]:
    """(question, flag mark) of every attempt in the list (all pages)."""
    model = win.model
    while model.canFetchMore(win.attempts.table.rootIndex()):
        model.fetchMore(win.attempts.table.rootIndex())
    return [
        (shown_text(model, row, 0), shown_text(model, row, FLAG_COLUMN))
        for row in range(model.rowCount())
    ]


def current_question(win: MainWindow) -> str:
    session, attempt_id = win.opening.session, win.selection.attempt_id
    assert session is not None
    assert attempt_id is not None
    attempt = session.attempt(attempt_id)
    assert attempt is not None
    return attempt.question_id


def rescore_json(path: Path) -> str:
    with open_audit(path) as db:
        return json.dumps(rescore(db, workers=1).runs, sort_keys=True)


# -- flags --------------------------------------------------------------------------


def test_added_flag_is_listed_marked_and_filterable(
    window: MainWindow,
    monkeypatch: pytest.MonkeyPatch,
    attempts_by_question: dict[str, set[int]],
) -> None:
    question = current_question(window)
    titles = flag_dialog_answers(monkeypatch, FlagValues("key_incorrect", 2, "high", NOTE_HTML))
    window.menu_actions["add_flag"].trigger()
    settle(window)

    assert titles == [f"Add a flag to {question}"]
    panel = window.attempts.flags_panel
    assert panel.flag_rows() == [("Key incorrect", "C", "high", "open", "ann", NOTE_HTML)]
    assert panel.tab_titles()[0] == f"Flags on {question}: 1 (1 open)"
    rows = listed_rows(window)
    assert {q for q, mark in rows if mark == "⚑"} == {question}
    assert all(mark == "" for q, mark in rows if q != question)
    assert sum(q == question for q, _mark in rows) == len(attempts_by_question[question])

    window.menu_actions["flagged_only"].trigger()
    settle(window)
    assert window.filters.query().flagged_question_ids == (question,)
    assert window.model.matching == len(attempts_by_question[question])
    assert {q for q, _mark in listed_rows(window)} == {question}

    window.attempt_list.clear_all()  # Esc drops every filter, the flagged-only one included
    assert not window.menu_actions["flagged_only"].isChecked()
    assert window.model.matching == sum(len(ids) for ids in attempts_by_question.values())


def test_resolve_withdraw_reopen_only_open_flags_mark(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    question = current_question(window)
    flag_dialog_answers(monkeypatch, FlagValues("ambiguous_wording", None, "medium", "vague"))
    window.attempts.flags_panel.add_flag_button.click()
    settle(window)
    window.menu_actions["flagged_only"].trigger()
    settle(window)
    panel = window.attempts.flags_panel
    assert window.model.matching > 0

    panel.flag_state_button.click()  # Resolve
    settle(window)
    assert window.model.matching == 0  # no open flag: the flagged-only list is empty
    assert window.menu_actions["flagged_only"].isChecked()
    assert panel.flag_rows() == []  # nothing is selected: nothing to flag or note
    assert not panel.add_flag_button.isEnabled()
    window.menu_actions["flagged_only"].trigger()  # off: the question is listed again
    settle(window)
    window.navigator.jump_to_question(question)
    settle(window)
    assert panel.flag_rows()[0][3] == "resolved"
    assert panel.flag_state_button.text() == "Reopen"
    assert not panel.withdraw_flag_button.isEnabled()

    panel.flag_state_button.click()  # Reopen
    settle(window)
    assert panel.flag_rows()[0][3] == "open"
    window.menu_actions["flagged_only"].trigger()
    settle(window)
    assert {q for q, _mark in listed_rows(window)} == {question}
    window.menu_actions["flagged_only"].trigger()
    settle(window)  # off again

    panel.withdraw_flag_button.click()
    settle(window)
    assert panel.flag_rows()[0][1:4] == ("whole question", "medium", "withdrawn")
    assert all(mark == "" for _q, mark in listed_rows(window))
    assert panel.tab_titles()[0] == f"Flags on {question}: 1 (0 open)"


def test_resolve_and_withdraw_ask_why_and_keep_it_in_the_note(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, reviewer: Recorder
) -> None:
    question = current_question(window)
    flag_dialog_answers(monkeypatch, FlagValues("ambiguous_wording", None, "medium", "vague"))
    window.attempts.flags_panel.add_flag_button.click()
    settle(window)
    panel = window.attempts.flags_panel
    assert panel.flag_state_button.text() == "Resolve…"

    reviewer.reason = None  # Cancel: nothing is recorded
    panel.flag_state_button.click()
    settle(window)
    assert panel.flag_rows()[0][3] == "open"
    reviewer.reason = "reworded in v2"
    panel.flag_state_button.click()
    settle(window)
    assert panel.flag_rows()[0][3:] == ("resolved", "ann", "vague ⏎ — resolved: reworded in v2")
    panel.flag_state_button.click()  # Reopen asks nothing
    settle(window)
    reviewer.reason = "a duplicate"
    panel.withdraw_flag_button.click()
    settle(window)
    assert reviewer.reasons_asked == [
        ("resolved", f"the flag on {question}"),
        ("resolved", f"the flag on {question}"),
        ("withdrawn", f"the flag on {question}"),
    ]
    store = window.notes.store
    assert store is not None
    flag = store.flags()[0]
    assert (flag.state, flag.note.splitlines()[-1]) == ("withdrawn", "— withdrawn: a duplicate")
    assert [r.action for r in store.history(flag.flag_id)] == ["create", "state", "state", "state"]

    attempt = window.selection.attempt_id
    note_dialog_answers(monkeypatch, "odd")
    panel.add_note_button.click()
    settle(window)
    reviewer.reason = "fine after all"
    panel.note_state_button.click()
    settle(window)
    assert reviewer.reasons_asked[-1] == ("resolved", f"the note on attempt #{attempt}")
    assert store.attempt_notes()[0].note == "odd\n— resolved: fine after all"


def test_an_option_with_an_open_flag_is_marked_in_the_options_table(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, reviewer: Recorder
) -> None:
    table = window.attempts.question_panel.table()
    assert [cell(table, row, 0).text() for row in range(table.rowCount())][:2] == ["A", "B"]
    flag_dialog_answers(monkeypatch, FlagValues("key_incorrect", 1, "high", "B is TRUE"))
    window.changes.add_flag()
    settle(window)
    flag_dialog_answers(monkeypatch, FlagValues("option_overlap", 1, "low", "B ≈ C"))
    window.changes.add_flag()
    settle(window)
    flag_dialog_answers(monkeypatch, FlagValues("ambiguous_wording", None, "low", "whole"))
    window.changes.add_flag()
    settle(window)
    letters = [cell(table, row, 0).text() for row in range(table.rowCount())]
    assert letters[:3] == ["A", "B ⚑", "C"]  # a whole-question flag marks no option
    assert cell(table, 1, 0).toolTip() == "Open flags on option B: Key incorrect, Options overlap"
    assert cell(table, 0, 0).toolTip() == ""

    window.navigator.move_row(1)  # away and back: the mark is shown again
    settle(window)
    window.navigator.move_row(-1)
    settle(window)
    assert cell(table, 1, 0).text() == "B ⚑"
    reviewer.reason = ""
    panel = window.attempts.flags_panel
    for _ in range(2):  # resolve the two option-B flags: the mark goes
        panel.select_flag(next(f.flag_id for f in panel_flags(window) if f.option == 1))
        panel.flag_state_button.click()
        settle(window)
    assert cell(table, 1, 0).text() == "B"
    assert cell(table, 1, 0).toolTip() == ""


def panel_flags(window: MainWindow) -> list[Flag]:
    store = window.notes.store
    assert store is not None
    return [f for f in store.flags() if f.state == "open"]


def test_edit_keeps_history_and_undo_reverts_it(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, reviewer: Recorder
) -> None:
    question = current_question(window)
    flag_dialog_answers(monkeypatch, FlagValues("key_incorrect", 0, "low", "first"))
    window.changes.add_flag()
    settle(window)
    titles = flag_dialog_answers(monkeypatch, FlagValues("option_overlap", 1, "high", "second"))
    window.attempts.flags_panel.edit_flag_button.click()
    settle(window)
    assert titles == [f"Edit the flag on {question}"]
    assert window.attempts.flags_panel.flag_rows() == [
        ("Options overlap", "B", "high", "open", "ann", "second")
    ]

    window.attempts.flags_panel.flag_history_button.click()
    settle(window)
    history = reviewer.histories[-1]
    rows = history.rows
    assert len(rows) == 2
    assert [row[2] for row in rows] == ["created", "edited"]
    assert rows[1][3] == (
        "option: A → B; category: Key incorrect → Options overlap; severity: low → high; "
        "note: “first” → “second”"
    )

    window.menu_actions["undo"].trigger()
    settle(window)
    assert window.attempts.flags_panel.flag_rows() == [
        ("Key incorrect", "A", "low", "open", "ann", "first")
    ]
    window.attempts.flags_panel.flag_history_button.click()
    settle(window)
    rows = reviewer.histories[-1].rows
    assert len(rows) == 3
    assert rows[2][2] == f"undo of the change at {rows[1][0]}"
    assert f"Undone: ann's last change on {question}" in window.statusBar().currentMessage()


def test_redo_reapplies_what_undo_took_back_until_a_new_change(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, reviewer: Recorder
) -> None:
    question = current_question(window)
    redo = window.menu_actions["redo"]
    assert redo.shortcut().toString() == "Ctrl+Shift+Z"
    assert redo.isEnabled() == window.menu_actions["undo"].isEnabled()
    flag_dialog_answers(monkeypatch, FlagValues("key_incorrect", 0, "low", "first"))
    window.changes.add_flag()
    settle(window)
    flag_dialog_answers(monkeypatch, FlagValues("key_incorrect", 0, "high", "second"))
    window.attempts.flags_panel.edit_flag_button.click()
    settle(window)
    panel = window.attempts.flags_panel
    window.menu_actions["undo"].trigger()
    settle(window)
    assert panel.flag_rows()[0][2::3] == ("low", "first")
    redo.trigger()
    settle(window)
    assert panel.flag_rows()[0][2::3] == ("high", "second")
    assert f"Redone: ann's last undone change on {question}" in window.statusBar().currentMessage()
    panel.flag_history_button.click()
    settle(window)
    rows = reviewer.histories[-1].rows
    assert [row[2] for row in rows][:2] == ["created", "edited"]
    assert rows[3][2] == f"redo of the change at {rows[1][0]}"
    redo.trigger()
    settle(window)
    assert "Nothing of ann's left to redo." in window.statusBar().currentMessage()

    window.menu_actions["undo"].trigger()
    settle(window)
    note_dialog_answers(monkeypatch, "a new change")
    window.changes.add_note()
    settle(window)
    redo.trigger()  # the new change cleared the chain
    settle(window)
    assert panel.flag_rows()[0][2::3] == ("low", "first")


def test_undo_of_a_new_flag_withdraws_it(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    flag_dialog_answers(monkeypatch, FlagValues("other", None, "medium", "see the source"))
    window.changes.add_flag()
    settle(window)
    assert any(mark == "⚑" for _q, mark in listed_rows(window))
    window.menu_actions["undo"].trigger()
    settle(window)
    assert window.attempts.flags_panel.flag_rows()[0][3] == "withdrawn"
    assert all(mark == "" for _q, mark in listed_rows(window))


def test_reviewer_name_is_asked_once_and_remembered(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, reviewer: Recorder
) -> None:
    flag_dialog_answers(monkeypatch, FlagValues("key_incorrect", None, "medium", ""))
    window.changes.add_flag()
    settle(window)
    window.changes.add_flag()
    settle(window)
    assert reviewer.asked == 1
    assert window.settings.value("reviewer") == "ann"
    assert len(window.attempts.flags_panel.flag_rows()) == 2

    reviewer.name = "  bob  "
    window.menu_actions["reviewer"].trigger()
    assert reviewer.asked == 2
    assert window.settings.value("reviewer") == "bob"
    window.changes.add_flag()
    settle(window)
    assert window.attempts.flags_panel.flag_rows()[-1][4] == "bob"
    selected = window.attempts.flags_panel.selected_flag()  # the new flag, ready for Resolve …
    assert selected is not None
    assert selected.reviewer == "bob"

    reviewer.name = "\x1b[31m"
    window.menu_actions["reviewer"].trigger()
    assert reviewer.messages[-1][0] == "Reviewer name"
    assert window.settings.value("reviewer") == "bob"


def test_cancelled_name_or_dialog_records_nothing(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, reviewer: Recorder, audit: Path
) -> None:
    reviewer.name = None
    flag_dialog_answers(monkeypatch, FlagValues("key_incorrect", None, "medium", ""))
    window.changes.add_flag()
    settle(window)
    monkeypatch.setattr(FlagDialog, "exec", lambda _d: int(QDialog.DialogCode.Rejected))
    reviewer.name = "ann"
    window.changes.add_flag()
    settle(window)
    assert window.attempts.flags_panel.flag_rows() == []
    assert reviewer.asked == 2  # cancelled the first time, so asked again
    assert not audit.with_name("audit.sqlite.review.sqlite").exists()


# -- attempt notes and the notes list -------------------------------------------------


def test_attempt_note_is_added_listed_and_jumped_to(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    attempt = window.selection.attempt_id
    assert attempt is not None
    note_dialog_answers(monkeypatch, "the extraction looks wrong\n<script>")
    window.attempts.flags_panel.add_note_button.click()
    settle(window)
    panel = window.attempts.flags_panel
    assert [row[::3] for row in panel.note_rows()] == [
        ("open", "the extraction looks wrong ⏎ <script>")
    ]
    assert panel.tab_titles()[1] == f"Notes on attempt #{attempt}: 1"
    assert all(mark == "" for _q, mark in listed_rows(window))  # notes do not flag questions

    window.menu_actions["notes_list"].trigger()
    settle(window)
    notes = window.notes_dock.list
    assert [row[0] for row in notes.row_texts()] == ["attempt note"]
    assert notes.row_texts()[0][2] == str(attempt)

    window.navigator.move_row(5)
    settle(window)
    assert window.selection.attempt_id != attempt
    assert panel.note_rows() == []
    notes.activate_row(0)
    settle(window)
    assert window.selection.attempt_id == attempt
    assert len(panel.note_rows()) == 1

    panel.withdraw_note_button.click()
    settle(window)
    assert panel.note_rows()[0][0] == "withdrawn"


@pytest.mark.usefixtures("reviewer")
def test_notes_list_filters_by_state_category_reviewer_and_kind(
    qtbot: QtBot, audit: Path, attempts_by_question: dict[str, set[int]]
) -> None:
    with open_audit(audit) as db, NotesStore.open(db) as store:
        keep = store.add_flag(
            question_id="Q003", category="key_incorrect", note="a", reviewer="ann"
        )
        gone = store.add_flag(
            question_id="Q004", category="key_incorrect", note="b", reviewer="bob"
        )
        store.add_flag(question_id="Q005", category="typo_or_format", note="c", reviewer="ann")
        store.set_flag_state(gone.flag_id, "resolved", reviewer="bob")
        store.add_attempt_note(attempt_id=7, note="d", reviewer="bob")
    win = open_window(qtbot, audit)
    marked = [q for q, mark in listed_rows(win) if mark]
    assert sorted(marked) == ["Q003"] * len(attempts_by_question["Q003"]) + ["Q005"] * len(
        attempts_by_question["Q005"]
    )
    win.notes_dock.show()
    settle(win)
    notes = win.notes_dock.list

    def shown() -> list[str]:
        return sorted(row[-1] for row in notes.row_texts())

    assert shown() == ["a", "b", "c", "d"]
    categories = [notes.category.itemText(i) for i in range(notes.category.count())]
    assert categories[:3] == ["Any category", "Key incorrect", "Ambiguous wording"]
    flagged = {row[-1]: row[COLUMNS_LIST.index("Category")] for row in notes.row_texts()}
    assert flagged == {"a": "Key incorrect", "b": "Key incorrect", "c": "Typo or format", "d": ""}
    notes.state.setCurrentIndex(notes.state.findData("open"))
    assert shown() == ["a", "c", "d"]
    notes.category.setCurrentIndex(notes.category.findData("key_incorrect"))
    assert shown() == ["a"]
    notes.state.setCurrentIndex(0)
    assert shown() == ["a", "b"]
    notes.category.setCurrentIndex(0)
    notes.reviewer.setCurrentIndex(notes.reviewer.findData("bob"))
    assert shown() == ["b", "d"]
    notes.kind.setCurrentIndex(notes.kind.findData("flag"))
    assert shown() == ["b"]
    assert notes.count.text() == "1 of 4 flags and notes"

    notes.activate_row(0)  # a flag: the first listed attempt of its question
    assert current_question(win) == "Q004"
    assert keep.question_id == "Q003"
    win.close()


# -- what must never change -------------------------------------------------------------


@pytest.mark.usefixtures("reviewer")
def test_audit_and_scores_unchanged_after_every_kind_of_change(
    qtbot: QtBot, audit: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, scores = sha256(audit), rescore_json(audit)
    win = open_window(qtbot, audit)
    flag_dialog_answers(monkeypatch, FlagValues("key_incorrect", 1, "high", "key B"))
    win.changes.add_flag()
    settle(win)
    flag_dialog_answers(monkeypatch, FlagValues("key_incorrect", 2, "high", "key C"))
    flag = win.attempts.flags_panel.selected_flag()
    assert flag is not None
    win.changes.edit_flag(flag.flag_id)
    settle(win)
    win.attempts.flags_panel.flag_state_button.click()
    settle(win)
    note_dialog_answers(monkeypatch, "extraction")
    win.changes.add_note()
    settle(win)
    win.changes.undo()
    settle(win)
    win.menu_actions["flagged_only"].trigger()
    settle(win)
    win.close()
    assert sha256(audit) == before
    assert rescore_json(audit) == scores
    assert sorted(p.name for p in audit.parent.iterdir()) == [
        "audit.sqlite",
        "audit.sqlite.review.sqlite",
    ]


def test_reading_only_leaves_nothing_beside_the_audit(
    qtbot: QtBot, audit: Path, reviewer: Recorder
) -> None:
    win = open_window(qtbot, audit)
    win.navigator.move_row(3)
    win.changes.undo()  # nothing to undo: no store is made for it
    settle(win)
    assert "creates" in win.attempts.flags_panel.store_line.text()
    win.close()
    assert [p.name for p in audit.parent.iterdir()] == ["audit.sqlite"]
    assert reviewer.asked == 0


def test_html_in_notes_shows_literally_everywhere(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, reviewer: Recorder
) -> None:
    flag_dialog_answers(monkeypatch, FlagValues("other", None, "low", NOTE_HTML))
    window.changes.add_flag()
    settle(window)
    window.attempts.flags_panel.flag_history_button.click()
    settle(window)
    history = reviewer.histories[-1]
    assert history.details.endswith(f"note:\n{NOTE_HTML}")
    assert NOTE_HTML in history.rows[0][3]
    window.notes_dock.show()
    settle(window)
    assert window.notes_dock.list.row_texts()[0][-1] == NOTE_HTML
    item = cell(window.attempts.flags_panel.flags_table, 0, 5)
    assert item.text() == NOTE_HTML
    assert item.data(Qt.ItemDataRole.ToolTipRole) is None
    assert window.attempts.flags_panel.store_line.textFormat() == Qt.TextFormat.PlainText


# -- problems ---------------------------------------------------------------------------


def test_unusable_store_keeps_the_window_working_read_only(
    qtbot: QtBot, audit: Path, reviewer: Recorder
) -> None:
    audit.with_name("audit.sqlite.review.sqlite").mkdir()  # the store's place is taken
    win = open_window(qtbot, audit)
    assert reviewer.messages
    assert reviewer.messages[0][0] == "Reviewer notes unavailable"
    assert "is a directory" in reviewer.messages[0][1]
    assert "unavailable" in win.statusBar().currentMessage()
    assert not win.attempts.flags_panel.add_flag_button.isEnabled()
    assert not win.menu_actions["add_flag"].isEnabled()
    assert win.model.matching > 0
    assert win.selection.attempt_id is not None
    win.navigator.move_row(1)
    assert win.selection.attempt_id is not None
    win.close()


def test_a_store_that_cannot_be_made_at_the_first_flag_is_said_once(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, reviewer: Recorder, audit: Path
) -> None:
    assert "creates" in window.attempts.flags_panel.store_line.text()
    audit.with_name("audit.sqlite.review.sqlite").mkdir()  # taken after the file opened
    flag_dialog_answers(monkeypatch, FlagValues("key_incorrect", None, "medium", ""))
    window.changes.add_flag()
    settle(window)
    assert [title for title, _text in reviewer.messages] == ["Reviewer notes unavailable"]
    assert "is a directory" in reviewer.messages[0][1]
    assert not window.menu_actions["add_flag"].isEnabled()
    assert "unavailable" in window.attempts.flags_panel.store_line.text()


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (ReviewError("unknown question: Q999"), "unknown question: Q999"),
        (
            OperationalError(
                "INSERT", {}, sqlite3.OperationalError("attempt to write a readonly database")
            ),
            "attempt to write a readonly database",
        ),
    ],
)
def test_a_refused_change_is_a_message_not_a_traceback(
    window: MainWindow,
    monkeypatch: pytest.MonkeyPatch,
    reviewer: Recorder,
    error: Exception,
    message: str,
) -> None:
    def refuse(*_a: object, **_kw: object) -> None:
        raise error

    flag_dialog_answers(monkeypatch, FlagValues("key_incorrect", None, "medium", ""))
    monkeypatch.setattr(NotesStore, "add_flag", refuse)
    window.changes.add_flag()
    settle(window)
    assert reviewer.messages == [("The change was not saved", message)]
    assert window.attempts.flags_panel.flag_rows() == []
    assert window.attempts.flags_panel.add_flag_button.isEnabled()  # still usable afterwards


def test_store_of_another_audit_opens_with_a_warning(
    qtbot: QtBot, audit: Path, reviewer: Recorder
) -> None:
    with open_audit(audit) as db, NotesStore.open(db) as store:
        store.add_flag(question_id="Q010", category="key_incorrect", note="", reviewer="ann")
    with sqlite3.connect(audit.with_name("audit.sqlite.review.sqlite")) as conn:
        conn.execute("UPDATE review_meta SET value = ? WHERE key = 'audit_sha256'", ("f" * 64,))
    conn.close()
    win = open_window(qtbot, audit)
    assert len(reviewer.messages) == 1
    title, text = reviewer.messages[0]
    assert title == "Reviewer notes"
    assert "another audit file" in text
    assert "another audit file" in win.statusBar().currentMessage()
    assert {q for q, mark in listed_rows(win) if mark} == {"Q010"}
    win.close()


def test_key_flags_can_be_explored_in_the_sensitivity_view_only(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    question = current_question(window)
    flag_dialog_answers(monkeypatch, FlagValues("key_incorrect", 0, "high", "A is wrong"))
    window.changes.add_flag()
    settle(window)
    window.menu_actions["explore"].trigger()
    qtbot.waitUntil(lambda: window.scores.data is not None, timeout=20_000)
    assert window.scores.sensitivity.excluded() == {question}
    assert "not official" in window.statusBar().currentMessage()


def test_key_audit_keys_open_the_compare_grid_and_prefill_a_key_flag(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    window.switcher.show_keyaudit(wait=True)
    top = window.keyaudit.current()
    assert top is not None
    assert top.option is not None
    qtbot.keyClick(window.keyaudit.table, Qt.Key.Key_Return)
    assert window.views.currentIndex() == VIEW_ATTEMPTS
    assert window.attempts.tabs.currentIndex() == TAB_COMPARE
    assert current_question(window) == top.question_id

    prefilled: list[FlagValues] = []

    def fake_exec(dialog: FlagDialog) -> int:
        prefilled.append(dialog.values())
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(FlagDialog, "exec", fake_exec)
    window.switcher.show_keyaudit()
    with qtbot.waitSignal(window.notes.flags_changed, timeout=10_000):
        qtbot.keyClick(window.keyaudit.table, Qt.Key.Key_F)
    settle(window)
    (values,) = prefilled
    assert (values.category, values.option) == ("key_incorrect", top.option)
    assert values.note.startswith("Key audit: ")
    store = window.notes.store
    assert store is not None
    (flag,) = store.flags(question_id=top.question_id)
    assert (flag.category, flag.option, flag.state) == ("key_incorrect", top.option, "open")
    assert window.keyaudit.model.index(0, 4).data() == "⚑"


def test_the_notes_list_keeps_an_800_px_window_800_px_wide(window: MainWindow) -> None:
    """Two reviewers side by side on one screen: opening the notes list made an 800-px
    window about 980 px wide (its four filters at their longest choices and the count on
    one line); the filters now give way, their lists still showing whole choices."""
    window.switcher.show_review(wait=True)
    window.resize(800, 900)
    settle(window)
    narrow = window.width()  # 800, or the pages' own minimum where fonts are wider
    notes = window.notes_dock.list
    assert notes.minimumSizeHint().width() <= 760
    window.notes_dock.show()
    settle(window)
    assert window.width() == narrow, "opening the notes list does not widen the window"
    for widget in (notes.state, notes.category, notes.reviewer, notes.kind, notes.count):
        right = widget.mapTo(window, QPoint(widget.width(), 0)).x()
        assert widget.isVisible()
        assert right <= window.width(), widget.accessibleName()
    choices = notes.category.view()
    assert choices.minimumWidth() >= choices.sizeHintForColumn(0)
    window.resize(1400, 900)
    settle(window)
    assert notes.category.width() >= notes.category.sizeHint().width()  # room: whole choices
