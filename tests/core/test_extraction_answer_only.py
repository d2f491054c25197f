"""Answer-only track (protocol.md sections 2-3), protocol v10 and before v10."""

from __future__ import annotations

from typing import Any

import pytest

from ai4hse_desk.protocol import Extraction, Status, Track, derive, extract_text

VALID = Status.VALID
MALFORMED = Status.MALFORMED
WRONG = Status.WRONG_LENGTH
MISSING = Status.MISSING


def case(
    case_id: str, response: str, n: int, status: Status, sel: str | None, strict: bool, *spans: str
) -> Any:
    """One table row; ``sel`` spells the selection as ``"TFTF"``, ``spans`` the text under each."""
    return pytest.param(response, n, status, sel, strict, spans, id=case_id)


def check(
    result: Extraction,
    response: str,
    status: Status,
    sel: str | None,
    strict: bool,
    spans: tuple[str, ...],
) -> None:
    """Status, selection, strict_format, and the text under each span."""
    assert result.status is status, result.reason
    assert result.selection == (None if sel is None else tuple(c == "T" for c in sel))
    assert result.strict_format is strict
    assert tuple(response[a:b] for a, b in result.spans) == spans
    assert result.reason


LIST = "[TRUE, FALSE, TRUE, FALSE]"

# fmt: off
V10 = [
    # valid
    case("strict", LIST, 4, VALID, "TFTF", True, LIST),
    case("strict-padded", f"  {LIST}\n", 4, VALID, "TFTF", True, LIST),
    case("strict-spacing", "[TRUE,FALSE , TRUE,\tFALSE]", 4, VALID, "TFTF", True,
         "[TRUE,FALSE , TRUE,\tFALSE]"),
    case("strict-n1", "[ TRUE ]", 1, VALID, "T", True, "[ TRUE ]"),
    case("strict-n6", "[FALSE, FALSE, FALSE, FALSE, FALSE, TRUE]", 6, VALID, "FFFFFT", True,
         "[FALSE, FALSE, FALSE, FALSE, FALSE, TRUE]"),
    case("mixed-case-not-strict", "[True, false, TRUE, FALSE]", 4, VALID, "TFTF", False,
         "[True, false, TRUE, FALSE]"),
    case("prose-before", f"The answer is {LIST}", 4, VALID, "TFTF", False, LIST),
    case("revised-last-wins", f"[TRUE, TRUE, TRUE, TRUE]\nWait, correction: {LIST}", 4,
         VALID, "TFTF", False, LIST),
    case("citations-ignored", f"{LIST} as in [1], options [A, C], [see above] and []", 4,
         VALID, "TFTF", False, LIST),
    case("nested-innermost", f"[{LIST}]", 4, VALID, "TFTF", False, LIST),
    case("earlier-list-ignored", f"{LIST} (earlier) then [FALSE, FALSE, TRUE, TRUE]", 4,
         VALID, "FFTT", False, "[FALSE, FALSE, TRUE, TRUE]"),
    # malformed: the last answer list has an item that is not a token
    case("maybe", "[TRUE, maybe, FALSE, TRUE]", 4, MALFORMED, None, False,
         "[TRUE, maybe, FALSE, TRUE]", "maybe"),
    case("trailing-comma", "[TRUE, FALSE, TRUE, FALSE,]", 4, MALFORMED, None, False,
         "[TRUE, FALSE, TRUE, FALSE,]", ","),
    case("trailing-comma-space", "[TRUE, FALSE, TRUE, FALSE, ]", 4, MALFORMED, None, False,
         "[TRUE, FALSE, TRUE, FALSE, ]", ","),
    case("double-comma", "[TRUE,, FALSE, TRUE]", 3, MALFORMED, None, False,
         "[TRUE,, FALSE, TRUE]", ","),
    case("quoted-token", '[TRUE, "FALSE", TRUE, FALSE]', 4, MALFORMED, None, False,
         '[TRUE, "FALSE", TRUE, FALSE]', '"FALSE"'),
    case("yes-no", "[yes, TRUE, no, FALSE]", 4, MALFORMED, None, False,
         "[yes, TRUE, no, FALSE]", "yes"),
    case("malformed-last-not-replaced", f"{LIST}\nOn reflection: [TRUE, maybe, TRUE, FALSE]",
         4, MALFORMED, None, False, "[TRUE, maybe, TRUE, FALSE]", "maybe"),
    case("trailing-comma-last-not-replaced", f"{LIST} then [TRUE, FALSE, TRUE, FALSE,]", 4,
         MALFORMED, None, False, "[TRUE, FALSE, TRUE, FALSE,]", ","),
    # wrong_length
    case("too-short", "[TRUE, FALSE, TRUE]", 4, WRONG, None, False, "[TRUE, FALSE, TRUE]"),
    case("too-long-for-n", LIST, 5, WRONG, None, False, LIST),
    case("wrong-length-last-not-replaced", f"{LIST}\nSorry: [TRUE, FALSE]", 4, WRONG, None,
         False, "[TRUE, FALSE]"),
    # missing: no answer list at all
    case("empty", "", 4, MISSING, None, False),
    case("prose-only", "I do not know.", 4, MISSING, None, False),
    case("unbracketed", "TRUE, FALSE, TRUE, FALSE", 4, MISSING, None, False),
    case("not-answer-lists", "See [1] and [A, C], [see above], []", 4, MISSING, None, False),
    # Quotes are not stripped: no item is a token, so this is no answer list.
    case("all-quoted", '["TRUE", "FALSE", "TRUE", "FALSE"]', 4, MISSING, None, False),
    case("unclosed", "[TRUE, FALSE, TRUE, FALSE", 4, MISSING, None, False),
    case("token-prefixes", "[trueish, FALSEY]", 2, MISSING, None, False),
]

