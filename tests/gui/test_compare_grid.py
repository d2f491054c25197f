"""The compare grid shows what each run chose: model data, clicks and the read off-thread.

On the demo's miskeyed Q060 (1 of 24 attempts correct): the key row, the
marks where a run's value differs from the key, the share row ("6 of 8 runs
select A as FALSE"), "Valid ✗" apart from "Valid ✓", and a click or Enter
opening the attempt.
"""

from __future__ import annotations

import dataclasses
import shutil
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QTextDocument
from PySide6.QtWidgets import QLabel, QTabWidget

from ai4hse_desk.audit import AuditDB, open_audit
from ai4hse_desk.display.status_style import DIFFERS_COLOURS, VALUE_COLOURS
from ai4hse_desk.gui.controllers.compare import LANE, CompareController
from ai4hse_desk.gui.controllers.views import TAB_ATTEMPT
from ai4hse_desk.gui.main_window import MainWindow
from ai4hse_desk.gui.models.compare_table import (
    ATTEMPT_ROLE,
    DIFFERS_ROLE,
    CompareTableModel,
    cell_colours,
)
from ai4hse_desk.gui.views.compare_grid import CompareGrid
from ai4hse_desk.index import CACHE_ENV, ReviewIndex, ensure_index
from ai4hse_desk.index.compare import compare_choices, read_compare_choices
from ai4hse_desk.index.compare_layout import CompareLayout, compare_layout
from ai4hse_desk.verdicts.attempt_detail import AttemptDetail, build_detail
from tests.gui.gui_fixtures import HOSTILE, header_text

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from pytestqt.qtbot import QtBot

    from ai4hse_desk.gui.models.compare_table import Part
    from ai4hse_desk.gui.workers.runner import TaskRunner
    from ai4hse_desk.index import ListRow

MISKEYED = "Q060"
DISPLAY, TIP = Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole
BACKGROUND, FONT = Qt.ItemDataRole.BackgroundRole, Qt.ItemDataRole.FontRole


@dataclass
class Demo:
    db: AuditDB
    index: ReviewIndex

    def rows(self) -> list[ListRow]:
        return self.index.compare_grid(MISKEYED)

    def key(self) -> tuple[bool, ...]:
        return self.db.question(MISKEYED).key

    def texts(self) -> list[str]:
        return [option.text for option in self.db.question(MISKEYED).options]

    def layout(self, *, per_repetition: bool = False) -> CompareLayout:
        choices = read_compare_choices(
            self.index, MISKEYED, self.key(), self.texts(), per_repetition=per_repetition
        )
        return compare_layout(choices)

    def detail(self, attempt_id: int) -> AttemptDetail:
        (attempt,) = self.db.attempts_by_ids([attempt_id])
        run = next(r for r in self.db.runs() if r.run_id == attempt.run_id)
        question = self.db.question(attempt.question_id)
        return build_detail(attempt, question, run, self.index.verdict(attempt_id))


@pytest.fixture(scope="module")
def demo(pristine: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(tmp_path_factory.mktemp("compare-grid-cache")))
        with open_audit(pristine) as db, ensure_index(db) as index:
            yield Demo(db, index)


def model_of(layout: CompareLayout, part: Part) -> CompareTableModel:
    model = CompareTableModel(part)
    model.set_layout(layout)
    return model


def column(model: CompareTableModel, title: str) -> int:
    titles = [
        str(model.headerData(c, Qt.Orientation.Horizontal)) for c in range(model.columnCount())
    ]
    return titles.index(title)


def run_row(model: CompareTableModel, run_id: str) -> int:
    runs = [str(model.index(r, 0).data()).split()[0] for r in range(model.rowCount())]
    return runs.index(run_id)


def colour(brush: object) -> str:
    assert isinstance(brush, QBrush)
    return brush.color().name()


