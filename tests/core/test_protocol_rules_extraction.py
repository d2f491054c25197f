"""Reasoning-assisted rule of protocol.md section 4, one rule per test (issue 36, items 8, 9).

Every text is read through each door the desk has to the rule (``extract_text``, the
recorded-attempt ``derive`` and the rescore's ``verdict_rule``): all three must give
the verdict the protocol demands.
"""

from __future__ import annotations

import pytest

from ai4hse_desk.protocol import Extraction, Status, Track, derive, extract_text
from ai4hse_desk.protocol.extract import verdict_rule

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
        "x\nFINAL_ANSWER: [TRUE,\nFALSE]",
        "FINAL_ANSWER: [TRUE,\nFALSE]",
        "Reasoning.\nMore reasoning.\nFINAL_ANSWER: [TRUE,\n  FALSE]\n",
        "x\nFINAL_ANSWER: [TRUE, FALSE]\nThat is all.",
    ],
)
def test_a_list_continued_on_a_later_line_is_non_final(text: str) -> None:
    for verdict in verdicts(text, 2):
        assert verdict.status is Status.NON_FINAL
        assert verdict.selection is None
        assert verdict.strict_format is False


def test_a_strict_final_line_after_reasoning_is_valid_and_strict() -> None:
    text = "x\ny\nFINAL_ANSWER: [TRUE, FALSE]\n\n"
    for verdict in verdicts(text, 2):
        assert (verdict.status, verdict.selection, verdict.strict_format) == (Status.VALID, (T, F), T)


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
