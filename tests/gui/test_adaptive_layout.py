"""The attempt detail adapts to the window: at 1366×768 and above nothing is clipped.

Issue 14, point 1: the Desk column of *Runner vs desk*, the status reason and the
DISAGREEMENT banner were cut off at 1500×950 and 1600×1000 and out of sight at
1366×768, and invisible-character stand-ins in a response widened its column. These
show the real window on the demo, select the attempt the runner deliberately got wrong
(Q094, aurora-7b, repetition 1) and compare widget rectangles, never pixels.
"""

from __future__ import annotations

import shutil
import sqlite3
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QSize
from PySide6.QtWidgets import QAbstractScrollArea, QApplication, QLabel, QScrollArea, QWidget

from ai4hse_desk.audit import open_audit
from ai4hse_desk.gui.main_window import MainWindow
from ai4hse_desk.gui.views.detail_panes import PANE_WIDTH
from ai4hse_desk.gui.widgets.label_grid import LabelGrid
from ai4hse_desk.gui.widgets.labels import ElidingLabel, WrappingLabel
from ai4hse_desk.verdicts.rescore import iter_verdicts

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from pytestqt.qtbot import QtBot

#: The smallest supported screen, the window's default, the README's screenshots, full HD.
SIZES = [(1366, 768), (1500, 950), (1600, 1000), (1920, 1080)]
#: A response built to widen its pane: a long run of zero-width spaces (each shown as a
#: ⟨ZWSP⟩ stand-in, so one unbroken token) and a 300-character word.
HOSTILE_RESPONSE = "[TRUE, " + "\u200b" * 400 + " " + "w" * 300 + " TRUE, TRUE, FALSE]"


@pytest.fixture(scope="module")
def disagreeing(pristine: Path) -> int:
    """The attempt of issue 14: Q094, aurora-7b, repetition 1, which the runner got wrong
    (else the first attempt the runner got wrong)."""
    with open_audit(pristine) as db:
        models = {run.run_id: run.model for run in db.runs()}
        wrong = [v for v in iter_verdicts(db) if not v.agrees]
        attempts = {a.attempt_id: a for a in db.attempts_by_ids([v.attempt_id for v in wrong])}
    assert wrong, "the demo has deliberate disagreements"
    for verdict in wrong:
        attempt = attempts[verdict.attempt_id]
        if (verdict.question_id, models[verdict.run_id], attempt.repetition) == (
            "Q094", "aurora-7b", 1,
        ):  # fmt: skip
            return verdict.attempt_id
    return wrong[0].attempt_id


def _window(qtbot: QtBot, path: Path, size: tuple[int, int], attempt_id: int) -> MainWindow:
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(*size)
    win.show()
    assert win.open_path(path, wait=True)
    win.filters.disagreements.setChecked(True)  # "Runner ≠ desk only", as in the issue
    win.navigator.show_attempt(attempt_id)
    assert win.selection.attempt_id == attempt_id
    _settle()
    assert win.size() == QSize(*size)
    return win


def _settle() -> None:
    for _ in range(5):
        QApplication.processEvents()


