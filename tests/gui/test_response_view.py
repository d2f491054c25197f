"""ResponseView: untrusted responses shown as plain, visible text with exact highlights."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QUrl
from PySide6.QtGui import (
    QFont,
    QFontDatabase,
    QGuiApplication,
    QTextDocument,
    QTextFormat,
    QTextOption,
)

from ai4hse_desk.display.text_sanitize import WRAP_MARK
from ai4hse_desk.gui.panels.response import NO_RESPONSE, ResponseView

if TYPE_CHECKING:
    from PySide6.QtWidgets import QTextEdit
    from pytestqt.qtbot import QtBot

KIND = QTextFormat.Property.UserProperty  # the view tags its extra selections by kind


@pytest.fixture
def view(qtbot: QtBot) -> ResponseView:
    widget = ResponseView()
    qtbot.addWidget(widget)
    widget.resize(640, 400)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def selections(view: ResponseView, kind: str) -> list[QTextEdit.ExtraSelection]:
    return [s for s in view.text_edit().extraSelections() if s.format.property(KIND) == kind]


def document(view: ResponseView) -> QTextDocument:
    return view.text_edit().document()


def test_is_a_read_only_plain_text_monospace_viewer(view: ResponseView) -> None:
    edit = view.text_edit()
    assert edit.isReadOnly()
    assert not edit.isUndoRedoEnabled()
    assert edit.font() == QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    assert edit.wordWrapMode() == QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere
    assert view.accessibleName() == "Raw response"
    assert edit.accessibleName() == "Raw response"


def test_html_is_shown_literally(view: ResponseView) -> None:
    raw = '<b>x</b><img src=y> <script>alert(1)</script> <a href="http://e">link</a>'
    view.set_response(raw)
    assert view.plain_text() == raw
    assert document(view).toPlainText() == raw
    assert "&lt;b&gt;" in document(view).toHtml()
    assert document(view).resource(QTextDocument.ResourceType.ImageResource, QUrl("y")) is None
    block = document(view).begin()
    while block.isValid():
        fragments = block.begin()
        while not fragments.atEnd():
            fmt = fragments.fragment().charFormat()
            assert not fmt.isImageFormat()
            assert not fmt.isAnchor()
            assert fmt.fontWeight() <= QFont.Weight.Normal
            fragments += 1
        block = block.next()


def test_control_characters_are_made_visible(view: ResponseView) -> None:
    view.set_response("a\x00b\x1b[31mc\r\nd\x7f\x85e")
    assert view.plain_text() == "a⟨NUL⟩b⟨ESC⟩[31mc⟨CR⟩\nd⟨DEL⟩⟨U+0085⟩e"
    assert document(view).blockCount() == 2  # only \n breaks a line
    assert "5 invisible/control characters shown" in view.status_text()
    styled = [s.cursor.selectedText() for s in selections(view, "marker")]
    assert styled == ["⟨NUL⟩", "⟨ESC⟩", "⟨CR⟩", "⟨DEL⟩⟨U+0085⟩"]  # runs of stand-ins


def test_right_to_left_override_does_not_reorder(view: ResponseView) -> None:
    view.set_response("abc\u202edef")
    assert view.plain_text() == "abc⟨RLO⟩def"
    edit = view.text_edit()
    cursor = edit.textCursor()
    xs = []
    for position in (8, 9, 10):  # d, e, f
        cursor.setPosition(position)
        xs.append(edit.cursorRect(cursor).x())
    assert xs == sorted(xs)
    assert xs[0] < xs[2]


def test_invisible_characters_are_made_visible(view: ResponseView) -> None:
    view.set_response("a\u200bb\ufeffc\u00a0d\u2066e\ud800f")
    assert view.plain_text() == "a⟨ZWSP⟩b⟨BOM⟩c⟨NBSP⟩d⟨LRI⟩e⟨U+D800⟩f"


def test_spans_highlight_the_original_substrings(view: ResponseView) -> None:
    raw = "😀\u200b👍🏽 The answer is (B) — final."
    start = raw.index("(B)")
    view.set_response(raw, [(start, start + 3)])
    assert view.highlighted_text() == ["(B)"]
    (highlight,) = selections(view, "span")
    assert highlight.cursor.selectedText() == "(B)"


def test_emphasis_has_its_own_format(view: ResponseView) -> None:
    raw = "Answer: [A, C, Z]"
    view.set_response(raw, [(8, 17)], emphasis=[(15, 16)])
    assert view.highlighted_text() == ["[A, C, Z]", "Z"]
    (span,) = selections(view, "span")
    (offending,) = selections(view, "emphasis")
    assert span.format.background() != offending.format.background()
    assert offending.cursor.selectedText() == "Z"


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.text(
        st.one_of(
            st.characters(exclude_categories=()),
            st.sampled_from([*"\u200b\u202e\x00\r\n\ufffd\ud800😀👍🏽é"]),
        ),
        max_size=40,
    ),
    st.data(),
)
def test_any_span_highlights_exactly_its_characters(
    view: ResponseView, raw: str, data: st.DataObject
) -> None:
    start = data.draw(st.integers(0, len(raw)))
    end = data.draw(st.integers(start, len(raw)))
    view.set_response(raw, [(start, end)])
    assert view.highlighted_text() == [raw[start:end]]
    (highlight,) = selections(view, "span")
    shown = highlight.cursor.selectedText().replace("\u2029", "\n")  # Qt's paragraph separator
    assert view.raw_text() == raw
    low, high = view.visible_text().span_to_display((start, end))
    assert shown == view.visible_text().text[low:high]


def test_span_over_an_invisible_character(view: ResponseView) -> None:
    raw = "x\u200by"
    view.set_response(raw, [(1, 2)])
    assert view.highlighted_text() == ["\u200b"]
    assert selections(view, "span")[0].cursor.selectedText() == "⟨ZWSP⟩"


def test_stand_ins_keep_their_style_alongside_spans(view: ResponseView, qtbot: QtBot) -> None:
    raw = "5\u00a0% then \u202eevil\u202c; final (B)"
    view.set_response(raw, [(raw.index("(B)"), len(raw))], emphasis=[(0, 1)])
    qtbot.wait(20)  # let the repaint's update requests run
    styled = [s.cursor.selectedText() for s in selections(view, "marker")]
    assert styled == ["⟨NBSP⟩", "⟨RLO⟩", "⟨PDF⟩"]
    assert view.highlighted_text() == ["(B)", "5"]


def test_invalid_spans_raise_and_change_nothing(view: ResponseView) -> None:
    view.set_response("abc", [(0, 1)])
    for bad in [(2, 1), (0, 5), (-1, 1)]:
        with pytest.raises(ValueError, match="does not fit"):
            view.set_response("abcd", [bad])
    with pytest.raises(ValueError, match="does not fit"):
        view.set_response(None, [(0, 0)])
    assert view.plain_text() == "abc"
    assert view.highlighted_text() == ["a"]


def test_first_span_is_scrolled_into_view(view: ResponseView) -> None:
    raw = "".join(f"line {i}\n" for i in range(3000)) + "TARGET\n" + "tail\n" * 500
    start = raw.index("TARGET")
    view.set_response(raw, [(start, start + 6)])
    edit = view.text_edit()
    (highlight,) = selections(view, "span")
    assert edit.verticalScrollBar().value() > 0
    assert edit.viewport().rect().contains(edit.cursorRect(highlight.cursor))


def test_span_set_before_showing_is_in_view_once_shown(qtbot: QtBot) -> None:
    view = ResponseView()
    qtbot.addWidget(view)
    raw = "filler\n" * 2000 + "TARGET"
    view.set_response(raw, [(len(raw) - 6, len(raw))])
    view.resize(500, 300)
    view.show()
    qtbot.waitExposed(view)
    edit = view.text_edit()
    assert edit.viewport().rect().contains(edit.cursorRect(selections(view, "span")[0].cursor))


def test_none_shows_the_empty_state(view: ResponseView) -> None:
    view.set_response("something", [(0, 4)])
    view.set_response(None)
    assert view.status_text() == NO_RESPONSE
    assert view.text_edit().placeholderText() == NO_RESPONSE
    assert view.plain_text() == ""
    assert view.highlighted_text() == []
    assert not view.copy_raw_action().isEnabled()


def test_status_line(view: ResponseView) -> None:
    view.set_response("")
    assert view.status_text() == "0 characters · 0 lines"
    view.set_response("x" * 1500 + "\nbad \ufffd\n")
    assert view.status_text() == (
        "1,507 characters · 3 lines · 1 replacement character (U+FFFD) in red"
    )
    assert [s.cursor.selectedText() for s in selections(view, "replacement")] == ["\ufffd"]


def test_clear(view: ResponseView) -> None:
    view.set_response("abc \u200b", [(0, 3)])
    view.clear()
    assert view.plain_text() == ""
    assert view.status_text() == ""
    assert view.raw_text() is None
    assert view.text_edit().extraSelections() == []


def test_copy_raw_copies_the_original_text(view: ResponseView) -> None:
    raw = "a\u200bb\x00c 😀"
    view.set_response(raw)
    view.copy_raw()
    assert QGuiApplication.clipboard().text() == raw
    view.set_response("x\ud800y")  # a clipboard cannot carry a lone surrogate
    view.copy_raw_action().trigger()
    assert QGuiApplication.clipboard().text() == "x\ufffdy"


def test_long_line_is_broken_for_display_and_spans_still_exact(view: ResponseView) -> None:
    raw = "abc " * 10_000
    view.set_response(raw, [(30_000, 30_010)])
    assert document(view).blockCount() == 4
    assert WRAP_MARK in view.plain_text()
    assert view.plain_text().replace(WRAP_MARK + "\n", "") == raw
    assert view.highlighted_text() == [raw[30_000:30_010]]
    assert "broken at ↩" in view.status_text()


def test_stand_ins_are_styled_near_the_viewport_only(view: ResponseView, qtbot: QtBot) -> None:
    raw = "".join(f"{i}\u00a0%\n" for i in range(20_000))
    view.set_response(raw)
    edit = view.text_edit()
    markers = selections(view, "marker")
    assert 0 < len(markers) <= ResponseView.MAX_STYLED_RUNS
    assert all(s.cursor.selectedText() == "⟨NBSP⟩" for s in markers)
    assert max(s.cursor.position() for s in markers) < len(view.plain_text()) // 2
    edit.verticalScrollBar().setValue(edit.verticalScrollBar().maximum())
    qtbot.waitUntil(
        lambda: (
            max(s.cursor.position() for s in selections(view, "marker"))
            > len(view.plain_text()) - 100
        )
    )


def test_ten_megabyte_response(view: ResponseView) -> None:
    line = "The flammable range of methane is 5–15 % by volume; answer (B).\n"
    raw = line * (10_000_000 // len(line)) + "Final answer:\u00a0(C) 😀"
    start = raw.rindex("(C)")
    begin = time.perf_counter()
    view.set_response(raw, [(start, start + 3)], emphasis=[(start + 1, start + 2)])
    elapsed = time.perf_counter() - begin
    print(f"\n10 MB response: set_response + highlight took {elapsed:.2f} s")
    assert view.highlighted_text() == ["(C)", "C"]
    assert "1 invisible/control character shown" in view.status_text()


@pytest.mark.parametrize(
    ("status", "said"),
    [
        ("pending", "No response: the attempt has not run"),
        ("provider_error", "No response (provider error)"),
        ("valid", "No response"),
    ],
)
def test_a_missing_response_says_why(view: ResponseView, status: str, said: str) -> None:
    """A pending attempt has not run; only a provider error is called one."""
    from ai4hse_desk.gui.panels.response_styles import no_response
    from ai4hse_desk.protocol.outcome import Status

    view.set_response(None, missing=no_response(Status(status)))
    assert view.status_text() == said
    assert view.text_edit().placeholderText() == said
