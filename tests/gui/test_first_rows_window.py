"""A starting window draws the file's first rows, then builds the rest of itself.

The start (:func:`ai4hse_desk.gui.app.start_window`) makes a window whose list comes
first: the selected attempt's panels, the compare grid, the other pages, the notes and
the menus' entries are built once the frame holding the first rows is drawn, and are
then handed the open file, its index and the first row, as a whole window would have
them. The list must not move when they arrive.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import QEvent, QObject, QPoint

from ai4hse_desk.audit import open_audit
from ai4hse_desk.gui.app import new_window, start_window
from ai4hse_desk.gui.controllers import first_rows
from ai4hse_desk.gui.main_window import PAGES, MainWindow
from ai4hse_desk.gui.views.attempts import FIT_ROWS, content_widths
from ai4hse_desk.gui.workers import index_loader
from ai4hse_desk.index import ensure_index

if TYPE_CHECKING:
    from pathlib import Path

    from pytestqt.qtbot import QtBot

    from tests.gui.gui_fixtures import MessageBoxes


def _cache_index(path: Path) -> None:
    with open_audit(path) as db:
        ensure_index(db).close()


class PaintLog(QObject):
    """Records, at each paint of the list, whether it had rows and the rest was built."""

    def __init__(self, window: MainWindow) -> None:
        super().__init__(window)
        self.window = window
        self.paints: list[tuple[bool, bool]] = []
        window.attempts.table.viewport().installEventFilter(self)

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.paints.append((self.window.model.rowCount() > 0, self.window.is_built))
        return False


def test_a_start_draws_the_first_rows_before_it_builds_the_rest(
    qtbot: QtBot, pristine: Path
) -> None:
    _cache_index(pristine)
    window = start_window(pristine)
    qtbot.addWidget(window)
    # Before the event loop turns: the small file's cached rows are in the list already.
    assert window.model.rowCount() > 0
    assert window.model.row_data(0) is not None
    assert not window.is_built
    assert not window.attempts.detail_built
    assert "next_attempt" not in window.menu_actions
    assert [window.views.tabText(i) for i in range(window.views.count())] == list(PAGES)
    log = PaintLog(window)
    with qtbot.waitSignal(window.rest_built, timeout=10_000):
        pass
    assert (True, False) in log.paints  # drawn with rows, before the rest was built
    assert window.is_built
    assert window.views.widget(1) is window.scores
    assert window.views.widget(2) is window.keyaudit
    assert "next_attempt" in window.menu_actions
    # Handed over: the file, its index and the first row, as a whole window has them.
    assert window.selection.detail is not None
    assert window.selection.attempt_id == window.model.attempt_id_at(0)
    qtbot.waitUntil(lambda: window.notes.writable, timeout=10_000)  # its store looked for
    # Once the store says no review plan hides its key, the first attempt is shown whole
    # (until then the desk cannot know: the detail waits, issue 31).
    qtbot.waitUntil(lambda: not window.sight.pending, timeout=10_000)
    assert window.attempts.question_panel.heading_text() != "No attempt selected"
    assert window.notes.attempt_id == window.selection.attempt_id


def test_started_and_whole_windows_end_alike(qtbot: QtBot, pristine: Path) -> None:
    """Built in two parts or at once, a window that opened a file is the same window."""
    _cache_index(pristine)
    staged = start_window(pristine)
    whole = MainWindow()
    qtbot.addWidget(staged)
    qtbot.addWidget(whole)
    qtbot.waitUntil(lambda: staged.is_built, timeout=10_000)
    assert whole.open_path(pristine, wait=True)
    assert staged.tasks.wait_idle()
    for window in (staged, whole):
        window.switcher.show_compare()
        assert window.tasks.wait_idle()

    def seen(window: MainWindow) -> tuple[object, ...]:
        actions = window.menu_actions
        menus = [a.text() for a in window.menuBar().actions()]
        return (
            [window.views.tabText(i) for i in range(window.views.count())],
            menus,
            sorted(k for k in (a.objectName() for a in window.actions()) if k and k in actions),
            window.model.rowCount(),
            window.selection.attempt_id,
            window.attempts.counts.text(),
            window.filters.runs.count(),
            window.attempts.compare.table.model().rowCount(),
            window.notes.writable,
            window.notes_dock.isHidden(),
            window.windowTitle(),
        )

    assert seen(staged) == seen(whole)


@pytest.mark.parametrize("size", [(1366, 768), (1600, 1000)])
def test_the_list_does_not_move_when_the_rest_arrives(
    qtbot: QtBot, pristine: Path, size: tuple[int, int]
) -> None:
    _cache_index(pristine)
    window = new_window(rest_after_first_rows=True)
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    assert window.open_path(pristine)
    table = window.attempts.table
    header = table.horizontalHeader()

    def where() -> tuple[object, ...]:
        return (
            table.mapTo(window, QPoint(0, 0)),
            table.size(),
            [header.sectionSize(c) for c in range(header.count())],
            window.filters_dock.geometry(),
            window.attempts.search.geometry(),
        )

    first: list[tuple[object, ...]] = []

    class Watch(QObject):
        def eventFilter(self, _watched: QObject, event: QEvent) -> bool:
            if event.type() == QEvent.Type.Paint and not window.is_built and not first:
                first.append(where())
            return False

    watch = Watch(window)
    table.viewport().installEventFilter(watch)
    qtbot.waitUntil(lambda: window.is_built, timeout=10_000)
    assert window.tasks.wait_idle()  # the per-status counts lengthen the counts line too
    qtbot.wait(50)
    assert first, "the list was not drawn before the rest was built"
    assert where() == first[0]


def test_a_start_with_no_file_builds_the_rest_after_its_first_frame(qtbot: QtBot) -> None:
    window = start_window(None)
    qtbot.addWidget(window)
    assert not window.is_built
    qtbot.waitUntil(lambda: window.is_built, timeout=first_rows.REST_WAIT_MS // 2)
    assert window.opening.session is None
    assert "open" in window.menu_actions


def test_a_file_that_fails_to_open_builds_the_rest_and_says_why(
    qtbot: QtBot, tmp_path: Path, message_boxes: MessageBoxes
) -> None:
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"not a database at all")
    window = start_window(bad)
    qtbot.addWidget(window)
    qtbot.waitUntil(lambda: window.is_built, timeout=first_rows.REST_WAIT_MS // 2)
    (shown,) = message_boxes.critical()
    assert shown.title == "Cannot open audit database"
    assert window.opening.session is None


def test_a_file_whose_index_is_built_gets_the_rest_before_its_rows(
    qtbot: QtBot, pristine: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A first opening builds the index (seconds on a large file): the menus and panels
    come as soon as the build says how far it is, not after it."""
    gate = threading.Event()
    real = ensure_index  # the one index_loader calls (imported there)

    def held(db: object, *, progress: object, workers: int | None = None) -> object:
        assert progress is not None
        progress(0, 100)  # type: ignore[operator]
        gate.wait(10)
        return real(db, progress=progress, workers=workers)  # type: ignore[arg-type]

    monkeypatch.setattr(index_loader, "ensure_index", held)
    window = start_window(pristine)
    qtbot.addWidget(window)
    try:
        qtbot.waitUntil(lambda: window.is_built, timeout=first_rows.REST_WAIT_MS // 2)
        assert window.model.review_index is None  # the rows are still being derived
    finally:
        gate.set()
    qtbot.waitUntil(lambda: window.model.rowCount() > 0, timeout=10_000)
    qtbot.waitUntil(lambda: window.selection.detail is not None, timeout=10_000)
    assert window.selection.attempt_id == window.model.attempt_id_at(0)


def test_the_rest_never_waits_longer_than_its_limit(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing says the list has settled (a huge file's fingerprint still being read):
    the rest is built anyway, after REST_WAIT_MS."""
    monkeypatch.setattr(first_rows, "REST_WAIT_MS", 100)
    window = new_window(rest_after_first_rows=True)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.is_built, timeout=10_000)


def test_a_window_closed_before_the_rest_is_built_closes_cleanly(
    qtbot: QtBot, pristine: Path
) -> None:
    _cache_index(pristine)
    window = start_window(pristine)
    qtbot.addWidget(window)
    assert not window.is_built
    window.close()  # its tasks end, its file closes, its layout is kept
    assert window.opening.session is None
    assert window.settings.value("geometry") is not None
    qtbot.wait(first_rows.REST_WAIT_MS // 10)
    assert not window.is_built  # a closed window builds nothing later


def test_the_first_fit_gives_the_widths_qt_gives(window: MainWindow, pristine: Path) -> None:
    """The list's first fit measures its texts itself (Qt's own asks the model every role
    of every cell); the widths are Qt's for the same rows."""
    assert window.open_path(pristine, wait=True)
    table = window.attempts.table
    ours = content_widths(table, FIT_ROWS)
    table.horizontalHeader().setResizeContentsPrecision(FIT_ROWS)
    table.resizeColumnsToContents()
    header = table.horizontalHeader()
    assert ours == [header.sectionSize(c) for c in range(header.count())]


@pytest.mark.parametrize("size", [(1366, 768), (1600, 1000)])
def test_the_filter_panel_fits_the_dock_it_comes_into(
    qtbot: QtBot, pristine: Path, size: tuple[int, int]
) -> None:
    """The dock keeps the width it had before its panel came: wide enough for it."""
    window = MainWindow()
    qtbot.addWidget(window)
    window.resize(*size)
    window.show()
    assert window.open_path(pristine, wait=True)
    qtbot.waitExposed(window)
    panel = window.filters
    assert panel.sizeHint().width() <= panel.width()
    assert not panel.horizontalScrollBar().isVisible()


def test_a_search_typed_before_the_filters_come_is_kept(qtbot: QtBot, pristine: Path) -> None:
    _cache_index(pristine)
    window = start_window(pristine)
    qtbot.addWidget(window)
    assert not window.is_built
    everything = window.model.matching
    window.attempts.search.set_text_now("FALSE, FALSE, FALSE")
    qtbot.waitUntil(lambda: window.is_built, timeout=10_000)
    assert window.filters.query().text == "FALSE, FALSE, FALSE"
    assert window.tasks.wait_idle()
    assert window.model.query.text == "FALSE, FALSE, FALSE"
    assert 0 < window.model.matching < everything


@pytest.mark.parametrize("page", ["Scores", "Key audit", "Review"])
def test_a_page_chosen_before_the_rest_came_stays_chosen(
    qtbot: QtBot, pristine: Path, page: str
) -> None:
    _cache_index(pristine)
    window = start_window(pristine)
    qtbot.addWidget(window)
    window.views.setCurrentIndex(PAGES.index(page))  # its tab clicked at once
    qtbot.waitUntil(lambda: window.is_built, timeout=10_000)
    assert window.views.currentIndex() == PAGES.index(page)
    shown = {"Scores": window.scores, "Key audit": window.keyaudit, "Review": window.review_page}
    assert window.views.currentWidget() is shown[page]
    if page == "Review":
        assert window.review.isVisible()  # made once the window attached it
