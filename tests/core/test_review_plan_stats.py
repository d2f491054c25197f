"""Review plans (balanced, K distinct reviewers) and agreement over reviewed questions."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score

from ai4hse_desk.notes import ReviewError
from ai4hse_desk.review.agreement import Rated, review_agreement
from ai4hse_desk.review.plan import plan_review
from ai4hse_desk.review.values import check_answer, parse_list

if TYPE_CHECKING:
    from collections.abc import Sequence


QUESTIONS = [f"Q{n:03d}" for n in range(1, 101)]


@given(
    questions=st.integers(1, 60),
    reviewers=st.integers(1, 7),
    data=st.data(),
)
def test_every_question_gets_k_distinct_reviewers_balanced(
    questions: int, reviewers: int, data: st.DataObject
) -> None:
    k = data.draw(st.integers(1, reviewers))
    names = [f"r{n}" for n in range(reviewers)]
    plan = plan_review(QUESTIONS[:questions], names, k, order="random", seed=3)
    assert sorted(plan.assignments) == sorted(QUESTIONS[:questions])
    for who in plan.assignments.values():
        assert len(who) == k
        assert len(set(who)) == k
    counts = plan.counts().values()
    assert max(counts) - min(counts) <= 1
    assert sum(counts) == questions * k


def test_orders_and_seeds() -> None:
    names = ["ann", "bo", "cy"]
    corpus = plan_review(QUESTIONS[:9], names, 2)
    assert corpus.questions == tuple(QUESTIONS[:9])
    assert corpus.seed is None
    again = plan_review(QUESTIONS[:9], names, 2, order="random", seed=7)
    assert again == plan_review(QUESTIONS[:9], names, 2, order="random", seed=7)
    assert again.questions != plan_review(QUESTIONS[:9], names, 2, order="random", seed=8).questions
    ranked = plan_review(QUESTIONS[:4], names, 1, order="keyaudit", ranking=["Q003", "Q001"])
    assert ranked.questions == ("Q003", "Q001", "Q002", "Q004")
    assert corpus.queue("ann") == [q for q in corpus.questions if "ann" in corpus.assignments[q]]


@pytest.mark.parametrize(
    ("reviewers", "k", "message"),
    [(["ann"], 2, "needs at least that many reviewers"), (["a", "a"], 1, "named once"),
     (["ann", "bo"], 0, "needs at least")],
)  # fmt: skip
def test_bad_plans_are_refused(reviewers: list[str], k: int, message: str) -> None:
    with pytest.raises(ReviewError, match=message):
        plan_review(QUESTIONS[:3], reviewers, k)


def test_lists_are_read_in_any_case_and_checked_against_the_options() -> None:
    assert parse_list("[true, FALSE, Unsure]", unsure=True, what="x") == ("TRUE", "FALSE", "UNSURE")
    with pytest.raises(ReviewError, match="item 3 is 'UNSURE'"):
        parse_list("[TRUE, FALSE, UNSURE]", unsure=False, what="the key")
    with pytest.raises(ReviewError, match="has 2 values, but the question has 4 options"):
        check_answer("[TRUE, FALSE]", 4, unsure=True, what="the blind answer")
    with pytest.raises(ReviewError, match="must be a list"):
        check_answer("TRUE, FALSE", 2, unsure=True, what="the blind answer")


KEYS = {f"Q{n}": (True, False, False, True) for n in range(1, 7)}


def _rated(rows: Sequence[tuple[str, str, str, str | None]]) -> list[Rated]:
    return [
        Rated(q, r, v, None if b is None else tuple(parse_list(b, unsure=True, what="b")))
        for q, r, v, b in rows
    ]


def test_concern_kappa_equals_scikit_learn_on_two_reviewers() -> None:
    ann = ["key_ok", "key_wrong", "key_ok", "other", "key_ok", "key_ok"]
    bo = ["key_ok", "key_wrong", "unclear_question", "key_ok", "key_ok", "key_ok"]
    rows = [(f"Q{n + 1}", "ann", v, None) for n, v in enumerate(ann)]
    rows += [(f"Q{n + 1}", "bo", v, None) for n, v in enumerate(bo)]
    found = review_agreement(_rated(rows), KEYS)
    concern = found["concern"]
    assert isinstance(concern, dict)
    assert concern["statistic"] == "cohen_kappa"
    expected = cohen_kappa_score([v != "key_ok" for v in ann], [v != "key_ok" for v in bo])
    assert concern["value"] == round(expected, 4)
    assert concern["units"] == 6
    assert concern["reviewers"] == 2
    category = found["category"]
    assert isinstance(category, dict)
    assert category["value"] == round(cohen_kappa_score(ann, bo), 4)


def test_two_experts_who_both_passed_a_question_count() -> None:
    """Units are reviewed questions, not flagged ones: agreeing key_ok counts."""
    rows = [("Q1", "ann", "key_ok", None), ("Q1", "bo", "key_ok", None),
            ("Q2", "ann", "key_wrong", None), ("Q2", "bo", "key_wrong", None),
            ("Q3", "ann", "key_ok", None)]  # fmt: skip
    concern = review_agreement(_rated(rows), KEYS)["concern"]
    assert isinstance(concern, dict)
    assert concern["units"] == 2
    assert concern["value"] == 1.0


def test_blind_answers_against_the_key_by_hand() -> None:
    rows = [
        ("Q1", "ann", "key_ok", "[TRUE, FALSE, FALSE, TRUE]"),  # 4 of 4, whole match
        ("Q1", "bo", "key_ok", "[TRUE, FALSE, UNSURE, TRUE]"),  # 3 of 3, not whole (UNSURE)
        ("Q2", "ann", "key_wrong", "[FALSE, FALSE, FALSE, TRUE]"),  # 3 of 4, no
        ("Q2", "bo", "key_ok", None),  # not blind: left out
    ]
    found = review_agreement(_rated(rows), KEYS)["blind_vs_key"]
    assert isinstance(found, dict)
    options, questions = found["options"], found["questions"]
    assert isinstance(options, dict)
    assert isinstance(questions, dict)
    assert (options["agree"], options["of"], options["share"]) == (10, 11, round(10 / 11, 4))
    assert (questions["agree"], questions["of"]) == (1, 2)
    assert options["wilson_low"] == 0.6226
    assert options["wilson_high"] == 0.9838


def test_blind_options_alpha_by_hand() -> None:
    # Two reviewers, one question, four options: ratings T/T, F/F, F/T, T/T.
    rows = [("Q1", "ann", "key_ok", "[TRUE, FALSE, FALSE, TRUE]"),
            ("Q1", "bo", "key_ok", "[TRUE, FALSE, TRUE, TRUE]")]  # fmt: skip
    blind = review_agreement(_rated(rows), KEYS)["blind_options"]
    assert isinstance(blind, dict)
    # Coincidences (each unit has m = 2, so each ordered pair counts 1): o_TT = 4,
    # o_FF = 2, o_TF = o_FT = 1; n_T = 5, n_F = 3, n = 8; D_o = 2/8; D_e = 2·5·3/(8·7).
    assert blind["value"] == round(1 - (2 / 8) / (30 / 56), 4)
    assert blind["units"] == 4


def test_no_reviewed_unit_is_undefined_not_zero() -> None:
    found = review_agreement(_rated([("Q1", "ann", "key_ok", None)]), KEYS)
    concern = found["concern"]
    assert isinstance(concern, dict)
    assert concern["value"] is None
    assert concern["undefined_reason"]
