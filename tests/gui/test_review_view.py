"""The Review view: blind first, then the key, the evidence and the other reviewers' verdicts.

Each test reviews its own copy of the demo database with a real notes store
beside it (``AUDIT.review.sqlite``). What is on screen is checked twice: which
widgets are visible, and the texts of every visible label, button, field and
table cell.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QComboBox,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QRadioButton,
    QScrollArea,
    QTableWidget,
    QWidget,
)

from ai4hse_desk.audit import open_audit
from ai4hse_desk.gui.controllers.reviewer import SETTINGS_KEY
from ai4hse_desk.gui.controllers.views import VIEW_REVIEW
from ai4hse_desk.gui.dialogs import reviewer_name
from ai4hse_desk.gui.main_window import MainWindow
from ai4hse_desk.gui.review.reveal import WITHHELD
from ai4hse_desk.gui.review.texts import VOTES_COLUMN, VOTES_TIP, key_text
from ai4hse_desk.gui.review.view import BLIND, IDLE, REVEALED
from ai4hse_desk.gui.settings import app_settings
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.review.records import BLIND as RECORDED_BLIND
from ai4hse_desk.review.records import NOT_BLIND
from ai4hse_desk.review.values import FALSE, TRUE, UNSURE
from tests.gui.gui_fixtures import HOSTILE, cell

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from pytestqt.qtbot import QtBot

    from ai4hse_desk.gui.review.view import ReviewView
    from ai4hse_desk.review.records import ReviewVerdict

T = TypeVar("T")
FIRST = "Q001"
BOB_NOTE = f"bob's reason {HOSTILE}"


@pytest.fixture
def audit(pristine: Path, tmp_path: Path) -> Path:
    """A private copy of the demo, whose notes store starts empty."""
    folder = tmp_path / "audit"
    folder.mkdir()
    return Path(shutil.copyfile(pristine, folder / "audit.sqlite"))


def in_store(audit: Path, work: Callable[[NotesStore], T]) -> T:
    """Run ``work(store)`` on a second connection to the audit's notes store."""
    with open_audit(audit) as db:
        store = NotesStore.open(db)
        try:
            return work(store)
        finally:
            store.close()


def stored(audit: Path, reviewer: str = "ann", qid: str = FIRST) -> ReviewVerdict | None:
    return in_store(audit, lambda s: ReviewBook(s).own_verdict(qid, reviewer))


def bob_submits(audit: Path) -> None:
    """Bob's submitted key_wrong verdict on Q001 (he proposes A only)."""
    in_store(audit, lambda s: ReviewBook(s).save_verdict(
        FIRST, "bob", verdict="key_wrong", blind_answer=[TRUE, FALSE, FALSE, FALSE],
        proposed_key=[TRUE, FALSE, FALSE, FALSE], confidence="high", source="ISO 45001",
        note=BOB_NOTE,
    ))  # fmt: skip


def open_review(qtbot: QtBot, audit: Path, reviewer: str | None = "ann") -> MainWindow:
    if reviewer is not None:
        settings = app_settings()
        settings.setValue(SETTINGS_KEY, reviewer)
        settings.sync()
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    assert win.open_path(audit, wait=True)
    win.menu_actions["review"].trigger()
    settle(win)
    return win


def settle(win: MainWindow) -> None:
    assert win.tasks.wait_idle()


@pytest.fixture
def window(qtbot: QtBot, audit: Path) -> Iterator[MainWindow]:
    bob_submits(audit)
    win = open_review(qtbot, audit)
    yield win
    win.close()


def visible_texts(root: QWidget) -> list[str]:
    """Every text a reviewer can read in ``root``: labels, buttons, fields, table cells."""
    texts: list[str] = []
    for widget in root.findChildren(QWidget):
        if not widget.isVisible():
            continue
        if isinstance(widget, QLabel | QAbstractButton | QLineEdit):
            texts.append(widget.text())
        elif isinstance(widget, QComboBox):
            texts.append(widget.currentText())
        elif isinstance(widget, QPlainTextEdit):
            texts.append(widget.toPlainText())
        elif isinstance(widget, QTableWidget):
            for row in range(widget.rowCount()):
                for column in range(widget.columnCount()):
                    item = widget.item(row, column)
                    texts.append("" if item is None else item.text())
                header = widget.verticalHeaderItem(row)
                texts.append("" if header is None else header.text())
    return texts


