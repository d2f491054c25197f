"""Extraction rules of protocol.md sections 2-4, one rule per test (issue 36).

Items 8 and 9 of the issue (the reasoning-assisted rule of section 4) first: every
text is read through each door the desk has to the rule (``extract_text``, the
recorded-attempt ``derive`` and the rescore's ``verdict_rule``), and all three must
give the verdict the protocol demands. Then the shared definitions of section 2, the
outcome of an attempt and the answer-only rule, where the mutation test found rules no
test held (sections 5 and 5b: ``_json`` and ``_choice`` beside this file).
"""

from __future__ import annotations

import pytest

from ai4hse_desk.protocol import Extraction, Status, Track, derive, extract_text
from ai4hse_desk.protocol.extract import verdict_rule
from ai4hse_desk.protocol.lists import (
    answer_lists,
    bracketed_spans,
    is_answer_list,
    last_answer_list,
)

T, F = True, False
TRACK = Track.REASONING_ASSISTED


def verdicts(text: str, n: int) -> list[Extraction]:
    return [
        extract_text(TRACK, text, n),
        derive(TRACK, text, n),
        verdict_rule(TRACK)(text, n, 10),
    ]


# --- item 8: the FINAL_ANSWER: line must be the last non-blank line ---------------------


@pytest.mark.parametrize(
    "text",
    [
        "FINAL_ANSWER: [TRUE]\nabcdefghijklmnoTRUE]",
        "x\nFINAL_ANSWER: [TRUE,\nFALSE]",
        "FINAL_ANSWER: [TRUE,\nFALSE]",
        "Reasoning.\nMore reasoning.\nFINAL_ANSWER: [TRUE,\n  FALSE]\n",
        "x\nFINAL_ANSWER: [TRUE, FALSE]\nThat is all.",
    ],
)
def test_a_list_continued_on_a_later_line_is_non_final(text: str) -> None:
    for verdict in verdicts(text, text.count(",") + 1):
        assert verdict.status is Status.NON_FINAL
        assert verdict.selection is None
        assert verdict.strict_format is False


def test_a_strict_final_line_after_reasoning_is_valid_and_strict() -> None:
    text = "x\ny\nFINAL_ANSWER: [TRUE, FALSE]\n\n"
    for verdict in verdicts(text, 2):
        assert (verdict.status, verdict.selection, verdict.strict_format) == (
            Status.VALID,
            (T, F),
            T,
        )


# --- item 9: before the field only whitespace and emphasis marks --------------------------


@pytest.mark.parametrize(
    ("text", "selection"),
    [
        ("a\nb\nFINAL_ANSWER: TRUE, FALSE", (T, F)),
        ("a\nb\nFINAL_ANSWER: [true, FALSE]", (T, F)),
        ("a\nb\nc\n**FINAL_ANSWER:** [TRUE, FALSE]", (T, F)),
        ("a\nb\n> `FINAL_ANSWER:` [FALSE, TRUE]", (F, T)),
        ("a\nb\n  ## _FINAL_ANSWER:_ FALSE, FALSE", (F, F)),
    ],
)
def test_marks_before_the_field_keep_a_final_line_valid_but_not_strict(
    text: str, selection: tuple[bool, ...]
) -> None:
    for verdict in verdicts(text, 2):
        assert verdict.status is Status.VALID
        assert verdict.selection == selection
        assert verdict.strict_format is False


@pytest.mark.parametrize(
    "text",
    [
        "a\nb\nSo FINAL_ANSWER: [TRUE, FALSE]",
        "a\nb\n1. FINAL_ANSWER: TRUE, FALSE",
        "a\nb\n**Answer** FINAL_ANSWER: [TRUE, FALSE]",
    ],
)
def test_text_before_the_field_on_its_line_is_malformed(text: str) -> None:
    for verdict in verdicts(text, 2):
        assert verdict.status is Status.MALFORMED
        assert verdict.selection is None
        assert verdict.strict_format is False


def test_text_on_earlier_lines_never_makes_the_final_line_malformed() -> None:
    # Words (not marks) on every line above the field's line: only that line counts.
    text = "Step one: option 1.\nStep two: so not option 2.\nFINAL_ANSWER: TRUE, FALSE"
    for verdict in verdicts(text, 2):
        assert (verdict.status, verdict.selection) == (Status.VALID, (T, F))


# --- section 2: bracketed spans and answer lists ---------------------------------------


@pytest.mark.parametrize(
    "span",
    ["[TRUE]", "[x,TRUE]", "[ true , maybe ]", "[FALSE,]", "[1, 2, False]"],
)
def test_a_span_with_one_token_item_is_an_answer_list(span: str) -> None:
    assert is_answer_list(span)


@pytest.mark.parametrize(
    "span",
    [
        "[]",
        "[TRUE FALSE]",
        '["TRUE"]',
        "[[x, TRUE]",  # a "[" inside: not one innermost span
        "[TRUE, x[]",
        "[], TRUE]",  # a "]" inside
        "[TRUE, x]]",
        "TRUE]",
        "[TRUE",
    ],
)
def test_what_is_not_one_bracketed_span_with_a_token_is_no_answer_list(span: str) -> None:
    assert not is_answer_list(span)


