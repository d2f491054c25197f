"""The review's values as a reviewer types them (issue 36, mutation testing): the plan
seed every store holds, the choices of a closed list, a source's length, and the one
error line that names what was wrong (cut, never flooded, by a long input)."""

from __future__ import annotations

import pytest

from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.review.values import (
    CONFIDENCES,
    MAX_SOURCE,
    SEED_RANGE,
    VERDICTS,
    check_seed,
    choice,
    clean_source,
    parse_list,
)


@pytest.mark.parametrize("seed", [None, 0, -1, 7, -(2**31), 2**31 - 1])
def test_a_seed_every_store_holds_is_kept(seed: int | None) -> None:
    assert check_seed(seed) == seed
    assert SEED_RANGE == (-(2**31), 2**31 - 1)


@pytest.mark.parametrize("seed", [True, False, 2**31, -(2**31) - 1, 1.0, "3"])
def test_any_other_seed_is_refused_with_the_range(seed: object) -> None:
    with pytest.raises(ReviewError) as refused:
        check_seed(seed)
    assert str(refused.value) == (
        f"--seed must be a whole number from -2147483648 to 2147483647, not {seed!r}"
    )


def test_a_choice_outside_the_list_names_it_and_the_list() -> None:
    assert choice(None, CONFIDENCES, "confidence") is None
    assert choice("high", CONFIDENCES, "confidence") == "high"
    with pytest.raises(ReviewError) as refused:
        choice("certain", CONFIDENCES, "confidence")
    assert str(refused.value) == "unknown confidence 'certain' (one of low, medium, high)"
    long = "k" * 39 + "EY_NEVER_SHOWN"
    with pytest.raises(ReviewError) as refused:
        choice(long, VERDICTS, "verdict")
    assert str(refused.value) == (
        f"unknown verdict {'k' * 39 + 'E'!r} (one of {', '.join(VERDICTS)})"
    )


def test_a_bad_list_is_named_by_its_first_forty_characters() -> None:
    text = "T" * 40 + "-BEYOND"
    with pytest.raises(ReviewError) as refused:
        parse_list(text, unsure=True, what="the blind answer")
    assert str(refused.value) == (
        f"the blind answer must be a list like [TRUE, FALSE, ...], not {'T' * 40!r}"
    )


def test_a_bad_item_is_named_by_its_first_twenty_characters() -> None:
    item = "x" * 20 + "-BEYOND"
    with pytest.raises(ReviewError) as refused:
        parse_list(f"[TRUE, {item}]", unsure=False, what="the proposed key")
    assert str(refused.value) == (f"the proposed key: item 2 is {'X' * 20!r} (one of TRUE, FALSE)")


def test_a_source_is_kept_up_to_its_limit_and_may_be_empty() -> None:
    assert clean_source("") == ""
    assert clean_source("EN 166, clause 7") == "EN 166, clause 7"
    assert clean_source("s" * MAX_SOURCE) == "s" * MAX_SOURCE
    with pytest.raises(ReviewError) as refused:
        clean_source("s" * (MAX_SOURCE + 1))
    assert str(refused.value) == (
        f"a source is limited to {MAX_SOURCE} characters, this one has {MAX_SOURCE + 1}"
    )
