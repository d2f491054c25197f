"""Blind everywhere in the window (issue 31): the second reviewer sees nothing of Q001.

A review plan gives every question to ann and bob. Ann flagged Q001, wrote a note on
one of its attempts and submitted a ``key_wrong`` concern on it; bob has recorded
nothing on Q001. Bob's window must then hold nothing of Q001's key, of its runs'
selections and of ann's notes — checked on the text of every visible widget and on
every model the views hold (the attempt list, the question panel, the response, the
compare grid, the flags panel, the notes list, the key audit, the sensitivity
exploration and the notes export written from the window). Once bob's blind answer
is recorded, the key and the selections show, ann's notes still do not; once bob
submits, they do.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import pytest
from PySide6.QtCore import QAbstractItemModel, QAbstractListModel, QModelIndex, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QComboBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QTabBar,
    QTextEdit,
    QWidget,
)

from ai4hse_desk.audit import open_audit
from ai4hse_desk.gui.controllers.reviewer import SETTINGS_KEY
from ai4hse_desk.gui.dialogs import reviewer_name
from ai4hse_desk.gui.main_window import MainWindow
from ai4hse_desk.gui.models.attempt_columns import COL_STATUS, COLUMNS
from ai4hse_desk.gui.review.texts import key_text
from ai4hse_desk.gui.settings import app_settings
from ai4hse_desk.index import AttemptQuery
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.review.records import NOT_BLIND
from ai4hse_desk.review.values import FALSE, TRUE
from ai4hse_desk.review.visibility import HIDDEN_TEXT, SEALED_TEXT

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from pytestqt.qtbot import QtBot

    from ai4hse_desk.gui.review.view import ReviewView

T = TypeVar("T")
FIRST = "Q001"
ANN_FLAG = "ann's flag: option C of Q001 is not what the regulation says"
ANN_NOTE = "ann's note: this run misread Q001"
ANN_CONCERN = "ann's concern: Q001's key should be A only"
SECRETS = (ANN_FLAG, ANN_NOTE, ANN_CONCERN)
_COLUMN = {column.header: i for i, column in enumerate(COLUMNS)}
REVEALING = [_COLUMN[header] for header in ("Correct", "Strict", "Runner ≠ desk")]
FLAG_COLUMN = _COLUMN["Flag"]


@pytest.fixture
def audit(pristine: Path, tmp_path: Path) -> Path:
    """A copy of the demo with a plan (ann and bob review every question), ann's flag,
    note and submitted concern on Q001, and bob's blind answer on Q002 (only)."""
    folder = tmp_path / "audit"
    folder.mkdir()
    path = Path(shutil.copyfile(pristine, folder / "audit.sqlite"))

    def ann(store: NotesStore) -> None:
        book = ReviewBook(store)
        book.make_plan(reviewers=["ann", "bob"], per_question=2)
        store.add_flag(question_id=FIRST, category="key_incorrect", note=ANN_FLAG,
                       reviewer="ann", option=2, severity="high")  # fmt: skip
        attempt = first_attempt(store)
        store.add_attempt_note(attempt_id=attempt, note=ANN_NOTE, reviewer="ann")
        book.save_verdict(FIRST, "ann", verdict="key_wrong", blind_answer=[TRUE] * 4,
                          proposed_key=[TRUE, FALSE, FALSE, FALSE], note=ANN_CONCERN)  # fmt: skip
        book.record_blind("Q002", "bob", [TRUE, TRUE, FALSE, FALSE])

    in_store(path, ann)
    return path


def first_attempt(store: NotesStore) -> int:
    with open_audit(store.audit.path) as db:
        ids = [a.attempt_id for a in db.attempts_by_ids(range(1, 200)) if a.question_id == FIRST]
    return ids[0]


def in_store(audit: Path, work: Callable[[NotesStore], T]) -> T:
    with open_audit(audit) as db:
        store = NotesStore.open(db)
        try:
            return work(store)
        finally:
            store.close()