def test_spans_and_answer_lists_are_found_from_the_first_character() -> None:
    text = "[TRUE] then [A, C] then [false, x]"
    assert bracketed_spans(text) == [(0, 6), (12, 18), (24, 34)]
    assert answer_lists(text) == [(0, 6), (24, 34)]
    assert last_answer_list(text) == (24, 34)
    assert last_answer_list("[A] and [1, 2]") is None


def test_spans_and_answer_lists_are_looked_for_inside_the_given_range_only() -> None:
    text = "[TRUE] then [A, C] then [false, x]"
    assert bracketed_spans(text, 1, 20) == [(12, 18)]
    assert bracketed_spans(text, 0, 30) == [(0, 6), (12, 18)]
    assert answer_lists(text, 0, 30) == [(0, 6)]
    assert answer_lists(text, 7) == [(24, 34)]


# --- section 2: the outcome of an attempt -------------------------------------------------


def test_an_attempt_is_correct_only_when_valid_and_equal_to_the_key_everywhere() -> None:
    key = (T, F, T)
    assert extract_text(Track.ANSWER_ONLY, "[TRUE, FALSE, TRUE]", 3).is_correct(key)
    assert not extract_text(Track.ANSWER_ONLY, "[TRUE, FALSE, FALSE]", 3).is_correct(key)
    assert not extract_text(Track.ANSWER_ONLY, "[TRUE, FALSE]", 3).is_correct(key)
    cut_off = derive(Track.ANSWER_ONLY, "[TRUE, FALSE, TRUE]", 3, finish_reason="length")
    assert cut_off.status is Status.INCOMPLETE
    assert cut_off.selection == key  # shown, but counted incorrect
    assert not cut_off.is_correct(key)


# --- section 4: the reason of a valid final line says whether it is strict ----------------


@pytest.mark.parametrize(
    ("lines_above", "after"),
    [("", ""), ("Reasoning.\n", ""), ("a\nb\n", "\n"), ("  a\n", " \n\n"), ("a\n   ", "\t")],
)
def test_the_reason_of_a_strict_final_line_says_it_is_strict(lines_above: str, after: str) -> None:
    strict = f"{lines_above}FINAL_ANSWER: [TRUE, FALSE]{after}"
    loose = f"{lines_above}FINAL_ANSWER: [true, FALSE]{after}"
    for verdict in verdicts(strict, 2):
        assert verdict.strict_format
        assert "strict" in verdict.reason
    assert _shown(strict, extract_text(TRACK, strict, 2)) == ["FINAL_ANSWER:", "[TRUE, FALSE]"]
    for verdict in verdicts(loose, 2):
        assert (verdict.status, verdict.strict_format) == (Status.VALID, False)
        assert "strict" not in verdict.reason


# --- section 2: the attempt's state and response, and the arguments every caller gives ----


@pytest.mark.parametrize("track", list(Track))
def test_an_answered_attempt_without_a_response_reads_as_an_empty_one(track: Track) -> None:
    assert derive(track, None, 2) == derive(track, "", 2) == extract_text(track, "", 2)


def test_a_question_without_options_is_refused_naming_its_count() -> None:
    for call in (derive, extract_text):
        with pytest.raises(ValueError, match="n=0"):
            call(Track.ANSWER_ONLY, "[TRUE]", 0)


def test_a_track_that_is_not_a_name_is_refused_as_unknown() -> None:
    for track in (["answer_only"], None, 3):
        with pytest.raises(ValueError, match="unknown track"):
            derive(track, "[TRUE]", 1)  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="unknown track"):
            extract_text(track, "[TRUE]", 1)  # type: ignore[arg-type]


def test_the_recorded_protocol_version_decides_for_long_responses_too() -> None:
    # Before v10 the trimmed response must be exactly one list (desk rule), however long.
    prose = "Option 1 is required by the regulation and option 2 is not. " * 3
    response = prose + "[TRUE, FALSE]"
    assert len(response) > 100
    for version, status in ((9, Status.MALFORMED), (10, Status.VALID)):
        assert derive(Track.ANSWER_ONLY, response, 2, protocol_version=version).status is status
        assert extract_text(Track.ANSWER_ONLY, response, 2, protocol_version=version).status is (
            status
        )


@pytest.mark.parametrize(
    ("item", "shown"),
    [("m" * 30, "m" * 30), ("abcdefghijklmnopqrstuvwxyz01234", "abcdefghijklmnopqrstuvwxyz012…")],
)
def test_an_item_that_is_no_token_is_quoted_up_to_30_characters(item: str, shown: str) -> None:
    verdict = extract_text(Track.ANSWER_ONLY, f"[TRUE, {item}]", 2)
    assert verdict.status is Status.MALFORMED
    assert verdict.reason == f"item 2 '{shown}' of the last answer list is not TRUE/FALSE"


# --- where a verdict points (the spans the window highlights) and why ----------------------


