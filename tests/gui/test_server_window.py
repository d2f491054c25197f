"""``ai4hse-desk --server URL``: the window on a review server, with no audit file.

A reviewer sees the question's text and options only, records a blind answer, then sees
the key and the runs and submits a verdict, moving to the next question; an adjudicator's
window shows the adjudication queue and records a decision; a login that fails is one plain
message, its password never shown. On the cluster ``make test`` starts.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QInputDialog, QLabel, QPushButton, QTableWidget

from ai4hse_desk.gui import application as application_module
from ai4hse_desk.gui.app import run_window
from ai4hse_desk.gui.review.blind import BLIND_HINT
from ai4hse_desk.gui.review.form import REVEALED_HINT
from ai4hse_desk.gui.review.server_window import (
    ServerReviewWindow,
    open_server_window,
    run_server_window,
)
from ai4hse_desk.review.server.client import ReviewServer
from tests.gui.gui_fixtures import cell, header_text
from tests.server_support import ReviewDatabase, fresh_database

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from pytestqt.qtbot import QtBot

    from tests.gui.gui_fixtures import MessageBoxes

pytestmark = pytest.mark.postgres

S = "ai4hse_review"


@pytest.fixture
def review_db(pristine: Path, capsys: pytest.CaptureFixture[str]) -> Iterator[ReviewDatabase]:
    with fresh_database() as database:
        database.publish(
            pristine,
            capsys,
            "--reviewers",
            "ann,bo",
            "--per-question",
            "2",
            "--questions",
            "Q001,Q002,Q003",
            "--adjudicators",
            "cy",
        )
        yield database


def _open(url: str, qtbot: QtBot) -> ServerReviewWindow:
    window = open_server_window(url)
    assert window is not None
    qtbot.addWidget(window)
    window.resize(1100, 800)
    window.show()
    return window


def _close(window: ServerReviewWindow, qtbot: QtBot) -> None:
    window.close()
    qtbot.waitUntil(lambda: window.tasks.idle(), timeout=10_000)


def _the_local_responses_table(table: QTableWidget, title: QLabel) -> None:
    """Q001 as the local Review page shows it: the demo's 8 runs a row each, a column per
    repetition, each cell the selection (✓ correct) or the status, coloured by it."""
    parent = title.parentWidget()
    assert parent is not None
    assert title.isVisibleTo(parent)
    assert title.text() == (
        "Model responses: 17 of 24 attempts correct, 8 runs "
        "(each cell: the extracted selection, ✓ correct)"
    )
    assert table.rowCount() == 8
    display = Qt.ItemDataRole.DisplayRole
    assert [header_text(table.model(), c, display) for c in range(table.columnCount())] == [
        "Run", "Track", "rep 1", "rep 2", "rep 3",
    ]  # fmt: skip
    items = [table.item(r, c) for r in range(8) for c in range(2, 5)]
    cells = [item.text() for item in items if item is not None]
    assert len(cells) == 24
    assert cells.count("A, C ✓") == 17
    assert "Missing" in cells
    assert "Provider error" in cells
    assert all(item.toolTip().startswith("attempt ") for item in items if item is not None)
    colours = {item.background().color().name() for item in items if item is not None}
    assert len(colours) >= 3  # correct, wrong and the error statuses apart


def test_a_reviewer_answers_blind_then_sees_the_key_and_submits(
    review_db: ReviewDatabase, qtbot: QtBot
) -> None:
    window = _open(review_db.url("ann"), qtbot)
    page = window.page
    qtbot.waitUntil(lambda: page.question_id == "Q001", timeout=10_000)
    assert page.shown is not None
    assert page.shown["key"] is None
    assert page.reveal.toPlainText() == ""
    assert not page.revealed.isVisible()
    assert page.record_button.isVisible()
    assert "0 of 3 submitted" in page.who.text()
    assert page.hint.text() == BLIND_HINT  # the keys, as on the local page
    page.blind.setFocus()
    qtbot.keyClick(page.blind, Qt.Key.Key_1)
    qtbot.keyClick(page.blind, Qt.Key.Key_3)
    qtbot.keyClick(page.blind, Qt.Key.Key_Return)  # B and D unanswered: nothing recorded
    assert "B, D" in window.statusBar().currentMessage()
    assert page.record_button.isVisible()
    for key in (Qt.Key.Key_2, Qt.Key.Key_2, Qt.Key.Key_4, Qt.Key.Key_4):
        qtbot.keyClick(page.blind, key)
    assert page.blind.answer() == ("TRUE", "FALSE", "TRUE", "FALSE")
    qtbot.keyClick(page.blind, Qt.Key.Key_Return)
    qtbot.waitUntil(
        lambda: page.shown is not None and page.shown["key"] is not None, timeout=10_000
    )
    revealed = page.reveal.toPlainText()
    assert "Official key: A TRUE, B FALSE, C TRUE, D FALSE" in revealed
    assert "Your blind answer: A TRUE, B FALSE, C TRUE, D FALSE" in revealed
    assert "hidden until you submit your verdict" in revealed
    assert page.revealed.isVisible()
    _the_local_responses_table(page.responses, page.responses_title)
    table = page.key_options  # the key against the blind answer, as on the local page
    cells = [[cell(table, r, c).text() for c in range(3)] for r in range(table.rowCount())]
    assert cells == [["A", "TRUE", "TRUE"], ["B", "FALSE", "FALSE"], ["C", "TRUE", "TRUE"],
                     ["D", "FALSE", "FALSE"]]  # fmt: skip
    assert all(" of " in cell(table, r, 3).text() for r in range(4))
    assert not page.record_button.isVisible()
    # Revealed, the page scrolls in a short window (a 1366×768 laptop's is about 700 px
    # under its panel and title bar) instead of growing the window off the screen.
    window.resize(1100, 560)
    QApplication.processEvents()  # the layouts take in what the reveal showed
    assert window.height() == 560
    assert window.minimumSizeHint().height() <= 560
    assert page.hint.text() == REVEALED_HINT
    for button in window.findChildren(QPushButton):  # "Submit & next" shows its "&"
        assert "&" not in button.text().replace("&&", ""), button.text()
    page.form.verdict.setCurrentIndex(page.form.verdict.findData("key_ok"))
    qtbot.keyClick(page.form.note, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)  # draft
    qtbot.waitUntil(lambda: "1 draft" in page.who.text(), timeout=10_000)
    assert page.question_id == "Q001", "a draft stays on the question"
    qtbot.keyClick(page.form.note, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: page.question_id == "Q002", timeout=10_000)
    qtbot.waitUntil(lambda: "1 of 3 submitted" in page.who.text(), timeout=10_000)
    assert page.shown is not None
    assert page.shown["key"] is None, "the next question is blind again"
    assert page.key_options.rowCount() == 0
    _close(window, qtbot)
    rows = review_db.sql(
        "coord", f"SELECT reviewer, verdict, state, blind FROM {S}.verdict_revisions ORDER BY at"
    )
    assert rows == [
        ("ann", None, "draft", "blind"),  # the blind answer
        ("ann", "key_ok", "draft", "blind"),  # Ctrl+S
        ("ann", "key_ok", "submitted", "blind"),  # Ctrl+Enter
    ]


def test_the_keys_answer_as_soon_as_a_blind_question_arrives(
    review_db: ReviewDatabase, qtbot: QtBot
) -> None:
    window = _open(review_db.url("ann"), qtbot)
    page = window.page
    qtbot.waitUntil(lambda: page.question_id == "Q001", timeout=10_000)
    assert window.focusWidget() is page.blind, "no click needed before keys 1-9, 0 and Enter"
    qtbot.waitUntil(lambda: page.own_queue.count() == 3, timeout=10_000)
    assert page.place.text() == "Q001 · question 1 of 3 in your queue"
    assert window.windowTitle().count("AI4HSE Desk") == 1
    assert window.windowTitle().endswith("— review server — AI4HSE Desk")
    _close(window, qtbot)


def test_the_own_queue_reopens_a_submitted_question_with_the_others_verdicts(
    review_db: ReviewDatabase, qtbot: QtBot
) -> None:
    server = ReviewServer.open(review_db.url("bo"))
    server.save_verdict("Q001", verdict="key_wrong", not_blind=True,
                        proposed_key="[TRUE,TRUE,TRUE,FALSE]", note="bo's reason")  # fmt: skip
    server.close()
    window = _open(review_db.url("ann"), qtbot)
    page = window.page
    qtbot.waitUntil(lambda: page.own_queue.count() == 3, timeout=10_000)
    texts = [page.own_queue.item(row).text() for row in range(3)]
    assert texts == ["1. Q001 — to answer", "2. Q002 — to answer", "3. Q003 — to answer"]
    qtbot.waitUntil(lambda: page.question_id == "Q001", timeout=10_000)
    window.controller.record_blind("Q001", None)
    qtbot.waitUntil(lambda: page.submit_button.isVisible(), timeout=10_000)
    qtbot.waitUntil(lambda: page.own_queue.item(0).text() == "1. Q001 — draft", timeout=10_000)
    qtbot.waitUntil(lambda: page.who.text() == "ann · 0 of 3 submitted · 1 draft · 3 remaining",
                    timeout=10_000)  # fmt: skip
    assert "bo's reason" not in page.reveal.toPlainText(), "hidden until ann submits"
    page.form.verdict.setCurrentIndex(page.form.verdict.findData("key_ok"))
    page.submit_button.click()
    qtbot.waitUntil(lambda: page.question_id == "Q002", timeout=10_000)
    qtbot.waitUntil(lambda: page.own_queue.item(0).text() == "1. Q001 — submitted",
                    timeout=10_000)  # fmt: skip
    assert page.own_queue.currentRow() == 1, "the row of the question on the page"
    first = page.own_queue.item(0)
    assert first is not None
    rect = page.own_queue.visualItemRect(first)
    qtbot.mouseClick(page.own_queue.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.waitUntil(lambda: page.question_id == "Q001", timeout=10_000)
    revealed = page.reveal.toPlainText()
    assert "bo: Key wrong" in revealed
    assert "bo's reason" in revealed
    assert revealed.index("bo: Key wrong") < revealed.index("Attempts selecting each option"), (
        "the verdicts before the runs' long responses"
    )
    assert page.place.text() == "Q001 · question 1 of 3 in your queue"
    assert page.form.verdict.currentData() == "key_ok", "her own verdict, to revise"
    assert page.own_queue.currentRow() == 0
    _close(window, qtbot)


def test_an_adjudicator_sees_the_queue_and_decides(review_db: ReviewDatabase, qtbot: QtBot) -> None:
    for who, verdict, key in (
        ("ann", "key_ok", None),
        ("bo", "key_wrong", "[TRUE,TRUE,TRUE,FALSE]"),
    ):
        server = ReviewServer.open(review_db.url(who))
        server.save_verdict("Q001", verdict=verdict, not_blind=True, proposed_key=key)
        server.close()
    window = _open(review_db.url("cy"), qtbot)
    page = window.page
    panel = page.adjudication
    qtbot.waitUntil(lambda: panel.queue_list.count() == 1, timeout=10_000)
    assert page.tabs.isTabVisible(1)
    assert page.tabs.tabText(1) == "Adjudication (1)"
    assert not page.tabs.isTabVisible(0), "cy reviews nothing here"
    assert panel.detail.toPlainText() == "", "nothing opened (released) before a pick"
    assert panel.responses.rowCount() == 0
    assert not panel.responses_title.isVisibleTo(panel)
    assert not panel.options.isVisibleTo(panel)
    first = panel.queue_list.item(0)
    assert (
        first.toolTip()
        == first.text()
        == "Q001 — a reviewer says the key is wrong; reviewers differ on whether there is a "
        "concern; the proposed keys differ"
    )
    panel.queue_list.setCurrentRow(0)
    qtbot.waitUntil(lambda: "Official key" in panel.detail.toPlainText(), timeout=10_000)
    assert "bo: Key wrong" in panel.detail.toPlainText()
    assert "\nSubmitted verdicts:\n" in panel.detail.toPlainText(), "none of them is cy's"
    _the_local_responses_table(panel.responses, panel.responses_title)
    # the options side by side, as on the local Adjudication page
    options = panel.options
    display = Qt.ItemDataRole.DisplayRole
    assert [header_text(options.model(), c, display) for c in range(options.columnCount())] == [
        "Option", "Official key", "Attempts selecting it", "ann: blind", "ann: proposed",
        "bo: blind", "bo: proposed", "Text",
    ]  # fmt: skip
    assert options.rowCount() == 4
    b_row = [options.item(1, c) for c in range(options.columnCount())]
    assert [cell.text() if cell else None for cell in b_row[:7]] == [
        "B", "FALSE", "0 of 20", "not blind", "—", "not blind", "TRUE ≠ key",
    ]  # fmt: skip
    differs, same = b_row[6], b_row[1]
    assert differs is not None
    assert same is not None
    assert differs.background().color() != same.background().color()
    # The question, the verdicts and the runs scroll above the decision form in a short
    # window; the tables alone (a row per run) had set the window's least height.
    window.resize(1100, 500)
    QApplication.processEvents()
    assert window.minimumSizeHint().height() <= 500
    assert page.who.text() == "cy · adjudicator"
    panel.decide_button.click()
    assert window.statusBar().currentMessage() == "Choose a decision first: nothing was recorded."
    assert not panel.corrected.isEnabled(), "the corrected key only for Key corrected"
    panel.decision.setCurrentIndex(panel.decision.findData("key_corrected"))
    assert panel.corrected.isEnabled()
    assert panel.corrected.key() == ("TRUE", "TRUE", "TRUE", "FALSE"), (
        "bo's proposed key first, as on the local Adjudication page"
    )
    panel.decide_button.click()
    qtbot.waitUntil(lambda: panel.queue_list.count() == 0, timeout=10_000)
    assert page.tabs.tabText(1) == "Adjudication (0)"
    _close(window, qtbot)
    rows = review_db.sql(
        "coord", f"SELECT adjudicator, decision, corrected_key FROM {S}.decision_revisions"
    )
    assert rows == [("cy", "key_corrected", ["TRUE", "TRUE", "TRUE", "FALSE"])]


def test_a_refusal_is_one_plain_line_in_the_status_bar(
    review_db: ReviewDatabase, qtbot: QtBot
) -> None:
    window = _open(review_db.url("ann"), qtbot)
    qtbot.waitUntil(lambda: window.page.question_id == "Q001", timeout=10_000)
    window.controller.adjudicate("Q001", "key_confirmed", None, "")
    qtbot.waitUntil(
        lambda: "permission denied" in window.statusBar().currentMessage(), timeout=10_000
    )
    _close(window, qtbot)


def test_a_failed_login_is_one_plain_message_without_the_password(
    review_db: ReviewDatabase, message_boxes: MessageBoxes, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = review_db.url("ann")
    secret = url.split(":")[2].split("@")[0]
    assert open_server_window(url.replace(secret, "wrong-" + secret)) is None
    assert len(message_boxes) == 1
    shown: Any = message_boxes[0]
    assert "password authentication failed" in shown.text
    assert secret not in shown.text
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.setenv("PGPASSFILE", "/nonexistent/pgpass")
    asked: list[str] = []

    def answer(_parent: object, _title: str, question: str, *_args: object) -> tuple[str, bool]:
        asked.append(question)
        return secret, True

    monkeypatch.setattr(QInputDialog, "getText", answer)
    bare = url.replace(f":{secret}@", "@")
    window = open_server_window(bare)
    assert window is not None
    assert asked == [f"Password for ann on {bare}: "]
    assert secret not in window.windowTitle()
    window.close()
    window.tasks.wait_idle()


def test_the_window_refuses_a_server_with_an_audit_file(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert run_window(["--server", "postgresql://ann@h/db", str(tmp_path / "a.sqlite")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --server opens the server's review alone")
    assert json.dumps(err).count("\\n") == 1


def test_skip_blind_asks_first_and_a_no_records_nothing(
    review_db: ReviewDatabase, qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    from ai4hse_desk.gui.review import server_page

    asked: list[str] = []

    def answer_no(_parent: object, _title: str, text: str, _action: str) -> bool:
        asked.append(text)
        return False

    monkeypatch.setattr(server_page, "confirm", answer_no)
    window = _open(review_db.url("bo"), qtbot)
    page = window.page
    qtbot.waitUntil(lambda: page.question_id is not None, timeout=10_000)
    page.skip_button.click()
    assert len(asked) == 1
    assert page.question_id is not None
    assert page.question_id in asked[0]
    assert page.record_button.isVisible()  # still blind: nothing was recorded
    assert page.shown is not None
    assert page.shown["key"] is None
    _close(window, qtbot)


def test_the_window_opens_within_the_screens_free_area(
    review_db: ReviewDatabase, monkeypatch: pytest.MonkeyPatch
) -> None:
    """1200×850 where the screen has room; a smaller screen (a 1366×768 laptop, the
    offscreen platform's 800×600) gets its free area."""
    seen: list[tuple[int, int, int, int]] = []

    class Application:
        def exec(self) -> int:
            (window,) = [
                w
                for w in QApplication.topLevelWidgets()
                if isinstance(w, ServerReviewWindow) and w.isVisible()
            ]
            screen = window.screen()
            assert screen is not None
            free = screen.availableGeometry()
            seen.append((window.width(), window.height(), free.width(), free.height()))
            window.close()
            return 0

    monkeypatch.setattr(application_module, "application", lambda _arguments: Application())
    assert run_server_window(review_db.url("ann"), []) == 0
    ((width, height, free_width, free_height),) = seen
    assert (width, height) == (min(1200, free_width), min(850, free_height))
    assert free_height < 850  # the case that matters is exercised
