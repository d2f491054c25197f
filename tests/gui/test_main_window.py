"""The review window on a real demo database: filters, detail, keyboard, search, errors."""

from __future__ import annotations

import subprocess
import sys
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QMessageBox

from ai4hse_desk.audit import open_audit
from ai4hse_desk.gui.controllers.views import TAB_COMPARE, VIEW_ATTEMPTS, VIEW_SCORES
from ai4hse_desk.gui.main_window import MainWindow
from ai4hse_desk.index import PARSE_ERROR_STATUSES, build_fts
from ai4hse_desk.protocol.extract import derive
from ai4hse_desk.verdicts.rescore import iter_verdicts
from tests.gui.gui_fixtures import sha256

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from pytestqt.qtbot import QtBot

    from ai4hse_desk.index.filters import SortKey
    from ai4hse_desk.protocol.outcome import Extraction
    from tests.gui.gui_fixtures import MessageBoxes

#: (attempt_id, run_id, question_id, status, correct, agrees) for every attempt.
Verdicts = list[tuple[int, str, str, str, bool, bool]]


@pytest.fixture(scope="module")
def demo_path(pristine: Path) -> Path:
    """The session's demo database (never written: every test here only reads it)."""
    return pristine


@pytest.fixture(scope="module")
def verdicts(demo_path: Path) -> Verdicts:
    """(attempt_id, run_id, question_id, status, correct, agrees) for every attempt."""
    with open_audit(demo_path) as db:
        return [
            (v.attempt_id, v.run_id, v.question_id, v.outcome.status.value, v.correct, v.agrees)
            for v in iter_verdicts(db)
        ]


@pytest.fixture
def window(qtbot: QtBot, demo_path: Path) -> Iterator[MainWindow]:
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    assert win.open_path(demo_path, wait=True)
    yield win
    win.close()


def fetch_all(win: MainWindow) -> int:
    while win.model.canFetchMore(win.attempts.table.rootIndex()):
        win.model.fetchMore(win.attempts.table.rootIndex())
    return win.model.rowCount()


def shown_attempt(win: MainWindow) -> int:
    """The id of the attempt the window shows (the tests that read it expect one)."""
    attempt_id = win.selection.attempt_id
    assert attempt_id is not None
    return attempt_id


def test_title_says_read_only(window: MainWindow, demo_path: Path) -> None:
    assert window.windowTitle().startswith(f"{demo_path.name} — read-only")


def test_row_counts_under_each_filter_equal_sql(
    window: MainWindow, verdicts: Verdicts, qtbot: QtBot
) -> None:
    assert window.model.matching == len(verdicts) == fetch_all(window)

    window.filters.show_parse_errors()
    expected = sum(v[3] in PARSE_ERROR_STATUSES for v in verdicts)
    assert 0 < window.model.matching == expected == fetch_all(window)
    assert f"Showing {expected:,} of {len(verdicts):,} attempts" in window.attempts.counts.text()
    # The per-status part is counted off the GUI thread and follows the first rows.
    errors = f"parse errors {expected:,}"
    qtbot.waitUntil(lambda: errors in window.attempts.counts.text(), timeout=10_000)
    malformed = sum(v[3] == "malformed" for v in verdicts)
    assert f"Malformed {malformed:,}" in window.attempts.counts.text()

    window.filters.clear()
    run_id = verdicts[0][1]
    window.filters.runs.set_checked([run_id])
    assert window.model.matching == sum(v[1] == run_id for v in verdicts) == fetch_all(window)

    window.filters.clear()
    window.filters.correct.setCurrentIndex(2)  # incorrect
    assert window.model.matching == sum(not v[4] for v in verdicts)

    window.filters.clear()
    window.filters.disagreements.setChecked(True)
    disagreeing = sum(not v[5] for v in verdicts)
    assert 0 < window.model.matching == disagreeing == fetch_all(window)
    rows = [window.model.row_data(r) for r in range(window.model.rowCount())]
    assert all(row is not None and row.disagrees for row in rows)


