"""Single-choice rule of protocol.md section 5b, one rule per test (issue 36).

The strict form with whitespace on either side, and the last ``answer is`` that names
a letter however far from the end of the reply (the rule searches from the end in
windows), read the same by the window's rule and by the rescore's shared verdicts.
"""

from __future__ import annotations

import pytest

from ai4hse_desk.protocol import Status, Track, extract_text
from ai4hse_desk.protocol.single_choice import single_choice_verdict

B = (False, True, False, False)
D = (False, False, False, True)


def _named(reply: str) -> tuple[Status, tuple[bool, ...] | None]:
    verdict = extract_text(Track.SINGLE_CHOICE, reply, 4)
    assert single_choice_verdict(reply, 4) == verdict.without_spans()
    return verdict.status, verdict.selection


def test_the_rescore_reads_each_replys_own_letter() -> None:
    replies = ["(B)", "(C)", " B ", " C ", "b.", "c.", "The answer is B.", "The answer is C."]
    for reply in replies:
        letter = reply.strip(" ().").rsplit(" ", 1)[-1].upper()
        verdict = single_choice_verdict(reply, 4)
        assert verdict.status is Status.VALID
        assert verdict.selection == tuple(c == letter for c in "ABCD")
        assert verdict == extract_text(Track.SINGLE_CHOICE, reply, 4).without_spans()


@pytest.mark.parametrize("before", ["", "x", "Reasoning first. "])
@pytest.mark.parametrize("after", [*range(240, 262), *range(1268, 1282)])
def test_the_last_answer_is_is_found_however_far_from_the_end(before: str, after: int) -> None:
    # Capitalised, so that only the case-insensitive search finds it; "." never names.
    assert _named(before + "Answer is D" + "." * after) == (Status.VALID, D)


def test_the_last_of_several_answer_is_far_from_the_end_wins() -> None:
    filler = " and so on" * 40
    assert _named("Answer is B. On reflection: ANSWER IS D." + filler) == (Status.VALID, D)
    assert _named("Answer is D. Not C." + filler) == (Status.VALID, D)


def test_many_answer_is_that_name_no_letter_do_not_hide_an_earlier_one() -> None:
    reply = "Answer is D." + " Whether the answer is obvious, I cannot say." * 30
    assert _named(reply) == (Status.VALID, D)
    assert _named(reply.replace("Answer is D.", "No letter here.")) == (Status.MISSING, None)


@pytest.mark.parametrize("reply", [" (B).", "(B). ", "\n(b).\n", "  B.", "B.\t\t"])
def test_a_lone_letter_with_whitespace_around_is_the_strict_form(reply: str) -> None:
    verdict = extract_text(Track.SINGLE_CHOICE, reply, 4)
    assert (verdict.status, verdict.selection, verdict.strict_format) == (Status.VALID, B, True)
    assert single_choice_verdict(reply, 4) == verdict.without_spans()


@pytest.mark.parametrize(
    "reply",
    [
        "Answer is B; the answer is not clear" + "." * 300,
        "Answer is D, or rather Answer is B; the answer is not obvious" + "." * 300,
        "x" * 300 + "Answer is D, or rather Answer is B; the answer is not obvious" + "." * 300,
    ],
)
def test_the_last_answer_is_that_names_a_letter_wins_over_later_ones_that_do_not(
    reply: str,
) -> None:
    assert _named(reply) == (Status.VALID, B)


@pytest.mark.parametrize(
    "reply",
    ["Answer is B. No: ANSWER IS D.", "ANSWER IS (C), then Answer is **D**", "Answer is D"],
)
def test_the_last_of_several_answer_is_near_the_end_wins(reply: str) -> None:
    assert _named(reply) == (Status.VALID, D)