def open_as(qtbot: QtBot, audit: Path, reviewer: str | None) -> MainWindow:
    settings = app_settings()
    if reviewer is None:
        settings.remove(SETTINGS_KEY)
    else:
        settings.setValue(SETTINGS_KEY, reviewer)
    settings.sync()
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    assert win.open_path(audit, wait=True)
    win.notes_dock.show()  # the notes list is read while it is shown
    settle(win)
    return win


@pytest.fixture
def bob(qtbot: QtBot, audit: Path) -> Iterator[MainWindow]:
    win = open_as(qtbot, audit, "bob")
    yield win
    win.close()


def settle(win: MainWindow) -> None:
    assert win.tasks.wait_idle()


# -- what the window shows -------------------------------------------------------------------


def model_texts(model: QAbstractItemModel) -> list[str]:
    """Every cell's text and tooltip, and every header, of ``model``."""
    texts: list[str] = []
    roles = (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole)
    top = QModelIndex()
    columns = 1 if isinstance(model, QAbstractListModel) else model.columnCount(top)
    for column in range(columns):
        for role in roles:
            texts.append(str(model.headerData(column, Qt.Orientation.Horizontal, role) or ""))
    for row in range(model.rowCount(top)):
        for column in range(columns):
            index = model.index(row, column)
            texts.extend(str(model.data(index, role) or "") for role in roles)
    return texts


def window_texts(win: MainWindow) -> str:
    """The text of every visible widget of the window (and every model a visible view
    holds), the title and the status line."""
    texts = [win.windowTitle(), win.statusBar().currentMessage()]
    for widget in win.findChildren(QWidget):
        if not widget.isVisible():
            continue
        if isinstance(widget, QLabel | QAbstractButton | QLineEdit):
            texts += [widget.text(), widget.toolTip()]
        elif isinstance(widget, QComboBox):
            texts.append(widget.currentText())
        elif isinstance(widget, QPlainTextEdit | QTextEdit):
            texts.append(widget.toPlainText())
        elif isinstance(widget, QTabBar):
            texts += [widget.tabText(i) for i in range(widget.count())]
        elif isinstance(widget, QAbstractItemView) and widget.model() is not None:
            texts += model_texts(widget.model())
    return "\n".join(texts)


def q001_rows(win: MainWindow) -> list[list[str]]:
    """The attempt list's cells of every Q001 row."""
    model = win.model
    rows = []
    for row in range(model.rowCount()):
        cells = [str(model.data(model.index(row, c)) or "") for c in range(model.columnCount())]
        if cells[_COLUMN["Question"]] == FIRST:
            rows.append(cells)
    return rows


def q001_responses(win: MainWindow) -> list[str]:
    session = win.opening.session
    assert session is not None
    assert session.index is not None
    rows = session.index.compare_grid(FIRST)
    attempts = session.db.attempts_by_ids([row.attempt_id for row in rows])
    return [a.raw_response for a in attempts if a.raw_response and len(a.raw_response) > 30]


def compare_texts(win: MainWindow) -> list[str]:
    grid = win.attempts.compare
    return [t for view in (grid.key_view, grid.table, grid.share_view)
            for t in model_texts(view.grid_model()) if t]  # fmt: skip


def show_q001(win: MainWindow, *, compare: bool = False) -> None:
    win.switcher.show_compare() if compare else win.switcher.show_attempt_tab()
    win.navigator.jump_to_question(FIRST)
    settle(win)
    assert win.selection.question_id == FIRST


def key_cells(win: MainWindow) -> list[str]:
    """The question panel's Key column."""
    return [row[2] for row in win.attempts.question_panel.row_texts()]


def exported(win: MainWindow, tmp_path: Path, name: str) -> dict[str, list[dict[str, object]]]:
    target = tmp_path / f"{name}.json"
    win.notes_export.write(target, "json", include_private=True)
    settle(win)
    document: dict[str, list[dict[str, object]]] = json.loads(target.read_text("utf-8"))
    return document