def test_label_filter_counts(window: MainWindow, demo_path: Path, verdicts: Verdicts) -> None:
    with open_audit(demo_path) as db:
        labels = db.labels()
    topic = labels[verdicts[0][2]]["topic"]
    window.filters.facet("topic").set_checked([topic])
    expected = sum(labels[v[2]].get("topic") == topic for v in verdicts)
    assert window.model.matching == expected


def test_selecting_a_row_fills_every_panel(window: MainWindow, demo_path: Path) -> None:
    window.navigator.select_row(3)
    attempt_id = window.model.attempt_id_at(3)
    assert attempt_id is not None
    assert window.selection.attempt_id == attempt_id
    with open_audit(demo_path) as db:
        attempt = db.attempts_by_ids([attempt_id])[0]
        question = db.question(attempt.question_id)
    assert attempt.question_id in window.attempts.question_panel.heading_text()
    assert len(window.attempts.question_panel.row_texts()) == len(question.options)
    assert window.attempts.verdict_panel.status_text()
    assert window.attempts.response_view.raw_text() == attempt.raw_response


def _attempt_where(demo_path: Path, predicate: Callable[[str, Extraction], object]) -> int:
    with open_audit(demo_path) as db:
        runs = {run.run_id: run for run in db.runs()}
        keys = db.answer_keys()
        for row in db.iter_rescore_rows():
            attempt_id, run_id, question_id, _, state, raw, finish = row[:7]
            if raw is None:
                continue
            run = runs[run_id]
            outcome = derive(
                run.track, raw, len(keys[question_id]), protocol_version=run.protocol_version,
                state=state, finish_reason=finish,
            )  # fmt: skip
            if predicate(raw, outcome):
                return int(attempt_id)
    raise AssertionError("no such attempt in the demo")


def test_highlight_matches_the_extraction(window: MainWindow, demo_path: Path) -> None:
    attempt_id = _attempt_where(
        demo_path, lambda raw, o: o.spans and len(raw) > 60 and o.status.value == "valid"
    )
    window.navigator.show_attempt(attempt_id)
    assert window.selection.attempt_id == attempt_id
    raw = window.attempts.response_view.raw_text()
    assert raw is not None
    with open_audit(demo_path) as db:
        attempt = db.attempts_by_ids([attempt_id])[0]
        run = db.run(attempt.run_id)
        n = len(db.question(attempt.question_id).options)
    outcome = derive(run.track, raw, n, protocol_version=run.protocol_version,
                     state=attempt.state, finish_reason=attempt.finish_reason)  # fmt: skip
    assert window.attempts.response_view.highlighted_text() == [raw[a:b] for a, b in outcome.spans]


def test_html_in_a_response_shows_literally(window: MainWindow, demo_path: Path) -> None:
    attempt_id = _attempt_where(demo_path, lambda raw, _o: "<script>" in raw)
    window.navigator.show_attempt(attempt_id)
    shown = window.attempts.response_view.plain_text()
    assert "<b>bold</b><img src=x onerror=alert(1)>" in shown
    assert "<script>alert('xss')</script>" in shown


def test_keyboard_navigation(window: MainWindow, qtbot: QtBot, verdicts: Verdicts) -> None:
    window.attempts.table.setFocus()
    window.navigator.select_row(0)
    first = window.selection.attempt_id
    qtbot.keyClick(window.attempts.table, Qt.Key.Key_J)
    assert window.attempts.table.currentIndex().row() == 1
    qtbot.keyClick(window.attempts.table, Qt.Key.Key_K)
    assert window.selection.attempt_id == first

    status_of = {v[0]: v[3] for v in verdicts}
    qtbot.keyClick(window.attempts.table, Qt.Key.Key_E)
    assert status_of[shown_attempt(window)] in PARSE_ERROR_STATUSES
    first_error = shown_attempt(window)
    qtbot.keyClick(window.attempts.table, Qt.Key.Key_E)
    assert status_of[shown_attempt(window)] in PARSE_ERROR_STATUSES
    assert shown_attempt(window) > first_error  # list order is attempt_id order

    question_of = {v[0]: v[2] for v in verdicts}
    before = question_of[shown_attempt(window)]
    qtbot.keyClick(window.attempts.table, Qt.Key.Key_N)
    after = question_of[shown_attempt(window)]
    assert after != before
    qtbot.keyClick(window.attempts.table, Qt.Key.Key_P)
    assert question_of[shown_attempt(window)] == before


