"""The scores table as a reviewer reads it at 1366×768: the primary score in view, who ran it kept.

Issue 14, point 7: exact accuracy and coverage sat off-screen to the right behind the
settings, and the model and run columns scrolled away. These show the real window on the
demo at the smallest supported screen and compare column rectangles, never pixels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QApplication, QTableView

from ai4hse_desk.gui.main_window import MainWindow
from ai4hse_desk.scores import COLUMNS
from tests.gui.gui_fixtures import header_text

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from pytestqt.qtbot import QtBot

    from ai4hse_desk.gui.views.scores_track import TrackPage

SIZE = (1366, 768)
FROZEN = ("model", "run_id")
#: What a reviewer reads first, left to right (issue 14, "What to build").
LEADING = (*FROZEN, "exact_accuracy", "valid_accuracy", "coverage")
HORIZONTAL = Qt.Orientation.Horizontal


@pytest.fixture
def window(qtbot: QtBot, pristine: Path) -> Iterator[MainWindow]:
    """The window at 1366×768 on the demo, the scores shown."""
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(*SIZE)
    win.show()
    assert win.open_path(pristine, wait=True)
    win.switcher.show_scores(wait=True)
    _settle()
    assert win.size() == QSize(*SIZE)
    yield win
    win.close()


@pytest.fixture
def pages(window: MainWindow) -> list[TrackPage]:
    """Every track's page (a test shows each in turn)."""
    found = list(window.scores.pages.values())
    assert found, "the demo has scored tracks"
    return found


def _settle() -> None:
    for _ in range(5):
        QApplication.processEvents()


def _show(window: MainWindow, page: TrackPage) -> None:
    window.scores.tabs.setCurrentWidget(page)
    _settle()


def _views(page: TrackPage) -> list[QTableView]:
    """The visible table views of ``page`` that show its scores model."""
    return [
        view
        for view in page.findChildren(QTableView)
        if view.isVisible() and view.model() is page.model
    ]


def _global(view: QTableView, rect: QRect) -> QRect:
    return QRect(view.viewport().mapToGlobal(rect.topLeft()), rect.size())


def _column_in_view(page: TrackPage, key: str) -> bool:
    """Whether some view of ``page`` shows the whole column ``key`` unscrolled-to and uncovered.

    A column counts when its full width lies inside that view's viewport, inside the
    table's visible area, and no other view (a frozen overlay) lies over it.
    """
    column = page.model.column_index(key)
    area = _global(page.table, page.table.viewport().rect())
    for view in _views(page):
        if view.isColumnHidden(column):
            continue
        x, width = view.columnViewportPosition(column), view.columnWidth(column)
        if width <= 0 or x < 0 or x + width > view.viewport().width():
            continue
        rect = _global(view, QRect(x, 0, width, max(1, view.viewport().height())))
        covered = any(
            other is not view
            and other.parent() is view
            and _global(other, other.viewport().rect()).intersects(rect)
            for other in _views(page)
        )
        if area.contains(QRect(rect.left(), area.top(), rect.width(), 1)) and not covered:
            return True
    return False


def _screen_order(page: TrackPage) -> list[str]:
    """The column keys as the eye reads them, left to right, over every view of the page."""
    placed: list[tuple[int, str]] = []
    seen: set[str] = set()
    views = sorted(_views(page), key=lambda v: v.viewport().mapToGlobal(QPoint(0, 0)).x())
    for view in views:
        header = view.horizontalHeader()
        for visual in range(header.count()):
            logical = header.logicalIndex(visual)
            key = page.model.columns[logical].key
            if view.isColumnHidden(logical) or key in seen:
                continue
            seen.add(key)
            left = view.viewport().mapToGlobal(QPoint(header.sectionPosition(logical), 0)).x()
            placed.append((left, key))
    return [key for _, key in sorted(placed)]


def test_the_declared_order_leads_with_who_and_the_primary_score() -> None:
    keys = [column.key for column in COLUMNS]
    assert tuple(keys[: len(LEADING)]) == LEADING
    settings = [i for i, column in enumerate(COLUMNS) if column.kind == "setting"]
    assert settings == list(range(len(keys) - len(settings), len(keys))), "settings come last"
    assert "protocol_version" in keys[-len(settings) :]