def q001_items(document: dict[str, list[dict[str, object]]]) -> list[dict[str, object]]:
    lists = ("flags", "attempt_notes", "review_verdicts")
    return [item for key in lists for item in document[key] if item["question_id"] == FIRST]


def press(qtbot: QtBot, view: ReviewView, *keys: Qt.Key, ctrl: bool = False) -> None:
    modifier = Qt.KeyboardModifier.ControlModifier if ctrl else Qt.KeyboardModifier.NoModifier
    for key in keys:
        qtbot.keyClick(view.focusWidget() or view.blind, key, modifier)


def answer_blind(qtbot: QtBot, win: MainWindow) -> None:
    """Answer the question the Review view shows: A TRUE, B FALSE, C TRUE, D FALSE."""
    view = win.review
    one, two, three, four = Qt.Key.Key_1, Qt.Key.Key_2, Qt.Key.Key_3, Qt.Key.Key_4
    press(qtbot, view, one, two, two, three, four, four, Qt.Key.Key_Return)
    settle(win)


# -- the second reviewer, blind on Q001 ----------------------------------------------------------


def test_nothing_of_q001_shows_before_bobs_blind_answer(bob: MainWindow, tmp_path: Path) -> None:
    win = bob
    show_q001(win)
    attempts = win.attempts
    # The selected attempt's detail: panels that hold nothing of it, and a cover.
    assert attempts.question_panel.row_texts() == []
    assert attempts.cover.isVisible()
    assert attempts.cover.heading.text() == f"{FIRST} — hidden until your blind answer"
    assert "once you have recorded your blind answer" in attempts.cover.reason.text()
    assert attempts.cover.button.text() == f"Answer {FIRST} blind in the Review view"
    assert not attempts.question_panel.isVisible()
    assert attempts.question_panel.verdict_text() == ""
    assert attempts.verdict_panel.status_text() == ""
    assert attempts.verdict_panel.comparison_texts() == []
    assert attempts.response_view.plain_text() == ""
    assert attempts.flags_panel.flag_rows() == []
    assert attempts.flags_panel.note_rows() == []
    show_q001(win, compare=True)
    assert attempts.compare.question_id is None
    assert compare_texts(win) == []
    # The attempt list: correctness masked on every Q001 row, no ⚑ from ann's flag.
    rows = q001_rows(win)
    assert rows
    for cells in rows:
        assert [cells[c] for c in REVEALING] == ["hidden"] * len(REVEALING)
        assert "✓" not in cells[COL_STATUS]
        assert "✗" not in cells[COL_STATUS]
        assert cells[FLAG_COLUMN] == ""
    # The notes list: nothing of ann's on Q001, and a line saying what is hidden, and why.
    listed = win.notes_dock.list
    assert [row for row in listed.row_texts() if FIRST in row] == []
    assert FIRST in listed.hidden.text()
    assert HIDDEN_TEXT in listed.hidden.text()
    assert listed.review_button.isVisible()
    # Nothing anywhere in the window: ann's words, Q001's key, its runs' responses.
    everywhere = window_texts(win)
    session = win.opening.session
    assert session is not None
    key = key_text(session.questions[FIRST].key)
    for secret in (*SECRETS, key, *q001_responses(win)):
        assert secret not in everywhere
    # A listing by correctness leaves Q001 out (its order would tell the key).
    win.model.sort(_COLUMN["Correct"], Qt.SortOrder.AscendingOrder)
    settle(win)
    assert q001_rows(win) == []
    assert "99 blind questions left out" in attempts.counts.text()
    win.model.sort(0, Qt.SortOrder.AscendingOrder)
    win.filters.correct.setCurrentIndex(win.filters.correct.findData(True))
    assert q001_rows(win) == []
    win.filters.correct.setCurrentIndex(0)
    assert q001_rows(win)
    # A search of the responses leaves it out; a search for its id lists it, masked.
    for text, lists_q001 in (("true", False), ("q001", True)):  # Q001 answers "[true, …]"
        win.attempt_list.apply_query(AttemptQuery(text=text))
        settle(win)
        assert bool(q001_rows(win)) is lists_q001
    assert {cells[_COLUMN["Correct"]] for cells in q001_rows(win)} == {"hidden"}
    win.attempt_list.clear_all()
    settle(win)
    # The key audit ranks every question but shows none of Q001's evidence.
    win.switcher.show_keyaudit(wait=True)
    ranked = [win.keyaudit.model.item(r) for r in range(win.keyaudit.model.rowCount())]
    assert [item.question_id for item in ranked if item] == ["Q002"]  # bob answered it
    assert FIRST not in "\n".join(model_texts(win.keyaudit.model))
    assert win.keyaudit.reasons.toPlainText().startswith("Q002 —")
    assert "100 questions ranked · 1 shown, 99 hidden until your blind answer (Review view)" in (
        win.keyaudit.corpus.text()
    )
    # The sensitivity exploration: ann's key_incorrect flag is not bob's to explore,
    # and Q001 cannot be left out by hand either.
    win.switcher.show_scores(wait=True)
    win.changes.explore()
    settle(win)
    assert "No question has an open “Key incorrect” flag" in win.statusBar().currentMessage()
    panel = win.scores.sensitivity
    assert panel.questions.count() == 100
    assert FIRST not in panel.excluded()
    panel.set_excluded_questions({FIRST, "Q002"}, "by hand", wait=True)
    assert panel.excluded() == {"Q002"}
    item = next(panel.questions.item(i) for i in range(panel.questions.count())
                if panel.questions.item(i).data(Qt.ItemDataRole.UserRole) == FIRST)  # fmt: skip
    assert not item.flags() & Qt.ItemFlag.ItemIsEnabled
    # The export from the window: nothing of Q001 (its private key, ann's notes).
    document = exported(win, tmp_path, "blind")
    assert q001_items(document) == []
    text = json.dumps(document, ensure_ascii=False)
    assert not any(secret in text for secret in SECRETS)
    # The way out: the cover's button opens Q001 in the Review view, blind.
    assert win.sight.blind_questions() >= {FIRST}
    show_q001(win)
    attempts.cover.button.click()
    settle(win)
    assert win.views.currentWidget() is win.review_page
    assert (win.reviewing.current, win.review.phase) == (FIRST, "blind")


