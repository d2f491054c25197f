"""Review ▸ Report… in the window: the file and the private-text choice are asked,
the report is written in the background through the guarded writer."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from ai4hse_desk.audit import open_audit
from ai4hse_desk.gui.main_window import MainWindow
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.book import ReviewBook

if TYPE_CHECKING:
    from collections.abc import Iterator

    from pytestqt.qtbot import QtBot


@pytest.fixture
def window(qtbot: QtBot, pristine: Path, tmp_path: Path) -> Iterator[MainWindow]:
    folder = tmp_path / "audit"
    folder.mkdir()
    audit = Path(shutil.copyfile(pristine, folder / "audit.sqlite"))
    with open_audit(audit) as db, NotesStore.open(db) as store:
        for who, verdict in (("ann", "key_ok"), ("bob", "unclear_question")):
            ReviewBook(store).save_verdict("Q001", who, verdict=verdict, not_blind=True)
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    assert win.open_path(audit, wait=True)
    assert win.tasks.wait_idle()
    yield win
    win.close()


def _answer(monkeypatch: pytest.MonkeyPatch, path: Path, private: bool, chosen: str) -> None:
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *_a, **_k: (str(path), chosen))
    button = QMessageBox.StandardButton.Yes if private else QMessageBox.StandardButton.No
    monkeypatch.setattr(QMessageBox, "question", lambda *_a, **_k: button)


def test_the_menu_writes_a_printable_report_without_private_text(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    target = tmp_path / "report.html"
    _answer(monkeypatch, target, private=False, chosen="Printable HTML (*.html)")
    messages: list[str] = []
    window.review_report.message.connect(messages.append)
    window.menu_actions["review_report"].trigger()
    assert window.tasks.wait_idle()
    page = target.read_text()
    assert "NOT OFFICIAL" in page
    assert "unclear_question" in page
    with open_audit(window.opening.session.db.path) as db:  # type: ignore[union-attr]
        assert db.question("Q001").text[:30] not in page
    assert messages == [f"Review report written to {target}"]


def test_json_with_private_text_when_the_reviewer_says_so(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    target = tmp_path / "report"
    _answer(monkeypatch, target, private=True, chosen="JSON (*.json)")
    window.menu_actions["review_report"].trigger()
    assert window.tasks.wait_idle()
    report = json.loads(target.with_suffix(".json").read_text())
    assert report["verdicts"]["unclear_question"] == 1
    assert report["questions_concerned"][0]["question_text"]
    assert report["private"] is True


def test_a_report_over_the_audit_file_is_refused(window: MainWindow) -> None:
    audit = window.opening.session.db.path  # type: ignore[union-attr]
    before = audit.read_bytes()
    messages: list[str] = []
    window.review_report.message.connect(messages.append)
    window.review_report.write(audit, include_private=False)
    assert window.tasks.wait_idle()
    assert audit.read_bytes() == before
    assert len(messages) == 1
    assert messages[0].startswith("No report written:")


def test_the_report_takes_the_key_audit_pages_ranking_instead_of_computing_it_again(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from ai4hse_desk.review import report as report_module

    window.views.setCurrentIndex(2)  # the Key audit page computes its ranking
    assert window.tasks.wait_idle()
    result = window.keyaudit.result
    assert result is not None

    def no_second_key_audit(*_args: object) -> list[str]:
        raise AssertionError("the key audit was computed again")

    monkeypatch.setattr(report_module, "_ranking", no_second_key_audit)
    target = tmp_path / "report.json"
    window.review_report.write(target, include_private=False)
    assert window.tasks.wait_idle()
    report = json.loads(target.read_text())
    assert report["key_audit_check"]["ranked"] == len(result.questions)
    ranks = {row["question_id"]: row["key_audit_rank"] for row in report["evidence"]}
    assert ranks["Q001"] == [item.question_id for item in result.questions].index("Q001") + 1


def test_a_key_audit_of_another_file_is_not_taken(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from dataclasses import replace

    from ai4hse_desk.gui.review.report_action import write_report
    from ai4hse_desk.keyaudit import compute_key_audit
    from ai4hse_desk.review import report as report_module

    store = window.notes.store
    assert store is not None
    other = replace(compute_key_audit(store.audit), audit={"sha256": "0" * 64})
    computed: list[bool] = []
    real = report_module._ranking

    def counted(*args: Any) -> list[str]:
        computed.append(True)
        return real(*args)

    monkeypatch.setattr(report_module, "_ranking", counted)
    write_report(store, tmp_path / "r.json", include_private=False, progress=lambda *_a: True,
                 viewer=None, key_audit=other)  # fmt: skip
    assert computed == [True]
