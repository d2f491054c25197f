"""A long list, whole: every attempt at its row, Ctrl+End, the scroll bar, Go to, id search.

One generated demo database (``rows`` attempts) and its review index are built once
for the module; each test points the cache folder at that index.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from ai4hse_desk.audit import open_audit
from ai4hse_desk.gui.dialogs.go_to import PLACEHOLDER, GoToDialog, GoToTarget, parse_go_to
from ai4hse_desk.gui.main_window import MainWindow
from ai4hse_desk.gui.models.attempt_columns import COLUMNS
from ai4hse_desk.gui.models.attempt_columns import PLACEHOLDER as PENDING
from ai4hse_desk.gui.models.attempt_table import AttemptTableModel
from ai4hse_desk.gui.views.attempts import FIT_ROWS
from ai4hse_desk.index import CACHE_ENV, PARSE_ERROR_STATUSES, AttemptQuery, ensure_index
from ai4hse_desk.index.positions import PAGE, WALK
from ai4hse_desk.writer.demo import write_demo

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from pytestqt.qtbot import QtBot

    from ai4hse_desk.index import ReviewIndex

#: Attempts asked of the demo (it writes whole runs: about this many).
ASKED = 60_000
MODEL_COLUMN = next(i for i, column in enumerate(COLUMNS) if column.sort == "model")


@pytest.fixture(scope="module")
def long_demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, int]:
    """(audit file, cache folder holding its review index, attempts), built once."""
    folder = tmp_path_factory.mktemp("long-list")
    path, cache = folder / "demo.sqlite", folder / "cache"
    write_demo(path, attempts=ASKED)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(cache))
        with open_audit(path) as db, ensure_index(db) as index:
            return path, cache, index.total()


@pytest.fixture
def demo_path(long_demo: tuple[Path, Path, int], monkeypatch: pytest.MonkeyPatch) -> Path:
    path, cache, _rows = long_demo
    monkeypatch.setenv(CACHE_ENV, str(cache))
    return path


@pytest.fixture
def rows(long_demo: tuple[Path, Path, int]) -> int:
    """How many attempts the long demo has."""
    return long_demo[2]


@pytest.fixture
def index(demo_path: Path) -> Iterator[ReviewIndex]:
    with open_audit(demo_path) as db, ensure_index(db) as opened:
        yield opened


@pytest.fixture
def window(qtbot: QtBot, demo_path: Path) -> Iterator[MainWindow]:
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    assert win.open_path(demo_path, wait=True)  # the page ends are found before it returns
    yield win
    win.close()


def ordered_ids(index: ReviewIndex, order: str = "attempt_id", where: str = "1") -> list[int]:
    """The attempt ids in the list's order, straight from SQL (the test's own reference)."""
    sql = f"SELECT attempt_id FROM rows WHERE {where} ORDER BY {order}"
    with closing(sqlite3.connect(f"file:{index.path}?mode=ro", uri=True)) as conn:
        return [row[0] for row in conn.execute(sql)]


@pytest.mark.usefixtures("qapp")
def test_the_row_count_is_the_whole_filtered_total(index: ReviewIndex, rows: int) -> None:
    model = AttemptTableModel()
    model.set_index(index)
    assert model.rowCount() == index.total() == rows  # every attempt has its row
    errors = AttemptQuery(statuses=PARSE_ERROR_STATUSES)
    model.set_query(errors)
    assert 0 < model.rowCount() == index.count(errors) < rows
    model.set_query(AttemptQuery())
    assert not model.canFetchMore(model.index(-1, -1))  # nothing to load: every row is there


@pytest.mark.usefixtures("qapp")
def test_far_rows_wait_for_their_page_then_fill_in(index: ReviewIndex, rows: int) -> None:
    model = AttemptTableModel()
    model.set_index(index)
    model.sort(MODEL_COLUMN, Qt.SortOrder.DescendingOrder)
    expected = ordered_ids(index, "model DESC, attempt_id DESC")
    last, middle = rows - 1, rows // 2
    assert model.attempt_id_at(last) == expected[-1]  # from the end: no page ends needed
    assert model.attempt_id_at(0) == expected[0]
    assert middle > 2 * WALK
    assert not model.all_reachable
    assert model.data(model.index(middle, 0)) == PENDING  # not reachable yet: a placeholder
    job = model.positions_job()
    assert job is not None
    model.set_positions(job(lambda _done, _total: True))
    assert model.all_reachable
    assert model.positions_job() is None
    for row in (middle, middle + PAGE - 1, rows // 3, last - 3 * WALK):
        assert model.attempt_id_at(row) == expected[row]
    item = model.row_data(middle)
    assert item is not None
    assert model.data(model.index(middle, 0)) == item.question_id


def test_ctrl_end_selects_the_last_row_of_the_whole_list(
    qtbot: QtBot, window: MainWindow, rows: int
) -> None:
    table, index = window.attempts.table, window.model.review_index
    assert index is not None
    expected = ordered_ids(index)
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    assert table.currentIndex().row() == rows - 1
    assert window.model.attempt_id_at(rows - 1) == expected[-1]
    assert window.selection.attempt_id == expected[-1]  # the detail shows it
    qtbot.keyClick(table, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    assert window.selection.attempt_id == expected[0]


def test_the_scroll_bar_spans_the_whole_list(qtbot: QtBot, window: MainWindow, rows: int) -> None:
    table, index = window.attempts.table, window.model.review_index
    assert index is not None
    bar = table.verticalScrollBar()
    assert window.model.rowCount() == rows
    per_row = 1 if table.verticalScrollMode() == table.ScrollMode.ScrollPerItem else 22
    assert bar.maximum() + bar.pageStep() == pytest.approx(rows * per_row, abs=per_row)
    expected = ordered_ids(index)
    bar.setValue(bar.maximum() // 2)  # a drag to the middle
    qtbot.wait(10)
    top = table.rowAt(0)
    assert abs(top - rows // 2) < rows // 100
    for row in range(top, top + 5):
        assert window.model.data(window.model.index(row, 0)) != PENDING
        assert window.model.attempt_id_at(row) == expected[row]


def test_go_to_a_question_an_attempt_and_a_row(
    qtbot: QtBot, window: MainWindow, monkeypatch: pytest.MonkeyPatch, rows: int
) -> None:
    index, table, lst = window.model.review_index, window.attempts.table, window.attempt_list
    assert index is not None
    window.model.sort(MODEL_COLUMN, Qt.SortOrder.AscendingOrder)
    qtbot.waitUntil(lambda: window.model.all_reachable)
    expected = ordered_ids(index, "model, attempt_id")
    asked: list[str] = []

    def go(text: str) -> None:
        monkeypatch.setattr(GoToDialog, "ask", classmethod(lambda _cls, _p, _r: text))
        asked.append(text)
        lst.ask_go_to(window.navigator.select_row)

    first_q060 = ordered_ids(index, "model, attempt_id", "question_id = 'Q060'")[0]
    go("Q060")
    assert table.currentIndex().row() == expected.index(first_q060)
    assert window.selection.attempt_id == first_q060
    go("q060")  # ignoring case
    assert window.selection.attempt_id == first_q060
    attempt = expected[rows // 3]
    for text in (f"#{attempt}", f"attempt {attempt}"):
        go(text)
        assert table.currentIndex().row() == rows // 3
        assert window.selection.attempt_id == attempt
    go(f"row {rows - 7}")
    assert table.currentIndex().row() == rows - 8
    assert window.selection.attempt_id == expected[rows - 8]
    go("12345")  # a bare number is a row number
    assert window.selection.attempt_id == expected[12_344]
    assert asked == [
        "Q060",
        "q060",
        f"#{attempt}",
        f"attempt {attempt}",
        f"row {rows - 7}",
        "12345",
    ]
    shown = window.selection.attempt_id
    for text, says in (  # what cannot be gone to is said in one line, and nothing moves
        ("Q9999", "There is no question Q9999 in this file (nor such a row)."),
        (f"#{rows + 5}", f"There is no attempt #{rows + 5} in this file."),
        ("row 0", f"The list has {rows:,} rows: there is no row 0."),
        (f"{rows + 1}", f"The list has {rows:,} rows: there is no row {rows + 1:,}."),
    ):
        with qtbot.waitSignal(lst.message) as said:
            assert not lst.go_to(text)
        assert said.args == [says]
        assert window.selection.attempt_id == shown


def test_go_to_clears_the_filters_that_hide_its_target(qtbot: QtBot, window: MainWindow) -> None:
    index = window.model.review_index
    assert index is not None
    window.filters.show_parse_errors()
    hidden = ordered_ids(index, where="status = 'valid'")[100]
    assert window.model.row_of(hidden) is None
    window.attempt_list.row_chosen.connect(window.navigator.select_row)  # as Ctrl+G wires it
    with qtbot.waitSignal(window.attempt_list.row_chosen) as chosen:
        assert window.attempt_list.go_to(f"#{hidden}")
    assert window.model.query == AttemptQuery()
    assert chosen.args == [ordered_ids(index).index(hidden)]
    assert window.selection.attempt_id == hidden


def test_a_row_asked_for_early_is_gone_to_when_the_rows_are_placed(
    qtbot: QtBot, window: MainWindow, rows: int
) -> None:
    index, lst = window.model.review_index, window.attempt_list
    assert index is not None
    chosen: list[int] = []
    lst.row_chosen.connect(chosen.append)
    window.model.sort(MODEL_COLUMN, Qt.SortOrder.DescendingOrder)  # page ends: found again
    assert not window.model.all_reachable
    assert lst.go_to(f"row {rows // 2}")
    assert chosen == []
    qtbot.waitUntil(lambda: chosen == [rows // 2 - 1])
    expected = ordered_ids(index, "model DESC, attempt_id DESC")
    assert window.model.attempt_id_at(rows // 2 - 1) == expected[rows // 2 - 1]


def test_the_search_box_finds_a_question_by_its_id(qtbot: QtBot, window: MainWindow) -> None:
    index = window.model.review_index
    assert index is not None
    of_q060 = ordered_ids(index, where="question_id = 'Q060'")
    window.attempts.search.set_text_now("Q060")
    qtbot.waitUntil(lambda: window.model.query.text == "Q060" and window.tasks.idle("list"))
    assert window.model.matching == len(of_q060) > 0
    assert [window.model.attempt_id_at(r) for r in range(len(of_q060))] == of_q060


def test_the_go_to_dialog_reads_ids_and_rows(qtbot: QtBot) -> None:
    assert parse_go_to("  Q060 ") == GoToTarget("question", "Q060")
    assert parse_go_to("#123456") == parse_go_to("attempt 123456") == GoToTarget("attempt", 123456)
    assert parse_go_to("Attempt #7") == GoToTarget("attempt", 7)
    assert parse_go_to("row 500000") == parse_go_to("500,000") == GoToTarget("row", 500_000)
    assert parse_go_to("question 12") == GoToTarget("question", "12")
    assert parse_go_to("court_case/rule_recall/012") == GoToTarget(
        "question", "court_case/rule_recall/012"
    )
    assert parse_go_to("   ") is None
    dialog = GoToDialog(rows=1_000)
    qtbot.addWidget(dialog)
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    assert dialog.edit.placeholderText() == PLACEHOLDER
    assert all(form in PLACEHOLDER for form in ("Q060", "#123456", "attempt 123456", "row 500000"))
    assert not ok.isEnabled()
    dialog.edit.setText("row 1001")
    assert not ok.isEnabled()
    assert dialog.target.text() == "Rows are numbered 1 to 1,000."
    dialog.edit.setText("row 1000")
    assert ok.isEnabled()
    assert dialog.target.text() == "Goes to row 1,000."
    dialog.edit.setText("Q060")
    assert ok.isEnabled()
    assert dialog.target.text() == "Goes to question Q060."


def test_go_to_is_in_the_navigate_menu_on_ctrl_g(qtbot: QtBot) -> None:
    """The menu row exists with its shortcut (what it does is tested above)."""
    from ai4hse_desk.gui.main_window import MainWindow

    win = MainWindow()
    qtbot.addWidget(win)
    action = win.menu_actions["go_to"]
    assert action.shortcut().toString() == "Ctrl+G"
    assert action.text() == "&Go to…"
    win.close()


def test_go_to_says_where_it_went_keeping_the_ids_case(qtbot: QtBot, window: MainWindow) -> None:
    window.attempt_list.row_chosen.connect(window.navigator.select_row)
    with qtbot.waitSignal(window.attempt_list.message) as said:
        assert window.attempt_list.go_to("Q060")
    assert str(said.args[0]).startswith("Question Q060: row ")


def test_the_first_column_fit_reads_a_few_rows_not_a_thousand(
    qtbot: QtBot, demo_path: Path, rows: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Qt sizes columns by 1,000 rows unless told otherwise (80,000 data() calls before
    the first rows show); the desk's first fit measures FIT_ROWS, the shown rows a few more."""
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1400, 900)
    asked: set[int] = set()
    read = win.model.row_data

    def recording(row: int) -> object:
        asked.add(row)
        return read(row)

    monkeypatch.setattr(win.model, "row_data", recording)
    win.show()
    assert win.open_path(demo_path, wait=True)
    qtbot.waitExposed(win)
    assert rows > 1_000
    assert 0 in asked
    assert max(asked) < 2 * FIT_ROWS + 40  # the fit's rows, the rows in view (about 30)
    header = win.attempts.table.horizontalHeader()
    assert all(header.sectionSize(c) > 0 for c in range(header.count()))
    win.close()