def visible_tables(root: QWidget) -> list[str]:
    return [t.accessibleName() for t in root.findChildren(QTableWidget) if t.isVisible()]


def press(qtbot: QtBot, view: ReviewView, *keys: Qt.Key, ctrl: bool = False) -> None:
    modifier = Qt.KeyboardModifier.ControlModifier if ctrl else Qt.KeyboardModifier.NoModifier
    target = view.focusWidget() or view.blind
    for key in keys:
        qtbot.keyClick(target, key, modifier)


#: Key n once: TRUE; twice: FALSE; once, then 0: unsure.
_PRESSES = {TRUE: 1, FALSE: 2, UNSURE: 1}


def answer(qtbot: QtBot, view: ReviewView, *values: str) -> None:
    """Answer every option blind with the keys, as a reviewer does (1–9, again, 0)."""
    for position, value in enumerate(values):
        key = Qt.Key(int(Qt.Key.Key_1) + position)
        press(qtbot, view, *(key,) * _PRESSES[value])
        if value == UNSURE:
            press(qtbot, view, Qt.Key.Key_0)


@pytest.fixture
def confirmed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every confirmation the window asks is answered yes; the texts asked, in order."""
    from ai4hse_desk.gui.dialogs import confirm

    asked: list[str] = []

    def answer_yes(_parent: QWidget | None, _title: str, text: str, _action: str) -> bool:
        asked.append(text)
        return True

    monkeypatch.setattr(confirm, "confirm", answer_yes)
    return asked


def assert_nothing_revealed(view: ReviewView) -> None:
    """Not even the hidden parts hold a key, a response or a verdict before the reveal."""
    assert [t.rowCount() for t in view.findChildren(QTableWidget)] == [0, 0, 0]
    reveal = view.reveal
    for label in (reveal.key_line, reveal.blind_line, reveal.evidence, reveal.flags):
        assert label.text() == ""
    assert view.form.key_boxes == []


def key_of(win: MainWindow, qid: str = FIRST) -> tuple[bool, ...]:
    session = win.opening.session
    assert session is not None
    return session.questions[qid].key


# -- blind first ---------------------------------------------------------------------------


def test_before_the_blind_answer_only_the_question_and_options_show(window: MainWindow) -> None:
    view = window.review
    assert window.views.currentIndex() == VIEW_REVIEW
    assert view.phase == BLIND
    assert view.blind.isVisible()
    for hidden in (view.reveal, view.form, view.reveal.options, view.reveal.responses,
                   view.reveal.others, view.submit_button):  # fmt: skip
        assert not hidden.isVisible()
    assert visible_tables(view) == []
    assert_nothing_revealed(view)
    texts = visible_texts(view)
    joined = "\n".join(texts)
    session = window.opening.session
    assert session is not None
    question = session.questions[FIRST]
    assert question.text in texts
    assert all(option.text in texts for option in question.options)
    # No key, no response, no other reviewer: not in any visible text of the view...
    assert key_text(question.key) not in joined
    assert "Key:" not in joined
    for other in ("bob", "ISO 45001", "key_wrong", "Key wrong"):
        assert other not in joined
    assert not any(run_id in joined for run_id in session.runs)
    assert not any(run.model in joined for run in session.runs.values())
    assert "Attempts selecting" not in joined
    assert "✓" not in joined
    # ...nor anywhere in the window: the key as the reveal shows it, and bob's note.
    everywhere = "\n".join(visible_texts(window))
    assert key_text(question.key) not in everywhere
    assert BOB_NOTE not in everywhere
    # Every option starts unanswered (neither the key nor a deliberate-looking answer).
    assert view.blind.answer() == (None,) * question.n_options
    assert view.blind.missing() == ["A", "B", "C", "D"]
    assert view.progress.text() == "0 of 100 submitted · 0 drafts"
    assert "corpus order" in view.queue_line.text()


def test_keys_answer_blind_then_enter_records_it_and_reveals_the_key(
    window: MainWindow, qtbot: QtBot, audit: Path
) -> None:
    view = window.review
    press(qtbot, view, Qt.Key.Key_1)
    assert view.blind.answer() == (TRUE, None, None, None)
    press(qtbot, view, Qt.Key.Key_1, Qt.Key.Key_3, Qt.Key.Key_3, Qt.Key.Key_3)
    assert view.blind.answer() == (FALSE, None, TRUE, None)
    press(qtbot, view, Qt.Key.Key_0)  # the option set last: C
    assert view.blind.answer() == (FALSE, None, UNSURE, None)
    press(qtbot, view, Qt.Key.Key_9)  # no option 9: nothing changes
    press(qtbot, view, Qt.Key.Key_2)
    assert view.blind.answer() == (FALSE, TRUE, UNSURE, None)
    assert stored(audit) is None

    press(qtbot, view, Qt.Key.Key_Return)  # D is not answered yet: nothing is recorded
    settle(window)
    assert stored(audit) is None
    assert view.phase == BLIND
    assert view.error.isVisible()
    from ai4hse_desk.gui.review.blind import unanswered_text

    assert view.error.text() == unanswered_text(["D"])
    assert "option D is not answered yet" in view.error.text()
    press(qtbot, view, Qt.Key.Key_4, Qt.Key.Key_4)  # D: TRUE, then FALSE
    assert view.blind.answer() == (FALSE, TRUE, UNSURE, FALSE)
    press(qtbot, view, Qt.Key.Key_Return)
    settle(window)
    verdict = stored(audit)
    assert verdict is not None
    assert verdict.blind == RECORDED_BLIND
    assert verdict.blind_answer == (FALSE, TRUE, UNSURE, FALSE)
    assert verdict.blind_at
    assert verdict.state == "draft"
    assert verdict.verdict is None

    assert view.phase == REVEALED
    assert view.reveal.isVisible()
    assert view.form.isVisible()
    texts = "\n".join(visible_texts(view))
    assert key_text(key_of(window)) in texts
    assert "Your blind answer: B (unsure: C)" in texts
    session = window.opening.session
    assert session is not None
    assert all(run_id in texts for run_id in session.runs)  # the responses, per run
    assert view.reveal.responses.isVisible()
    votes = view.reveal.options.horizontalHeaderItem(3)
    assert votes is not None
    assert (votes.text(), votes.toolTip()) == (VOTES_COLUMN, VOTES_TIP), "what 'of 20' counts"
    # Bob's verdict is still withheld: ann has not submitted hers.
    assert not view.reveal.others.isVisible()
    assert view.reveal.others_title.text() == WITHHELD
    assert "bob" not in texts
    assert BOB_NOTE not in texts
    assert view.progress.text() == "0 of 100 submitted · 1 draft"
    # The recorded answer is shown, locked: keys no longer change it.
    press(qtbot, view, Qt.Key.Key_1)
    assert view.blind.answer() == (FALSE, TRUE, UNSURE, FALSE)


def test_ctrl_enter_submits_moves_on_and_shows_the_other_verdicts_after(
    window: MainWindow, qtbot: QtBot, audit: Path
) -> None:
    view = window.review
    answer(qtbot, view, TRUE, FALSE, TRUE, FALSE)
    press(qtbot, view, Qt.Key.Key_Return)
    settle(window)
    form = view.form
    form.verdict.setCurrentIndex(form.verdict.findData("key_ok"))
    form.confidence.setCurrentIndex(form.confidence.findData("medium"))
    form.source.setText("EU-OSHA guide")
    form.note.setFocus()
    qtbot.keyClicks(form.note, "fine")
    qtbot.keyClick(form.note, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    settle(window)

    verdict = stored(audit)
    assert verdict is not None
    assert (verdict.state, verdict.verdict, verdict.confidence) == ("submitted", "key_ok", "medium")
    assert (verdict.source, verdict.note, verdict.proposed_key) == ("EU-OSHA guide", "fine", None)
    assert verdict.blind_answer == (TRUE, FALSE, TRUE, FALSE)  # kept as answered blind
    # On to the next question not yet submitted, blind again.
    assert window.reviewing.current == "Q002"
    assert view.phase == BLIND
    assert key_text(key_of(window, "Q002")) not in "\n".join(visible_texts(view))
    assert_nothing_revealed(view)
    assert view.progress.text() == "1 of 100 submitted · 0 drafts"

    view.back_button.click()
    settle(window)
    assert window.reviewing.current == FIRST
    assert view.phase == REVEALED
    assert view.reveal.others.isVisible()
    rows = [tuple(cell(view.reveal.others, r, c).text() for c in range(7))
            for r in range(view.reveal.others.rowCount())]  # fmt: skip
    assert rows == [("bob", "Key wrong", "A", "high", "A", "ISO 45001", BOB_NOTE)]
    assert form.verdict.currentData() == "key_ok"  # her own verdict, to revise


def test_skip_blind_asks_first_then_records_not_blind_and_reveals(
    window: MainWindow, audit: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ai4hse_desk.gui.dialogs import confirm

    view = window.review
    asked: list[tuple[str, str]] = []

    def cancelled(_parent: object, _title: str, text: str, action: str) -> bool:
        asked.append((text, action))
        return False

    monkeypatch.setattr(confirm, "confirm", cancelled)
    view.skip_blind_button.click()  # the reviewer cancels: nothing is recorded
    settle(window)
    assert stored(audit) is None
    assert view.phase == BLIND
    assert len(asked) == 1
    assert "blind answer is given up for good" in asked[0][0]
    assert FIRST in asked[0][0]
    monkeypatch.setattr(confirm, "confirm", lambda _p, _t, _text, _a: True)
    view.skip_blind_button.click()
    settle(window)
    verdict = stored(audit)
    assert verdict is not None
    assert (verdict.blind, verdict.blind_answer) == (NOT_BLIND, None)
    assert verdict.blind_at
    assert view.phase == REVEALED
    assert view.reveal.blind_line.text().startswith("Recorded as not blind")
    assert view.blind.value(0) is None  # nothing ticked


def test_drafts_skip_back_and_the_progress_line(
    window: MainWindow, qtbot: QtBot, audit: Path
) -> None:
    view = window.review
    answer(qtbot, view, FALSE, TRUE, FALSE, FALSE)
    press(qtbot, view, Qt.Key.Key_Return)
    settle(window)
    view.form.verdict.setCurrentIndex(view.form.verdict.findData("unclear_question"))
    press(qtbot, view, Qt.Key.Key_S, ctrl=True)  # Save draft
    settle(window)
    verdict = stored(audit)
    assert verdict is not None
    assert (verdict.state, verdict.verdict) == ("draft", "unclear_question")
    assert window.reviewing.current == FIRST  # a draft stays
    assert view.progress.text() == "0 of 100 submitted · 1 draft"

    view.skip_button.click()
    settle(window)
    assert window.reviewing.current == "Q002"
    assert view.phase == BLIND
    view.skip_button.click()
    settle(window)
    assert window.reviewing.current == "Q003"
    view.back_button.click()
    settle(window)
    assert window.reviewing.current == "Q002"
    view.back_button.click()
    settle(window)
    assert window.reviewing.current == FIRST
    assert view.form.verdict.currentData() == "unclear_question"


def queue_rows(view: ReviewView) -> list[str]:
    rows = view.queue_list
    return [rows.item(n).text() for n in range(rows.count())]


def test_the_queue_list_shows_each_state_and_opens_a_question_again(
    window: MainWindow, qtbot: QtBot, audit: Path
) -> None:
    """Beside the page: every question of the queue with the state of one's own verdict; a
    click opens a submitted one again, with the others' verdicts, to revise."""
    view = window.review
    rows = queue_rows(view)
    assert len(rows) == 100
    assert rows[:2] == ["1. Q001 — to answer", "2. Q002 — to answer"]
    assert view.queue_list.currentRow() == 0, "the question on the page is marked"
    room = view.queue_list.viewport().width() - 8  # (the row's margins)
    tenth = view.queue_list.item(9).text()
    shown = view.queue_list.fontMetrics().elidedText(tenth, Qt.TextElideMode.ElideLeft, room)
    assert shown == tenth, "at 1366×768 a row reads whole, its number too"
    answer(qtbot, view, FALSE, TRUE, FALSE, FALSE)
    press(qtbot, view, Qt.Key.Key_Return)
    settle(window)
    assert queue_rows(view)[0] == "1. Q001 — draft", "a blind answer is a draft"
    form = view.form
    form.verdict.setCurrentIndex(form.verdict.findData("key_ok"))
    form.confidence.setCurrentIndex(form.confidence.findData("medium"))
    form.note.setFocus()
    qtbot.keyClick(form.note, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)  # Submit
    settle(window)
    assert queue_rows(view)[:2] == ["1. Q001 — submitted", "2. Q002 — to answer"]
    assert getattr(stored(audit), "state", None) == "submitted", "as the store holds it"
    assert (window.reviewing.current, view.queue_list.currentRow()) == ("Q002", 1)

    view.queue_list.itemClicked.emit(view.queue_list.item(0))  # a click on row 1
    settle(window)
    assert window.reviewing.current == FIRST
    assert view.phase == REVEALED
    assert form.verdict.currentData() == "key_ok", "one's own verdict, to revise"
    assert view.reveal.others.rowCount() == 1, "bob's verdict: ann's is submitted"
    assert view.position.text() == "Q001 · question 1 of 100 in your queue"
    assert view.queue_list.currentRow() == 0
    view.back_button.click()
    settle(window)
    assert window.reviewing.current == "Q002", "Back returns to where the click came from"

    view.queue_list.itemClicked.emit(view.queue_list.item(0))
    settle(window)
    view.form.note.setPlainText("typed, not saved")
    view.queue_list.itemClicked.emit(view.queue_list.item(0))  # the question on the page
    settle(window)
    assert view.form.note.toPlainText() == "typed, not saved", "asking again keeps the input"


