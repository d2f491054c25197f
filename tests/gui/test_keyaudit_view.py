"""The key-audit view: ranked questions, reasons, open and flag keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt

from ai4hse_desk.audit import open_audit
from ai4hse_desk.gui.views.keyaudit import KeyAuditView
from ai4hse_desk.index import ensure_index
from ai4hse_desk.keyaudit import compute_key_audit

if TYPE_CHECKING:
    from pathlib import Path

    from pytestqt.qtbot import QtBot

    from ai4hse_desk.gui.workers.runner import TaskRunner


def test_ranked_list_matches_the_command_and_shows_reasons(
    qtbot: QtBot, pristine: Path, tasks: TaskRunner
) -> None:
    view = KeyAuditView(tasks)
    qtbot.addWidget(view)
    with open_audit(pristine) as db:
        expected = compute_key_audit(db).to_json(top=5)["questions"]
        view.load(db)
        qtbot.waitUntil(lambda: view.result is not None, timeout=30_000)
    assert isinstance(expected, list)
    shown = [view.model.item(row) for row in range(5)]
    assert [item.question_id for item in shown if item] == [q["question_id"] for q in expected]
    assert view.table.currentIndex().row() == 0
    text = view.reasons.toPlainText()
    assert expected[0]["question_id"] in text
    assert expected[0]["reasons"][0] in text
    assert "questions ranked" in view.corpus.text()


def test_the_ranking_from_the_stored_verdicts_is_the_commands(
    qtbot: QtBot, pristine: Path, tasks: TaskRunner
) -> None:
    view = KeyAuditView(tasks)
    qtbot.addWidget(view)
    with open_audit(pristine) as db, ensure_index(db) as index:
        expected = compute_key_audit(db).to_json(top=10)["questions"]
        view.load_now(db, index=index)
    assert isinstance(expected, list)
    shown = [view.model.item(row) for row in range(10)]
    assert [(i.question_id, i.option) for i in shown if i] == [
        (q["question_id"], q["option"]) for q in expected
    ]


def test_keys_open_the_question_and_start_a_flag(
    qtbot: QtBot, pristine: Path, tasks: TaskRunner
) -> None:
    view = KeyAuditView(tasks)
    qtbot.addWidget(view)
    with open_audit(pristine) as db:
        view.load_now(db)
    first = view.model.item(0)
    assert first is not None
    view.show()
    view.activateWindow()
    qtbot.waitActive(view)
    view.table.setFocus()
    with qtbot.waitSignal(view.open_question) as opened:
        qtbot.keyClick(view.table, Qt.Key.Key_O)
    assert opened.args == [first.question_id]
    with qtbot.waitSignal(view.flag_requested) as flagged:
        qtbot.keyClick(view.table, Qt.Key.Key_F)
    assert flagged.args == [first.question_id, first.option]


def test_flagged_questions_are_marked(qtbot: QtBot, pristine: Path, tasks: TaskRunner) -> None:
    view = KeyAuditView(tasks)
    qtbot.addWidget(view)
    with open_audit(pristine) as db:
        view.load_now(db)
    first = view.model.item(0)
    assert first is not None
    view.model.set_flagged({first.question_id})
    assert view.model.index(0, 4).data() == "⚑"
    assert view.model.index(1, 4).data() == ""


def test_the_progress_and_cancel_show_while_it_computes(
    qtbot: QtBot, pristine: Path, tasks: TaskRunner
) -> None:
    view = KeyAuditView(tasks)
    qtbot.addWidget(view)
    view.show()
    with open_audit(pristine) as db:
        view.load(db)
        assert view.progress.isVisible()
        assert view.cancel_button.isVisible()
        view.cancel_button.click()
        assert tasks.wait_idle()
    assert view.result is None  # cancelled: nothing ranked
    assert not view.progress.isVisible()
    assert not view.cancel_button.isVisible()
