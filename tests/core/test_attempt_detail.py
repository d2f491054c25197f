"""AttemptDetail: the detail panels' view-model, computed without Qt."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from types import MappingProxyType
from typing import Any

import pytest

from ai4hse_desk.audit.records import Attempt, Option, Question, Run
from ai4hse_desk.display.format import NOT_SET, option_letter
from ai4hse_desk.display.text_sanitize import MAX_SHOWN, display_text
from ai4hse_desk.protocol.compare import differences
from ai4hse_desk.protocol.outcome import Status, Track
from ai4hse_desk.verdicts.attempt_detail import NONE, AttemptDetail, build_detail

T, F = True, False
KEY = (T, F, T, F)


def make_question(key: tuple[bool, ...] = KEY, **changes: Any) -> Question:
    question = Question(
        question_id="Q001",
        ordinal=7,
        text="Which PPE is required when grinding metal?",
        options=tuple(Option(i, f"option {i}", value) for i, value in enumerate(key)),
        labels=MappingProxyType({"source": "manual", "topic": "PPE"}),
    )
    return dataclasses.replace(question, **changes)


def make_run(track: Track = Track.ANSWER_ONLY, **changes: Any) -> Run:
    run = Run(
        run_id="r1",
        model="model-a",
        provider="openrouter",
        provider_routing=None,
        track=track,
        protocol_version=10,
        repetitions=3,
        max_tokens=32768,
        temperature=None,
        reasoning_effort="high",
        concurrency=8,
        status="complete",
        prompt_template=None,
        started_at=None,
        finished_at=None,
    )
    return dataclasses.replace(run, **changes)


def make_attempt(response: str | None = "[TRUE, FALSE, TRUE, FALSE]", **changes: Any) -> Attempt:
    attempt = Attempt(
        attempt_id=12,
        run_id="r1",
        question_id="Q001",
        repetition=2,
        state="answered",
        raw_response=response,
        finish_reason="stop",
        error=None,
        parse_status="valid",
        extracted="[true, false, true, false]",
        strict_format=True,
        correct=True,
        prompt_tokens=1234,
        completion_tokens=56789,
        reasoning_tokens=None,
        latency_ms=1234,
        created_at="2025-01-01T09:00:00Z",
        model="model-a",
        track=Track.ANSWER_ONLY,
        question_ordinal=7,
    )
    return dataclasses.replace(attempt, **changes)


def detail_of(
    attempt: Attempt | None = None, question: Question | None = None, run: Run | None = None
) -> AttemptDetail:
    return build_detail(attempt or make_attempt(), question or make_question(), run or make_run())


def rows(detail: AttemptDetail) -> list[tuple[str, str, str, str, str]]:
    return [
        (row.letter, row.text, row.key_text, row.extracted_text, row.match_text)
        for row in detail.option_rows
    ]


def test_correct_strict_answer() -> None:
    detail = detail_of()
    assert (detail.attempt_id, detail.run_id, detail.question_id) == (12, "r1", "Q001")
    assert detail.status is Status.VALID
    assert detail.correct
    assert detail.outcome.strict_format
    assert rows(detail) == [
        ("A", "option 0", "TRUE", "TRUE", "✓"),
        ("B", "option 1", "FALSE", "FALSE", "✓"),
        ("C", "option 2", "TRUE", "TRUE", "✓"),
        ("D", "option 3", "FALSE", "FALSE", "✓"),
    ]
    assert [row.position for row in detail.option_rows] == [0, 1, 2, 3]
    assert detail.verdict_text == "Correct — every option matches the key"
    assert not detail.disagrees
    assert detail.differences == []
    assert all(not row.differs for row in detail.comparison_rows)
    assert detail.raw_response == "[TRUE, FALSE, TRUE, FALSE]"
    assert detail.spans == detail.outcome.spans
    assert detail.spans
    assert detail.heading == "Q001 · question 7"
    assert detail.labels_line == "source: manual · topic: PPE"
    assert detail.question_text == "Which PPE is required when grinding metal?"


@pytest.mark.parametrize(
    ("response", "verdict", "matches"),
    [
        ("[TRUE, TRUE, TRUE, TRUE]", "Incorrect — 2 of 4 options differ", "✓✗✓✗"),
        ("[TRUE, FALSE, TRUE, TRUE]", "Incorrect — 1 of 4 options differs", "✓✓✓✗"),
        ("[FALSE, TRUE, FALSE, TRUE]", "Incorrect — 4 of 4 options differ", "✗✗✗✗"),
    ],
)
def test_incorrect_answers_count_differing_options(
    response: str, verdict: str, matches: str
) -> None:
    detail = detail_of(make_attempt(response, correct=None, extracted=None))
    assert detail.status is Status.VALID
    assert not detail.correct
    assert detail.verdict_text == verdict
    assert "".join(row.match_text for row in detail.option_rows) == matches
    assert [row.match for row in detail.option_rows] == [m == "✓" for m in matches]


def test_parse_error_is_not_scored_and_extracts_nothing() -> None:
    detail = detail_of(make_attempt("[TRUE, maybe, TRUE, FALSE]"))
    assert detail.status is Status.MALFORMED
    assert not detail.correct
    assert detail.verdict_text == "Not scored as correct — status malformed"
    assert [(r.key_text, r.extracted_text, r.match_text) for r in detail.option_rows] == [
        ("TRUE", NONE, NONE),
        ("FALSE", NONE, NONE),
        ("TRUE", NONE, NONE),
        ("FALSE", NONE, NONE),
    ]
    assert all(row.extracted is None and row.match is None for row in detail.option_rows)


def test_incomplete_shows_the_would_be_selection_but_is_not_scored() -> None:
    attempt = make_attempt(finish_reason="length", parse_status="incomplete", correct=False)
    detail = detail_of(attempt)
    assert detail.status is Status.INCOMPLETE
    assert not detail.correct
    assert [row.extracted_text for row in detail.option_rows] == ["TRUE", "FALSE", "TRUE", "FALSE"]
    assert detail.verdict_text == (
        "Not scored as correct — status incomplete (the would-be selection is shown but not scored)"
    )
    assert ("Finish reason", "length") in detail.facts


def test_incomplete_without_a_selection() -> None:
    detail = detail_of(make_attempt("[TRUE, FAL", finish_reason="max_tokens"))
    assert detail.status is Status.INCOMPLETE
    assert detail.verdict_text == "Not scored as correct — status incomplete"
    assert all(row.extracted is None for row in detail.option_rows)


def test_provider_error_without_response() -> None:
    attempt = make_attempt(
        None,
        state="provider_error",
        finish_reason=None,
        error="HTTP 429: rate limited",
        parse_status="provider_error",
        extracted=None,
        strict_format=False,
        correct=False,
        completion_tokens=None,
    )
    detail = detail_of(attempt)
    assert detail.status is Status.PROVIDER_ERROR
    assert detail.raw_response is None
    assert detail.spans == ()
    assert detail.verdict_text == "Not scored as correct — status provider_error"
    assert all(row.extracted_text == NONE for row in detail.option_rows)
    facts = dict(detail.facts)
    assert facts["State"] == "provider_error"
    assert facts["Provider error"] == "HTTP 429: rate limited"
    assert facts["Response length"] == NONE
    assert facts["Finish reason"] == NONE
    assert facts["Completion tokens"] == NONE
    assert not detail.disagrees


def test_pending_attempt_with_nothing_recorded() -> None:
    nothing = dict.fromkeys(
        [
            "finish_reason",
            "parse_status",
            "extracted",
            "strict_format",
            "correct",
            "prompt_tokens",
            "completion_tokens",
            "latency_ms",
            "created_at",
        ]
    )
    detail = detail_of(make_attempt(None, state="pending", **nothing))
    assert detail.status is Status.PENDING
    assert detail.verdict_text == "Not scored as correct — status pending"
    assert not detail.disagrees
    assert detail.differences == []
    assert [(r.field, r.runner, r.desk, r.differs) for r in detail.comparison_rows] == [
        ("Parse status", NONE, "pending", False),
        ("Extracted", NONE, NONE, False),
        ("Strict format", NONE, "false", False),
        ("Correct", NONE, "false", False),
    ]
    facts = dict(detail.facts)
    for name in ("Prompt tokens", "Completion tokens", "Reasoning tokens", "Latency", "Created at"):
        assert facts[name] == NONE


def test_disagreement_lists_the_differences_and_marks_the_fields() -> None:
    response = '```json\n{"answers": [true, false, true, false]}\n```'
    attempt = make_attempt(response, track=Track.STRUCTURED_OUTPUT)
    detail = detail_of(attempt, run=make_run(Track.STRUCTURED_OUTPUT))
    assert detail.status is Status.INVALID_JSON
    assert detail.disagrees
    expected = differences(
        Status.INVALID_JSON, None, False, False, "valid", "[true, false, true, false]", 1, 1
    )
    assert detail.differences == expected
    assert len(expected) == 4
    assert [(r.field, r.runner, r.desk, r.differs) for r in detail.comparison_rows] == [
        ("Parse status", "valid", "invalid_json", True),
        ("Extracted", "[TRUE, FALSE, TRUE, FALSE]", NONE, True),
        ("Strict format", "true", "false", True),
        ("Correct", "true", "false", True),
    ]


def test_one_field_disagreeing_marks_only_that_field() -> None:
    detail = detail_of(make_attempt(strict_format=False))
    assert detail.disagrees
    assert detail.differences == ["strict_format: runner false, desk true"]
    assert [row.differs for row in detail.comparison_rows] == [False, False, True, False]


def test_unparseable_recorded_extraction_is_shown_as_recorded() -> None:
    detail = detail_of(make_attempt(extracted="[1, 0, 1, 0]"))
    extracted = detail.comparison_rows[1]
    assert (extracted.runner, extracted.differs) == ("[1, 0, 1, 0]", True)
    assert detail.disagrees


@pytest.mark.parametrize(
    ("temperature", "shown"),
    [(None, "provider default"), (0.0, "0"), (0.7, "0.7"), (1.0, "1"), (1.25, "1.25")],
)
def test_temperature(temperature: float | None, shown: str) -> None:
    settings = dict(detail_of(run=make_run(temperature=temperature)).settings)
    assert settings["Temperature"] == shown


def test_settings_and_facts_are_formatted() -> None:
    detail = detail_of()
    assert detail.settings == [
        ("Run", "r1"),
        ("Model", "model-a"),
        ("Provider", "openrouter"),
        ("Routing", NOT_SET),  # as the scores table says it
        ("Track", "answer_only"),
        ("Temperature", "provider default"),
        ("Token cap", "32,768"),
        ("Reasoning effort", "high"),
        ("Concurrency", "8"),
        ("Protocol version", "10"),
        ("Repetitions", "3"),
        ("Run status", "complete"),
    ]
    assert detail.facts == [
        ("Attempt", "#12"),
        ("Repetition", "2 of 3"),
        ("State", "answered"),
        ("Finish reason", "stop"),
        ("Provider error", NONE),
        ("Response length", "26 characters"),
        ("Prompt tokens", "1,234"),
        ("Completion tokens", "56,789"),
        ("Reasoning tokens", NONE),
        ("Latency", "1,234 ms"),
        ("Created at", "2025-01-01T09:00:00Z"),
    ]


def test_run_settings_none_values() -> None:
    run = make_run(provider=None, max_tokens=None, reasoning_effort=None, concurrency=None)
    settings = dict(detail_of(run=run).settings)
    for name in ("Provider", "Token cap", "Reasoning effort", "Concurrency"):
        assert settings[name] == NOT_SET


def test_question_without_labels_and_with_five_options() -> None:
    question = make_question((F, F, T, F, T), labels=MappingProxyType({}))
    attempt = make_attempt("[FALSE, FALSE, TRUE, FALSE, TRUE]", extracted=None)
    detail = detail_of(attempt, question)
    assert detail.labels_line == "no labels"
    assert [row.letter for row in detail.option_rows] == ["A", "B", "C", "D", "E"]
    assert detail.correct


def test_protocol_version_comes_from_the_run() -> None:
    response = "Answer: [TRUE, FALSE, TRUE, FALSE]"
    assert detail_of(make_attempt(response)).status is Status.VALID
    old = detail_of(make_attempt(response), run=make_run(protocol_version=9))
    assert old.status is Status.MALFORMED


def test_single_choice_letter() -> None:
    question = make_question((F, F, T, F))
    attempt = make_attempt("The answer is (C).", track=Track.SINGLE_CHOICE, extracted=None)
    detail = detail_of(attempt, question, make_run(Track.SINGLE_CHOICE))
    assert detail.correct
    assert not detail.outcome.strict_format
    assert [row.extracted_text for row in detail.option_rows] == ["FALSE", "FALSE", "TRUE", "FALSE"]


def test_records_that_do_not_belong_together_are_refused() -> None:
    with pytest.raises(ValueError, match="Q001"):
        detail_of(question=make_question(question_id="Q002"))
    with pytest.raises(ValueError, match="r1"):
        detail_of(run=make_run(run_id="r2"))


def test_detail_is_immutable_and_hashable() -> None:
    detail = detail_of()
    with pytest.raises(dataclasses.FrozenInstanceError):
        detail.correct = False  # type: ignore[misc]
    assert hash(detail) == hash(detail_of())
    assert detail == detail_of()


@pytest.mark.parametrize(
    ("index", "letter"), [(0, "A"), (3, "D"), (25, "Z"), (26, "AA"), (27, "AB"), (701, "ZZ")]
)
def test_option_letter(index: int, letter: str) -> None:
    assert option_letter(index) == letter


def test_display_text() -> None:
    assert display_text("<b>x</b><img src=y>") == "<b>x</b><img src=y>"
    assert display_text("a\u202eb\u200bc") == "a⟨RLO⟩b⟨ZWSP⟩c"
    assert display_text("x" * MAX_SHOWN) == "x" * MAX_SHOWN
    long = display_text("y" * (MAX_SHOWN + 1234))
    assert long == "y" * MAX_SHOWN + "… (1,234 more characters)"


def test_view_model_and_style_load_no_qt() -> None:
    code = (
        "import sys\n"
        "import ai4hse_desk.verdicts.attempt_detail, ai4hse_desk.display.status_style\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