def laid_out(window: MainWindow, width: int, height: int) -> None:
    """Resize ``window`` and let the panes arrange themselves (a zero-delay timer)."""
    window.resize(width, height)
    for _ in range(5):
        QApplication.processEvents()


def assert_question_in_sight(view: ReviewView) -> None:
    """Nothing of the question column scrolls sideways: each radio button and key box ends
    inside its viewport."""
    column = view.splitter.widget(1)
    assert isinstance(column, QScrollArea)
    assert column.horizontalScrollBar().maximum() == 0, "no sideways scroll"
    viewport = column.viewport()
    shown = [w for w in (*view.blind.findChildren(QRadioButton), *view.form.key_boxes)
             if w.isVisible()]  # fmt: skip
    assert shown
    for widget in shown:
        right = widget.mapTo(viewport, QPoint(widget.width(), 0)).x()
        assert right <= viewport.width(), widget.accessibleName()


def test_at_800_px_the_queue_folds_and_the_question_keeps_its_buttons_in_sight(
    window: MainWindow, qtbot: QtBot
) -> None:
    """Two reviewers side by side on one screen: in an 800-px window the list folds away and
    the blind answer's buttons and the verdict form stay in sight (they were cut off behind
    a sideways scroll bar); *Queue list* opens it, and the reviewer's choice holds until the
    window crosses the rule's width, when the rule arranges the panes again."""
    view, panes = window.review, window.review.splitter
    assert panes.list_shown(), "at 1366×768 the list stands beside the question"
    assert panes.width() >= panes.with_list_width()
    laid_out(window, 800, 700)
    assert panes.width() < panes.with_list_width()
    assert not panes.list_shown()
    assert_question_in_sight(view)
    answer(qtbot, view, TRUE, FALSE, TRUE, FALSE)
    press(qtbot, view, Qt.Key.Key_Return)
    settle(window)
    laid_out(window, 800, 700)
    assert view.phase == REVEALED
    assert view.form.isVisible()
    assert_question_in_sight(view)
    assert not panes.list_shown(), "the form's width does not bring the list back"

    assert not view.list_button.isChecked()
    view.list_button.click()  # the reviewer opens the list
    assert panes.list_shown()
    assert view.list_button.isChecked()
    laid_out(window, 840, 700)
    assert panes.list_shown(), "the reviewer's choice holds"
    panes.moveSplitter(0, 1)  # dragged shut
    assert not panes.list_shown()
    assert not view.list_button.isChecked(), "the button follows a drag"
    laid_out(window, 1366, 768)
    assert panes.sizes()[0] == view.queue_list.sizeHint().width(), "the rule again"
    assert view.list_button.isChecked()


