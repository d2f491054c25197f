"""What the attempt list runs when blind questions must not leak their correctness.

:func:`listed_query` leaves the blind questions out of a listing filtered, searched or
sorted by something that tells which attempts are correct, and of no other.
"""

from __future__ import annotations

import pytest

from ai4hse_desk.gui.models.attempt_listing import listed_query, reveals_correctness
from ai4hse_desk.index import AttemptQuery

BLIND = frozenset({"Q003", "Q001"})


@pytest.mark.parametrize(
    ("query", "sort"),
    [
        (AttemptQuery(correct=True), "attempt_id"),
        (AttemptQuery(correct=False, run_ids=("r1",)), "ordinal"),
        (AttemptQuery(disagreements_only=True), "attempt_id"),
        (AttemptQuery(text="A, C"), "attempt_id"),  # the responses spell the selections
        (AttemptQuery(text="Q001", correct=True), "attempt_id"),
        (AttemptQuery(), "correct"),
        (AttemptQuery(), "strict"),
        (AttemptQuery(), "disagrees"),
    ],
)
def test_a_listing_by_correctness_leaves_the_blind_questions_out(
    query: AttemptQuery, sort: str
) -> None:
    listed = listed_query(query, sort, BLIND)
    assert listed.excluded_question_ids == ("Q001", "Q003")
    assert listed_query(listed, sort, BLIND) == listed  # idempotent
    assert listed_query(query, sort, frozenset()) == query  # nothing blind: as asked


@pytest.mark.parametrize(
    ("query", "sort"),
    [
        (AttemptQuery(), "attempt_id"),
        (AttemptQuery(statuses=("valid",), models=("m",)), "status"),  # status, not correctness
        (AttemptQuery(text="PPE", text_scope=("questions", "options")), "model"),
        (AttemptQuery(text=" q001 "), "attempt_id"),  # a blind question's own id
    ],
)
def test_any_other_listing_keeps_them(query: AttemptQuery, sort: str) -> None:
    assert listed_query(query, sort, BLIND) == query


def test_a_listing_asked_again_without_blind_questions_lists_them_again() -> None:
    listed = listed_query(AttemptQuery(correct=True), "attempt_id", BLIND)
    assert listed_query(listed, "attempt_id", frozenset()).excluded_question_ids is None
    assert reveals_correctness(AttemptQuery(text="Q001"), "ordinal")
    assert not reveals_correctness(AttemptQuery(text="Q001"), "ordinal", id_search=True)