def test_search_like_then_full_text(window: MainWindow, demo_path: Path, qtbot: QtBot) -> None:
    word = "eyewash"
    before = window.model.matching
    with qtbot.waitSignal(window.attempt_list.searching, check_params_cb=lambda on: on):
        window.attempts.search.set_text_now(word)
    # A plain search is found off the GUI thread: the list keeps its rows meanwhile.
    assert window.model.matching == before
    assert "Searching every response" in window.attempts.counts.text()
    assert window.tasks.wait_idle()
    like_count = window.model.matching
    assert 0 < like_count < before
    assert "plain search (slower)" in window.attempts.counts.text()
    session = window.opening.session
    assert session is not None
    for row in range(min(5, window.model.rowCount())):
        attempt_id = window.model.attempt_id_at(row)
        assert attempt_id is not None
        attempt = session.attempt(attempt_id)
        assert attempt is not None
        question = session.questions[attempt.question_id]
        assert (
            word in (attempt.raw_response or "").lower()
            or word in (question.text + " ".join(o.text for o in question.options)).lower()
        )
    with open_audit(demo_path) as db:
        build_fts(db)
    window.attempts.search.set_text_now("")
    window.attempts.search.set_text_now(word)  # full text: at once, on the GUI thread
    index = window.model.review_index
    assert index is not None
    assert index.search_mode(window.model.query) == "fts"
    assert window.model.matching == like_count
    window.attempt_list.clear_all()  # Esc
    assert window.attempts.search.text() == ""
    assert window.model.matching == index.total()


def test_bad_file_shows_dialog_and_keeps_the_open_database(
    window: MainWindow, tmp_path: Path, message_boxes: MessageBoxes, demo_path: Path
) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("not a database at all\n" * 10)
    before = sha256(bad)
    title = window.windowTitle()
    current = window.selection.attempt_id
    assert not window.open_path(bad)
    (shown,) = message_boxes
    assert shown.icon == QMessageBox.Icon.Critical
    assert shown.text_format == Qt.TextFormat.PlainText
    assert "\n" not in shown.text
    assert "not a database" in shown.text
    assert window.opening.session is not None
    assert window.opening.session.path == demo_path.resolve()
    assert window.windowTitle() == title
    assert window.selection.attempt_id == current
    assert window.model.rowCount() > 0
    assert sha256(bad) == before


def test_compare_grid_click_jumps_to_attempt(window: MainWindow, verdicts: Verdicts) -> None:
    window.navigator.select_row(0)
    window.attempts.tabs.setCurrentIndex(TAB_COMPARE)
    assert window.tasks.wait_idle()  # the grid is read on its own lane
    question = {v[0]: v[2] for v in verdicts}[shown_attempt(window)]
    grid = window.attempts.compare.table
    expected = sum(v[2] == question for v in verdicts)
    cells = [
        window.attempts.compare.cell_attempt(r, c)
        for r in range(grid.rowCount())
        for c in range(grid.columnCount())
    ]
    assert len([c for c in cells if c is not None]) == expected
    target_row, target_col = grid.rowCount() - 1, grid.columnCount() - 1
    target = window.attempts.compare.cell_attempt(target_row, target_col)
    grid.cellClicked.emit(target_row, target_col)
    assert window.selection.attempt_id == target


def test_layout_and_last_file_persist(window: MainWindow, qtbot: QtBot, demo_path: Path) -> None:
    window.attempts.table.setColumnWidth(1, 222)
    window.close()
    again = MainWindow()
    qtbot.addWidget(again)
    assert again.settings.value("last_file") == str(demo_path.resolve())
    assert again.attempts.table.horizontalHeader().sectionSize(1) == 222
    assert again.settings.value("main_splitter") is not None