def test_leaving_the_view_and_coming_back_keeps_what_was_ticked_and_typed(
    window: MainWindow, qtbot: QtBot
) -> None:
    view = window.review
    answer(qtbot, view, FALSE, TRUE, FALSE, TRUE)
    window.switcher.show_attempt_tab()
    window.switcher.show_review(wait=True)
    assert view.blind.answer() == (FALSE, TRUE, FALSE, TRUE)
    press(qtbot, view, Qt.Key.Key_Return)
    settle(window)
    view.form.note.setPlainText("half written")
    window.switcher.show_compare()
    window.switcher.show_review(wait=True)
    assert view.phase == REVEALED
    assert view.form.note.toPlainText() == "half written"


# -- problems, one line each -----------------------------------------------------------------


def test_refusals_are_one_line_in_the_view(window: MainWindow, qtbot: QtBot, audit: Path) -> None:
    view = window.review
    # Another client of the same reviewer answers Q001 first: the store refuses the
    # second blind answer; the view says so in one line and shows the reveal.
    in_store(audit, lambda s: ReviewBook(s).record_blind(FIRST, "ann", [TRUE, TRUE, TRUE, TRUE]))
    answer(qtbot, view, FALSE, FALSE, FALSE, FALSE)
    press(qtbot, view, Qt.Key.Key_Return)
    settle(window)
    assert view.error.isVisible()
    assert "already answered Q001" in view.error.text()
    assert "\n" not in view.error.text()
    assert view.phase == REVEALED
    verdict = stored(audit)
    assert verdict is not None
    assert verdict.blind_answer == (TRUE,) * 4

    press(qtbot, view, Qt.Key.Key_Return, ctrl=True)  # no verdict chosen yet
    settle(window)
    assert view.error.text().startswith("Choose a verdict")
    form = view.form
    form.verdict.setCurrentIndex(form.verdict.findData("key_wrong"))
    for box, value in zip(form.key_boxes, key_of(window), strict=True):
        box.setCurrentText(TRUE if value else FALSE)
    view.submit_button.click()
    settle(window)
    assert view.error.text().startswith("Key wrong: the proposed key is the official key")
    verdict = stored(audit)
    assert verdict is not None
    assert verdict.state == "draft"


