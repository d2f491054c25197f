"""Reviewer notes in the window: the flags panel, the notes list, undo, the reviewer's name.

Each test reviews its own copy of the demo database, so its notes store
(``AUDIT.review.sqlite`` beside it) starts empty. Dialogs are driven through
their widgets (``exec`` replaced); message boxes are collected, never shown.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog
from pytestqt.qtbot import QtBot
from sqlalchemy.exc import OperationalError

from ai4hse_desk.audit import open_audit
from ai4hse_desk.gui import notes_controller, reviewer_identity
from ai4hse_desk.gui.attempt_table_model import COLUMNS
from ai4hse_desk.gui.flag_dialog import FlagDialog, FlagValues, HistoryDialog, NoteDialog
from ai4hse_desk.gui.main_window import MainWindow
from ai4hse_desk.notes import NotesStore, ReviewError
from ai4hse_desk.verdicts.rescore import iter_verdicts, rescore
from ai4hse_desk.writer.demo import write_demo

FLAG_COLUMN = len(COLUMNS) - 1
NOTE_HTML = "<b>x</b> & <i>y</i>"


@pytest.fixture(scope="module")
def pristine_demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("demo") / "demo.sqlite"
    write_demo(path)
    return path


@pytest.fixture(scope="module")
def attempts_by_question(pristine_demo: Path) -> dict[str, set[int]]:
    found: dict[str, set[int]] = {}
    with open_audit(pristine_demo) as db:
        for verdict in iter_verdicts(db):
            found.setdefault(verdict.question_id, set()).add(verdict.attempt_id)
    return found


@pytest.fixture
def audit(pristine_demo: Path, tmp_path: Path) -> Path:
    """A private copy of the demo (same bytes), in a folder of its own."""
    folder = tmp_path / "audit"
    folder.mkdir()
    return Path(shutil.copyfile(pristine_demo, folder / "audit.sqlite"))


class Recorder:
    """Stands in for the reviewer: the name dialog, message boxes, the history dialog."""

    def __init__(self, name: str | None = "ann") -> None:
        self.name = name
        self.asked = 0
        self.messages: list[tuple[str, str]] = []
        self.histories: list[HistoryDialog] = []

    def ask_name(self, _parent: object, _current: str) -> str | None:
        self.asked += 1
        return self.name

    def show_message(self, _parent: object, title: str, text: str, **_kw: object) -> None:
        self.messages.append((title, text))


@pytest.fixture
def reviewer(monkeypatch: pytest.MonkeyPatch) -> Recorder:
    recorder = Recorder()
    monkeypatch.setattr(reviewer_identity, "ask_name", recorder.ask_name)
    monkeypatch.setattr(notes_controller, "show_message", recorder.show_message)

    def history_exec(dialog: HistoryDialog) -> int:
        recorder.histories.append(dialog)
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


@pytest.fixture
def window(qtbot: QtBot, audit: Path, reviewer: Recorder) -> Iterator[MainWindow]:
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
    while model.canFetchMore(win.table.rootIndex()):
        model.fetchMore(win.table.rootIndex())
    return [
        (model.data(model.index(row, 0)), model.data(model.index(row, FLAG_COLUMN)))
        for row in range(model.rowCount())
    ]


def current_question(win: MainWindow) -> str:
    assert win.session is not None and win.current_attempt is not None
    attempt = win.session.attempt(win.current_attempt)
    assert attempt is not None
    return attempt.question_id


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


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
    window.notes.add_flag_action.trigger()

    assert titles == [f"Add a flag to {question}"]
    panel = window.flags_panel
    assert panel.flag_rows() == [("key_incorrect", "C", "high", "open", "ann", NOTE_HTML)]
    assert panel.tab_titles()[0] == f"Flags on {question}: 1 (1 open)"
    rows = listed_rows(window)
    assert {q for q, mark in rows if mark == "⚑"} == {question}
    assert all(mark == "" for q, mark in rows if q != question)
    assert sum(q == question for q, _mark in rows) == len(attempts_by_question[question])

    window.notes.flagged_only_action.trigger()
    assert window.filters.query().flagged_question_ids == (question,)
    assert window.model.matching == len(attempts_by_question[question])
    assert {q for q, _mark in listed_rows(window)} == {question}

    window.clear_all()  # Esc drops every filter, the flagged-only one included
    assert not window.notes.flagged_only_action.isChecked()
    assert window.model.matching == sum(len(ids) for ids in attempts_by_question.values())


def test_resolve_withdraw_reopen_only_open_flags_mark(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    question = current_question(window)
    flag_dialog_answers(monkeypatch, FlagValues("ambiguous_wording", None, "medium", "vague"))
    window.flags_panel.add_flag_button.click()
    window.notes.flagged_only_action.trigger()
    panel = window.flags_panel
    assert window.model.matching > 0

    panel.flag_state_button.click()  # Resolve
    assert panel.flag_rows()[0][3] == "resolved"
    assert panel.flag_state_button.text() == "Reopen"
    assert not panel.withdraw_flag_button.isEnabled()
    assert window.model.matching == 0  # no open flag: the flagged-only list is empty
    assert window.notes.flagged_only_action.isChecked()

    panel.flag_state_button.click()  # Reopen
    assert panel.flag_rows()[0][3] == "open"
    assert {q for q, _mark in listed_rows(window)} == {question}

    panel.withdraw_flag_button.click()
    assert panel.flag_rows()[0][1:4] == ("whole question", "medium", "withdrawn")
    window.notes.flagged_only_action.trigger()  # off again
    assert all(mark == "" for _q, mark in listed_rows(window))
    assert panel.tab_titles()[0] == f"Flags on {question}: 1 (0 open)"


def test_edit_keeps_history_and_undo_reverts_it(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, reviewer: Recorder
) -> None:
    question = current_question(window)
    flag_dialog_answers(monkeypatch, FlagValues("key_incorrect", 0, "low", "first"))
    window.notes.add_flag()
    titles = flag_dialog_answers(monkeypatch, FlagValues("option_overlap", 1, "high", "second"))
    window.flags_panel.edit_flag_button.click()
    assert titles == [f"Edit the flag on {question}"]
    assert window.flags_panel.flag_rows() == [
        ("option_overlap", "B", "high", "open", "ann", "second")
    ]

    window.flags_panel.flag_history_button.click()
    history = reviewer.histories[-1]
    rows = history.row_texts()
    assert len(rows) == 2
    assert [row[2] for row in rows] == ["created", "edited"]
    assert rows[1][3] == (
        "option: A → B; category: key_incorrect → option_overlap; severity: low → high; "
        "note: “first” → “second”"
    )

    window.notes.undo_action.trigger()
    assert window.flags_panel.flag_rows() == [("key_incorrect", "A", "low", "open", "ann", "first")]
    window.flags_panel.flag_history_button.click()
    rows = reviewer.histories[-1].row_texts()
    assert len(rows) == 3
    assert rows[2][2] == f"undo of the change at {rows[1][0]}"
    assert f"Undone: ann's last change on {question}" in window.statusBar().currentMessage()


def test_undo_of_a_new_flag_withdraws_it(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    flag_dialog_answers(monkeypatch, FlagValues("other", None, "medium", "see the source"))
    window.notes.add_flag()
    assert any(mark == "⚑" for _q, mark in listed_rows(window))
    window.notes.undo_action.trigger()
    assert window.flags_panel.flag_rows()[0][3] == "withdrawn"
    assert all(mark == "" for _q, mark in listed_rows(window))


def test_reviewer_name_is_asked_once_and_remembered(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, reviewer: Recorder
) -> None:
    flag_dialog_answers(monkeypatch, FlagValues("key_incorrect", None, "medium", ""))
    window.notes.add_flag()
    window.notes.add_flag()
    assert reviewer.asked == 1
    assert window.settings.value("reviewer") == "ann"
    assert len(window.flags_panel.flag_rows()) == 2

    reviewer.name = "  bob  "
    window.notes.reviewer_action.trigger()
    assert reviewer.asked == 2
    assert window.settings.value("reviewer") == "bob"
    window.notes.add_flag()
    assert window.flags_panel.flag_rows()[-1][4] == "bob"
    selected = window.flags_panel.selected_flag()  # the new flag, ready for Resolve, History …
    assert selected is not None and selected.reviewer == "bob"

    reviewer.name = "\x1b[31m"
    window.notes.reviewer_action.trigger()
    assert reviewer.messages[-1][0] == "Reviewer name"
    assert window.settings.value("reviewer") == "bob"


def test_cancelled_name_or_dialog_records_nothing(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, reviewer: Recorder, audit: Path
) -> None:
    reviewer.name = None
    flag_dialog_answers(monkeypatch, FlagValues("key_incorrect", None, "medium", ""))
    window.notes.add_flag()
    monkeypatch.setattr(FlagDialog, "exec", lambda _d: int(QDialog.DialogCode.Rejected))
    reviewer.name = "ann"
    window.notes.add_flag()
    assert window.flags_panel.flag_rows() == []
    assert reviewer.asked == 2  # cancelled the first time, so asked again
    assert not audit.with_name("audit.sqlite.review.sqlite").exists()


# -- attempt notes and the notes list -------------------------------------------------


def test_attempt_note_is_added_listed_and_jumped_to(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    attempt = window.current_attempt
    assert attempt is not None
    note_dialog_answers(monkeypatch, "the extraction looks wrong\n<script>")
    window.flags_panel.add_note_button.click()
    panel = window.flags_panel
    assert [row[::3] for row in panel.note_rows()] == [
        ("open", "the extraction looks wrong ⏎ <script>")
    ]
    assert panel.tab_titles()[1] == f"Notes on attempt #{attempt}: 1"
    assert all(mark == "" for _q, mark in listed_rows(window))  # notes do not flag questions

    window.notes.list_action.trigger()
    notes = window.notes.dock.list
    assert [row[0] for row in notes.row_texts()] == ["attempt note"]
    assert notes.row_texts()[0][2] == str(attempt)

    window.move_row(5)
    assert window.current_attempt != attempt
    assert panel.note_rows() == []
    notes.activate_row(0)
    assert window.current_attempt == attempt
    assert len(panel.note_rows()) == 1

    panel.withdraw_note_button.click()
    assert panel.note_rows()[0][0] == "withdrawn"


def test_notes_list_filters_by_state_category_reviewer_and_kind(
    qtbot: QtBot, audit: Path, reviewer: Recorder, attempts_by_question: dict[str, set[int]]
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
    win.notes.dock.show()
    notes = win.notes.dock.list

    def shown() -> list[str]:
        return sorted(row[-1] for row in notes.row_texts())

    assert shown() == ["a", "b", "c", "d"]
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


def test_audit_and_scores_unchanged_after_every_kind_of_change(
    qtbot: QtBot, audit: Path, reviewer: Recorder, monkeypatch: pytest.MonkeyPatch
) -> None:
    before, scores = sha256(audit), rescore_json(audit)
    win = open_window(qtbot, audit)
    flag_dialog_answers(monkeypatch, FlagValues("key_incorrect", 1, "high", "key B"))
    win.notes.add_flag()
    flag_dialog_answers(monkeypatch, FlagValues("key_incorrect", 2, "high", "key C"))
    flag = win.flags_panel.selected_flag()
    assert flag is not None
    win.notes.edit_flag(flag.flag_id)
    win.flags_panel.flag_state_button.click()
    note_dialog_answers(monkeypatch, "extraction")
    win.notes.add_note()
    win.notes.undo()
    win.notes.flagged_only_action.trigger()
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
    win.move_row(3)
    win.notes.undo()  # nothing to undo: no store is made for it
    assert "creates" in win.flags_panel.store_line.text()
    win.close()
    assert [p.name for p in audit.parent.iterdir()] == ["audit.sqlite"]
    assert reviewer.asked == 0


def test_html_in_notes_shows_literally_everywhere(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, reviewer: Recorder
) -> None:
    flag_dialog_answers(monkeypatch, FlagValues("other", None, "low", NOTE_HTML))
    window.notes.add_flag()
    window.flags_panel.flag_history_button.click()
    history = reviewer.histories[-1]
    assert history.details.toPlainText().endswith(f"note:\n{NOTE_HTML}")
    assert NOTE_HTML in history.row_texts()[0][3]
    window.notes.dock.show()
    assert window.notes.dock.list.row_texts()[0][-1] == NOTE_HTML
    item = window.flags_panel.flags_table.item(0, 5)
    assert item.text() == NOTE_HTML and item.data(Qt.ItemDataRole.ToolTipRole) is None
    assert window.flags_panel.store_line.textFormat() == Qt.TextFormat.PlainText


# -- problems ---------------------------------------------------------------------------


def test_unusable_store_keeps_the_window_working_read_only(
    qtbot: QtBot, audit: Path, reviewer: Recorder
) -> None:
    audit.with_name("audit.sqlite.review.sqlite").mkdir()  # the store's place is taken
    win = open_window(qtbot, audit)
    assert reviewer.messages and reviewer.messages[0][0] == "Reviewer notes unavailable"
    assert "is a directory" in reviewer.messages[0][1]
    assert "unavailable" in win.statusBar().currentMessage()
    assert not win.flags_panel.add_flag_button.isEnabled()
    assert not win.notes.add_flag_action.isEnabled()
    assert win.model.matching > 0 and win.current_attempt is not None
    win.move_row(1)
    assert win.current_attempt is not None
    win.close()


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
    window.notes.add_flag()
    assert reviewer.messages == [("The change was not saved", message)]
    assert window.flags_panel.flag_rows() == []
    assert window.flags_panel.add_flag_button.isEnabled()  # still usable afterwards


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
    assert title == "Reviewer notes" and "another audit file" in text
    assert "another audit file" in win.statusBar().currentMessage()
    assert {q for q, mark in listed_rows(win) if mark} == {"Q010"}
    win.close()


def test_key_flags_can_be_explored_in_the_sensitivity_view_only(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    question = current_question(window)
    flag_dialog_answers(monkeypatch, FlagValues("key_incorrect", 0, "high", "A is wrong"))
    window.notes.add_flag()
    window.notes.explore_action.trigger()
    qtbot.waitUntil(lambda: window.scores.data is not None, timeout=20_000)
    assert window.scores.sensitivity.excluded() == {question}
    assert "not official" in window.statusBar().currentMessage()


def test_key_audit_keys_open_the_compare_grid_and_prefill_a_key_flag(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, qtbot: QtBot
) -> None:
    from PySide6.QtCore import Qt

    from ai4hse_desk.gui.main_window import TAB_COMPARE, VIEW_ATTEMPTS

    window.show_keyaudit(wait=True)
    top = window.keyaudit.current()
    assert top is not None and top.option is not None
    qtbot.keyClick(window.keyaudit.table, Qt.Key.Key_Return)
    assert window.views.currentIndex() == VIEW_ATTEMPTS
    assert window.tabs.currentIndex() == TAB_COMPARE
    assert current_question(window) == top.question_id

    prefilled: list[FlagValues] = []

    def fake_exec(dialog: FlagDialog) -> int:
        prefilled.append(dialog.values())
        return int(QDialog.DialogCode.Accepted)

    monkeypatch.setattr(FlagDialog, "exec", fake_exec)
    window.show_keyaudit()
    qtbot.keyClick(window.keyaudit.table, Qt.Key.Key_F)
    (values,) = prefilled
    assert (values.category, values.option) == ("key_incorrect", top.option)
    assert values.note.startswith("Key audit: ")
    store = window.notes.store
    assert store is not None
    (flag,) = store.flags(question_id=top.question_id)
    assert (flag.category, flag.option, flag.state) == ("key_incorrect", top.option, "open")
    assert window.keyaudit.model.index(0, 4).data() == "⚑"