def test_exact_accuracy_and_coverage_are_in_view_without_scrolling(
    window: MainWindow, pages: list[TrackPage]
) -> None:
    for page in pages:
        _show(window, page)
        assert page.table.horizontalScrollBar().value() == 0
        missing = [key for key in LEADING if not _column_in_view(page, key)]
        assert not missing, f"{page.track}: not in view at 1366×768: {missing}"


def test_model_and_run_stay_in_view_when_the_metrics_scroll(
    window: MainWindow, pages: list[TrackPage]
) -> None:
    for page in pages:
        _show(window, page)
        bar = page.table.horizontalScrollBar()
        assert bar.maximum() > 0, "the settings are wider than the window: the table scrolls"
        bar.setValue(bar.maximum())
        _settle()
        last = COLUMNS[-1].key
        assert _column_in_view(page, last), f"{page.track}: the last setting is reachable"
        for key in FROZEN:
            assert _column_in_view(page, key), f"{page.track}: {key} scrolled away"
        assert not _column_in_view(page, "exact_accuracy")  # the metrics did scroll


def test_the_frozen_columns_follow_the_rows(window: MainWindow, pages: list[TrackPage]) -> None:
    page = pages[0]
    _show(window, page)
    table, model = page.table, page.model
    (frozen,) = [v for v in _views(page) if v is not table]  # a second view of the same model
    assert frozen.selectionModel() is table.selectionModel()
    frozen.selectRow(0)
    assert {index.row() for index in table.selectionModel().selectedIndexes()} == {0}
    # Moving to a metric scrolled under the frozen columns brings it out from under them.
    last = model.rowCount() - 1
    table.setCurrentIndex(model.index(last, model.columnCount() - 1))
    _settle()
    assert table.horizontalScrollBar().value() > 0
    table.setCurrentIndex(model.index(last, model.column_index("exact_accuracy")))
    _settle()
    assert _column_in_view(page, "exact_accuracy")
    # A short table scrolls its rows: the frozen rows scroll with it, both ways.
    page.setSizes([table.horizontalHeader().height() + table.rowHeight(0), page.height()])
    _settle()
    bar = table.verticalScrollBar()
    assert bar.maximum() > 0
    bar.setValue(bar.maximum())
    _settle()
    assert frozen.verticalScrollBar().value() == bar.value()
    assert frozen.rowViewportPosition(last) == table.rowViewportPosition(last)
    frozen.verticalScrollBar().setValue(0)
    assert bar.value() == 0


def test_the_screen_order_is_the_declared_order(window: MainWindow, pages: list[TrackPage]) -> None:
    declared = [column.key for column in COLUMNS]
    for page in pages:
        _show(window, page)
        assert [c.key for c in page.model.columns] == declared
        assert _screen_order(page) == declared


def test_every_header_says_what_it_means(pages: list[TrackPage]) -> None:
    page = pages[0]
    for view in _views(page):
        model = view.model()
        for section in range(model.columnCount()):
            header = str(model.headerData(section, HORIZONTAL, Qt.ItemDataRole.DisplayRole))
            tip = model.headerData(section, HORIZONTAL, Qt.ItemDataRole.ToolTipRole)
            assert isinstance(tip, str)
            assert tip.strip(), header
            assert tip.startswith(header), f"the tooltip gives the full header: {header!r}"
            assert len(tip) > len(header) + 5, f"{header}: says what it means"
    exact = header_text(
        page.model, page.model.column_index("exact_accuracy"), Qt.ItemDataRole.ToolTipRole
    )
    assert "primary" in exact
    coverage = page.model.column_index("coverage")
    tip = header_text(page.model, coverage, Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("Coverage\n")
    assert "valid / all attempts" in tip.lower()


def test_every_toolbar_button_fits(window: MainWindow) -> None:
    toolbar = window.scores.toolbar
    hidden = [
        action.text()
        for action in toolbar.actions()
        if not action.isSeparator() and not toolbar.widgetForAction(action).isVisible()
    ]
    assert not hidden, f"behind the toolbar's overflow at 1366×768: {hidden}"
    for action in toolbar.actions():
        assert action.isSeparator() or action.toolTip() == action.text()
