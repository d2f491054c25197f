"""Review ▸ Adjudicate…: the queue, every verdict side by side, the decision recorded.

The panel of :mod:`review_panel` has reviewed; cy adjudicates in the window. What is
on screen is read from the widgets; what is recorded is read back from the store on
a second connection.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import QPoint, Qt

from ai4hse_desk.gui.controllers.views import VIEW_REVIEW
from ai4hse_desk.gui.review.tables import RUN_COLUMNS
from ai4hse_desk.gui.review.texts import VOTES_TIP
from ai4hse_desk.gui.widgets.labels import table_texts as cells
from ai4hse_desk.review.values import FALSE, TRUE
from tests.gui.gui_fixtures import HOSTILE
from tests.gui.review_panel import (
    BOB_NOTE,
    VERDICTS,
    copy_demo,
    decisions,
    name_the_desk,
    open_window,
    settle,
    submit,
)

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from pytestqt.qtbot import QtBot

    from ai4hse_desk.gui.main_window import MainWindow
    from ai4hse_desk.gui.review.adjudication_view import AdjudicationView


@pytest.fixture
def audit(pristine: Path, tmp_path: Path) -> Path:
    path = copy_demo(pristine, tmp_path)
    submit(path, VERDICTS)
    return path


@pytest.fixture
def window(qtbot: QtBot, audit: Path) -> Iterator[MainWindow]:
    win = open_window(qtbot, audit, "cy")
    win.menu_actions["adjudicate"].trigger()
    settle(win)
    yield win
    win.close()


def view_of(win: MainWindow) -> AdjudicationView:
    view = win.review_page.adjudication()
    assert view.isVisible()
    return view


def show(win: MainWindow, question_id: str) -> AdjudicationView:
    view = view_of(win)
    view.select(question_id)
    settle(win)
    assert view.item is not None
    assert view.item.question_id == question_id
    return view


def test_the_queue_lists_the_disagreements_with_why(window: MainWindow) -> None:
    assert window.views.currentIndex() == VIEW_REVIEW
    assert window.review_page.tabs.tabText(window.review_page.tabs.currentIndex()) == (
        "Adjudication"
    )
    view = view_of(window)
    assert view.queue_texts() == [
        "Q001 · open\na reviewer says the key is wrong; reviewers differ on whether there is "
        "a concern; the proposed keys differ",
        "Q002 · open\na reviewer says the key is wrong; the proposed keys differ",
        "Q004 · open\nreviewers differ on whether there is a concern",
    ]  # Q003: both said key_ok
    assert view.header.text().startswith("Adjudicating as cy: 3 questions need a decision, 0")


def test_every_verdict_side_by_side_with_the_evidence(window: MainWindow) -> None:
    view = show(window, "Q001")
    assert view.key_line.text() == "Official key: A, C"
    options = view.options
    items = [options.horizontalHeaderItem(c) for c in range(options.columnCount())]
    header = [None if item is None else item.text() for item in items]
    assert header == ["Option", "Official key", "Attempts selecting it", "ann: blind",
                      "ann: proposed", "bob: blind", "bob: proposed", "Text"]  # fmt: skip
    votes = options.horizontalHeaderItem(2)
    assert votes is not None
    assert votes.toolTip() == VOTES_TIP, "attempts with a selection, not runs"
    rows = cells(view.options)
    assert [row[1] for row in rows] == ["TRUE", "FALSE", "TRUE", "FALSE"]
    assert [row[6] for row in rows] == ["TRUE", "FALSE", "FALSE ≠ key", "FALSE"]  # bob drops C
    assert [row[5] for row in rows] == ["TRUE", "FALSE", "FALSE ≠ key", "FALSE"]  # his blind
    assert [row[4] for row in rows] == ["—"] * 4  # ann proposed no key
    assert all(" of " in row[2] for row in rows)  # the runs' votes on each option
    assert rows[1][7].startswith("PPE is preferred over engineering controls")
    ann, bob = cells(view.verdicts)
    assert ann[:4] == ("ann", "Key correct", "A, C — agrees with the key", "none proposed")
    assert bob[:5] == ("bob", "Key wrong", "A — differs on C", "A — changes C: TRUE → FALSE",
                       "high")  # fmt: skip
    assert bob[5:] == ("ISO 45001", BOB_NOTE)  # the markup as plain text
    assert view.decision_line.text() == "No decision yet."
    assert view.evidence.text().startswith("Key audit: suspicion rank")
    assert view.responses.isVisibleTo(view)
    assert view.responses.rowCount() > 0  # every run's choices
    assert view.responses_title.text().startswith("Model responses:")
    assert HOSTILE not in view.title.text()


def test_the_repetitions_share_one_width_and_none_takes_the_spare_width(
    window: MainWindow,
) -> None:
    """In a wide window the last repetition's column was stretched across the spare width
    (rep 1 and rep 2 narrow, rep 3 several times wider): each now as wide as the widest
    repetition's cells, its text whole, and the table ends after its last repetition."""
    window.resize(1600, 1000)
    view = show(window, "Q001")
    table = view.responses
    header = table.horizontalHeader()
    reps = range(RUN_COLUMNS, table.columnCount())
    assert len(reps) == 3
    widths = {header.sectionSize(c) for c in reps}
    assert len(widths) == 1
    (width,) = widths
    metrics = table.fontMetrics()
    for row in range(table.rowCount()):
        for column in reps:
            item = table.item(row, column)
            if item is not None:
                assert metrics.horizontalAdvance(item.text()) < width, item.text()
    used = sum(header.sectionSize(c) for c in range(table.columnCount()))
    assert used < table.viewport().width() - width  # the spare width left empty


