"""The final states read from a store take the plan in force into account (issue 36,
mutation testing): its K decides when agreeing reviewers confirm a key, and its
questions are under review before anyone answers; without a plan two agreeing
verdicts confirm it and an unanswered question is not reviewed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.review.final_state import read_final_states, state_of

if TYPE_CHECKING:
    from ai4hse_desk.notes.store import NotesStore


def _states(store: NotesStore) -> dict[str, str]:
    return {qid: s.state for qid, s in read_final_states(store).items()}


def test_without_a_plan_two_agreeing_verdicts_confirm_a_key(store: NotesStore) -> None:
    book = ReviewBook(store)
    book.save_verdict("Q001", "ann", verdict="key_ok", not_blind=True)
    assert _states(store) == {"Q001": "under_review"}
    book.save_verdict("Q001", "bob", verdict="key_ok", not_blind=True)
    assert _states(store) == {"Q001": "confirmed"}
    assert state_of(read_final_states(store), "Q002").state == "not_reviewed"


def test_under_a_plan_its_k_and_its_questions_decide(store: NotesStore) -> None:
    book = ReviewBook(store)
    book.make_plan(reviewers=["ann", "bob", "cy"], per_question=3, questions=["Q001", "Q002"])
    book.save_verdict("Q001", "ann", verdict="key_ok", not_blind=True)
    book.save_verdict("Q001", "bob", verdict="key_ok", not_blind=True)
    assert _states(store) == {"Q001": "under_review", "Q002": "under_review"}  # 2 of K = 3
    book.save_verdict("Q001", "cy", verdict="key_ok", not_blind=True)
    assert _states(store) == {"Q001": "confirmed", "Q002": "under_review"}
    book.make_plan(reviewers=["ann"], per_question=1, questions=["Q003"], replace=True)
    assert _states(store) == {"Q001": "confirmed", "Q003": "under_review"}
    book.save_verdict("Q003", "ann", verdict="key_ok", not_blind=True)
    assert _states(store) == {"Q001": "confirmed", "Q003": "confirmed"}  # K = 1