@pytest.mark.usefixtures("qapp")
def test_cells_show_each_runs_choice_and_mark_what_differs_from_the_key(demo: Demo) -> None:
    rows = model_of(demo.layout(), "rows")
    a, b = column(rows, "A"), column(rows, "B")
    borealis = run_row(rows, "ao-borealis-large-2026-09-04")
    differing, agreeing = rows.index(borealis, a), rows.index(borealis, b)
    assert (differing.data(), differing.data(DIFFERS_ROLE)) == ("≠ F 3/3", True)
    assert differing.data(FONT).bold()
    assert colour(differing.data(BACKGROUND)) == QColor(DIFFERS_COLOURS[0]).name()
    assert "0 of 3 valid repetitions chose TRUE, 3 FALSE" in differing.data(TIP)
    assert (agreeing.data(), agreeing.data(DIFFERS_ROLE)) == ("T 3/3", False)
    assert agreeing.data(FONT) is None
    assert colour(agreeing.data(BACKGROUND)) == QColor(VALUE_COLOURS[True][0]).name()
    assert differing.data(ATTEMPT_ROLE) is None  # a run's aggregate: no single attempt


@pytest.mark.usefixtures("qapp")
def test_the_key_has_its_own_row_and_the_share_row_counts_runs(demo: Demo) -> None:
    layout = demo.layout()
    key, share = model_of(layout, "key"), model_of(layout, "share")
    letters = [column(key, letter) for letter in "ABCD"]
    assert key.rowCount() == share.rowCount() == 1
    assert key.index(0, 0).data() == "Answer key"
    assert [key.index(0, c).data() for c in letters] == ["T", "T", "F", "F"]
    assert (
        colour(key.index(0, letters[0]).data(BACKGROUND)) == QColor(VALUE_COLOURS[True][0]).name()
    )
    a = share.index(0, letters[0])
    assert a.data() == "≠ T 1/8\nF 6/8"
    assert "6 of 8 runs select A as FALSE" in a.data(TIP)
    assert a.data(DIFFERS_ROLE) is True
    b = share.index(0, letters[1])
    assert (b.data(), b.data(DIFFERS_ROLE)) == ("T 7/8\nF 1/8", False)
    assert share.index(0, 0).data() == "Runs choosing T / F"
    per_attempt = model_of(demo.layout(per_repetition=True), "share")
    a_per_attempt = per_attempt.index(0, column(per_attempt, "A"))
    assert "14 of 24 attempts select A as FALSE" in a_per_attempt.data(TIP)


@pytest.mark.usefixtures("qapp")
def test_valid_but_wrong_differs_from_correct_in_text_and_colour(demo: Demo) -> None:
    rows = model_of(demo.layout(per_repetition=True), "rows")
    status = column(rows, "Status")
    cells = {rows.index(r, status).data(): rows.index(r, status) for r in range(rows.rowCount())}
    right, wrong, malformed = cells["Valid ✓"], cells["Valid ✗"], cells["Malformed"]
    backgrounds = {colour(cell.data(BACKGROUND)) for cell in (right, wrong)}
    assert len(backgrounds) == 2  # not the same green
    for cell in (right, wrong, malformed):
        r, c = cell.row(), cell.column()
        source = rows.cell(r, c)
        assert source is not None
        colours = cell_colours(source)
        assert colours is not None
        assert colour(cell.data(BACKGROUND)) == QColor(colours[0]).name()
        foreground = cell.data(Qt.ItemDataRole.ForegroundRole)
        assert colour(foreground) == QColor(colours[1]).name()


@pytest.mark.usefixtures("qapp")
def test_option_columns_are_headed_by_letters_with_the_text_in_the_tooltip(demo: Demo) -> None:
    key = model_of(demo.layout(), "key")
    horizontal = Qt.Orientation.Horizontal
    for letter, text in zip("ABCD", demo.texts(), strict=True):
        section = column(key, letter)
        assert key.headerData(section, horizontal, TIP) == f"{letter}: {text}"
    reps = [key.headerData(c, horizontal) for c in range(key.columnCount())][-3:]
    assert reps == ["rep 1", "rep 2", "rep 3"]


