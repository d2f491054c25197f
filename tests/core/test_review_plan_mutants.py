"""A review plan, worked by hand (issue 36, mutation testing): question ``i`` of the
plan's order goes to the reviewers at positions ``i·K … i·K + K − 1`` of the reviewer
list taken round, named in name order; the orders, the seed a plan records, and the
refusals as the coordinator reads them."""

from __future__ import annotations

import random

import pytest

from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.review.plan import ORDERS, plan_review

QUESTIONS = ("Q1", "Q2", "Q3", "Q4", "Q5")


def test_each_question_goes_to_the_next_k_reviewers_taken_round() -> None:
    plan = plan_review(QUESTIONS[:4], ["cy", "ann", "bob"], 2)
    assert plan.assignments == {
        "Q1": ("ann", "cy"),  # positions 0, 1: cy, ann
        "Q2": ("bob", "cy"),  # 2, 3 = 0: bob, cy
        "Q3": ("ann", "bob"),  # 4 = 1, 5 = 2: ann, bob
        "Q4": ("ann", "cy"),  # 6 = 0, 7 = 1: cy, ann
    }
    assert plan.counts() == {"cy": 3, "ann": 3, "bob": 2}
    assert plan.queue("ann") == ["Q1", "Q3", "Q4"]
    assert plan.queue("bob") == ["Q2", "Q3"]
    assert plan.queue("dora") == []
    assert (plan.per_question, plan.order, plan.seed) == (2, "corpus", None)
    assert plan.reviewers == ("cy", "ann", "bob")
    assert plan.questions == QUESTIONS[:4]


def test_k_equal_to_the_reviewers_gives_everyone_everything() -> None:
    plan = plan_review(QUESTIONS[:3], ["bob", "ann"], 2)
    assert set(plan.assignments.values()) == {("ann", "bob")}
    assert plan.counts() == {"bob": 3, "ann": 3}


def test_a_question_named_twice_is_planned_once() -> None:
    plan = plan_review(["Q2", "Q1", "Q2"], ["ann", "bob"], 1)
    assert plan.questions == ("Q2", "Q1")
    assert plan.assignments == {"Q2": ("ann",), "Q1": ("bob",)}


def test_a_random_order_is_the_seeds_shuffle_and_records_it() -> None:
    expected = list(QUESTIONS)
    random.Random(11).shuffle(expected)
    plan = plan_review(QUESTIONS, ["ann", "bob"], 1, order="random", seed=11)
    assert plan.questions == tuple(expected)
    assert (plan.order, plan.seed) == ("random", 11)
    unseeded = plan_review(QUESTIONS, ["ann", "bob"], 1, order="random")
    assert unseeded.seed == 0
    assert unseeded == plan_review(QUESTIONS, ["ann", "bob"], 1, order="random", seed=0)
    zero = list(QUESTIONS)
    random.Random(0).shuffle(zero)
    assert unseeded.questions == tuple(zero)


def test_only_a_random_order_keeps_a_seed() -> None:
    for order in ("corpus", "keyaudit"):
        plan = plan_review(QUESTIONS, ["ann", "bob"], 1, order=order, seed=5, ranking=["Q5"])
        assert plan.seed is None
    assert plan_review(QUESTIONS, ["ann"], 1, seed=5).questions == QUESTIONS


def test_the_key_audit_order_puts_the_most_suspect_first_and_the_unranked_last() -> None:
    plan = plan_review(QUESTIONS, ["ann", "bob"], 1, order="keyaudit", ranking=["Q4", "Q2", "Q9"])
    assert plan.questions == ("Q4", "Q2", "Q1", "Q3", "Q5")
    unranked = plan_review(QUESTIONS, ["ann"], 1, order="keyaudit")
    assert unranked.questions == QUESTIONS


@pytest.mark.parametrize(
    ("questions", "reviewers", "k", "order", "message"),
    [
        (
            QUESTIONS,
            ["ann"],
            1,
            "alphabet",
            f"unknown plan order 'alphabet' (one of {', '.join(ORDERS)})",
        ),
        ((), ["ann"], 1, "corpus", "a plan needs at least one question"),
        (
            QUESTIONS,
            ["ann", "bob", "ann"],
            1,
            "corpus",
            "each reviewer may be named once in a plan",
        ),
        (
            QUESTIONS,
            ["ann", "bob"],
            3,
            "corpus",
            "--per-question 3 needs at least that many reviewers (2 given)",
        ),
        (
            QUESTIONS,
            ["ann", "bob"],
            0,
            "corpus",
            "--per-question 0 needs at least that many reviewers (2 given)",
        ),
        (
            QUESTIONS,
            [],
            1,
            "corpus",
            "--per-question 1 needs at least that many reviewers (0 given)",
        ),
    ],
)
def test_a_plan_that_cannot_be_made_is_refused_with_why(
    questions: tuple[str, ...], reviewers: list[str], k: int, order: str, message: str
) -> None:
    with pytest.raises(ReviewError) as refused:
        plan_review(questions, reviewers, k, order=order)
    assert str(refused.value) == message
