"""Review ▸ Plan… makes the plan (its maker the name in the window), and every save
dialog — the review report, the notes export, the scores exports — starts in the last
folder saved to, across restarts."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFileDialog, QMessageBox

from ai4hse_desk.review.book import ReviewBook
from tests.gui.review_panel import VERDICTS, copy_demo, in_store, open_window, settle, submit

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from pytestqt.qtbot import QtBot

    from ai4hse_desk.gui.dialogs.plan import PlanDialog
    from ai4hse_desk.gui.main_window import MainWindow
    from ai4hse_desk.review.records import StoredPlan


@pytest.fixture
def window(qtbot: QtBot, pristine: Path, tmp_path: Path) -> Iterator[MainWindow]:
    win = open_window(qtbot, copy_demo(pristine, tmp_path), "coord")
    yield win
    win.close()


def answer_plan(
    monkeypatch: pytest.MonkeyPatch, fill: Callable[[PlanDialog], bool]
) -> list[PlanDialog]:
    """Each plan dialog is filled by ``fill`` (True: Make the plan, False: Cancel)."""
    from ai4hse_desk.gui.dialogs.plan import PlanDialog

    shown: list[PlanDialog] = []

    def run(dialog: PlanDialog) -> int:
        shown.append(dialog)
        accepted = fill(dialog)
        return int(QDialog.DialogCode.Accepted if accepted else QDialog.DialogCode.Rejected)

    monkeypatch.setattr(PlanDialog, "exec", run)
    return shown


def stored_plan(win: MainWindow) -> StoredPlan | None:
    path = win.opening.session.path  # type: ignore[union-attr]
    return in_store(path, lambda store: ReviewBook(store).plan())


def test_the_plan_is_made_with_the_name_in_the_window_as_its_maker(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fill(dialog: PlanDialog) -> bool:
        dialog.reviewers.setText("ann, bob , cy")
        dialog.per_question.setValue(2)
        dialog.order.setCurrentIndex(dialog.order.findData("random"))
        dialog.seed.setText("7")
        return True

    answer_plan(monkeypatch, fill)
    window.menu_actions["plan"].trigger()
    settle(window)
    plan = stored_plan(window)
    assert plan is not None
    assert plan.created_by == "coord"  # not the first reviewer
    made = plan.plan
    assert (made.reviewers, made.per_question, made.order, made.seed) == (
        ("ann", "bob", "cy"), 2, "random", 7,
    )  # fmt: skip
    assert len(made.questions) == 100
    assert window.statusBar().currentMessage() == (
        "Review plan made by coord: 100 questions, 2 reviewers each (ann, bob, cy), "
        "random order, seed 7."
    )
    assert window.sight.visibility is None  # coord reviews nothing: nothing is hidden


def test_a_refusal_comes_back_in_the_dialog_as_one_line_the_values_kept(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    answers = iter([True, True, False])  # make; make again (refused); cancel
    seen: list[tuple[str, str]] = []  # (problem line, reviewers) as each dialog opened

    def fill(dialog: PlanDialog) -> bool:
        seen.append((dialog.problem.text(), dialog.reviewers.text()))
        if not dialog.reviewers.text():
            dialog.reviewers.setText("ann, bob")
        return next(answers)

    answer_plan(monkeypatch, fill)
    window.menu_actions["plan"].trigger()
    settle(window)
    window.menu_actions["plan"].trigger()
    settle(window)
    assert len(seen) == 3
    problem, reviewers = seen[2]
    assert problem.startswith("No plan made: a review plan already exists")
    assert "\n" not in problem
    assert reviewers == "ann, bob"  # asked again as it was
    plan = stored_plan(window)
    assert plan is not None
    assert plan.plan.reviewers == ("ann", "bob")


def test_the_dialog_says_what_is_missing_before_anything_is_asked(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    def fill(dialog: PlanDialog) -> bool:
        ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
        assert not ok.isEnabled()
        assert dialog.problem.text() == "Name the reviewers, separated by commas."
        dialog.reviewers.setText("ann")
        dialog.per_question.setValue(2)
        assert dialog.problem.text() == (
            "2 reviewers per question need at least that many reviewers (1 named)."
        )
        assert not ok.isEnabled()
        return False

    shown = answer_plan(monkeypatch, fill)
    window.menu_actions["plan"].trigger()
    settle(window)
    assert len(shown) == 1
    assert stored_plan(window) is None


def test_save_dialogs_start_in_the_last_folder_saved_to(
    qtbot: QtBot, pristine: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    audit = copy_demo(pristine, tmp_path)
    submit(audit, VERDICTS)
    chosen = tmp_path / "exports"
    chosen.mkdir()
    started: list[str] = []

    def save_as(name: str, chosen_filter: str) -> Callable[..., tuple[str, str]]:
        def ask(_parent: object, _caption: str, start: str, _filters: str) -> tuple[str, str]:
            started.append(start)
            return str(chosen / name), chosen_filter

        return ask

    monkeypatch.setattr(QMessageBox, "question", lambda *_a, **_k: QMessageBox.StandardButton.No)
    win = open_window(qtbot, audit, "coord")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as("report.html", ""))
    win.menu_actions["review_report"].trigger()
    settle(win)
    assert (chosen / "report.html").exists()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as("notes.csv", ""))
    win.menu_actions["notes_export"].trigger()
    settle(win)
    win.close()
    win = open_window(qtbot, audit, "coord")  # a restart: the folder is remembered
    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as("scores.csv", ""))
    assert win.scores.exports.ask_save_path("Export", "scores.csv", "CSV (*.csv)") == (
        chosen / "scores.csv"
    )
    win.close()
    # The first dialog starts where Qt starts it (nothing remembered yet); the others in
    # the folder of the file saved last, with their own suggested names.
    assert started == ["review-report.html", str(chosen / "notes.csv"), str(chosen / "scores.csv")]