PRE10 = [
    case("strict", LIST, 4, VALID, "TFTF", True, LIST),
    case("strict-padded", f"\n {LIST} \n", 4, VALID, "TFTF", True, LIST),
    case("mixed-case", "[true, FALSE, TRUE, FALSE]", 4, VALID, "TFTF", False,
         "[true, FALSE, TRUE, FALSE]"),
    case("prose-before", f"Answer: {LIST}", 4, MALFORMED, None, False, LIST, "Answer: "),
    case("prose-after", f"{LIST}\nBecause option 2 is wrong.", 4, MALFORMED, None, False,
         LIST, "\nBecause option 2 is wrong."),
    case("two-lists", f"[TRUE, TRUE, TRUE, TRUE] {LIST}", 4, MALFORMED, None, False,
         "[TRUE, TRUE, TRUE, TRUE]", f" {LIST}"),
    case("nested", f"[{LIST}]", 4, MALFORMED, None, False, LIST, "[", "]"),
    case("maybe", "[TRUE, maybe, TRUE, FALSE]", 4, MALFORMED, None, False,
         "[TRUE, maybe, TRUE, FALSE]", "maybe"),
    case("too-short", "[TRUE, FALSE]", 4, WRONG, None, False, "[TRUE, FALSE]"),
    case("no-list", "No idea, sorry.", 4, MISSING, None, False),
    case("citation-only", "[1]", 4, MISSING, None, False),
    case("empty", "", 4, MISSING, None, False),
]
# fmt: on

ROW = ("response", "n", "status", "sel", "strict", "spans")


@pytest.mark.parametrize(ROW, V10)
def test_v10(
    response: str, n: int, status: Status, sel: str | None, strict: bool, spans: tuple[str, ...]
) -> None:
    check(extract_text(Track.ANSWER_ONLY, response, n), response, status, sel, strict, spans)