def _shown(text: str, verdict: Extraction) -> list[str]:
    return [text[a:b] for a, b in verdict.spans]


def test_a_list_with_only_whitespace_around_it_is_strict() -> None:
    for text in (" [TRUE, FALSE]", "\n[TRUE, FALSE]\n", "\t [TRUE, FALSE]"):
        verdict = extract_text(Track.ANSWER_ONLY, text, 2)
        assert (verdict.status, verdict.strict_format) == (Status.VALID, True)
    assert not extract_text(Track.ANSWER_ONLY, "x [TRUE, FALSE]", 2).strict_format


@pytest.mark.parametrize(
    ("text", "where", "comma_at"),
    [
        ("[TRUE,]", "item 2 of the last answer list is empty (trailing comma)", 5),
        ("[ ,TRUE]", "item 1 of the last answer list is empty (leading comma)", 2),
        ("[TRUE,,FALSE]", "item 2 of the last answer list is empty (two commas in a row)", 5),
        ("[TRUE, ,FALSE]", "item 2 of the last answer list is empty (two commas in a row)", 5),
    ],
)
def test_an_empty_item_is_told_and_points_at_a_comma_beside_it(
    text: str, where: str, comma_at: int
) -> None:
    verdict = extract_text(Track.ANSWER_ONLY, text, 2)
    assert (verdict.status, verdict.reason) == (Status.MALFORMED, where)
    assert verdict.spans[-1] == (comma_at, comma_at + 1)
    assert text[comma_at] == ","


def test_text_after_the_final_list_is_told_and_shown() -> None:
    text = "FINAL_ANSWER: [TRUE, FALSE] because **"
    for verdict in verdicts(text, 2):
        assert verdict.status is Status.MALFORMED
        assert verdict.reason == "text follows the bracketed list after FINAL_ANSWER:"
    assert _shown(text, extract_text(TRACK, text, 2)) == [
        "FINAL_ANSWER:",
        "[TRUE, FALSE]",
        "because",
    ]


@pytest.mark.parametrize(
    ("text", "after"),
    [
        ("FINAL_ANSWER: TRUE, FALSE]", "TRUE, FALSE]"),
        ("FINAL_ANSWER: so [TRUE, FALSE] **", "so [TRUE, FALSE]"),
        ("FINAL_ANSWER: [TRUE, [FALSE]", "[TRUE, [FALSE]"),
    ],
)
def test_a_final_line_that_is_not_one_bracketed_list_is_told_and_shown(
    text: str, after: str
) -> None:
    for verdict in verdicts(text, 2):
        assert verdict.status is Status.MALFORMED
        assert verdict.reason == "what follows FINAL_ANSWER: is not one bracketed list"
    assert _shown(text, extract_text(TRACK, text, 2)) == ["FINAL_ANSWER:", after]


@pytest.mark.parametrize(("n", "options"), [(1, "1 option"), (3, "3 options")])
def test_an_empty_final_list_is_a_wrong_length_naming_the_options(n: int, options: str) -> None:
    for verdict in verdicts("FINAL_ANSWER: []", n):
        assert (verdict.status, verdict.reason) == (
            Status.WRONG_LENGTH,
            f"final answer list is empty; the question has {options}",
        )


# --- section 3: the answer-only rule ------------------------------------------------------


@pytest.mark.parametrize("text", ["[TRUE, FALSE]", "[FALSE,TRUE]", "[TRUE,  FALSE]"])
def test_a_response_that_is_exactly_one_strict_list_is_told_so(text: str) -> None:
    verdict = derive(Track.ANSWER_ONLY, text, 2)
    assert (verdict.status, verdict.strict_format, verdict.spans) == (
        Status.VALID,
        True,
        ((0, len(text)),),
    )
    assert verdict.reason == "the response is exactly one answer list of strict TRUE/FALSE tokens"


@pytest.mark.parametrize("text", ["xTRUE, FALSE]", "[TRUE, FALSEx", "TRUE, FALSE]", "[TRUE, FALSE"])
def test_an_unclosed_or_unopened_list_is_no_answer_list(text: str) -> None:
    for version in (9, 10):
        verdict = derive(Track.ANSWER_ONLY, text, 2, protocol_version=version)
        assert (verdict.status, verdict.selection) == (Status.MISSING, None)


@pytest.mark.parametrize(
    ("text", "later"),
    [
        ("FINAL_ANSWER: [TRUE]\nmore text  \nand more\n", "more text"),
        ("x\nFINAL_ANSWER: [TRUE]\n\n  then this\n\nand that", "then this"),
        ("FINAL_ANSWER: [TRUE]\n\tlast words", "last words"),
    ],
)
def test_a_non_final_field_points_at_the_first_non_blank_line_after_it(
    text: str, later: str
) -> None:
    verdict = extract_text(TRACK, text, 1)
    assert (verdict.status, verdict.reason) == (
        Status.NON_FINAL,
        "the FINAL_ANSWER: line is not the last non-blank line",
    )
    assert _shown(text, verdict) == ["FINAL_ANSWER:", later]