def test_the_blind_answer_shows_the_key_and_submitting_shows_the_others(
    bob: MainWindow, tmp_path: Path, qtbot: QtBot
) -> None:
    win = bob
    win.switcher.show_review(wait=True)
    assert win.reviewing.current == FIRST
    answer_blind(qtbot, win)
    assert win.review.phase == "revealed"
    flags_line = win.review.reveal.flags.text()  # the Review view's reveal: ann's flag sealed
    assert (
        flags_line
        == f"No open flag of yours on this question. 1 flag of other people: {SEALED_TEXT}."
    )

    # Blind answer recorded: the key and the runs' selections show ...
    show_q001(win)
    session = win.opening.session
    assert session is not None
    assert key_cells(win) == ["TRUE" if k else "FALSE" for k in session.questions[FIRST].key]
    assert win.attempts.flags_panel.flag_rows() == []  # ... but not ann's flag
    assert not win.attempts.cover.isVisible()
    rows = q001_rows(win)
    assert {cells[_COLUMN["Correct"]] for cells in rows} <= {"✓", "✗"}
    assert win.attempts.response_view.plain_text() != ""
    show_q001(win, compare=True)
    assert win.attempts.compare.question_id == FIRST
    assert compare_texts(win)
    # ... ann's flag, note and concern do not, until bob has submitted his verdict.
    show_q001(win)
    assert win.attempts.flags_panel.flag_rows() == []
    assert {cells[FLAG_COLUMN] for cells in rows} == {""}
    assert SEALED_TEXT in win.attempts.flags_panel.store_line.text()
    listed = win.notes_dock.list
    assert [row for row in listed.row_texts() if FIRST in row] == []
    assert SEALED_TEXT in listed.hidden.text()
    everywhere = window_texts(win)
    assert not any(secret in everywhere for secret in SECRETS)
    assert q001_items(exported(win, tmp_path, "answered")) == [
        item for item in q001_items(exported(win, tmp_path, "again")) if item["reviewer"] == "bob"
    ]

    # Submitted: the others' notes show wherever notes show.
    win.switcher.show_review(wait=True)
    form = win.review.form
    form.verdict.setCurrentIndex(form.verdict.findData("key_ok"))
    press(qtbot, win.review, Qt.Key.Key_Return, ctrl=True)
    settle(win)
    show_q001(win)
    assert [row[-1] for row in win.attempts.flags_panel.flag_rows()] == [ANN_FLAG]
    assert {cells[FLAG_COLUMN] for cells in q001_rows(win)} == {"⚑"}
    notes = "\n".join("\t".join(row) for row in win.notes_dock.list.row_texts())
    assert ANN_FLAG in notes
    assert ANN_CONCERN in notes
    assert not win.notes_dock.list.hidden.isVisible()
    text = json.dumps(exported(win, tmp_path, "submitted"), ensure_ascii=False)
    assert all(secret in text for secret in SECRETS)


