"""Properties of extraction over arbitrary text, and the dispatcher's contract."""

from __future__ import annotations

import json
import random
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai4hse_desk.protocol import (
    CUT_OFF_REASONS,
    Extraction,
    Status,
    Track,
    derive,
    extract_text,
)
from ai4hse_desk.protocol.answer_only import _last_list, extract_answer_only_v10
from ai4hse_desk.protocol.lists import (
    WHITESPACE,
    answer_lists,
    bracketed_spans,
    is_answer_list,
    is_strict_token,
    last_answer_list,
    token_value,
)
from ai4hse_desk.protocol.reasoning import FIELD, _general, extract_reasoning

TRACKS = [t.value for t in Track]
TRACK_RULE_STATUSES = set(Status) - {Status.PENDING, Status.PROVIDER_ERROR, Status.INCOMPLETE}
PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Any code point, lone surrogates and NUL included.
ANY_TEXT = st.text(st.characters(exclude_categories=()), max_size=200)
#: Text built from the pieces the rules look at, so that every branch is reached.
PIECES = st.sampled_from(
    [
        "[", "]", ",", ", ", " ", "\n", "\r\n", "\t", "*", "_", "`", "#", ">", "TRUE", "FALSE",
        "true", "False", "maybe", '"TRUE"', "1", "A", "b", "(", ")", ".", "FINAL_ANSWER:",
        "FINAL_ANSWER: ", "answer is ", "The answer is ", "{", "}", '"answers"', ":", "null",
        "NaN", '"x"', "é", "\x00", "\ud800", "\u2028", "\xa0",
    ]
)  # fmt: skip
PROTOCOL_TEXT = st.lists(PIECES, max_size=40).map("".join)
TEXTS = st.one_of(ANY_TEXT, PROTOCOL_TEXT)


def assert_well_formed(result: Extraction, response: str, n: int) -> None:
    """The invariants every extraction keeps."""
    assert isinstance(result, Extraction)
    assert result.status in set(Status)
    if result.status is Status.VALID:
        assert result.selection is not None
        assert len(result.selection) == n
        assert all(type(value) is bool for value in result.selection)
    elif result.status is not Status.INCOMPLETE:
        assert result.selection is None
    if result.strict_format:
        assert result.status is Status.VALID
    for start, end in result.spans:
        assert 0 <= start <= end <= len(response)
    assert isinstance(result.reason, str)
    assert result.reason
    result.reason.encode("utf-8")  # shown text is escaped: no lone surrogate leaks out


@PROPERTY
@given(text=TEXTS, track=st.sampled_from(TRACKS), n=st.sampled_from([1, 2, 4, 5, 7]))
def test_any_text_gives_a_well_formed_verdict(text: str, track: str, n: int) -> None:
    for version in (9, 10):
        result = extract_text(track, text, n, protocol_version=version)
        assert result.status in TRACK_RULE_STATUSES
        assert_well_formed(result, text, n)


@PROPERTY
@given(
    text=TEXTS,
    track=st.sampled_from(TRACKS),
    n=st.sampled_from([1, 4]),
    finish_reason=st.sampled_from(sorted(CUT_OFF_REASONS)),
)
def test_cut_off_shows_what_would_have_been_extracted(
    text: str, track: str, n: int, finish_reason: str
) -> None:
    would_be = extract_text(track, text, n)
    result = derive(track, text, n, finish_reason=finish_reason)
    assert result.status is Status.INCOMPLETE
    assert result.strict_format is False
    assert result.spans == would_be.spans
    assert result.selection == (would_be.selection if would_be.status is Status.VALID else None)
    assert_well_formed(result, text, n)


RNG = random.Random(20260101)
MEGABYTE = "".join(RNG.choice('abc [],\n*TRUE FALSE{}":') for _ in range(1_000_000))
HUGE = {
    "random-1mb": MEGABYTE,
    "nul": "\x00" * 1000,
    "lone-surrogate": "\ud800",
    "surrogate-list": "[\ud800, TRUE]",
    "open-brackets": "[" * 100_000,
    "close-brackets": "]" * 100_000,
    "bracket-pairs": "[]" * 100_000,
    "nested-json-objects": '{"a":' * 100_000,
    "nested-json-arrays": "[" * 100_000 + "]" * 100_000,
    "unclosed-token-list": "[" + "true," * 200_000,
    "closed-token-list": "[" + "TRUE, " * 200_000 + "FALSE]",
    "wide-span": "[" + " " * 1_000_000 + "x]",
    "commas": "[" + "," * 1_000_000 + "]",
    "many-fields": "FINAL_ANSWER:" * 80_000,
    "field-then-marks": "FINAL_ANSWER: " + "*" * 1_000_000 + "x",
    "field-then-long-line": "FINAL_ANSWER: " + "TRUE, " * 200_000,
    "answer-is-repeated": "answer is " * 100_000,
    "answer-is-parens": "answer is " + "(" * 1_000_000,
    "huge-json-array": '{"answers": [' + "true, " * 200_000 + "true]}",
    "letters": "x" * 1_000_000,
}


