"""Reasoning-assisted track (protocol.md section 4)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from ai4hse_desk.protocol import Extraction, Status, Track, derive, extract_text
from ai4hse_desk.protocol.extract import verdict_rule

VALID = Status.VALID
MALFORMED = Status.MALFORMED
WRONG = Status.WRONG_LENGTH
MISSING = Status.MISSING
MULTIPLE = Status.MULTIPLE
NON_FINAL = Status.NON_FINAL
AMBIGUOUS = Status.AMBIGUOUS

F_A = "FINAL_ANSWER:"
LIST = "[TRUE, FALSE, TRUE, FALSE]"
WHY = "Option 1 is required by the regulation; option 2 is not.\n"


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


# fmt: off
CASES = [
    # valid and strict
    case("strict", f"{WHY}{F_A} {LIST}", 4, VALID, "TFTF", True, F_A, LIST),
    case("strict-only-line", f"{F_A} {LIST}", 4, VALID, "TFTF", True, F_A, LIST),
    case("trailing-blank-lines", f"{WHY}{F_A} {LIST}\n\n   \n", 4, VALID, "TFTF", True, F_A, LIST),
    case("crlf", f"Because.\r\n{F_A} {LIST}\r\n", 4, VALID, "TFTF", True, F_A, LIST),
    case("indented-line", f"{WHY}   {F_A} {LIST}", 4, VALID, "TFTF", True, F_A, LIST),
    case("any-spacing-after-commas", f"{F_A} [TRUE,FALSE,   TRUE, FALSE]", 4, VALID, "TFTF",
         True, F_A, "[TRUE,FALSE,   TRUE, FALSE]"),
    case("earlier-lists-not-graded", f"First [TRUE, TRUE] then [1].\n{F_A} {LIST}", 4, VALID,
         "TFTF", True, F_A, LIST),
    case("n1", f"{F_A} [FALSE]", 1, VALID, "F", True, F_A, "[FALSE]"),
    # valid, not strict
    case("bold-field", f"{WHY}**{F_A}** {LIST}", 4, VALID, "TFTF", False, F_A, LIST),
    case("heading-and-quote", f"> ## {F_A} {LIST}", 4, VALID, "TFTF", False, F_A, LIST),
    case("code-marks-around-list", f"{F_A} `{LIST}`", 4, VALID, "TFTF", False, F_A, LIST),
    case("bold-list", f"{F_A} **{LIST}**", 4, VALID, "TFTF", False, F_A, LIST),
    case("mixed-case", f"{F_A} [true, False, TRUE, FALSE]", 4, VALID, "TFTF", False, F_A,
         "[true, False, TRUE, FALSE]"),
    case("two-spaces-after-field", f"{F_A}  {LIST}", 4, VALID, "TFTF", False, F_A, LIST),
    case("spaces-inside-brackets", f"{F_A} [ TRUE, FALSE, TRUE, FALSE ]", 4, VALID, "TFTF",
         False, F_A, "[ TRUE, FALSE, TRUE, FALSE ]"),
    case("space-before-comma", f"{F_A} [TRUE , FALSE, TRUE, FALSE]", 4, VALID, "TFTF", False,
         F_A, "[TRUE , FALSE, TRUE, FALSE]"),
    case("unbracketed", f"{WHY}{F_A} TRUE, FALSE, TRUE, FALSE", 4, VALID, "TFTF", False, F_A,
         "TRUE, FALSE, TRUE, FALSE"),
    case("unbracketed-bold", f"{F_A} **TRUE, false, TRUE, FALSE**\n", 4, VALID, "TFTF", False,
         F_A, "TRUE, false, TRUE, FALSE"),
    case("unbracketed-n1", f"{F_A} TRUE", 1, VALID, "T", False, F_A, "TRUE"),
    # missing
    case("no-field", f"{WHY}{LIST}", 4, MISSING, None, False),
    case("lower-case-field", f"final_answer: {LIST}", 4, MISSING, None, False),
    case("field-without-colon", f"FINAL_ANSWER {LIST}", 4, MISSING, None, False),
    case("empty", "", 4, MISSING, None, False),
    # multiple
    case("twice", f"{F_A} [TRUE, TRUE, TRUE, TRUE]\n{F_A} {LIST}", 4, MULTIPLE, None, False,
         F_A, F_A),
    case("twice-on-one-line", f"{F_A} {F_A} {LIST}", 4, MULTIPLE, None, False, F_A, F_A),
    # non_final
    case("text-after-line", f"{F_A} {LIST}\nHope this helps!  \n", 4, NON_FINAL, None, False,
         F_A, "Hope this helps!"),
    case("list-on-next-line", f"{F_A}\n{LIST}", 4, NON_FINAL, None, False, F_A, LIST),
    # malformed: text before the field on its line
    case("text-before-field", f"So {F_A} {LIST}", 4, MALFORMED, None, False, F_A, "So "),
    case("word-glued-to-field", f"X{F_A} {LIST}", 4, MALFORMED, None, False, F_A, "X"),
    # malformed: after the field
    case("text-after-list", f"{F_A} {LIST}.", 4, MALFORMED, None, False, F_A, LIST, "."),
    case("remark-after-list", f"{F_A} {LIST} (I think)", 4, MALFORMED, None, False, F_A, LIST,
         "(I think)"),
    # One answer list but two bracketed spans: not "two or more answer lists" (ambiguous) and
    # not "exactly one bracketed span" either, so malformed: the answer list is text after [1].
    case("citation-then-list", f"{F_A} [1] {LIST}", 4, MALFORMED, None, False, F_A, "[1]", LIST),
    case("list-then-citation", f"{F_A} {LIST} [1]", 4, MALFORMED, None, False, F_A, LIST, "[1]"),
    case("text-between", f"{F_A} so {LIST}", 4, MALFORMED, None, False, F_A, f"so {LIST}"),
    case("nested", f"{F_A} [{LIST}]", 4, MALFORMED, None, False, F_A, f"[{LIST}]"),
    case("unclosed", f"{F_A} [TRUE, FALSE, TRUE, FALSE", 4, MALFORMED, None, False, F_A,
         "[TRUE, FALSE, TRUE, FALSE"),
    case("maybe", f"{F_A} [TRUE, maybe, TRUE, FALSE]", 4, MALFORMED, None, False, F_A,
         "[TRUE, maybe, TRUE, FALSE]", "maybe"),
    case("quoted", f'{F_A} ["TRUE", "FALSE"]', 2, MALFORMED, None, False, F_A,
         '["TRUE", "FALSE"]', '"TRUE"'),
    case("letters", f"{F_A} [A, C]", 4, MALFORMED, None, False, F_A, "[A, C]", "A"),
    case("trailing-comma", f"{F_A} [TRUE, FALSE, TRUE, FALSE,]", 4, MALFORMED, None, False,
         F_A, "[TRUE, FALSE, TRUE, FALSE,]", ","),
    case("nothing-after-field", f"{WHY}{F_A} **", 4, MALFORMED, None, False, F_A),
    case("unbracketed-prose", f"{F_A} options 1 and 3", 4, MALFORMED, None, False, F_A,
         "options 1 and 3", "options 1 and 3"),
    case("unbracketed-period", f"{F_A} TRUE, FALSE, TRUE, FALSE.", 4, MALFORMED, None, False,
         F_A, "TRUE, FALSE, TRUE, FALSE.", "FALSE."),
    # ambiguous: two or more answer lists after the field
    case("two-lists", f"{F_A} {LIST} or [TRUE, TRUE, TRUE, FALSE]", 4, AMBIGUOUS, None, False,
         F_A, LIST, "[TRUE, TRUE, TRUE, FALSE]"),
    case("two-short-lists", f"{F_A} [TRUE] [FALSE]", 1, AMBIGUOUS, None, False, F_A, "[TRUE]",
         "[FALSE]"),
    case("malformed-lists-count-too", f"{F_A} [TRUE, maybe] [TRUE, TRUE]", 2, AMBIGUOUS, None,
         False, F_A, "[TRUE, maybe]", "[TRUE, TRUE]"),
    # wrong_length
    case("too-short", f"{F_A} [TRUE, FALSE]", 4, WRONG, None, False, F_A, "[TRUE, FALSE]"),
    case("too-long", f"{F_A} {LIST}", 3, WRONG, None, False, F_A, LIST),
    case("unbracketed-too-short", f"{F_A} TRUE, FALSE", 4, WRONG, None, False, F_A,
         "TRUE, FALSE"),
    case("empty-list-has-no-items", f"{F_A} []", 4, WRONG, None, False, F_A, "[]"),
]
# fmt: on


@pytest.mark.parametrize(("response", "n", "status", "sel", "strict", "spans"), CASES)
def test_reasoning(
    response: str, n: int, status: Status, sel: str | None, strict: bool, spans: tuple[str, ...]
) -> None:
    result = extract_text(Track.REASONING_ASSISTED, response, n)
    check(result, response, status, sel, strict, spans)


@pytest.mark.parametrize(("response", "n", "status", "sel", "strict", "spans"), CASES)
def test_rescore_verdict_is_the_rule_without_spans(
    response: str, n: int, status: Status, sel: str | None, strict: bool, spans: tuple[str, ...]
) -> None:
    """The rescore loop's rule gives every table row's verdict, twice (the second
    time from its shared verdicts), with no spans or the rule's own."""
    full = extract_text(Track.REASONING_ASSISTED, response, n)
    rule = verdict_rule(Track.REASONING_ASSISTED)
    for _ in range(2):
        lean = rule(response, n, 10)
        assert lean.spans in ((), full.spans)
        check(replace(lean, spans=full.spans), response, status, sel, strict, spans)
        assert lean.reason == full.reason


