"""QuestionPanel and VerdictPanel: one attempt's detail, shown as plain text."""

from __future__ import annotations

import dataclasses
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from ai4hse_desk.audit.records import Attempt, Option, Question, Run
from ai4hse_desk.display.status_style import (
    BANNER_BORDER,
    CHIP_BORDER,
    DIFFERS_COLOURS,
    DISAGREEMENT_COLOURS,
    MATCH_COLOURS,
    STATUS_COLOURS,
    STATUS_TEXT_COLOURS,
    VALUE_COLOURS,
    chip_style_sheet,
    status_foreground,
    status_label,
)
from ai4hse_desk.gui.panels.question import QuestionPanel
from ai4hse_desk.gui.panels.verdict import DIFFERS_MARK, NO_SELECTION, VerdictPanel
from ai4hse_desk.protocol.outcome import Status, Track
from ai4hse_desk.verdicts.attempt_detail import NONE, AttemptDetail, build_detail

if TYPE_CHECKING:
    from pytestqt.qtbot import QtBot

T, F = True, False
LIGHT_WINDOW, DARK_WINDOW = "#ffffff", "#1e1e1e"
HTML = "<b>x</b><img src=y>"

QUESTION = Question(
    question_id="Q003",
    ordinal=3,
    text="Which controls reduce exposure to silica dust?",
    options=(
        Option(0, "Wet cutting", True),
        Option(1, "Dry sweeping", False),
        Option(2, "Local exhaust ventilation", True),
        Option(3, "Opening a window", False),
    ),
    labels=MappingProxyType({"topic": "Chemicals"}),
)
RUN = Run(
    run_id="r1",
    model="model-a",
    provider="openrouter",
    provider_routing="cheapest",
    track=Track.ANSWER_ONLY,
    protocol_version=10,
    repetitions=2,
    max_tokens=4096,
    temperature=None,
    reasoning_effort=None,
    concurrency=4,
    status="complete",
    prompt_template=None,
    started_at=None,
    finished_at=None,
)
ATTEMPT = Attempt(
    attempt_id=5,
    run_id="r1",
    question_id="Q003",
    repetition=1,
    state="answered",
    raw_response="[TRUE, FALSE, TRUE, FALSE]",
    finish_reason="stop",
    error=None,
    parse_status="valid",
    extracted="[true, false, true, false]",
    strict_format=True,
    correct=True,
    prompt_tokens=1500,
    completion_tokens=12,
    reasoning_tokens=None,
    latency_ms=2345,
    created_at="2025-01-01T09:00:05Z",
    model="model-a",
    track=Track.ANSWER_ONLY,
    question_ordinal=3,
)


def detail(question: Question = QUESTION, run: Run = RUN, **changes: Any) -> AttemptDetail:
    return build_detail(dataclasses.replace(ATTEMPT, **changes), question, run)


@pytest.fixture
def question_panel(qtbot: QtBot) -> QuestionPanel:
    panel = QuestionPanel()
    qtbot.addWidget(panel)
    panel.resize(600, 500)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


@pytest.fixture
def verdict_panel(qtbot: QtBot) -> VerdictPanel:
    panel = VerdictPanel()
    qtbot.addWidget(panel)
    panel.resize(500, 700)
    panel.show()
    qtbot.waitExposed(panel)
    return panel


def cell(table: QTableWidget, row: int, column: int) -> QTableWidgetItem:
    item = table.item(row, column)
    assert item is not None
    return item


def visible_labels(panel: QWidget) -> list[QLabel]:
    return [label for label in panel.findChildren(QLabel) if label.isVisibleTo(panel)]


def assert_all_labels_plain(panel: QWidget) -> None:
    for label in panel.findChildren(QLabel):
        assert label.textFormat() == Qt.TextFormat.PlainText, label.text()


# ------------------------------------------------------------ question panel


def test_question_panel_shows_question_options_and_verdict(question_panel: QuestionPanel) -> None:
    question_panel.set_detail(detail(raw_response="[TRUE, TRUE, TRUE, FALSE]", extracted=None))
    assert question_panel.heading_text() == "Q003 · question 3"
    assert question_panel.labels_text() == "topic: Chemicals"
    assert question_panel.question_text() == QUESTION.text
    assert question_panel.row_texts() == [
        ("A", "Wet cutting", "TRUE", "TRUE", "✓"),
        ("B", "Dry sweeping", "FALSE", "TRUE", "✗"),
        ("C", "Local exhaust ventilation", "TRUE", "TRUE", "✓"),
        ("D", "Opening a window", "FALSE", "FALSE", "✓"),
    ]
    assert question_panel.verdict_text() == "Incorrect — 1 of 4 options differs"
    table = question_panel.table()
    headers = [table.model().headerData(c, Qt.Orientation.Horizontal) for c in range(5)]
    assert headers == list(QuestionPanel.COLUMNS)
    mismatch = cell(table, 1, 4)
    assert mismatch.background().color() == QColor(MATCH_COLOURS[False][0])
    assert mismatch.data(Qt.ItemDataRole.AccessibleTextRole) == "Option B differs from the key"


