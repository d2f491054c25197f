"""Structured-output rule of protocol.md section 5, one rule per test (issue 36).

Reasons name what broke the schema (shortened to 30 characters when long); any
whitespace around the document is allowed; no repair of a fenced document.
"""

from __future__ import annotations

import pytest

from ai4hse_desk.protocol import Status, Track, extract_text

T, F = True, False


def test_a_forbidden_field_is_named_whole_up_to_thirty_characters() -> None:
    name = "f" * 30
    verdict = extract_text(Track.STRUCTURED_OUTPUT, f'{{"{name}": true}}', 1)
    assert verdict.status is Status.SCHEMA_VIOLATION
    assert f"field '{name}' is not allowed" in verdict.reason


def test_a_longer_forbidden_field_is_shown_by_its_first_29_characters() -> None:
    name = "abcdefghijklmnopqrstuvwxyz0123456789"
    verdict = extract_text(Track.STRUCTURED_OUTPUT, f'{{"answers": [true], "{name}": 1}}', 1)
    assert verdict.status is Status.SCHEMA_VIOLATION
    assert f"field '{name[:29]}…' is not allowed" in verdict.reason


@pytest.mark.parametrize(
    ("answers", "shown"),
    [
        ('"' + "x" * 28 + '"', 'the string "' + "x" * 28 + '"'),
        ('"' + "y" * 29 + '"', 'the string "' + "y" * 28 + "…"),
        ("1" * 30, "the number " + "1" * 30),
        ("2" * 31, "the number " + "2" * 29 + "…"),
        ("{}", "an object"),
        ("null", "null"),
        ("true", "true"),
    ],
)
def test_an_answers_field_that_is_no_array_is_described_shortened_to_30_characters(
    answers: str, shown: str
) -> None:
    verdict = extract_text(Track.STRUCTURED_OUTPUT, f'{{"answers": {answers}}}', 1)
    assert verdict.status is Status.SCHEMA_VIOLATION
    assert verdict.reason == f"'answers' is {shown}, not an array"


@pytest.mark.parametrize(
    ("item", "shown"),
    [("[true]", "an array"), ('{"a": 1}', "an object"), ("0", "the number 0")],
)
def test_an_answers_item_that_is_no_boolean_is_described(item: str, shown: str) -> None:
    verdict = extract_text(Track.STRUCTURED_OUTPUT, f'{{"answers": [true, {item}]}}', 2)
    assert verdict.status is Status.SCHEMA_VIOLATION
    assert verdict.reason == f"answers item 2 is {shown}, not true/false"


def test_a_repeated_key_is_named_in_the_reason() -> None:
    text = '{"answers": [true], "b": 1, "b": 2}'
    verdict = extract_text(Track.STRUCTURED_OUTPUT, text, 1)
    assert verdict.status is Status.SCHEMA_VIOLATION
    assert verdict.reason == "duplicate key 'b' in JSON"


def test_an_object_without_answers_is_told_so() -> None:
    verdict = extract_text(Track.STRUCTURED_OUTPUT, "{}", 2)
    assert (verdict.status, verdict.reason) == (
        Status.SCHEMA_VIOLATION,
        "the JSON object has no 'answers' field",
    )


@pytest.mark.parametrize(
    "document",
    ['{"answ\\u0065rs": [true]}', '{"answers": [true] }', '{ "answers" : [ true ] }'],
)
def test_a_wrong_length_names_both_counts_however_the_json_is_spelled(document: str) -> None:
    verdict = extract_text(Track.STRUCTURED_OUTPUT, document, 2)
    assert (verdict.status, verdict.reason) == (
        Status.WRONG_LENGTH,
        "answers has 1 item; the question has 2 options",
    )


@pytest.mark.parametrize("space", ["\u00a0", "\x0b", "\u2003", "\n\u3000"])
def test_any_whitespace_around_the_json_document_is_allowed(space: str) -> None:
    document = '{"answers": [true, false]}'
    for text in (document + space, space + document, space + document + space):
        verdict = extract_text(Track.STRUCTURED_OUTPUT, text, 2)
        assert (verdict.status, verdict.selection, verdict.strict_format) == (
            Status.VALID,
            (T, F),
            T,
        )
        assert verdict.spans == ((text.index("{"), text.index("}") + 1),)


def test_json_in_a_code_fence_is_told_so() -> None:
    verdict = extract_text(Track.STRUCTURED_OUTPUT, '```json\n{"answers": [true]}\n```', 1)
    assert (verdict.status, verdict.reason) == (
        Status.INVALID_JSON,
        "JSON inside a Markdown code fence is not accepted",
    )