def test_the_audit_file_stays_byte_identical(qtbot: QtBot, demo_path: Path) -> None:
    before = sha256(demo_path)
    siblings = sorted(p.name for p in demo_path.parent.iterdir())
    win = MainWindow()
    qtbot.addWidget(win)
    assert win.open_path(demo_path, wait=True)
    win.filters.show_parse_errors()
    win.navigator.next_parse_error()
    win.attempts.search.set_text_now("ventilation")
    win.tasks.wait_idle()
    win.close()
    assert sha256(demo_path) == before
    assert sorted(p.name for p in demo_path.parent.iterdir()) == siblings


def test_screenshot_command(demo_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "shot.png"
    env_run = subprocess.run(
        [sys.executable, "-m", "ai4hse_desk", str(demo_path), "--screenshot", str(out)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert env_run.returncode == 0, env_run.stderr
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1600, 1000)


def test_screenshot_of_a_bad_file_is_one_error_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"")
    result = subprocess.run(
        [sys.executable, "-m", "ai4hse_desk", str(bad), "--screenshot", str(tmp_path / "x.png")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.startswith("error: ")
    assert len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "x.png").exists()


def test_apply_query_sets_the_filters(window: MainWindow, verdicts: Verdicts) -> None:
    from ai4hse_desk.index import AttemptQuery

    run_id = verdicts[0][1]
    query = AttemptQuery(run_ids=(run_id,), statuses=("valid",), correct=False)
    window.filters.apply_query(query)
    assert window.filters.query() == query
    expected = sum(v[1] == run_id and v[3] == "valid" and not v[4] for v in verdicts)
    assert window.model.matching == expected


def test_about_names_version_qt_licence_and_format(
    window: MainWindow, message_boxes: MessageBoxes
) -> None:
    import PySide6
    from PySide6.QtCore import qVersion

    from ai4hse_desk import __version__

    window.menu_actions["about"].trigger()
    (shown,) = message_boxes
    assert shown.text_format == Qt.TextFormat.PlainText
    text = shown.text
    assert f"AI4HSE Desk {__version__}" in text
    assert f"Qt {qVersion()}" in text
    assert f"PySide6 {PySide6.__version__}" in text
    assert "Licence: MIT" in text
    assert "schema version 1" in text


@pytest.mark.usefixtures("window")
def test_window_icon_is_set() -> None:
    from PySide6.QtWidgets import QApplication

    from ai4hse_desk.gui.app_icon import app_icon

    icon = app_icon()
    assert not icon.isNull()
    assert {s.width() for s in icon.availableSizes()} >= {16, 32, 256}
    assert QApplication.instance() is not None


def test_dropping_a_file_opens_it(qtbot: QtBot, demo_path: Path) -> None:
    from PySide6.QtCore import QMimeData, QPointF, QUrl
    from PySide6.QtGui import QDropEvent

    from ai4hse_desk.gui.widgets.file_drop import FileDrop

    win = MainWindow()
    qtbot.addWidget(win)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(demo_path))])
    event = QDropEvent(
        QPointF(10, 10), Qt.DropAction.CopyAction, mime,
        Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
    )  # fmt: skip
    drop = win.findChild(FileDrop)
    assert drop is not None
    assert drop.eventFilter(win, event)  # what Qt calls for a drop on the window
    assert win.opening.session is not None
    assert win.opening.session.path == demo_path.resolve()
    assert win.opening.loader.busy() or win.opening.session.index is not None
    qtbot.waitUntil(lambda: win.model.rowCount() > 0, timeout=20_000)
    win.close()


def test_a_click_on_a_scores_bar_filters_the_attempt_list(
    window: MainWindow, verdicts: Verdicts
) -> None:
    window.switcher.show_scores(wait=True)
    assert window.views.currentIndex() == VIEW_SCORES
    query = window.scores.query_for("answer_only/statuses", 0)
    assert query.run_ids is not None
    assert query.statuses is not None
    window.scores.filter_requested.emit(query)
    assert window.views.currentIndex() == VIEW_ATTEMPTS
    assert window.filters.query() == query
    expected = sum(v[1] in query.run_ids and v[3] in query.statuses for v in verdicts)
    assert window.model.matching == expected > 0


