"""One person, one name (cli.md, "Reviewer identity"): which spellings are one person,
which names are refused, and how a person keeps the spelling the store first knew.

Names are compared after NFKC normalisation, case folding and removal of invisible
characters, white space runs counting as one space; a name holding a control, bidi,
zero-width, private-use, unassigned or separator character is refused outright.
"""

from __future__ import annotations

import pytest

from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.people import (
    MAX_REVIEWER,
    clean_reviewer,
    distinct_people,
    resolve_person,
    same_person,
)

CGJ = "\u034f"  # combining grapheme joiner: invisible, not a format character


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ann", "Ann"),
        ("ann", "ＡＮＮ"),  # full width
        ("ann", f"an{CGJ}n"),
        ("ann", f"ann {CGJ}"),  # an invisible character left after the last space
        ("Ann Lee", "ann   lee"),
        ("Ann Lee", "ann\u00a0\u3000LEE"),  # no-break and ideographic spaces
        ("bob", "\u212cob"),  # SCRIPT CAPITAL B: a compatibility letter, folded after NFKC
        ("ann", "\u1d2cnn"),  # MODIFIER LETTER CAPITAL A
        ("Zo\u0390", "ZO\u0399\u0308\u0301"),  # ΐ, and capital iota + diaeresis + acute
        ("stra\u00dfe", "STRASSE"),  # ß folds to ss
    ],
)
def test_spellings_of_one_person_are_one_name(first: str, second: str) -> None:
    assert same_person(first, second)
    assert same_person(second, first)
    assert resolve_person(second, ["cy", first]) == first
    with pytest.raises(ReviewError, match="are one person's name"):
        distinct_people([first, second])


@pytest.mark.parametrize(
    ("first", "second"),
    [("Ann Lee", "Annlee"), ("ann", "anne"), ("bo", "bö"), ("ann", "ann2"), ("ann", "a nn")],
)
def test_different_names_are_different_people(first: str, second: str) -> None:
    assert not same_person(first, second)
    assert resolve_person(second, [first]) == second
    assert distinct_people([first, second]) == [first, second]


def test_a_person_keeps_the_first_spelling_the_store_knew() -> None:
    assert resolve_person("  ANN ", ["bob", "Ann", "ann"]) == "Ann"
    assert resolve_person("cy", ["bob", "Ann"]) == "cy"
    assert resolve_person("  cy  ", []) == "cy"  # cleaned: trimmed
    with pytest.raises(ReviewError, match="a reviewer name is required"):
        resolve_person("   ", ["ann"])


def test_distinct_people_names_both_spellings_and_keeps_the_order() -> None:
    assert distinct_people([" cy", "ann ", "Bob"]) == ["cy", "ann", "Bob"]
    with pytest.raises(ReviewError) as refused:
        distinct_people(["ann", "bob", "ANN"])
    assert str(refused.value) == (
        "'ann' and 'ANN' are one person's name (names are compared without case, width or "
        "invisible characters); each reviewer may be named once"
    )
    with pytest.raises(ReviewError, match="U\\+200B"):
        distinct_people(["ann", "b\u200bob"])


@pytest.mark.parametrize(
    ("char", "code"),
    [
        ("\x07", "0007"),  # Cc (C0)
        ("\x85", "0085"),  # Cc (C1)
        ("\u200b", "200B"),  # Cf, zero-width space
        ("\u202e", "202E"),  # Cf, right-to-left override
        ("\ud800", "D800"),  # Cs, a lone surrogate
        ("\ue000", "E000"),  # Co, private use
        ("\u0378", "0378"),  # Cn, unassigned
        ("\u2028", "2028"),  # Zl, line separator
        ("\u2029", "2029"),  # Zp, paragraph separator
    ],
)
def test_a_name_with_a_character_it_cannot_show_is_refused(char: str, code: str) -> None:
    with pytest.raises(ReviewError) as refused:
        clean_reviewer(f"an{char}n")
    assert str(refused.value) == (
        f"not a usable reviewer name: it holds U+{code} (a control, bidi or zero-width character)"
    )


@pytest.mark.parametrize("name", ["ann", "Ann-Marie O'Neil", "Zoë", "李雷", f"an{CGJ}n", "a" * 200])
def test_usable_names_are_kept_as_written(name: str) -> None:
    assert clean_reviewer(name) == name
    assert clean_reviewer(f"  {name}\t") == name


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "^a reviewer name is required$"),
        (" \t ", "^a reviewer name is required$"),
        (None, "^a reviewer name is required$"),
        (42, "^a reviewer name is required$"),
        ("a" * (MAX_REVIEWER + 1), f"^a reviewer name is limited to {MAX_REVIEWER} characters$"),
        (CGJ, f"^not a usable reviewer name: '{CGJ}'$"),
        (f"{CGJ} {CGJ}", f"^not a usable reviewer name: '{CGJ} {CGJ}'$"),
        (CGJ * 41, f"^not a usable reviewer name: '{CGJ * 40}'$"),  # named by 40 characters
    ],
)
def test_names_that_are_no_name_are_refused(name: object, message: str) -> None:
    with pytest.raises(ReviewError, match=message):
        clean_reviewer(name)