@pytest.mark.usefixtures("qapp")
def test_run_ids_and_option_texts_from_the_file_show_as_plain_text(demo: Demo) -> None:
    rows = [dataclasses.replace(row, run_id=HOSTILE) for row in demo.rows()]
    choices = compare_choices(MISKEYED, rows, demo.key(), [HOSTILE] * 4)
    model = model_of(compare_layout(choices), "rows")
    assert HOSTILE in model.index(0, 0).data()
    shown = QTextDocument()
    shown.setHtml(model.index(0, 0).data(TIP))
    assert f"run {HOSTILE}" in shown.toPlainText()
    shown.setHtml(header_text(model, column(model, "A"), TIP))
    assert shown.toPlainText() == f"A: {HOSTILE}"


@pytest.mark.usefixtures("qapp")
def test_bidi_and_invisible_characters_in_run_ids_and_options_are_shown_by_name(
    demo: Demo,
) -> None:
    rows = [dataclasses.replace(row, run_id="r\u202e1") for row in demo.rows()]
    choices = compare_choices(MISKEYED, rows, demo.key(), ["opt\u200bion"] * 4)
    model = model_of(compare_layout(choices), "rows")
    assert "r⟨RLO⟩1" in model.index(0, 0).data()
    assert "\u202e" not in model.index(0, 0).data(TIP)
    assert header_text(model, column(model, "A"), TIP).endswith("opt⟨ZWSP⟩ion")


@pytest.fixture
def grid(qtbot: QtBot, demo: Demo) -> CompareGrid:
    widget = CompareGrid()
    qtbot.addWidget(widget)
    widget.resize(1100, 600)
    widget.show()
    widget.set_rows(MISKEYED, demo.rows(), None, demo.key(), demo.texts())
    return widget


def test_a_click_or_enter_on_a_cell_emits_its_attempt(qtbot: QtBot, grid: CompareGrid) -> None:
    table, model = grid.table, grid.table.grid_model()
    last = model.rowCount() - 1
    rep_2 = column(model, "rep 2")
    target = grid.cell_attempt(last, rep_2)
    assert target is not None
    rect = table.visualRect(model.index(last, rep_2))
    with qtbot.waitSignal(grid.attempt_activated) as clicked:
        qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert clicked.args == [target]
    first_rep = grid.cell_attempt(0, column(model, "rep 1"))
    table.setFocus()
    table.setCurrentIndex(model.index(0, column(model, "A")))  # a run's aggregate cell
    with qtbot.waitSignal(grid.attempt_activated) as entered:
        qtbot.keyClick(table, Qt.Key.Key_Return)
    assert entered.args == [first_rep]


def test_each_attempt_has_one_cell_and_the_toggle_shows_one_row_each(
    grid: CompareGrid, demo: Demo
) -> None:
    table = grid.table
    cells = [
        grid.cell_attempt(r, c) for r in range(table.rowCount()) for c in range(table.columnCount())
    ]
    ids = sorted(row.attempt_id for row in demo.rows())
    assert sorted(c for c in cells if c is not None) == ids
    assert (table.rowCount(), grid.key_view.rowCount(), grid.share_view.rowCount()) == (8, 1, 1)
    grid.per_repetition.setChecked(True)
    assert table.rowCount() == 24
    assert [grid.cell_attempt(r, 0) for r in range(24)] == [row.attempt_id for row in demo.rows()]
    assert grid.legend.isVisible()
    assert "valid attempt" in grid.legend.text()


def test_pinned_rows_line_up_with_the_run_rows(grid: CompareGrid) -> None:
    for c in range(grid.table.columnCount()):
        widths = {view.columnWidth(c) for view in (grid.key_view, grid.table, grid.share_view)}
        assert len(widths) == 1
    assert grid.table.horizontalScrollBar().maximum() == 0
    key_bottom = grid.key_view.geometry().bottom()
    assert key_bottom < grid.table.geometry().top() <= grid.table.geometry().bottom()
    assert grid.table.geometry().bottom() < grid.share_view.geometry().top()


