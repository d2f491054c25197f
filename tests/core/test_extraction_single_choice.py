"""Single-choice track (protocol.md section 5b)."""

from __future__ import annotations

from typing import Any

import pytest

from ai4hse_desk.protocol import Status, Track, derive, extract_text

VALID = Status.VALID
MISSING = Status.MISSING
WRONG = Status.WRONG_LENGTH


def case(case_id: str, response: str, status: Status, letter: str, strict: bool) -> Any:
    """One row for a 4-option question; ``letter`` is the text under the last span."""
    return pytest.param(response, status, letter, strict, id=case_id)


# fmt: off
CASES = [
    # strict: the trimmed response is the letter, maybe in parentheses and/or with a period
    case("letter", "B", VALID, "B", True),
    case("lower-case", "b", VALID, "b", True),
    case("parenthesised", "(B)", VALID, "B", True),
    case("parenthesised-lower", "(b)", VALID, "b", True),
    case("period", "B.", VALID, "B", True),
    case("parenthesised-period", "(d).", VALID, "d", True),
    case("padded", "  C \n", VALID, "C", True),
    case("first-option", "A", VALID, "A", True),
    case("long-leading-space", "      B", VALID, "B", True),
    case("long-trailing-space", "(B).     ", VALID, "B", True),
    case("unicode-spaces", "\u2003(c).\u00a0\u3000", VALID, "c", True),
    case("letter-then-two-periods", "(B)..", MISSING, "", False),
    # 'answer is' + optional spaces, '*' or '(' + one letter not followed by a letter
    case("answer-is-parenthesised", "The answer is (C).", VALID, "C", False),
    case("answer-is-bold", "the answer is **C**", VALID, "C", False),
    case("answer-is-because", "The answer is C because gloves protect the hands.", VALID, "C",
         False),
    case("upper-case-phrase", "THE ANSWER IS D", VALID, "D", False),
    case("last-answer-is-wins", "At first the answer is A, but on reflection the answer is B.",
         VALID, "B", False),
    case("later-phrase-without-letter", "So the answer is C. Why the answer is not obvious: ...",
         VALID, "C", False),
    case("later-phrase-in-capitals", "the answer is A. On reflection, THE ANSWER IS B.", VALID,
         "B", False),
    case("later-phrase-capitalised", "I think the answer is A. Answer is C", VALID, "C", False),
    case("later-phrase-mixed-case", "the answer is A; ANSWER is (D)", VALID, "D", False),
    case("letter-then-digit", "The answer is C2", VALID, "C", False),
    case("two-letters-in-parentheses", "(B) or (C)", MISSING, "", False),
    # desk rule: a lower-case letter counts, so an English article names option A
    case("article-is-no-letter", "The answer is a tricky one.", MISSING, "", False),
    case("lower-case-after-answer-is", "the answer is (c).", MISSING, "", False),
    # missing: no letter found
    case("empty", "", MISSING, "", False),
    case("prose", "I am not sure.", MISSING, "", False),
    case("answer-colon", "Answer: B", MISSING, "", False),
    case("answer-is-word", "The answer is ambiguous.", MISSING, "", False),
    case("answer-is-digit", "The answer is 3", MISSING, "", False),
    case("answer-is-accented", "The answer is Cé", MISSING, "", False),
    case("two-spaces-in-phrase", "The answer  is C", MISSING, "", False),
    case("newline-before-letter", "The answer is\nC", MISSING, "", False),
    case("letter-pair", "B C", MISSING, "", False),
    # wrong_length: a letter beyond the options (4 here: A-D)
    case("beyond-strict", "E", WRONG, "E", False),
    case("beyond-lower", "(z)", WRONG, "z", False),
    case("beyond-answer-is", "The answer is (F).", WRONG, "F", False),
]
# fmt: on


@pytest.mark.parametrize(("response", "status", "letter", "strict"), CASES)
def test_single_choice(response: str, status: Status, letter: str, strict: bool) -> None:
    result = extract_text(Track.SINGLE_CHOICE, response, 4)
    assert result.status is status, result.reason
    assert result.strict_format is strict
    if status is MISSING:
        assert result.spans == ()
        assert result.selection is None
        return
    start, end = result.spans[-1]
    assert response[start:end] == letter
    if status is VALID:
        index = "ABCD".index(letter.upper())
        assert result.selection == tuple(i == index for i in range(4))
    else:
        assert result.selection is None
        assert "beyond the 4 options (A–D)" in result.reason


def test_answer_is_spans_the_phrase_then_the_letter() -> None:
    response = "Looking at it, the answer is **C** because of the hazard."
    result = extract_text("single_choice", response, 4)
    assert [response[a:b] for a, b in result.spans] == ["answer is **C", "C"]


def test_number_of_options_decides_the_range() -> None:
    assert extract_text("single_choice", "E", 5).selection == (False,) * 4 + (True,)
    assert extract_text("single_choice", "B", 1).status is WRONG
    assert extract_text("single_choice", "A", 1).selection == (True,)
    assert extract_text("single_choice", "Z", 26).selection == (False,) * 25 + (True,)


def test_cut_off_and_states() -> None:
    cut = derive("single_choice", "The answer is (B", 4, finish_reason="length")
    assert (cut.status, cut.selection, cut.strict_format) == (
        Status.INCOMPLETE,
        (False, True, False, False),
        False,
    )
    assert derive("single_choice", None, 4, state="pending").status is Status.PENDING
    assert derive("single_choice", None, 4, state="provider_error").status is (
        Status.PROVIDER_ERROR
    )


@pytest.mark.parametrize(("response", "status", "letter", "strict"), CASES)
def test_the_rescore_rule_gives_the_same_verdict_without_spans(
    response: str, status: Status, letter: str, strict: bool
) -> None:
    from ai4hse_desk.protocol.single_choice import extract_single_choice, single_choice_verdict

    lean = single_choice_verdict(response, 4)
    assert lean == extract_single_choice(response, 4).without_spans()
    assert (lean.status, lean.strict_format) == (status, strict)
    assert lean.reason.endswith(letter.upper()) or status is not VALID
