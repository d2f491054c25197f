"""Structured-output track (protocol.md section 5)."""

from __future__ import annotations

from typing import Any

import pytest

from ai4hse_desk.protocol import Status, Track, derive, extract_text

VALID = Status.VALID
INVALID = Status.INVALID_JSON
SCHEMA = Status.SCHEMA_VIOLATION
WRONG = Status.WRONG_LENGTH

DOC = '{"answers": [true, false, true, false]}'
PRETTY = '{\n  "answers": [\n    true,\n    false,\n    true,\n    false\n  ]\n}'


def case(case_id: str, response: str, status: Status, reason: str = "", n: int = 4) -> Any:
    """One row: the status and a fragment the reason must contain."""
    return pytest.param(response, n, status, reason, id=case_id)


# fmt: off
CASES = [
    # valid
    case("compact", DOC, VALID),
    case("no-spaces", '{"answers":[true,false,true,false]}', VALID),
    case("pretty-printed", PRETTY, VALID),
    case("surrounding-whitespace", f"\n  {DOC}  \n", VALID),
    case("escaped-key", '{"answ\\u0065rs": [true, false, true, false]}', VALID),
    case("n1", '{"answers": [false]}', VALID, n=1),
    # invalid_json
    case("code-fence", f"```json\n{DOC}\n```", INVALID, "code fence"),
    case("prose-before", f"Here you go: {DOC}", INVALID, "not valid JSON"),
    case("prose-after", f"{DOC}\nHope this helps.", INVALID, "text follows"),
    case("trailing-comma", '{"answers": [true, false, true, false],}', INVALID),
    case("single-quotes", "{'answers': [true, false, true, false]}", INVALID),
    case("upper-case-booleans", '{"answers": [TRUE, FALSE, TRUE, FALSE]}', INVALID),
    case("nan", '{"answers": [true, false, true, NaN]}', INVALID, "NaN"),
    case("infinity", '{"answers": Infinity}', INVALID, "Infinity"),
    case("minus-infinity", '{"answers": [-Infinity]}', INVALID, "-Infinity"),
    case("truncated", '{"answers": [true, false', INVALID),
    case("empty", "", INVALID, "empty"),
    case("blank", " \n\t ", INVALID, "empty"),
    case("bom", "\ufeff" + DOC, INVALID),
    case("huge-integer", '{"answers": [' + "9" * 5000 + "]}", INVALID),
    case("deeply-nested-arrays", "[" * 100_000 + "]" * 100_000, INVALID, "deep"),
    case("deeply-nested-objects", '{"a":' * 100_000, INVALID),
    # schema_violation
    case("top-level-array", "[true, false, true, false]", SCHEMA, "not an object"),
    case("top-level-string", '"true"', SCHEMA, "not an object"),
    case("duplicate-top-level", '{"answers": [true, false, true, false], '
         '"answers": [true, false, true, false]}', SCHEMA, "duplicate key 'answers'"),
    case("duplicate-via-escape", '{"answers": [true, false, true, false], '
         '"answ\\u0065rs": [true, true, true, true]}', SCHEMA, "duplicate key 'answers'"),
    case("duplicate-nested", '{"answers": [true, false, true, false], '
         '"meta": {"a": 1, "a": 2}}', SCHEMA, "duplicate key 'a'"),
    case("duplicate-inside-answers", '{"answers": [{"x": 1, "x": 2}, true, false, true]}',
         SCHEMA, "duplicate key 'x'"),
    case("extra-field", '{"answers": [true, false, true, false], "reason": "..."}', SCHEMA,
         "'reason' is not allowed"),
    case("misspelt-field", '{"answer": [true, false, true, false]}', SCHEMA,
         "'answer' is not allowed"),
    case("empty-object", "{}", SCHEMA, "no 'answers'"),
    case("answers-string", '{"answers": "true, false, true, false"}', SCHEMA, "not an array"),
    case("answers-object", '{"answers": {"1": true}}', SCHEMA, "not an array"),
    case("answers-null", '{"answers": null}', SCHEMA, "null, not an array"),
    case("answers-boolean", '{"answers": true}', SCHEMA, "true, not an array"),
    case("number-one", '{"answers": [1, false, true, false]}', SCHEMA, "item 1 is the number 1"),
    case("number-zero", '{"answers": [true, 0, true, false]}', SCHEMA, "item 2"),
    case("string-true", '{"answers": [true, false, "true", false]}', SCHEMA,
         'item 3 is the string "true"'),
    case("null-item", '{"answers": [true, false, true, null]}', SCHEMA, "item 4 is null"),
    case("nested-array-item", '{"answers": [[true], false, true, false]}', SCHEMA, "an array"),
    case("non-bool-beats-length", '{"answers": [1]}', SCHEMA),
    # wrong_length
    case("too-short", '{"answers": [true, false]}', WRONG, "2 items; the question has 4"),
    case("too-long", DOC, WRONG, "4 items; the question has 3", n=3),
    case("empty-array", '{"answers": []}', WRONG, "0 items"),
    case("too-short-slow-path", '{"answ\\u0065rs": [true]}', WRONG, "1 item;"),
]
# fmt: on


@pytest.mark.parametrize(("response", "n", "status", "reason"), CASES)
def test_structured(response: str, n: int, status: Status, reason: str) -> None:
    result = extract_text(Track.STRUCTURED_OUTPUT, response, n)
    assert result.status is status, result.reason
    assert reason in result.reason
    assert result.strict_format is (status is VALID)
    if status is VALID:
        assert result.selection is not None
        assert len(result.selection) == n
    else:
        assert result.selection is None
    for start, end in result.spans:
        assert 0 <= start < end <= len(response)


def test_valid_selection_and_document_span() -> None:
    response = f"  {PRETTY}\n"
    result = extract_text("structured_output", response, 4)
    assert result.selection == (True, False, True, False)
    (span,) = result.spans
    assert response[span[0] : span[1]] == PRETTY


def test_invalid_json_points_at_the_error() -> None:
    response = '{"answers": [true, false, true, NAN]}'
    result = extract_text("structured_output", response, 4)
    assert result.status is INVALID
    (span,) = result.spans
    assert response[span[0] : span[1]] == "N"


def test_cut_off_keeps_the_would_be_selection() -> None:
    result = derive("structured_output", DOC, 4, finish_reason="length")
    assert result.status is Status.INCOMPLETE
    assert result.selection == (True, False, True, False)
    assert result.strict_format is False
    cut = derive("structured_output", DOC[:20], 4, finish_reason="length")
    assert (cut.status, cut.selection) == (Status.INCOMPLETE, None)
    assert "would give invalid_json" in cut.reason


def test_pending_and_provider_error() -> None:
    assert derive("structured_output", None, 4, state="pending").status is Status.PENDING
    assert derive("structured_output", "", 4, state="provider_error").status is (
        Status.PROVIDER_ERROR
    )
