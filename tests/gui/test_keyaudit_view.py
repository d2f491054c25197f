"""The key-audit view: ranked questions, reasons, open and flag keys."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from ai4hse_desk.audit import open_audit
from ai4hse_desk.gui.keyaudit_view import KeyAuditView
from ai4hse_desk.keyaudit import compute_key_audit
from ai4hse_desk.writer.demo import write_demo


@pytest.fixture(scope="module")
def demo_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("keyaudit") / "demo.sqlite"
    write_demo(path)
    return path


def test_ranked_list_matches_the_command_and_shows_reasons(qtbot: QtBot, demo_path: Path) -> None:
    view = KeyAuditView()
    qtbot.addWidget(view)
    with open_audit(demo_path) as db:
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


def test_keys_open_the_question_and_start_a_flag(qtbot: QtBot, demo_path: Path) -> None:
    view = KeyAuditView()
    qtbot.addWidget(view)
    with open_audit(demo_path) as db:
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


def test_flagged_questions_are_marked(qtbot: QtBot, demo_path: Path) -> None:
    view = KeyAuditView()
    qtbot.addWidget(view)
    with open_audit(demo_path) as db:
        view.load_now(db)
    first = view.model.item(0)
    assert first is not None
    view.model.set_flagged({first.question_id})
    assert view.model.index(0, 4).data() == "⚑"
    assert view.model.index(1, 4).data() == ""