# -- without a name, and leaving blind mode -------------------------------------------------------


def test_under_a_plan_without_a_name_every_planned_question_is_hidden_and_the_window_asks(
    qtbot: QtBot, audit: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    win = open_as(qtbot, audit, None)
    show_q001(win)
    assert win.attempts.question_panel.row_texts() == []
    assert not any(secret in window_texts(win) for secret in SECRETS)
    from ai4hse_desk.gui.controllers.sight import NO_NAME

    session = win.opening.session
    assert session is not None
    assert win.sight.blind_questions() == frozenset(session.questions)
    cover = win.attempts.cover
    assert cover.isVisible()
    assert cover.reason.text() == NO_NAME
    assert cover.button.text() == "Give your reviewer name…"
    assert all(cells[_COLUMN["Correct"]] == "hidden" for cells in q001_rows(win))
    win.switcher.show_keyaudit(wait=True)  # every question ranked, none shown: said so
    assert win.keyaudit.model.rowCount() == 0
    assert win.keyaudit.corpus.text().startswith(
        "100 questions ranked · all hidden until you have answered them blind (Review view)"
    )
    win.switcher.show_attempt_tab()

    monkeypatch.setattr(reviewer_name, "ask_name", lambda _parent, _current: "Bob")
    cover.button.click()  # asks the name: Bob is bob (one person, one name)
    settle(win)
    assert win.sight.visibility is not None
    assert win.sight.visibility.viewer == "bob"
    assert cover.isVisible()
    assert HIDDEN_TEXT in cover.heading.text()
    assert cover.reason.text().startswith("The key of Q001")
    win.close()

    win = open_as(qtbot, audit, "dora")  # not one of the plan's reviewers: sees everything
    show_q001(win)
    assert not win.attempts.cover.isVisible()
    assert [row[-1] for row in win.attempts.flags_panel.flag_rows()] == [ANN_FLAG]
    win.close()


def test_leaving_blind_mode_asks_then_records_not_blind_on_the_whole_queue(
    bob: MainWindow, audit: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ai4hse_desk.gui.dialogs import confirm

    win = bob
    asked: list[str] = []
    answers = iter((False, True))

    def answer(_parent: object, _title: str, text: str, _action: str) -> bool:
        asked.append(text)
        return next(answers)

    monkeypatch.setattr(confirm, "confirm", answer)
    action = win.menu_actions["leave_blind"]
    assert action.text() == "&Leave blind mode…"
    action.trigger()  # cancelled: nothing is written
    settle(win)
    before = in_store(audit, lambda s: ReviewBook(s).own_verdicts("bob"))
    assert [v.question_id for v in before] == ["Q002"]  # answered blind in the fixture
    assert "99 questions" in asked[0]
    assert "can never be given" in asked[0]
    action.trigger()
    settle(win)
    mine = in_store(audit, lambda s: ReviewBook(s).own_verdicts("bob"))
    assert len(mine) == 100
    left = {(v.blind, v.blind_answer, v.state) for v in mine if v.question_id != "Q002"}
    assert left == {(NOT_BLIND, None, "draft")}
    assert [v for v in mine if v.question_id == "Q002"] == before  # its blind answer stays
    assert "Blind mode left: 99 questions" in win.statusBar().currentMessage()
    assert win.sight.blind_questions() == frozenset()
    show_q001(win)
    assert not win.attempts.cover.isVisible()
    session = win.opening.session
    assert session is not None
    assert key_cells(win) == ["TRUE" if k else "FALSE" for k in session.questions[FIRST].key]
    assert win.attempts.flags_panel.flag_rows() == []  # ann's: sealed until bob submits


# -- undo and redo of a verdict -------------------------------------------------------------------


def test_undo_and_redo_of_a_verdict_append_revisions_restoring_it(
    bob: MainWindow, audit: Path, qtbot: QtBot
) -> None:
    from ai4hse_desk.review.read import read_review

    win = bob
    win.switcher.show_review(wait=True)
    assert win.reviewing.current == FIRST
    answer_blind(qtbot, win)
    form = win.review.form
    form.verdict.setCurrentIndex(form.verdict.findData("unclear_question"))
    press(qtbot, win.review, Qt.Key.Key_S, ctrl=True)  # a draft
    settle(win)
    form.verdict.setCurrentIndex(form.verdict.findData("key_ok"))
    form.note.setPlainText("checked the regulation")
    press(qtbot, win.review, Qt.Key.Key_Return, ctrl=True)  # submitted, on to Q002
    settle(win)

    def bobs() -> tuple[tuple[str, str | None, str, str], ...]:
        record = next(v for v in in_store(audit, lambda s: s.run(read_review)).verdicts
                      if v.reviewer == "bob" and v.question_id == FIRST)  # fmt: skip
        return tuple((r.action, r.verdict, r.state, r.note) for r in record.revisions)

    assert [step[0] for step in bobs()] == ["create", "edit", "submit"]
    undo, redo = win.menu_actions["undo"], win.menu_actions["redo"]
    assert undo.text() == "&Undo last change"
    undo.trigger()
    settle(win)
    assert bobs()[-1] == ("undo", "unclear_question", "draft", "")
    assert "Undone: bob's verdict on Q001 is back to draft, Question unclear" in (
        win.statusBar().currentMessage()
    )
    undo.trigger()
    settle(win)
    assert bobs()[-1] == ("undo", None, "draft", "")
    undo.trigger()  # the blind answer itself is never taken back
    settle(win)
    assert len(bobs()) == 5
    assert "blind answer on Q001 is kept for good" in win.statusBar().currentMessage()
    redo.trigger()
    settle(win)
    assert bobs()[-1] == ("redo", "unclear_question", "draft", "")
    redo.trigger()
    settle(win)
    assert bobs()[-1] == ("redo", "key_ok", "submitted", "checked the regulation")
    assert [step[0] for step in bobs()] == ["create", "edit", "submit", "undo", "undo",
                                            "redo", "redo"]  # fmt: skip
    redo.trigger()
    settle(win)
    assert "Nothing of bob's left to redo." in win.statusBar().currentMessage()
    verdict = in_store(audit, lambda s: ReviewBook(s).own_verdict(FIRST, "bob"))
    assert verdict is not None
    assert verdict.blind_answer == (TRUE, FALSE, TRUE, FALSE)  # never changed
