"""Search (issue 14, point 6): the scope selector, hits in the response, focus, empty results."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextFormat
from PySide6.QtWidgets import QApplication

from ai4hse_desk.audit import open_audit
from ai4hse_desk.gui.main_window import MainWindow
from ai4hse_desk.gui.panels.response import ResponseView
from ai4hse_desk.gui.panels.response_hits import HitBar
from ai4hse_desk.index import build_fts

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from pytestqt.qtbot import QtBot

    from ai4hse_desk.gui.models.attempt_table import AttemptTableModel

KIND = QTextFormat.Property.UserProperty
#: In the demo: a word only in option texts, one only in responses, one nowhere.
OPTION_WORD, RESPONSE_WORD, NO_WORD = "attenuation", "considering", "zzqxjw"


@pytest.fixture
def window(qtbot: QtBot, pristine: Path) -> Iterator[MainWindow]:
    with open_audit(pristine) as db:
        build_fts(db)  # full-text search: each search is found at once, on the GUI thread
    win = MainWindow()
    qtbot.addWidget(win)
    win.resize(1400, 900)
    win.show()
    assert win.open_path(pristine, wait=True)
    assert win.tasks.wait_idle()
    yield win
    win.close()


@pytest.fixture
def view(qtbot: QtBot) -> ResponseView:
    widget = ResponseView()
    qtbot.addWidget(widget)
    widget.resize(640, 400)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _scope(model: AttemptTableModel) -> tuple[str, ...]:
    """Where the listed query looks for the text, read afresh (each click sets a new query)."""
    return model.query.text_scope


def _hits(view: ResponseView) -> list[tuple[int, int]]:
    return sorted(
        (s.cursor.selectionStart(), s.cursor.selectionEnd())
        for s in view.text_edit().extraSelections()
        if s.format.property(KIND) in ("hit", "current hit")
    )


# -- the scope selector ------------------------------------------------------------------


def test_the_scope_selector_starts_with_responses_and_reaches_the_query(
    window: MainWindow,
) -> None:
    search, model = window.attempts.search, window.model
    assert search.scope() == ("responses",)
    assert "responses" in search.edit.placeholderText()
    assert "question id" in search.edit.placeholderText()
    search.set_text_now(OPTION_WORD)
    assert _scope(model) == ("responses",)
    assert model.matching == 0  # only in option texts: not found in responses
    search.scope_buttons["options"].click()
    assert _scope(model) == ("responses", "options")
    found_in_options = model.matching
    assert found_in_options > 0
    assert "responses + options" in search.edit.placeholderText()
    search.scope_buttons["responses"].click()
    assert _scope(model) == ("options",)
    assert model.matching == found_in_options
    search.scope_buttons["options"].click()  # the last place stays on
    assert search.scope_buttons["options"].isChecked()
    assert search.scope() == ("options",)
    search.set_text_now(RESPONSE_WORD)
    assert model.matching == 0
    search.scope_buttons["responses"].click()
    assert model.matching > 0
    search.set_text_now("Q001")  # a question id finds its attempts in any scope
    assert model.matching > 0


def test_the_search_bar_marks_terms_only_with_responses_in_scope(
    window: MainWindow, qtbot: QtBot
) -> None:
    search = window.attempts.search
    with qtbot.waitSignal(search.highlight_changed) as marked:
        search.set_text_now(f"  {RESPONSE_WORD} first ")
    assert marked.args == [[RESPONSE_WORD, "first"]]
    with qtbot.waitSignal(search.highlight_changed) as marked:
        search.set_scope(("questions",))
    assert marked.args == [[]]


# -- focus after Enter, Esc --------------------------------------------------------------


def test_enter_gives_the_list_the_keyboard_and_esc_still_clears(
    window: MainWindow, qtbot: QtBot
) -> None:
    window.activateWindow()
    search, table = window.attempts.search, window.attempts.table
    search.focus()
    qtbot.keyClicks(search.edit, RESPONSE_WORD)
    qtbot.keyClick(search.edit, Qt.Key.Key_Return)
    assert window.model.query.text == RESPONSE_WORD
    assert QApplication.focusWidget() is table
    first = window.selection.attempt_id
    assert first == window.model.attempt_id_at(0)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_J)  # J moves, it does not type
    assert search.text() == RESPONSE_WORD
    assert window.selection.attempt_id == window.model.attempt_id_at(1) != first
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Escape)
    assert search.text() == ""
    assert window.model.query.text is None


# -- an empty result ---------------------------------------------------------------------


def test_an_empty_result_clears_the_detail(window: MainWindow) -> None:
    window.navigator.select_row(0)
    shown, raw = window.selection.attempt_id, window.attempts.response_view.raw_text()
    assert shown is not None
    assert raw is not None
    window.attempts.search.set_text_now(NO_WORD)
    assert window.model.matching == 0
    assert window.selection.attempt_id is None
    assert window.attempts.response_view.raw_text() is None
    assert window.attempts.response_view.plain_text() == ""
    window.attempts.search.set_text_now("")  # found again: the first row is shown
    assert window.selection.attempt_id == window.model.attempt_id_at(0)


def test_an_empty_result_disables_the_flag_and_note_buttons(window: MainWindow) -> None:
    panel = window.attempts.flags_panel
    window.navigator.select_row(0)
    assert window.tasks.wait_idle()
    assert panel.add_flag_button.isEnabled()
    assert panel.add_note_button.isEnabled()
    window.attempts.search.set_text_now(NO_WORD)
    assert window.tasks.wait_idle()
    assert not panel.add_flag_button.isEnabled()
    assert not panel.add_note_button.isEnabled()


def test_the_window_marks_the_search_in_the_response(window: MainWindow) -> None:
    window.attempts.search.set_text_now(RESPONSE_WORD)
    view = window.attempts.response_view
    assert view.search_hits().qt_spans()


# -- hits in the response view ---------------------------------------------------------------


def test_hits_are_marked_case_insensitively_beside_the_spans(view: ResponseView) -> None:
    text = "Ventilation first.\nThen VENTILATION again [TRUE, FALSE]"
    answer = text.index("[")
    view.set_response(text, [(answer, len(text))])
    assert _hits(view) == []
    view.set_search_terms(["ventilation"])
    expected = [(0, 11), (24, 35)]
    assert view.search_hits().qt_spans() == expected
    assert _hits(view) == expected
    assert view.highlighted_text() == ["[TRUE, FALSE]"]  # the extraction span stays
    bar = view.findChild(HitBar)
    assert bar is not None
    assert not bar.isHidden()
    assert bar.label.text() == "hit 1 of 2"
    view.set_search_terms([])
    assert _hits(view) == []
    assert bar.isHidden()
    assert view.highlighted_text() == ["[TRUE, FALSE]"]


def test_next_and_previous_hit_move_the_cursor(view: ResponseView) -> None:
    view.set_search_terms(["hazard"])
    view.set_response("a hazard, a HAZARD and a Hazard")
    starts = [start for start, _end in view.search_hits().qt_spans()]
    assert starts == [2, 12, 25]
    cursor = view.text_edit().textCursor
    assert cursor().selectionStart() == 2
    bar = view.findChild(HitBar)
    assert bar is not None
    next_hit, previous_hit = bar.hit_actions
    assert next_hit.shortcut().toString() == "F3"
    assert previous_hit.shortcut().toString() == "Shift+F3"
    next_hit.trigger()
    assert cursor().selectionStart() == 12
    assert view.search_hits().current_qt() == (12, 18)
    assert bar.label.text() == "hit 2 of 3"
    bar.next.click()
    assert cursor().selectionStart() == 25
    next_hit.trigger()  # wraps round
    assert cursor().selectionStart() == 2
    previous_hit.trigger()
    assert cursor().selectionStart() == 25
    bar.previous.click()
    assert cursor().selectionStart() == 12
    assert "current hit" in {s.format.property(KIND) for s in view.text_edit().extraSelections()}


def test_the_first_hit_of_a_long_response_is_scrolled_into_view(view: ResponseView) -> None:
    lines = [f"line {i}: nothing to see" for i in range(5_000)]
    lines[4_000] = "line 4000: the lockout point"
    view.set_search_terms(["LOCKOUT"])
    view.set_response("\n".join(lines))
    editor = view.text_edit()
    (hit,) = view.search_hits().qt_spans()
    assert editor.textCursor().selectionStart() == hit[0]
    assert editor.viewport().rect().contains(editor.cursorRect().center())
    assert editor.firstVisibleBlock().blockNumber() > 3_900


# -- the first page at once, the count in the background ---------------------------------


def test_a_search_shows_its_first_page_at_once_and_counts_in_the_background(
    window: MainWindow,
) -> None:
    """A word in more responses than a page: the first page is shown at once (found by
    an index-driven LIMIT, not counted), the counts line says it is counting, and the
    list then holds every match, in the same order."""
    from ai4hse_desk.index.positions import PAGE

    index = window.model.review_index
    assert index is not None
    query_word = "FINAL_ANSWER"
    window.attempts.search.set_text_now(query_word)
    assert window.model.matching == PAGE  # the first page, before the count
    first = [window.model.attempt_id_at(row) for row in range(PAGE)]
    assert "counting…" in window.attempts.counts.text()
    assert window.attempts.counts.text().startswith(f"Showing the first {PAGE:,} of")
    assert window.tasks.wait_idle()
    total = index.count(window.model.query)
    assert total > PAGE
    assert window.model.matching == total
    assert [window.model.attempt_id_at(row) for row in range(PAGE)] == first
    assert window.attempts.counts.text().startswith(f"Showing {total:,} of")
    window.attempts.search.set_text_now("Q001")  # fewer than a page: counted at once
    assert window.model.matching == index.count(window.model.query) > 0
    assert "counting…" not in window.attempts.counts.text()