def test_the_name_is_asked_when_the_first_answer_is_recorded(
    qtbot: QtBot, audit: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    asked: list[str] = []

    def answer_carol(_parent: QWidget | None, _current: str) -> str:
        asked.append("?")
        return "carol"

    monkeypatch.setattr(reviewer_name, "ask_name", answer_carol)
    win = open_review(qtbot, audit, reviewer=None)
    view = win.review
    assert view.phase == BLIND  # without a plan, the queue needs no name
    answer(qtbot, view, FALSE, FALSE, FALSE, TRUE)
    press(qtbot, view, Qt.Key.Key_Return)
    settle(win)
    assert asked == ["?"]
    verdict = stored(audit, "carol")
    assert verdict is not None
    assert verdict.blind_answer == (FALSE, FALSE, FALSE, TRUE)
    assert "Reviewer carol" in view.queue_line.text()
    win.close()


def test_with_a_plan_the_queue_is_the_reviewers_own(qtbot: QtBot, audit: Path) -> None:
    plan = in_store(
        audit, lambda s: ReviewBook(s).make_plan(reviewers=["ann", "bob"], per_question=1)
    )
    queue = plan.plan.queue("ann")
    win = open_review(qtbot, audit)
    view = win.review
    assert win.reviewing.current == queue[0]
    assert view.progress.text() == f"0 of {len(queue)} submitted · 0 drafts"
    assert "your queue in the review plan" in view.queue_line.text()
    win.close()

    win = open_review(qtbot, audit, reviewer="dora")  # not one of the plan's reviewers
    assert win.review.phase == IDLE
    assert "no question for dora (its reviewers: ann, bob)" in win.review.info.text()
    win.close()


# -- the window ------------------------------------------------------------------------------


def test_review_is_a_view_with_ctrl_5(window: MainWindow) -> None:
    action = window.menu_actions["review"]
    assert action.shortcut().toString() == "Ctrl+5"
    window.switcher.show_attempt_tab()
    assert window.views.currentIndex() != VIEW_REVIEW
    action.trigger()
    assert window.views.currentIndex() == VIEW_REVIEW
    assert window.views.tabText(VIEW_REVIEW) == "Review"


def test_screenshot_of_the_review_view(audit: Path, tmp_path: Path) -> None:
    out = tmp_path / "review.png"
    run = subprocess.run(
        [sys.executable, "-m", "ai4hse_desk", str(audit), "--screenshot", str(out),
         "--view", "review"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert QImage(str(out)).width() == 1600


@pytest.mark.usefixtures("confirmed")  # Skip blind asks first: yes
def test_the_revealed_responses_colour_correct_and_valid_but_wrong_apart(
    window: MainWindow,
) -> None:
    """A correct attempt's cell takes "Valid ✓"'s colour, a valid but wrong one "Valid ✗"'s."""
    from ai4hse_desk.gui.palette_mode import status_colours_now
    from ai4hse_desk.protocol.outcome import Status

    view = window.review
    view.skip_blind_button.click()
    settle(window)
    table = view.reveal.responses
    colours: dict[str, set[str]] = {"✓": set(), "✗": set()}
    for row in range(table.rowCount()):
        for column in range(2, table.columnCount()):
            item = table.item(row, column)
            if item is not None and item.text()[-1:] in colours:
                colours[item.text()[-1]].add(item.background().color().name())
    assert colours["✓"] == {status_colours_now(Status.VALID, True)[0]}
    assert colours["✗"] <= {status_colours_now(Status.VALID, False)[0]}


def test_the_responses_title_counts_with_thousands_separators(qtbot: QtBot) -> None:
    """A question answered by a thousand runs (the million-attempt file): "1,000 of 1,001"."""
    from ai4hse_desk.gui.review.tables import show_responses
    from ai4hse_desk.index.filters import ListRow
    from ai4hse_desk.protocol.outcome import Status, Track

    rows = [
        ListRow(n, 1, "Q001", f"run-{n:04d}", "m", Track.ANSWER_ONLY, 1, "answered",
                Status.VALID, n > 0, False, False, None, selection=(True,))
        for n in range(1001)
    ]  # fmt: skip
    table, title = QTableWidget(), QLabel()
    qtbot.addWidget(table)
    qtbot.addWidget(title)
    show_responses(table, title, rows)
    assert title.text().startswith("Model responses: 1,000 of 1,001 attempts correct, 1,001 runs")
