"""Runner-vs-desk comparison of one attempt (cli.md ``disagreements``)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ai4hse_desk.protocol.compare import differences, disagrees, parse_extracted
from ai4hse_desk.protocol.outcome import Selection, Status

T, F = True, False
Desk = tuple[Status, Selection | None, bool, bool]
Recorded = tuple[str | None, str | None, int | None, int | None]

DESK: Desk = (Status.VALID, (T, F, T, F), True, True)
AGREEING: Recorded = ("valid", "[true, false, true, false]", 1, 1)


def check(desk: Desk, recorded: Recorded) -> tuple[bool, list[str]]:
    return disagrees(*desk, *recorded), differences(*desk, *recorded)


def test_agreeing_verdicts() -> None:
    assert check(DESK, AGREEING) == (False, [])


@pytest.mark.parametrize("text", ["[true,false,true,false]", " [ true ,false,\ntrue, false ] "])
def test_extracted_compared_as_json_not_as_text(text: str) -> None:
    assert check(DESK, ("valid", text, 1, 1)) == (False, [])


@pytest.mark.parametrize(
    ("recorded", "reason"),
    [
        (
            ("malformed", "[true, false, true, false]", 1, 1),
            "parse_status: runner 'malformed', desk 'valid'",
        ),
        (
            ("valid", "[true, true, true, false]", 1, 1),
            "extracted: runner [true, true, true, false], desk [true, false, true, false]",
        ),
        (
            ("valid", "[true, false, true]", 1, 1),
            "extracted: runner [true, false, true], desk [true, false, true, false]",
        ),
        (("valid", "[true, false, true, false]", 0, 1), "strict_format: runner false, desk true"),
        (("valid", "[true, false, true, false]", 2, 1), "strict_format: runner 2, desk true"),
        (("valid", "[true, false, true, false]", 1, 0), "correct: runner false, desk true"),
    ],
)
def test_each_field_differing_alone(recorded: Recorded, reason: str) -> None:
    assert check(DESK, recorded) == (True, [reason])


def test_null_recorded_fields_are_ignored() -> None:
    wrong_desk: Desk = (Status.MALFORMED, None, False, False)
    assert check(wrong_desk, (None, None, None, None)) == (False, [])
    assert check(DESK, (None, None, None, None)) == (False, [])
    assert check(DESK, ("valid", None, None, None)) == (False, [])
    assert check(wrong_desk, ("malformed", None, 0, None)) == (False, [])


def test_recorded_selection_against_no_desk_selection_differs() -> None:
    desk: Desk = (Status.MALFORMED, None, False, False)
    assert check(desk, ("malformed", "[true, false]", 0, 0)) == (
        True,
        ["extracted: runner [true, false], desk nothing"],
    )


def test_incomplete_attempt_compares_its_would_be_selection() -> None:
    desk: Desk = (Status.INCOMPLETE, (T, F), False, False)
    assert check(desk, ("incomplete", "[true, false]", 0, 0)) == (False, [])


@pytest.mark.parametrize(
    "text",
    [
        "[true, false, true, false",
        "[1, 0, 1, 0]",
        '["true", false, true, false]',
        "[true, null, true, false]",
        "null",
        '{"answers": [true, false, true, false]}',
        "true",
        "",
        "[TRUE, FALSE, TRUE, FALSE]",
        "[[true, false, true, false]]",
        "[" * 100_000,
    ],
)
def test_malformed_recorded_json_differs(text: str) -> None:
    differs, reasons = check(DESK, ("valid", text, 1, 1))
    assert differs is True
    assert len(reasons) == 1
    assert reasons[0].startswith("extracted: runner ")
    assert reasons[0].endswith("is not a JSON array of booleans, desk [true, false, true, false]")


@pytest.mark.parametrize("text", ["null", "nope", "[1]"])
def test_unparseable_recorded_text_differs_from_no_desk_selection(text: str) -> None:
    desk: Desk = (Status.MISSING, None, False, False)
    assert disagrees(*desk, "missing", text, 0, 0) is True
    assert differences(*desk, "missing", text, 0, 0) == [
        f"extracted: runner {text!r} is not a JSON array of booleans, desk nothing"
    ]


def test_long_unparseable_text_is_shortened_in_reasons() -> None:
    text = "x" * 500
    (reason,) = differences(*DESK, "valid", text, 1, 1)
    assert len(reason) < 200
    assert "…" in reason


def test_several_fields_reported_in_field_order() -> None:
    desk: Desk = (Status.MALFORMED, None, False, False)
    assert differences(*desk, "valid", "[true]", 1, 1) == [
        "parse_status: runner 'valid', desk 'malformed'",
        "extracted: runner [true], desk nothing",
        "strict_format: runner true, desk false",
        "correct: runner true, desk false",
    ]


def test_parse_extracted_is_strict_and_stable_beyond_its_cache() -> None:
    assert parse_extracted("[true, false]") == (T, F)
    assert parse_extracted("[]") == ()
    assert parse_extracted("[0]") is None
    for i in range(5000):  # more distinct texts than the cache holds
        assert parse_extracted("[true]" + " " * i) == (T,)
    assert parse_extracted("[true, false]") == (T, F)


statuses = st.sampled_from(list(Status))
small_selections = st.none() | st.lists(st.booleans(), min_size=1, max_size=3).map(tuple)
texts = st.none() | st.sampled_from(
    ["[true]", "[false, true]", "[true,true]", "[1]", "nope", "[true, false, false]"]
)


@given(
    desk=st.tuples(statuses, small_selections, st.booleans(), st.booleans()),
    recorded=st.tuples(
        st.none() | statuses.map(str),
        texts,
        st.none() | st.integers(0, 2),
        st.none() | st.integers(0, 2),
    ),
)
def test_disagrees_iff_there_are_differences(desk: Desk, recorded: Recorded) -> None:
    assert disagrees(*desk, *recorded) is bool(differences(*desk, *recorded))