def test_in_an_800_px_window_nothing_of_the_page_is_cut_off(window: MainWindow) -> None:
    """Two adjudicators side by side on one screen: the page fits an 800-px window, the
    Record button and the corrected key in sight (with the button beside the form the page
    needed about 900 px and lost its right edge)."""
    view = show(window, "Q001")
    window.resize(800, 700)
    settle(window)
    assert window.width() == 800, "the page's minimum lets the window be 800 px wide"
    assert view.minimumSizeHint().width() <= view.width()
    for widget in (view.record_button, view.name_button, *view.form.key_boxes):
        right = widget.mapTo(window, QPoint(widget.width(), 0)).x()
        assert widget.isVisible()
        assert right <= window.width(), widget.accessibleName()


def test_a_decision_is_recorded_read_back_and_undone_then_redone(
    window: MainWindow, audit: Path
) -> None:
    view = show(window, "Q002")
    view.form.choose("key_corrected", (FALSE, TRUE, TRUE, FALSE), "D is a distractor")
    view.record()
    settle(window)
    stored = decisions(audit)["Q002"]
    assert (stored.decision, stored.adjudicator) == ("key_corrected", "cy")
    assert stored.corrected_key == (FALSE, TRUE, TRUE, FALSE)
    assert stored.note == "D is a distractor"
    assert "Decision on Q002: Key corrected" in window.statusBar().currentMessage()
    assert [t[:4] for t in view.queue_texts()] == ["Q001", "Q004"]  # decided: it left
    assert view.item is not None
    assert view.item.question_id == "Q004"

    window.menu_actions["undo"].trigger()  # Notes ▸ Undo: the first decision is taken back
    settle(window)
    assert decisions(audit)["Q002"].decision == "unresolved"
    assert [t[:4] for t in view.queue_texts()] == ["Q001", "Q002", "Q004"]
    window.menu_actions["redo"].trigger()
    settle(window)
    again = decisions(audit)["Q002"]
    assert (again.decision, again.corrected_key) == ("key_corrected", stored.corrected_key)
    assert [t[:4] for t in view.queue_texts()] == ["Q001", "Q004"]
    view.decided_box.setChecked(True)  # decided questions listed too, to revise
    settle(window)
    assert "Q002 · Key corrected\na reviewer says the key is wrong" in view.queue_texts()[1]


def test_unresolved_stays_in_the_queue_and_is_not_counted_decided(
    window: MainWindow, audit: Path
) -> None:
    view = show(window, "Q004")
    view.form.choose("unresolved", note="ask the regulator")
    view.record()
    settle(window)
    assert decisions(audit)["Q004"].decision == "unresolved"
    assert "Q004 · unresolved\nreviewers differ on whether there is a concern" in (
        view.queue_texts()
    )
    assert view.header.text().startswith("Adjudicating as cy: 3 questions need a decision, 0")
    assert view.item is not None
    assert view.item.question_id == "Q004"
    assert view.decision_line.text().startswith("Latest decision: Unresolved (by cy, ")


def test_a_correction_equal_to_the_key_is_refused_in_one_line(
    window: MainWindow, audit: Path
) -> None:
    view = show(window, "Q001")
    view.form.choose("key_corrected", (TRUE, FALSE, TRUE, FALSE))  # the official key
    view.record()
    settle(window)
    assert view.error.isVisible()
    assert "the corrected key is the official key" in view.error.text()
    assert "\n" not in view.error.text()
    assert decisions(audit) == {}


def test_the_questions_reviewer_cannot_adjudicate_them(window: MainWindow, audit: Path) -> None:
    view = show(window, "Q001")
    name_the_desk("bob")  # the name changes while Q001 is on screen (another window)
    view.form.choose("key_confirmed")
    view.record()
    settle(window)
    assert "bob is one of Q001's reviewers; another person adjudicates it" in view.error.text()
    assert decisions(audit) == {}
    window.review_page.refresh()
    settle(window)
    assert view.queue_texts() == []
    assert "3 questions you review are left out (another person decides them)" in (
        view.header.text()
    )


def test_arrow_keys_move_in_the_queue_not_the_attempt_list(
    window: MainWindow, qtbot: QtBot
) -> None:
    view = show(window, "Q001")
    row = window.attempts.table.currentIndex().row()
    view.queue.setFocus()
    qtbot.keyClick(view.queue, Qt.Key.Key_Down)
    settle(window)
    assert view.item is not None
    assert view.item.question_id == "Q002"
    assert window.attempts.table.currentIndex().row() == row  # J/K/↓ of the list: not here
    qtbot.keyClick(view, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)  # record…
    settle(window)
    assert view.error.text() == "Choose a decision before recording it."  # …what is chosen


def test_without_a_name_the_workspace_asks_for_one(qtbot: QtBot, audit: Path) -> None:
    win = open_window(qtbot, audit, None)
    win.menu_actions["adjudicate"].trigger()
    settle(win)
    view = view_of(win)
    assert view.queue_texts() == []
    assert view.header.text().startswith("Give your name (Reviewer name…)")
    assert not view.deciding.isVisible()
    win.close()