def test_screenshot_of_the_scores_view(demo_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "scores.png"
    result = subprocess.run(
        [sys.executable, "-m", "ai4hse_desk", str(demo_path), "--screenshot", str(out),
         "--view", "scores"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert QImage(str(out)).width() == 1600


def test_sorting_happens_in_sql_with_stable_pages(window: MainWindow, verdicts: Verdicts) -> None:
    from ai4hse_desk.gui.models.attempt_columns import COL_STATUS

    window.model.sort(COL_STATUS, Qt.SortOrder.DescendingOrder)
    rows = fetch_all(window)
    assert rows == len(verdicts)
    keys: list[SortKey] = []
    for row in range(rows):
        key = window.model.key_at(row)
        assert key is not None, f"row {row} has no sort key"
        keys.append(key)
    assert keys == sorted(keys, reverse=True)  # (status, attempt_id), descending
    assert len({k[1] for k in keys}) == rows  # every attempt exactly once
    status_of = {v[0]: v[3] for v in verdicts}
    assert [status_of[k[1]] for k in keys] == [k[0] for k in keys]


def test_the_window_follows_the_system_palette(qtbot: QtBot, demo_path: Path) -> None:
    from PySide6.QtGui import QColor, QPalette
    from PySide6.QtWidgets import QApplication

    from ai4hse_desk.display.status_style import STATUS_COLOURS, status_foreground
    from ai4hse_desk.protocol.outcome import Status

    app = QApplication.instance()
    assert isinstance(app, QApplication)
    saved = app.palette()
    dark = QPalette(saved)
    for role, colour in (
        (QPalette.ColorRole.Window, "#202020"),
        (QPalette.ColorRole.Base, "#181818"),
        (QPalette.ColorRole.Text, "#eeeeee"),
        (QPalette.ColorRole.WindowText, "#eeeeee"),
    ):
        dark.setColor(role, QColor(colour))
    app.setPalette(dark)
    try:
        win = MainWindow()
        qtbot.addWidget(win)
        assert win.open_path(demo_path, wait=True)
        for widget in (
            win,
            win.attempts.table,
            win.attempts.response_view.text_edit(),
            win.attempts.verdict_panel,
        ):
            assert widget.palette().color(QPalette.ColorRole.Window) == QColor("#202020")
        editor = win.attempts.response_view.text_edit()
        assert editor.palette().color(QPalette.ColorRole.Base) == QColor("#181818")
        # Status chips carry their own dark text on a light tint, readable on either palette.
        for status in Status:
            assert QColor(status_foreground(status)).lightness() < 100
            assert QColor(STATUS_COLOURS[status]).lightness() > 150
        win.close()
    finally:
        app.setPalette(saved)


def test_a_file_of_questions_alone_says_so_and_opens_for_review(
    qtbot: QtBot, demo_path: Path, tmp_path: Path
) -> None:
    import shutil
    import sqlite3

    from ai4hse_desk.gui.controllers.attempt_list import NO_ATTEMPTS

    questions_only = tmp_path / "questions.sqlite"  # as an import of a public set writes it
    shutil.copy(demo_path, questions_only)
    with sqlite3.connect(questions_only) as con:
        con.execute("DELETE FROM attempts")
        con.execute("DELETE FROM runs")
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    assert win.open_path(questions_only, wait=True)
    qtbot.waitUntil(lambda: win.attempts.counts.text() == NO_ATTEMPTS, timeout=10_000)
    assert win.model.rowCount() == 0
    win.menu_actions["review"].trigger()  # what the line offers: Review, Ctrl+5
    qtbot.waitUntil(lambda: win.review.blind.text.text().startswith("Which"), timeout=10_000)
    assert win.review.position.text() == "Q001 · question 1 of 100 in your queue"
    win.close()


def test_status_messages_show_invisible_characters_by_name(window: MainWindow) -> None:
    window.statusBar().showMessage("No attempt of Q\u202e01 is listed.")  # an id from the file
    assert window.statusBar().currentMessage() == "No attempt of Q⟨RLO⟩01 is listed."
    assert window.index_bar.parent() is window.statusBar(), "the index bar stays in it"
