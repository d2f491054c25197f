"""The visibility policy's every field, as the window reads it (issue 36, mutation
testing): who is at the desk, whether a plan is in force, whether they are one of its
reviewers, and how many questions the plan holds. The default audit file has five
questions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.review.visibility import Visibility

if TYPE_CHECKING:
    from ai4hse_desk.notes.store import NotesStore

ALL = frozenset({"Q001", "Q002", "Q003", "Q004", "Q005"})


def test_without_a_plan_the_viewer_is_known_and_nothing_is_limited(store: NotesStore) -> None:
    for viewer in ("bob", None):
        sight = ReviewBook(store).visibility(viewer)
        assert sight == Visibility(viewer, False, False, frozenset(), frozenset(), 0)
        assert sight.viewer == viewer  # the window names who is at the desk from it
        assert not sight.planned
        assert not sight.limited
        assert sight.visible(["Q002", "Q001"]) == ["Q002", "Q001"]
        assert sight.shows_item("Q001", "ann")


def test_a_person_who_is_not_one_of_the_plans_reviewers_sees_everything(
    store: NotesStore,
) -> None:
    book = ReviewBook(store)
    book.make_plan(reviewers=["ann", "bob"], per_question=1, questions=["Q001", "Q002"])
    dora = book.visibility("Dora")
    assert (dora.viewer, dora.reviewer, dora.limited) == ("Dora", False, False)
    assert (dora.blind, dora.opened) == (frozenset(), frozenset())
    assert all(dora.shows_others(qid) and dora.shows_key(qid) for qid in ALL)


def test_an_unknown_viewer_under_a_plan_is_told_a_plan_is_in_force(store: NotesStore) -> None:
    book = ReviewBook(store)
    book.make_plan(reviewers=["ann", "bob"], per_question=2, questions=["Q001", "Q003"])
    nobody = book.visibility(None)
    assert nobody == Visibility(None, True, True, frozenset({"Q001", "Q003"}), frozenset(), 2)
    assert nobody.planned
    assert nobody.planned_questions == 2  # for "the plan's 2 questions are hidden"
    assert nobody.limited


def test_a_reviewer_under_a_plan_sees_the_plan_and_its_size(store: NotesStore) -> None:
    book = ReviewBook(store)
    book.make_plan(reviewers=["ann", "bob"], per_question=2)
    book.save_verdict("Q002", "ann", verdict="key_ok", not_blind=True)
    book.record_blind("Q003", "ann", None)
    sight = book.visibility("ANN")
    assert sight == Visibility("ann", True, True, ALL - {"Q002", "Q003"}, frozenset({"Q002"}), 5)