@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("text", list(HUGE.values()), ids=list(HUGE))
def test_pathological_text(text: str, track: str) -> None:
    for n in (1, 4):
        assert_well_formed(extract_text(track, text, n), text, n)
        assert_well_formed(extract_text(track, text, n, protocol_version=9), text, n)


def test_deep_json_near_the_recursion_limit_does_not_raise() -> None:
    depth = sys.getrecursionlimit() - 50
    text = "[" * depth + "]" * depth
    result = extract_text("structured_output", text, 4)
    assert result.status in (Status.SCHEMA_VIOLATION, Status.INVALID_JSON)


# ---- shared definitions ------------------------------------------------------------------------


def reference_answer_lists(text: str) -> list[tuple[int, int]]:
    """protocol.md's definition, literally: innermost spans with a token item."""
    spans = []
    for start, char in enumerate(text):
        if char != "[":
            continue
        for end in range(start + 1, len(text)):
            if text[end] == "[":
                break
            if text[end] == "]":
                items = text[start + 1 : end].split(",")
                if any(token_value(item) is not None for item in items):
                    spans.append((start, end + 1))
                break
    return spans


LIST_PIECES = st.sampled_from(
    ["[", "]", ",", " ", "\t", "TRUE", "true", "fAlSe", "tru", "e", "x", '"', "\u2003", "ſ"]
)


@PROPERTY
@given(text=st.lists(LIST_PIECES, max_size=30).map("".join))
def test_answer_list_search_matches_the_definition(text: str) -> None:
    assert answer_lists(text) == reference_answer_lists(text)


@PROPERTY
@given(text=st.lists(LIST_PIECES, max_size=30).map("".join))
def test_answer_lists_are_the_bracketed_spans_with_a_token(text: str) -> None:
    spans = [(a, b) for a, b in bracketed_spans(text) if is_answer_list(text[a:b])]
    assert answer_lists(text) == spans
    assert last_answer_list(text) == (spans[-1] if spans else None)


@pytest.mark.parametrize(
    ("span_text", "expected"),
    [
        pytest.param("[TRUE, maybe, FALSE]", True, id="malformed-answer-list"),
        pytest.param("[ false ]", True, id="lower-case"),
        pytest.param("[1]", False, id="citation"),
        pytest.param("[A, C]", False, id="letters"),
        pytest.param("[see above]", False, id="words"),
        pytest.param("[]", False, id="empty"),
        pytest.param('["TRUE"]', False, id="quoted"),
        pytest.param("[[TRUE]]", False, id="not-innermost"),
    ],
)
def test_is_answer_list(span_text: str, expected: bool) -> None:
    assert is_answer_list(span_text) is expected


def test_innermost_spans_have_offsets() -> None:
    text = "a [x] [[TRUE, FALSE]] [ ]]["
    assert [text[a:b] for a, b in bracketed_spans(text)] == ["[x]", "[TRUE, FALSE]", "[ ]"]
    assert answer_lists(text) == [(7, 20)]
    assert bracketed_spans(text, 3) == [(7, 20), (22, 25)]


def test_token_definition() -> None:
    assert [token_value(s) for s in (" TRUE ", "True", "false\n", "FALSE")] == [
        True,
        True,
        False,
        False,
    ]
    assert [is_strict_token(s) for s in (" TRUE", "FALSE\n", "True", "false")] == [
        True,
        True,
        False,
        False,
    ]
    assert [token_value(s) for s in ('"TRUE"', "", "ture", "falſe", "TRUE.", "T")] == [None] * 6


def test_whitespace_constant_is_what_isspace_accepts() -> None:
    expected = "".join(chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace())
    assert expected == WHITESPACE


# ---- fast paths agree with the full rules ------------------------------------------------------


def same_verdict(a: Extraction, b: Extraction) -> bool:
    return (a.status, a.selection, a.strict_format, a.spans) == (
        b.status,
        b.selection,
        b.strict_format,
        b.spans,
    )


TOKENS = st.sampled_from(["TRUE", "FALSE", "true", "False", "maybe", ""])
SPACES = st.sampled_from(["", " ", "  ", "\t", "\n", "\u3000"])