def test_key_cells_follow_the_key_and_are_coloured(question_panel: QuestionPanel) -> None:
    question_panel.set_detail(detail())
    table = question_panel.table()
    for row, option in enumerate(QUESTION.options):
        key = cell(table, row, 2)
        assert key.text() == ("TRUE" if option.key else "FALSE")
        background, foreground = VALUE_COLOURS[option.key]
        assert key.background().color() == QColor(background)
        assert key.foreground().color() == QColor(foreground)
        assert cell(table, row, 3).text() == key.text()
        assert cell(table, row, 4).text() == "✓"
    assert question_panel.verdict_text() == "Correct — every option matches the key"


def test_table_is_read_only(question_panel: QuestionPanel) -> None:
    question_panel.set_detail(detail())
    table = question_panel.table()
    assert table.editTriggers() == QAbstractItemView.EditTrigger.NoEditTriggers
    for row in range(table.rowCount()):
        for column in range(table.columnCount()):
            assert not cell(table, row, column).flags() & Qt.ItemFlag.ItemIsEditable


def test_unscored_attempt_shows_dashes(question_panel: QuestionPanel) -> None:
    question_panel.set_detail(detail(raw_response="[TRUE, maybe, TRUE, FALSE]"))
    assert [row[3:] for row in question_panel.row_texts()] == [(NONE, NONE)] * 4
    assert question_panel.verdict_text() == "Not scored as correct — status malformed"
    assert cell(question_panel.table(), 0, 3).background().style() == Qt.BrushStyle.NoBrush


def test_question_panel_clear(question_panel: QuestionPanel) -> None:
    question_panel.set_detail(detail())
    question_panel.clear()
    assert question_panel.table().rowCount() == 0
    assert question_panel.heading_text() == "No attempt selected"
    assert question_panel.labels_text() == question_panel.question_text() == ""
    assert question_panel.verdict_text() == ""
    assert [label.text() for label in visible_labels(question_panel)] == ["No attempt selected"]


def test_question_panel_shows_html_literally(question_panel: QuestionPanel) -> None:
    options = (Option(0, HTML, True), *QUESTION.options[1:])
    question = dataclasses.replace(QUESTION, text=HTML, options=options)
    question_panel.set_detail(detail(question))
    assert cell(question_panel.table(), 0, 1).text() == HTML
    assert [label.text() for label in visible_labels(question_panel)].count(HTML) == 1
    assert_all_labels_plain(question_panel)


def test_question_panel_accessible_names(question_panel: QuestionPanel) -> None:
    assert question_panel.accessibleName() == "Question and answer key"
    assert question_panel.table().accessibleName()
    names = {label.accessibleName() for label in question_panel.findChildren(QLabel)}
    assert {"Question text", "Exact-match verdict"} <= names


# ------------------------------------------------------------- verdict panel


def test_verdict_panel_fills_every_field(verdict_panel: VerdictPanel) -> None:
    shown = detail()
    verdict_panel.set_detail(shown)
    assert verdict_panel.status_text() == "Valid ✓"
    assert verdict_panel.reason_text() == shown.outcome.reason != ""
    assert verdict_panel.comparison_texts() == [
        ("Parse status", "valid", "valid", ""),
        ("Extracted", "[TRUE, FALSE, TRUE, FALSE]", "[TRUE, FALSE, TRUE, FALSE]", ""),
        ("Strict format", "true", "true", ""),
        ("Correct", "true", "true", ""),
    ]
    assert verdict_panel.fact_texts() == shown.facts
    assert verdict_panel.setting_texts() == shown.settings
    facts = dict(verdict_panel.fact_texts())
    assert facts["Latency"] == "2,345 ms"
    assert facts["Prompt tokens"] == "1,500"
    settings = dict(verdict_panel.setting_texts())
    assert settings["Temperature"] == "provider default"
    assert settings["Routing"] == "cheapest"
    assert settings["Token cap"] == "4,096"
    assert not verdict_panel.banner().isVisibleTo(verdict_panel)


def test_banner_only_on_disagreement(verdict_panel: VerdictPanel) -> None:
    verdict_panel.set_detail(detail(parse_status="malformed", correct=False))
    banner = verdict_panel.banner()
    assert banner.isVisibleTo(verdict_panel)
    assert verdict_panel.differences_text() == (
        "• parse_status: runner 'malformed', desk 'valid'\n• correct: runner false, desk true"
    )
    assert DISAGREEMENT_COLOURS[0] in banner.styleSheet()
    marks = [row[3] for row in verdict_panel.comparison_texts()]
    assert marks == [DIFFERS_MARK, "", "", DIFFERS_MARK]
    verdict_panel.set_detail(detail())
    assert not banner.isVisibleTo(verdict_panel)
    assert verdict_panel.differences_text() == ""