def test_rescore_verdict_of_one_final_line_depends_on_the_options() -> None:
    """A final line read once for 4 options is read again for 3 and 5."""
    rule = verdict_rule(Track.REASONING_ASSISTED)
    for line in (
        f"{F_A} {LIST}",
        f"**{F_A}** TRUE, FALSE, TRUE, FALSE",
        f"{F_A} [TRUE,FALSE,TRUE,FALSE]",
    ):
        statuses = [rule(f"{WHY}{line}", n, 10).status for n in (4, 3, 5, 4)]
        assert statuses == [VALID, WRONG, WRONG, VALID], line


def test_protocol_version_does_not_matter() -> None:
    response = f"{WHY}{F_A} {LIST}"
    assert extract_text("reasoning_assisted", response, 4, protocol_version=3) == extract_text(
        "reasoning_assisted", response, 4
    )


def test_reasons() -> None:
    twice = extract_text("reasoning_assisted", f"{F_A} x\n{F_A} {LIST}", 4)
    assert twice.reason == "FINAL_ANSWER: appears 2 times"
    assert (
        "not the last non-blank line"
        in extract_text("reasoning_assisted", f"{F_A} {LIST}\nbye", 4).reason
    )
    assert extract_text("reasoning_assisted", f"{F_A} [TRUE, FALSE]", 4).reason == (
        "final answer list has 2 items; the question has 4 options"
    )


@pytest.mark.parametrize(
    ("response", "sel", "would_be"),
    [
        pytest.param(f"{WHY}{F_A} {LIST}", (True, False, True, False), "valid", id="complete-line"),
        pytest.param(f"{WHY}{F_A} TRUE, FALSE, TRUE, FALSE", (True, False, True, False), "valid",
                     id="unbracketed"),
        pytest.param(f"{WHY}{F_A} [TRUE, FAL", None, "malformed", id="cut-in-list"),
        pytest.param("Option 1 is required by", None, "missing", id="cut-in-explanation"),
    ],
)  # fmt: skip
def test_cut_off(response: str, sel: tuple[bool, ...] | None, would_be: str) -> None:
    result = derive("reasoning_assisted", response, 4, finish_reason="max_output_tokens")
    assert result.status is Status.INCOMPLETE
    assert result.selection == sel
    assert result.strict_format is False
    assert f"would give {would_be}" in result.reason


def test_pending_and_provider_error() -> None:
    assert derive("reasoning_assisted", None, 4, state="pending").status is Status.PENDING
    error = derive("reasoning_assisted", None, 4, state="provider_error")
    assert error.status is Status.PROVIDER_ERROR
    assert (error.selection, error.strict_format, error.spans) == (None, False, ())
