"""One final state per question in every view: ⚑ and the flagged-only filter, the notes
list's Decision column, the sensitivity exploration (equal to the review report's), and
the Review view once the reviewer may see the decision.

The panel of :mod:`review_panel` has reviewed; cy's decisions are recorded by another
desk (the adjudication workspace's own tests are in ``test_adjudication_view.py``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.audit import open_audit
from ai4hse_desk.gui.models.attempt_columns import COLUMNS as LIST_COLUMNS
from ai4hse_desk.review.adjudication import Adjudication
from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.review.final_state import exploration, read_final_states
from ai4hse_desk.review.list_rows import COLUMNS as NOTE_COLUMNS
from ai4hse_desk.review.report import review_report
from ai4hse_desk.review.values import FALSE, TRUE
from tests.gui.review_panel import VERDICTS, copy_demo, in_store, open_window, settle, submit

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from pathlib import Path

    from pytestqt.qtbot import QtBot

    from ai4hse_desk.gui.main_window import MainWindow

FLAG = len(LIST_COLUMNS) - 1  # ⚑
DECISION = NOTE_COLUMNS.index("Decision")


@pytest.fixture
def audit(pristine: Path, tmp_path: Path) -> Path:
    path = copy_demo(pristine, tmp_path)
    submit(path, VERDICTS)
    return path


@pytest.fixture
def window(qtbot: QtBot, audit: Path) -> Iterator[MainWindow]:
    win = open_window(qtbot, audit, "cy")
    yield win
    win.close()


def decide(win: MainWindow, question_id: str, decision: str, key: Sequence[str] = ()) -> None:
    """cy's decision, recorded by another desk; the window reads the store again."""
    session = win.opening.session
    assert session is not None
    path = session.path
    note = f"{decision} by the panel"
    in_store(path, lambda store: Adjudication(store).adjudicate(
        question_id, "cy", decision, key=list(key) or None, note=note))  # fmt: skip
    win.notes.refresh()
    win.review_page.refresh()
    settle(win)


def marked(win: MainWindow) -> set[str]:
    """The questions whose attempts carry ⚑ in the attempt list (every page)."""
    model, root = win.model, win.attempts.table.rootIndex()
    while model.canFetchMore(root):
        model.fetchMore(root)
    rows = [(model.data(model.index(r, 0)), model.data(model.index(r, FLAG)))
            for r in range(model.rowCount())]  # fmt: skip
    return {str(qid) for qid, mark in rows if mark}


def test_key_confirmed_takes_the_flag_off_in_the_list_the_filter_and_the_key_audit(
    window: MainWindow,
) -> None:
    assert marked(window) == {"Q001", "Q002", "Q004"}  # the standing concerns
    decide(window, "Q001", "key_confirmed")
    assert marked(window) == {"Q002", "Q004"}
    window.menu_actions["flagged_only"].trigger()
    settle(window)
    assert {q for q in (window.model.data(window.model.index(r, 0))
                        for r in range(window.model.rowCount()))} <= {"Q002", "Q004"}  # fmt: skip
    window.switcher.show_keyaudit(wait=True)
    audit_model = window.keyaudit.model
    flags = {
        item.question_id: audit_model.index(row, 4).data()
        for row in range(audit_model.rowCount())
        if (item := audit_model.item(row)) is not None
    }
    assert flags["Q001"] != "⚑"
    assert flags["Q002"] == "⚑"


def test_the_notes_list_says_what_the_review_made_of_each_question(window: MainWindow) -> None:
    decide(window, "Q002", "key_corrected", (FALSE, TRUE, TRUE, FALSE))
    window.menu_actions["notes_list"].trigger()
    settle(window)
    rows = window.notes_dock.list.row_texts()
    decided = {(row[1], row[DECISION]) for row in rows}
    assert ("Q002", "Key corrected: A FALSE, B TRUE, C TRUE, D FALSE") in decided
    assert ("Q001", "Awaiting adjudication") in decided
    assert ("Q004", "Awaiting adjudication") in decided


def test_the_exploration_is_the_reports_without_excluded_with_corrected_keys(
    window: MainWindow, audit: Path, qtbot: QtBot
) -> None:
    decide(window, "Q002", "key_corrected", (FALSE, TRUE, TRUE, FALSE))
    decide(window, "Q004", "question_excluded")
    window.menu_actions["explore"].trigger()
    qtbot.waitUntil(lambda: window.scores.data is not None, timeout=60_000)
    panel = window.scores.sensitivity
    qtbot.waitUntil(lambda: panel.explored is not None, timeout=60_000)
    settle(window)
    report_set = in_store(audit, lambda store: exploration(read_final_states(store)))
    assert panel.excluded() == set(report_set.excluded) == {"Q004"}
    assert panel.corrected() == report_set.corrected_keys == {"Q002": (False, True, True, False)}
    with open_audit(audit) as db:
        report = in_store(audit, lambda store: review_report(db, ReviewBook(store)))
    rows = report["sensitivity"]
    assert isinstance(rows, list)
    expected = {row["run_id"]: row["without_excluded_with_corrected_keys"] for row in rows}
    assert panel.explored is not None
    shown = {run["run_id"]: run["exact_accuracy"] for run in panel.explored.runs}
    assert shown == expected
    assert "as in the review report" in panel.reason.text()


def test_the_review_view_shows_the_decision_once_the_reviewer_submitted(
    qtbot: QtBot, audit: Path
) -> None:
    cy = open_window(qtbot, audit, "cy")
    decide(cy, "Q001", "key_confirmed")
    cy.close()
    ann = open_window(qtbot, audit, "ann")
    ann.reviewing.open_question("Q001")
    ann.menu_actions["review"].trigger()
    settle(ann)
    reveal = ann.review.reveal
    assert reveal.decision.isVisible()
    assert reveal.decision.text() == (
        "Where the review stands: Key confirmed — decided by cy: key_confirmed by the panel"
    )
    ann.reviewing.open_question("Q005")  # ann has not answered it: blind, nothing shows
    settle(ann)
    assert not reveal.isVisible()
    assert reveal.decision.text() == ""
    ann.close()


def test_once_the_review_decided_the_exploration_never_falls_back_to_flags(
    window: MainWindow,
) -> None:
    """Before any decision: the questions with a standing key concern (Q001, Q002); once
    Q001's key is confirmed, the decisions alone — they change nothing, so nothing is
    explored (the report's sensitivity figures are the official ones too)."""
    window.changes.explore()
    settle(window)
    assert window.scores.sensitivity.excluded() == {"Q001", "Q002"}
    assert "2 questions with an open “Key incorrect” flag" in window.statusBar().currentMessage()
    decide(window, "Q001", "key_confirmed")
    window.scores.sensitivity.set_excluded_questions(set(), "")
    window.changes.explore()
    settle(window)
    assert window.statusBar().currentMessage() == (
        "The review's decisions exclude no question and correct no key: the official figures stand."
    )
    assert window.scores.sensitivity.excluded() == set()