def test_status_chip_colours(verdict_panel: VerdictPanel) -> None:
    verdict_panel.set_detail(detail(state="provider_error", raw_response=None, error="boom"))
    chip = next(
        label for label in verdict_panel.findChildren(QLabel) if label.objectName() == "statusChip"
    )
    assert chip.text() == "Provider error"
    assert STATUS_COLOURS[Status.PROVIDER_ERROR] in chip.styleSheet()
    assert dict(verdict_panel.fact_texts())["Provider error"] == "boom"


def test_verdict_panel_clear(verdict_panel: VerdictPanel) -> None:
    verdict_panel.set_detail(detail(parse_status="malformed"))
    verdict_panel.clear()
    assert not verdict_panel.banner().isVisibleTo(verdict_panel)
    assert verdict_panel.status_text() == verdict_panel.reason_text() == ""
    assert verdict_panel.fact_texts() == verdict_panel.setting_texts() == []
    assert verdict_panel.comparison_texts() == []
    assert [label.text() for label in visible_labels(verdict_panel)] == [NO_SELECTION]
    verdict_panel.set_detail(detail())
    assert len(verdict_panel.fact_texts()) == len(detail().facts)


def test_verdict_panel_shows_html_literally(verdict_panel: VerdictPanel) -> None:
    shown = detail(
        state="provider_error", raw_response=None, error=HTML, extracted=HTML, parse_status=HTML
    )
    verdict_panel.set_detail(shown)
    texts = [label.text() for label in visible_labels(verdict_panel)]
    assert texts.count(HTML) == 3  # error, recorded status, recorded extraction
    assert any(HTML in text for text in texts if text.startswith("•"))
    assert_all_labels_plain(verdict_panel)


def test_verdict_panel_accessible_names(verdict_panel: VerdictPanel) -> None:
    assert verdict_panel.accessibleName() == "Verdict and attempt facts"
    assert verdict_panel.banner().accessibleName() == "Disagreement"
    verdict_panel.set_detail(detail())
    names = {label.accessibleName() for label in visible_labels(verdict_panel)}
    assert {"Desk status", "Latency", "Temperature", "Parse status, Runner"} <= names


def test_panels_live_in_a_splitter(qtbot: QtBot) -> None:
    splitter = QSplitter()
    qtbot.addWidget(splitter)
    question, verdict = QuestionPanel(), VerdictPanel()
    splitter.addWidget(question)
    splitter.addWidget(verdict)
    splitter.resize(900, 300)
    splitter.show()
    qtbot.waitExposed(splitter)
    shown = detail(parse_status="malformed")
    question.set_detail(shown)
    verdict.set_detail(shown)
    assert question.width() > 0
    assert verdict.width() > 0
    assert verdict.banner().isVisibleTo(verdict)


# -------------------------------------------------------------- status style


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(first: str, second: str) -> float:
    high, low = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_every_status_has_a_readable_chip() -> None:
    assert set(STATUS_COLOURS) == set(STATUS_TEXT_COLOURS) == set(Status)
    assert len({status_label(status) for status in Status}) == len(Status)
    for status in Status:
        background = STATUS_COLOURS[status]
        assert _contrast(background, status_foreground(status)) >= 7, status
        # a chip stands out from a dark window by its tint, from a light one by its border
        assert _contrast(background, DARK_WINDOW) >= 3, status
    assert _contrast(CHIP_BORDER, LIGHT_WINDOW) >= 3


def test_value_match_and_banner_colours_are_readable() -> None:
    pairs = [*VALUE_COLOURS.values(), *MATCH_COLOURS.values(), DISAGREEMENT_COLOURS]
    for background, foreground in [*pairs, DIFFERS_COLOURS]:
        assert _contrast(background, foreground) >= 7
    # the banner's border stands out from both windows
    for window in (LIGHT_WINDOW, DARK_WINDOW):
        assert _contrast(BANNER_BORDER, window) >= 1.5
        assert (
            max(_contrast(DISAGREEMENT_COLOURS[0], window), _contrast(BANNER_BORDER, window)) >= 3
        )


def test_chip_style_sheet_sets_both_colours() -> None:
    sheet = chip_style_sheet("#123456", "#000000")
    assert "background-color: #123456" in sheet
    assert "color: #000000" in sheet
    assert CHIP_BORDER in sheet


@pytest.mark.parametrize(
    ("state", "said"),
    [("pending", "No response: the attempt has not run"),
     ("provider_error", "No response (provider error)")],
)  # fmt: skip
def test_the_response_pane_says_why_an_attempt_has_no_response(
    qtbot: QtBot, state: str, said: str
) -> None:
    from ai4hse_desk.gui.panels.response import ResponseView

    view = ResponseView()
    qtbot.addWidget(view)
    view.show_detail(detail(state=state, raw_response=None, error="boom"))
    assert view.status_text() == said