@st.composite
def list_texts(draw: st.DrawFn) -> str:
    """Lists as models write them: spacing, case, prose and extra brackets around."""
    items = draw(st.lists(st.tuples(SPACES, TOKENS, SPACES), min_size=1, max_size=6))
    body = ",".join(a + t + b for a, t, b in items)
    before = draw(st.sampled_from(["", " ", "\n", "Answer: ", "[", "FINAL_ANSWER: ", "** "]))
    after = draw(st.sampled_from(["", " ", "\n\n", ".", "]", " [1]", "**", "\nbye"]))
    return before + "[" + body + "]" + after


@PROPERTY
@given(text=list_texts(), n=st.integers(1, 6))
def test_answer_only_fast_path_agrees(text: str, n: int) -> None:
    assert same_verdict(extract_answer_only_v10(text, n), _last_list(text, n))


@PROPERTY
@given(prose=st.sampled_from(["", "Because.\n", "x\n\n"]), text=list_texts(), n=st.integers(1, 6))
def test_reasoning_fast_path_agrees(prose: str, text: str, n: int) -> None:
    for line in (f"FINAL_ANSWER: {text}", text, f"  FINAL_ANSWER: {text}\n "):
        response = prose + line
        fast = extract_reasoning(response, n)
        assert same_verdict(fast, _general(response, n, response.count(FIELD)))


# ---- round trips: a well-formed answer is read back exactly ------------------------------------


@PROPERTY
@given(selection=st.lists(st.booleans(), min_size=1, max_size=10))
def test_strict_answers_round_trip(selection: list[bool]) -> None:
    n = len(selection)
    words = ", ".join("TRUE" if value else "FALSE" for value in selection)
    responses = {
        "answer_only": f"[{words}]",
        "reasoning_assisted": f"Explanation [1].\nFINAL_ANSWER: [{words}]\n",
        "structured_output": json.dumps({"answers": selection}),
    }
    for track, response in responses.items():
        result = extract_text(track, response, n)
        assert (result.status, result.selection, result.strict_format) == (
            Status.VALID,
            tuple(selection),
            True,
        ), (track, result.reason)


@PROPERTY
@given(n=st.integers(1, 26), data=st.data())
def test_single_letters_round_trip(n: int, data: st.DataObject) -> None:
    index = data.draw(st.integers(0, 25))
    letter = chr(ord("A") + index)
    result = extract_text(
        "single_choice", data.draw(st.sampled_from(["{}", "({})", "{}."])).format(letter), n
    )
    if index < n:
        assert result.selection == tuple(i == index for i in range(n))
        assert result.strict_format
    else:
        assert result.status is Status.WRONG_LENGTH


# ---- the dispatcher's contract -----------------------------------------------------------------


def test_track_enum_and_value_agree() -> None:
    for track in Track:
        assert extract_text(track, "[TRUE]", 1) == extract_text(track.value, "[TRUE]", 1)


@pytest.mark.parametrize("track", ["answer-only", "ANSWER_ONLY", "", "combined"])
def test_unknown_track_is_rejected(track: str) -> None:
    with pytest.raises(ValueError, match=r"unknown track .*answer_only, reasoning_assisted"):
        extract_text(track, "[TRUE]", 1)
    with pytest.raises(ValueError, match="unknown track"):
        derive(track, "[TRUE]", 1)


@pytest.mark.parametrize("n", [0, -1])
def test_n_below_one_is_rejected(n: int) -> None:
    with pytest.raises(ValueError, match="at least 1 option"):
        extract_text("answer_only", "[TRUE]", n)
    with pytest.raises(ValueError, match="at least 1 option"):
        derive("answer_only", "[TRUE]", n, state="pending")


def test_unknown_state_is_rejected() -> None:
    with pytest.raises(ValueError, match="unknown attempt state 'done'"):
        derive("answer_only", "[TRUE]", 1, state="done")


def test_the_same_text_gives_the_same_verdict_for_its_number_of_options() -> None:
    first = [extract_text("answer_only", f"[TRUE] {i}", 1) for i in range(20)]
    again = [extract_text("answer_only", f"[TRUE] {i}", 1) for i in range(20)]
    assert first == again
    assert extract_text("answer_only", "[TRUE]", 1) != extract_text("answer_only", "[TRUE]", 2)
    assert extract_text("answer_only", "x [TRUE]", 1).status is Status.VALID
    assert extract_text("answer_only", "x [TRUE]", 1, protocol_version=9).status is (
        Status.MALFORMED
    )
