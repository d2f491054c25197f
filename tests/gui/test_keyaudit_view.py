"""The key-audit view: ranked questions, reasons, open and flag keys; the rank, the
evidence in words and a probability only where it is honest; computed in the
background when a file opens."""

from __future__ import annotations

import dataclasses
import re
import shutil
import threading
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import Qt

from ai4hse_desk.audit import open_audit
from ai4hse_desk.gui.controllers.views import VIEW_ATTEMPTS
from ai4hse_desk.gui.main_window import MainWindow
from ai4hse_desk.gui.models.keyaudit_table import NOT_SHOWN, KeyAuditModel
from ai4hse_desk.gui.review.texts import evidence_text
from ai4hse_desk.gui.views.keyaudit import KeyAuditView
from ai4hse_desk.index import ensure_index
from ai4hse_desk.keyaudit import KeyAuditResult, QuestionSuspicion, compute_key_audit

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
    assert "answer keys spread about evenly over the option positions" in view.corpus.text()
    assert "χ²" not in view.corpus.text()  # the statistic only in the tooltip, explained
    assert "how often keys placed evenly at random" in view.corpus.toolTip()


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


def item(qid: str, rank: int, probability: float | None, withheld: str | None) -> QuestionSuspicion:
    return QuestionSuspicion(
        question_id=qid, ordinal=rank, option=2, score=0.2, signals={},
        reasons=("8 of 10 runs, including the 3 strongest (a, b, c), choose C; the key says A",),
        probability=probability, rank=rank, withheld=withheld,
    )  # fmt: skip


@pytest.mark.usefixtures("qapp")
def test_the_probability_column_shows_a_number_only_where_it_is_honest() -> None:
    model = KeyAuditModel()
    model.set_items([item("Q1", 1, 0.2143, None), item("Q2", 2, None, "5 runs answer it")])
    assert [model.index(r, 0).data() for r in range(2)] == ["1", "2"]
    assert model.index(0, 3).data() == "0.21"
    assert model.index(1, 3).data() == NOT_SHOWN
    tip = model.index(1, 3).data(Qt.ItemDataRole.ToolTipRole)
    assert "No probability shown: 5 runs answer it" in tip
    assert model.index(0, 3).data(Qt.ItemDataRole.ToolTipRole) is None
    assert model.index(0, 5).data().startswith("8 of 10 runs, including the 3 strongest")
    assert model.index(0, 2).data() == "C", "the option by its letter, as the reasons name it"


@pytest.mark.usefixtures("qapp")
def test_ids_and_reasons_from_the_file_show_invisible_characters_by_name() -> None:
    model = KeyAuditModel()
    hostile = dataclasses.replace(
        item("Q\u200b1", 1, None, "x"), reasons=("3 runs (m\u202eLTR) choose C; the key says A",)
    )
    model.set_items([hostile])
    assert model.index(0, 1).data() == "Q⟨ZWSP⟩1"
    assert model.index(0, 5).data() == "3 runs (m⟨RLO⟩LTR) choose C; the key says A"
    assert model.index(0, 1).data(Qt.ItemDataRole.UserRole) == "Q\u200b1", "the id itself"


def test_the_window_shows_rank_and_words_and_withholds_the_number(
    qtbot: QtBot, pristine: Path, tasks: TaskRunner
) -> None:
    """The demo is multi-select: unlike the calibration data, so no number anywhere."""
    view = KeyAuditView(tasks)
    qtbot.addWidget(view)
    with open_audit(pristine) as db:
        view.load_now(db)
    assert view.result is not None
    rows = view.model.rowCount()
    assert {view.model.index(r, 3).data() for r in range(rows)} == {NOT_SHOWN}
    text = view.reasons.toPlainText()
    first = view.model.item(0)
    assert first is not None
    assert f"rank 1 of {rows:,}" in text
    assert first.option is not None
    letter = "ABCDEFGH"[first.option]
    assert text.startswith(f"{first.question_id} — suspicion rank 1 of {rows:,}")
    assert f", option {letter}\n" in text, "the option by its letter, not its position"
    assert "No probability shown (no single-choice runs" in text
    assert "the rank and the evidence stand" in text
    for banned in ("P(key wrong) =", "fitted run reliability", "discrimination:",
                   "accuracy-weighted", "Signal parts"):  # fmt: skip
        assert banned not in text
    assert re.search(r"\d+ of \d+ runs, including .*; the key says (TRUE|FALSE)", text)
    assert "no P(key wrong) shown: no single-choice runs" in view.corpus.text()
    reveal = evidence_text(db_question(pristine, first.question_id), view.result)
    assert reveal.startswith(f"Key audit: suspicion rank 1 of {rows:,} (no probability shown) — ")
    assert first.reasons[0] in reveal


def test_a_rank_that_only_the_corpus_order_gives_says_it_is_a_tie(pristine: Path) -> None:
    def item(qid: str, rank: int, reasons: tuple[str, ...]) -> QuestionSuspicion:
        return QuestionSuspicion(question_id=qid, ordinal=rank, option=None, score=0.0273,
                                 signals={}, reasons=reasons, rank=rank)  # fmt: skip

    damaged = item("Q005", 1, ("encoding damage in option B",))
    quiet = [item(f"Q00{n}", n, ()) for n in (2, 3, 4)]  # a file without runs: nothing to tell
    result = KeyAuditResult([damaged, *quiet], {})
    said = evidence_text(db_question(pristine, "Q003"), result)
    assert said.startswith(
        "Key audit: suspicion rank 3 of 4 (tied with 2 others, ranks 2–4; no probability shown) — "
    ), "one parenthesis, not two in a row"
    alone = evidence_text(db_question(pristine, "Q005"), result)
    assert alone.startswith("Key audit: suspicion rank 1 of 4 (no probability shown) — encoding")
    one = KeyAuditResult([damaged, *quiet[:2]], {})
    assert "(tied with 1 other, ranks 2–3; no probability shown)" in evidence_text(
        db_question(pristine, "Q002"), one
    )


def db_question(path: Path, qid: str):  # type: ignore[no-untyped-def]
    with open_audit(path) as db:
        return next(q for q in db.questions() if q.question_id == qid)


def test_the_key_audit_is_computed_in_the_background_when_a_file_opens(
    qtbot: QtBot, pristine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 34: the Review view has the evidence without a visit to the Key audit page;
    the ranking is computed off the GUI thread (once) and shown on it."""
    import ai4hse_desk.keyaudit as package

    audit = shutil.copyfile(pristine, tmp_path / "audit.sqlite")
    computed_on: list[int] = []
    compute = package.compute_key_audit

    def spy(*args: object, **kwargs: object) -> KeyAuditResult:
        computed_on.append(threading.get_ident())
        return compute(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(package, "compute_key_audit", spy)
    win = MainWindow()
    qtbot.addWidget(win)
    win.show()
    with qtbot.waitSignal(win.keyaudit.computed, timeout=60_000):
        assert win.open_path(audit, wait=True)
    assert win.views.currentIndex() == VIEW_ATTEMPTS  # its page was never shown
    assert win.keyaudit.model.rowCount() == 100
    assert len(computed_on) == 1
    assert computed_on[0] != threading.get_ident()
    win.switcher.show_keyaudit(wait=True)  # showing the page later computes nothing again
    assert len(computed_on) == 1
    win.close()