@pytest.mark.usefixtures("qapp")
def test_the_repetitions_stand_at_one_width(grid: CompareGrid) -> None:
    """One status per repetition: the columns are as wide as the widest one ("Provider
    error" beside "Valid ✓"), so that rep 3 is not the narrow one at the edge."""
    layout = grid.table.grid_model().grid_layout
    assert layout is not None
    reps = layout.repetition_columns
    assert [layout.columns[c].title for c in reps] == ["rep 1", "rep 2", "rep 3"]
    assert max(layout.option_columns) < min(reps)
    widths = {grid.table.columnWidth(c) for c in reps}
    assert len(widths) == 1
    model = grid.table.grid_model()
    texts = [model.index(r, c).data() for r in range(model.rowCount()) for c in reps]
    metrics = grid.table.fontMetrics()
    assert max(metrics.horizontalAdvance(str(t)) for t in texts) < widths.pop()


def test_the_per_attempt_layout_has_no_repetition_columns(demo: Demo) -> None:
    assert demo.layout(per_repetition=True).repetition_columns == ()
    assert len(demo.layout().repetition_columns) == 3


def test_the_controller_reads_on_its_lane_and_opens_side_by_side(
    qtbot: QtBot, tasks: TaskRunner, demo: Demo
) -> None:
    grid, tabs = CompareGrid(), QTabWidget()
    qtbot.addWidget(tabs)
    tabs.addTab(QLabel("side by side"), "Attempt")
    tabs.addTab(grid, "Compare")
    controller = CompareController(grid, tabs, tasks=tasks)
    controller.set_index(demo.index)
    tabs.setCurrentWidget(grid)
    first, second = demo.rows()[:2]
    controller.show_detail(demo.detail(first.attempt_id))
    assert [task.name for task in tasks.pending(LANE)] == ["compare grid"]
    assert grid.question_id is None  # nothing read on the GUI thread
    qtbot.waitUntil(lambda: grid.question_id == MISKEYED, timeout=10_000)
    current = grid.table.currentIndex()
    assert grid.cell_attempt(current.row(), current.column()) == first.attempt_id
    controller.show_detail(demo.detail(second.attempt_id))  # the same question: no read
    assert tasks.idle(LANE)
    current = grid.table.currentIndex()
    assert grid.cell_attempt(current.row(), current.column()) == second.attempt_id
    with qtbot.waitSignal(grid.attempt_activated):
        grid.table.cellClicked.emit(current.row(), current.column())
    assert tabs.currentIndex() == TAB_ATTEMPT


@pytest.fixture
def window(qtbot: QtBot, pristine: Path, tmp_path: Path) -> Iterator[MainWindow]:
    audit = shutil.copyfile(pristine, tmp_path / "audit.sqlite")
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    assert win.open_path(audit, wait=True)
    yield win
    win.close()


def test_in_the_window_a_click_opens_the_attempt_side_by_side(window: MainWindow) -> None:
    window.navigator.jump_to_question(MISKEYED)
    window.switcher.show_compare()
    assert window.tasks.wait_idle()
    grid = window.attempts.compare
    assert grid.question_id == MISKEYED
    assert grid.title.text().startswith(f"{MISKEYED}: 1 of 24 attempts correct")
    assert grid.table.horizontalScrollBar().maximum() == 0  # every column fits at 1366×768
    model = grid.table.grid_model()
    target = grid.cell_attempt(model.rowCount() - 1, column(model, "rep 3"))
    assert target is not None
    grid.table.cellClicked.emit(model.rowCount() - 1, column(model, "rep 3"))
    assert window.selection.attempt_id == target
    assert window.attempts.tabs.currentIndex() == TAB_ATTEMPT