@pytest.mark.parametrize(ROW, PRE10)
def test_before_v10(
    response: str, n: int, status: Status, sel: str | None, strict: bool, spans: tuple[str, ...]
) -> None:
    result = extract_text("answer_only", response, n, protocol_version=9)
    check(result, response, status, sel, strict, spans)


def test_version_changes_the_verdict_on_prose() -> None:
    response = f"I think the answer is {LIST}."
    assert extract_text("answer_only", response, 4).status is VALID
    assert extract_text("answer_only", response, 4, protocol_version=9).status is MALFORMED
    assert extract_text("answer_only", response, 4, protocol_version=1).status is MALFORMED
    assert extract_text("answer_only", response, 4, protocol_version=11).status is VALID


def test_reasons_name_the_problem() -> None:
    assert extract_text("answer_only", "[TRUE, FALSE, maybe]", 3).reason == (
        "item 3 'maybe' of the last answer list is not TRUE/FALSE"
    )
    assert extract_text("answer_only", "[TRUE, FALSE, TRUE]", 4).reason == (
        "last answer list has 3 items; the question has 4 options"
    )
    assert "trailing comma" in extract_text("answer_only", "[TRUE, FALSE,]", 2).reason
    assert "v9" in extract_text("answer_only", "x [TRUE]", 1, protocol_version=9).reason


# ---- section 2's order, through derive() ------------------------------------------------------


@pytest.mark.parametrize("finish_reason", ["length", "max_tokens", "max_output_tokens"])
def test_cut_off_keeps_the_would_be_selection(finish_reason: str) -> None:
    result = derive("answer_only", LIST, 4, finish_reason=finish_reason)
    check(result, LIST, Status.INCOMPLETE, "TFTF", False, (LIST,))
    assert "cut off" in result.reason
    assert "would give valid" in result.reason


@pytest.mark.parametrize(
    ("response", "would_be"),
    [
        pytest.param("[TRUE, FALSE, TR", MISSING, id="truncated-list"),
        pytest.param("[TRUE, maybe, TRUE, FALSE]", MALFORMED, id="malformed"),
    ],
)
def test_cut_off_without_a_valid_list_has_no_selection(response: str, would_be: Status) -> None:
    result = derive("answer_only", response, 4, finish_reason="length")
    assert result.status is Status.INCOMPLETE
    assert result.selection is None
    assert result.strict_format is False
    assert f"would give {would_be.value}" in result.reason


@pytest.mark.parametrize(
    ("state", "response", "finish_reason", "status"),
    [
        pytest.param("pending", None, None, Status.PENDING, id="pending"),
        pytest.param("pending", LIST, "length", Status.PENDING, id="pending-beats-cut-off"),
        pytest.param("provider_error", None, None, Status.PROVIDER_ERROR, id="provider-error"),
        pytest.param("provider_error", LIST, "length", Status.PROVIDER_ERROR,
                     id="provider-error-beats-cut-off"),
        pytest.param("answered", None, "stop", MISSING, id="answered-none-reads-as-empty"),
        pytest.param("answered", LIST, "stop", VALID, id="answered-stop"),
        pytest.param("answered", LIST, None, VALID, id="answered-no-finish-reason"),
        pytest.param("answered", LIST, "LENGTH", VALID, id="finish-reason-compared-exactly"),
    ],
)  # fmt: skip
def test_states(
    state: str, response: str | None, finish_reason: str | None, status: Status
) -> None:
    result = derive("answer_only", response, 4, state=state, finish_reason=finish_reason)
    assert result.status is status
    if status is not VALID:
        assert result.selection is None
        assert result.strict_format is False
    if status in (Status.PENDING, Status.PROVIDER_ERROR):
        assert result.spans == ()


def test_strict_format_needs_valid() -> None:
    assert derive("answer_only", LIST, 4).strict_format is True
    assert derive("answer_only", LIST, 4, finish_reason="length").strict_format is False
    assert derive("answer_only", LIST, 3).strict_format is False