@pytest.fixture(params=SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def window(
    request: pytest.FixtureRequest, qtbot: QtBot, pristine: Path, disagreeing: int
) -> Iterator[MainWindow]:
    win = _window(qtbot, pristine, request.param, disagreeing)
    yield win
    win.close()


def _named(root: QWidget, name: str) -> QWidget:
    (found,) = [w for w in root.findChildren(QWidget) if w.accessibleName() == name]
    return found


def _scroll_area(panel: QWidget) -> QScrollArea:
    area = panel.findChild(QScrollArea)
    assert area is not None, f"{type(panel).__name__} scrolls in no QScrollArea"
    return area


def _inside(widget: QWidget, viewport: QWidget) -> bool:
    """Whether ``widget`` is shown and its whole rectangle lies inside ``viewport``."""
    if not widget.isVisible():
        return False
    rect = QRect(widget.mapTo(viewport, QPoint(0, 0)), widget.size())
    return viewport.rect().contains(rect)


def _scroll_areas_with_a_horizontal_bar(root: QWidget) -> list[str]:
    return [
        area.accessibleName() or area.objectName() or type(area).__name__
        for area in root.findChildren(QAbstractScrollArea)
        if area.isVisible() and area.horizontalScrollBar().isVisible()
    ]


def test_the_verdict_desk_column_banner_and_reason_are_in_view(window: MainWindow) -> None:
    verdict = window.attempts.verdict_panel
    viewport = _scroll_area(verdict).viewport()
    desk = [
        label
        for label in verdict.findChildren(QLabel)
        if label.accessibleName() == "Desk" or label.accessibleName().endswith(", Desk")
    ]
    assert len(desk) == 1 + len(verdict.comparison_texts())  # the header and every row
    outside = [label.accessibleName() for label in desk if not _inside(label, viewport)]
    assert outside == []
    assert verdict.banner().isVisible()
    assert _inside(verdict.banner(), viewport)
    assert _inside(_named(verdict, "Desk status reason"), viewport)


def test_no_detail_pane_scrolls_sideways(window: MainWindow) -> None:
    detail = window.attempts.tabs.currentWidget()
    assert _scroll_areas_with_a_horizontal_bar(detail) == []
    # The list's columns share its width too (a long id elides in the middle).
    assert not window.attempts.table.horizontalScrollBar().isVisible()
    # The panes themselves stay inside the detail tab.
    page = detail.rect()
    for pane in (
        window.attempts.question_panel,
        window.attempts.response_view,
        window.attempts.verdict_panel,
    ):
        assert page.contains(QRect(pane.mapTo(detail, QPoint(0, 0)), pane.size()))


@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
def test_a_hostile_response_does_not_widen_its_pane(
    qtbot: QtBot, pristine: Path, tmp_path: Path, disagreeing: int, size: tuple[int, int]
) -> None:
    calm = _window(qtbot, pristine, size, disagreeing)
    calm_width = calm.attempts.response_view.width()
    calm.close()

    path = tmp_path / "hostile.sqlite"
    shutil.copyfile(pristine, path)
    con = sqlite3.connect(path)
    with con:
        con.execute(
            "UPDATE attempts SET raw_response = ? WHERE attempt_id = ?",
            (HOSTILE_RESPONSE, disagreeing),
        )
    con.close()
    win = _window(qtbot, path, size, disagreeing)
    response = win.attempts.response_view
    assert response.raw_text() == HOSTILE_RESPONSE
    assert "⟨ZWSP⟩" in response.plain_text()
    editor = response.text_edit()
    assert not editor.horizontalScrollBar().isVisible()
    assert editor.document().size().width() <= editor.viewport().width()
    assert response.width() <= calm_width
    detail = win.attempts.tabs.currentWidget()
    assert _scroll_areas_with_a_horizontal_bar(detail) == []
    verdict = win.attempts.verdict_panel
    assert _inside(verdict.banner(), _scroll_area(verdict).viewport())
    win.close()


def test_the_verdict_moves_under_the_response_below_the_threshold(window: MainWindow) -> None:
    panes = window.attempts.detail_splitter
    stacked = panes.width() < panes.side_by_side_width()
    assert panes.is_stacked() == stacked
    least = panes.question_column.minimumSizeHint().width()
    assert panes.side_by_side_width() >= least + 2 * PANE_WIDTH
    verdict, response = window.attempts.verdict_panel, window.attempts.response_view
    if stacked:  # the verdict under the response, as wide as it
        assert verdict.parent() is response.parent() is panes.response_column
        assert verdict.mapTo(panes, QPoint(0, 0)).y() > response.mapTo(panes, QPoint(0, 0)).y()
        assert verdict.width() == response.width()
    else:  # three columns, the free width shared
        assert verdict.parent() is panes
        assert min(response.width(), verdict.width()) >= PANE_WIDTH
    # At default fonts, beside the filters dock: 1366×768 and 1500×950 stack, 1600 wide not.
    assert stacked == (window.width() < 1600)


# ------------------------------------------------------------- the widgets that never widen


def test_an_id_elides_in_the_middle_with_the_whole_text_in_its_tooltip(qtbot: QtBot) -> None:
    whole = "ao-aurora-7b-2026-09-03-" + "x" * 120 + "-<b>end</b>"
    label = ElidingLabel(whole)
    qtbot.addWidget(label)
    assert label.minimumSizeHint().width() < label.sizeHint().width()
    label.resize(200, 20)
    label.show()
    assert label.text() == whole
    assert label.is_elided()
    shown = QLabel.text(label)
    assert shown.startswith("ao-aurora")
    assert shown.endswith("</b>")
    assert "…" in shown
    assert "&lt;b&gt;" in label.toolTip()  # HTML in the tooltip shown as its characters
    label.resize(label.sizeHint().width(), 20)
    assert not label.is_elided()
    assert label.toolTip() == ""


def test_a_long_word_wraps_anywhere_and_sets_no_minimum_width(qtbot: QtBot) -> None:
    label = WrappingLabel("item 2 '" + "⟨ZWSP⟩" * 60 + "' is not TRUE/FALSE")
    qtbot.addWidget(label)
    narrow = label.minimumSizeHint().width()
    assert narrow < label.fontMetrics().horizontalAdvance("⟨ZWSP⟩" * 10)
    label.resize(narrow * 3, label.heightForWidth(narrow * 3))
    label.show()
    assert label.is_breaking_words()
    line = label.fontMetrics().lineSpacing()
    assert label.heightForWidth(narrow * 3) > 3 * line  # the word on several lines
    label.setText("short words only")
    assert not label.is_breaking_words()


def test_a_long_word_in_a_question_never_pushes_the_blind_answer_off_the_panel(
    qtbot: QtBot,
) -> None:
    from PySide6.QtWidgets import QRadioButton

    from ai4hse_desk.gui.review.blind import BlindAnswerPanel
    from ai4hse_desk.gui.review.reads import BlindQuestion

    word = "W" * 300  # a URL, a formula, a CAS number run together: no place to break
    panel = BlindAnswerPanel()
    qtbot.addWidget(panel)
    panel.set_question(BlindQuestion("Q001", f"Which is right? {word}", (word, "short", "B")))
    panel.resize(600, 700)
    panel.show()
    QApplication.processEvents()
    assert panel.minimumSizeHint().width() < 600
    buttons = panel.findChildren(QRadioButton)
    assert len(buttons) == 9
    for button in buttons:
        right = button.mapTo(panel, QPoint(button.width(), 0)).x()
        assert button.isVisible(), button.accessibleName()
        assert right <= panel.width(), button.accessibleName()
    assert panel.text.is_breaking_words()
    assert panel.option_texts[0].is_breaking_words()
    assert panel.option_texts[0].text() == word


def test_a_key_of_many_options_stands_four_to_a_line(qtbot: QtBot) -> None:
    """A proposed or corrected key of nine options needs no more width than one of four
    (in one row it needed about 760 px, more than the question column has)."""
    from ai4hse_desk.gui.review.adjudication_form import DecisionForm
    from ai4hse_desk.gui.review.form import VerdictForm
    from ai4hse_desk.review.queue import REASON_KEY_WRONG, QueueItem
    from ai4hse_desk.review.values import FALSE, KEY_CORRECTED, KEY_WRONG, TRUE

    form = VerdictForm()
    qtbot.addWidget(form)
    form.set_content(4, None, [TRUE] * 4)
    four = form.minimumSizeHint().width()
    form.set_content(9, None, [FALSE] * 9)
    form.show()
    QApplication.processEvents()  # laid out; the four boxes before are deleted
    boxes = form.key_boxes
    wider = form.minimumSizeHint().width() - four  # (a wider letter, a pixel or two)
    assert wider < boxes[0].minimumSizeHint().width(), "no fifth box on a line"
    assert [box.accessibleName()[-1] for box in boxes] == list("ABCDEFGHI")
    a, e, i = (boxes[n].mapTo(form, QPoint(0, 0)) for n in (0, 4, 8))
    assert a.x() == e.x() == i.x(), "A, E and I start the lines"
    assert a.y() < e.y() < i.y()
    form.verdict.setCurrentIndex(form.verdict.findData(KEY_WRONG))
    boxes[8].setCurrentText(TRUE)
    assert form.values().proposed_key == (FALSE,) * 8 + (TRUE,)

    decision = DecisionForm()
    qtbot.addWidget(decision)
    official = (True,) + (False,) * 8
    decision.set_item(QueueItem("Q001", (REASON_KEY_WRONG,), official, (), None))
    assert decision.values().key is None, "no correction chosen yet"
    decision.choose(KEY_CORRECTED, [FALSE, TRUE])
    assert decision.values().key == (FALSE, TRUE) + (FALSE,) * 7
    assert decision.key_boxes[8].accessibleName() == "Corrected key, option I"


def test_the_server_queue_keeps_each_state_in_sight_whatever_the_id(qtbot: QtBot) -> None:
    from PySide6.QtCore import Qt

    from ai4hse_desk.gui.review.queue_list import OwnQueueList

    queue = OwnQueueList()
    qtbot.addWidget(queue)
    long_id = "court_case/rule_application/" + "x" * 60
    states = ["submitted"] + [None] * 1199
    queue.set_entries(
        [{"question_id": f"{long_id}{n}", "position": n, "state": states[n]} for n in range(1200)]
    )
    queue.resize(180, 300)
    queue.show()
    first, last = queue.item(0), queue.item(1199)
    assert first.toolTip() == first.text() == f"1. {long_id}0 — submitted"
    assert last.text() == f"1,200. {long_id}1199 — to answer"
    assert queue.horizontalScrollBarPolicy() == Qt.ScrollBarPolicy.ScrollBarAlwaysOff
    room = queue.viewport().width()
    shown = queue.fontMetrics().elidedText(first.text(), queue.textElideMode(), room)
    assert shown.startswith("…"), "the beginning gives way"
    assert shown.endswith("x0 — submitted"), "the state and the end of the id stay in sight"


def test_the_queue_read_again_changes_only_the_rows_that_changed(qtbot: QtBot) -> None:
    """After a write the queue is read again: the same questions keep their rows (a
    10,000-question queue was rebuilt after every answer), the marked row stays, and a
    click still asks for the question of its row."""
    from ai4hse_desk.gui.review.queue_list import OwnQueueList

    queue = OwnQueueList()
    qtbot.addWidget(queue)
    entries = [{"question_id": f"Q{n:04d}", "state": None} for n in range(1, 1201)]
    queue.set_entries(entries)
    queue.set_current("Q0600")
    row_600, row_3 = queue.item(599), queue.item(2)
    entries[2] = {"question_id": "Q0003", "state": "submitted"}
    queue.set_entries(entries)
    assert queue.item(2) is row_3, "changed in place"
    assert queue.item(599) is row_600
    assert (row_3.text(), row_3.toolTip()) == ("3. Q0003 — submitted",) * 2
    assert queue.currentRow() == 599
    with qtbot.waitSignal(queue.picked) as asked:
        queue.itemClicked.emit(queue.item(2))
    assert asked.args == ["Q0003"]
    queue.set_entries(entries[:2] + entries[3:])  # another queue: rebuilt
    assert [queue.item(n).text() for n in range(3)] == [
        "1. Q0001 — to answer", "2. Q0002 — to answer", "3. Q0004 — to answer"]  # fmt: skip
    assert queue.currentRow() == 598, "the question on the page, where it now is"


def test_grid_values_wrap_or_elide(qtbot: QtBot) -> None:
    grid = LabelGrid("Facts", 2)
    qtbot.addWidget(grid)
    run = "r-" + "9" * 200
    rows = grid.set_rows([("Run", run), ("Extracted", "[TRUE, FALSE, TRUE, FALSE, TRUE]")])
    grid.resize(300, 200)
    grid.show()
    QApplication.processEvents()
    (_name, run_label), (_field, extracted) = rows
    assert grid.texts() == [("Run", run), ("Extracted", "[TRUE, FALSE, TRUE, FALSE, TRUE]")]
    assert run_label.toolTip() == run
    assert extracted.wordWrap()
    assert grid.minimumSizeHint().width() < 300


class _Paints(QObject):
    """Counts the paint events the watched widget receives."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False


def test_the_full_text_progress_appears_with_the_next_frame_not_at_once(
    window: MainWindow,
) -> None:
    """Showing the build's progress must not draw the window there and then: the bar's
    value was set once it was shown, and a shown QProgressBar repaints on setValue,
    which drew the window again right after its first rows (about 25 ms at start-up)."""
    search = window.attempts.search
    search.set_fts_state("ready")
    _settle()
    paints = _Paints()
    search.progress.installEventFilter(paints)
    try:
        search.set_fts_state("building", 1, 100)
        assert paints.count == 0  # drawn with the window's next frame
        assert search.progress.isVisibleTo(window)
        assert search.progress.value() == 1
        _settle()
        assert paints.count >= 1
    finally:
        search.progress.removeEventFilter(paints)
        search.set_fts_state("ready")


def test_the_full_text_progress_is_readable_while_it_builds(window: MainWindow) -> None:
    """The search bar's progress ("full-text index 42%") keeps room for its text beside
    the mode line, even on a 1366-pixel screen (it was squeezed to half its text)."""
    search = window.attempts.search
    search.set_fts_state("building", 42, 100)
    _settle()
    bar = search.progress
    assert bar.isVisible()
    assert bar.width() >= bar.fontMetrics().horizontalAdvance("full-text index 100%")
    search.set_fts_state("ready")


def test_the_review_index_progress_and_cancel_keep_their_own_width(window: MainWindow) -> None:
    """While the review index is built, the status bar's progress shows its whole text
    and Cancel is a button, not half the screen (it took the message's width)."""
    bar = window.index_bar
    bar.show_progress(30, 100)
    _settle()
    try:
        assert bar.isVisible()
        assert bar.cancel.width() <= bar.cancel.sizeHint().width() + 8
        text = bar.progress.fontMetrics().horizontalAdvance("review index 100%")
        assert bar.progress.width() >= text
        assert bar.width() < window.width() // 2
    finally:
        bar.show_progress(100, 100)
    assert not bar.isVisible()


def test_the_options_stay_whole_when_a_wider_window_narrows_the_question_column(
    qtbot: QtBot, pristine: Path
) -> None:
    """Widened from 1366 to 1600 px the detail goes from two columns to three and the
    question's column narrows: Q001's long options wrap onto more lines. The options table
    had kept its old height (option D cut off, a scroll bar beside it) over a flags panel
    with room to spare; the question takes the height its rows need, as with a new attempt."""
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1366, 768)
    win.show()
    assert win.open_path(pristine, wait=True)
    win.navigator.show_attempt(1)  # Q001, whose options run to three lines
    assert win.attempts.question_panel.heading_text().startswith("Q001")
    _settle()
    panes = win.attempts.detail_splitter
    assert panes.is_stacked()
    win.resize(1600, 1000)
    qtbot.waitUntil(lambda: not panes.is_stacked())
    table = win.attempts.question_panel.table()

    def whole() -> bool:
        shown = table.viewport().height() >= table.verticalHeader().length()
        return shown and not table.verticalScrollBar().isVisible()

    qtbot.waitUntil(whole, timeout=3000)
    _settle()
    assert whole()  # and it stays so
    assert table.rowCount() == 4
    win.close()
