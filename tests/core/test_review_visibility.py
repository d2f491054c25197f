"""The one visibility policy (issue 31): what the person at the desk may see of each question.

Read from a real store (SQLite, and PostgreSQL under ``make test``) with
:meth:`ReviewBook.visibility`, as the window reads it with every read of its
notes: blind until the reviewer recorded something on a question of their queue,
others' notes sealed until the reviewer's own verdict is submitted, everything for
anyone who is not one of the plan's reviewers, every planned question blind while
the desk does not know who is at it. Leaving blind mode is a record the store keeps,
and an export given the policy holds only what it shows.

The default audit file has five questions in the order Q001, Q002, Q003, Q005, Q004.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.review.exports import export_notes
from ai4hse_desk.review.records import BLIND, NOT_BLIND
from ai4hse_desk.review.visibility import Visibility, read_visibility

if TYPE_CHECKING:
    from pathlib import Path

    from ai4hse_desk.audit import AuditDB

ALL = frozenset({"Q001", "Q002", "Q003", "Q004", "Q005"})
T, F = "TRUE", "FALSE"
ANN_NOTE = "ann thinks the key of Q001 is wrong"


def test_without_a_plan_nothing_is_hidden(store: NotesStore) -> None:
    store.add_flag(question_id="Q001", category="key_incorrect", note=ANN_NOTE, reviewer="ann")
    sight = ReviewBook(store).visibility("bob")
    assert sight == Visibility.everything("bob")
    assert not sight.limited
    assert sight.shows_key("Q001")
    assert sight.shows_others("Q001")
    assert sight.shows_item("Q001", "ann")


def test_a_reviewer_is_blind_until_they_answer_and_sealed_until_they_submit(
    audit: AuditDB, store_url: str
) -> None:
    with NotesStore.open(audit, store_url) as store:
        book = ReviewBook(store)
        book.make_plan(reviewers=["ann", "bob"], per_question=2)
        book.save_verdict("Q001", "ann", verdict="key_wrong", blind_answer=[T, T, T, T],
                          proposed_key=[T, F, F, F], note=ANN_NOTE)  # fmt: skip
        sight = book.visibility("bob")
        assert (sight.viewer, sight.planned, sight.reviewer, sight.limited) == (
            "bob", True, True, True,
        )  # fmt: skip
        assert sight.blind == ALL
        assert sight.planned_questions == 5
        assert not sight.shows_key("Q001")
        assert not sight.shows_others("Q001")
        assert not sight.shows_item("Q001", "ann")
        assert not sight.shows_item("Q001", "bob")  # not even one's own, while blind
        assert sight.visible(["Q001", "Q002"]) == []

        book.record_blind("Q001", "bob", [T, F, T, F])
        sight = book.visibility("bob")
        assert sight.blind == ALL - {"Q001"}
        assert sight.shows_key("Q001")
        assert not sight.shows_others("Q001")  # a draft: ann's verdict stays sealed
        assert sight.shows_item("Q001", "bob")
        assert sight.shows_item("Q001", "BOB")  # one person, one name
        assert not sight.shows_item("Q001", "ann")

        book.save_verdict("Q001", "bob", verdict="key_ok", note="fine")
        sight = book.visibility("bob")
        assert sight.opened == frozenset({"Q001"})
        assert sight.shows_others("Q001")
        assert sight.shows_item("Q001", "ann")
        assert sight.visible(["Q001", "Q002"]) == ["Q001"]
        # Ann, who answered Q001 blind before bob, is not blind on it; she is on the rest.
        assert book.visibility("ann").blind == ALL - {"Q001"}


def test_outside_the_queue_the_key_shows_but_others_stay_sealed(store: NotesStore) -> None:
    book = ReviewBook(store)
    plan = book.make_plan(reviewers=["ann", "bob"], per_question=1)
    outside = next(q for q in plan.plan.questions if q not in plan.plan.queue("bob"))
    store.add_flag(question_id=outside, category="other", note=ANN_NOTE, reviewer="ann")
    sight = book.visibility("Bob")  # spelled as the plan does: bob
    assert sight.viewer == "bob"
    assert sight.blind == frozenset(plan.plan.queue("bob"))
    assert sight.shows_key(outside)
    assert not sight.shows_others(outside)
    assert not sight.shows_item(outside, "ann")


def test_unknown_viewer_under_a_plan_sees_no_planned_key_and_outsiders_see_all(
    store: NotesStore,
) -> None:
    book = ReviewBook(store)
    book.make_plan(reviewers=["ann", "bob"], per_question=1, questions=["Q001", "Q002"])
    nobody = book.visibility(None)
    assert (nobody.viewer, nobody.reviewer) == (None, True)
    assert nobody.blind == frozenset({"Q001", "Q002"})
    assert nobody.shows_key("Q003")  # not planned
    assert not nobody.shows_others("Q003")
    coordinator = book.visibility("dora")
    assert coordinator == Visibility.everything("dora")
    # The same policy read inside one transaction of the caller's.
    assert store.run(lambda conn: read_visibility(conn, "dora")) == coordinator


def test_leaving_blind_mode_records_not_blind_on_the_blind_questions_only(
    audit: AuditDB, store_url: str
) -> None:
    with NotesStore.open(audit, store_url) as store:
        book = ReviewBook(store)
        book.make_plan(reviewers=["ann", "bob"], per_question=2)
        book.record_blind("Q002", "bob", [T, T, F, F])
        assert book.leave_blind("bob") == 4
        assert book.visibility("bob").blind == frozenset()
        mine = {v.question_id: v for v in book.own_verdicts("bob")}
        assert set(mine) == ALL
        assert {q: v.blind for q, v in mine.items()} == {
            "Q001": NOT_BLIND, "Q002": BLIND, "Q003": NOT_BLIND, "Q004": NOT_BLIND,
            "Q005": NOT_BLIND,
        }  # fmt: skip
        assert mine["Q002"].blind_answer == (T, T, F, F)
        assert book.leave_blind("bob") == 0  # nothing left: nothing written
        assert len(book.own_verdicts("bob")) == 5


def test_an_export_given_the_policy_holds_only_what_it_shows(
    store: NotesStore, tmp_path: Path
) -> None:
    book = ReviewBook(store)
    book.make_plan(reviewers=["ann", "bob"], per_question=2)
    store.add_flag(question_id="Q001", category="key_incorrect", note=ANN_NOTE, reviewer="ann")
    book.save_verdict("Q001", "ann", verdict="key_wrong", blind_answer=[T, T, T, T],
                      proposed_key=[T, F, F, F], note=ANN_NOTE)  # fmt: skip
    out = tmp_path / "bob.json"

    def exported() -> dict[str, list[dict[str, object]]]:
        export_notes(store, "json", out, include_private=True, visibility=book.visibility("bob"))
        document: dict[str, list[dict[str, object]]] = json.loads(out.read_text("utf-8"))
        return document

    blind = exported()
    assert blind["flags"] == []
    assert blind["review_verdicts"] == []
    assert ANN_NOTE not in out.read_text("utf-8")
    book.save_verdict("Q001", "bob", verdict="key_ok", blind_answer=[T, F, T, F])
    opened = exported()
    assert [f["note"] for f in opened["flags"]] == [ANN_NOTE]
    assert sorted(str(v["reviewer"]) for v in opened["review_verdicts"]) == ["ann", "bob"]


@pytest.mark.parametrize("name", ["bob", "Bob", "ＢＯＢ"])
def test_the_name_is_one_persons_whatever_its_spelling(store: NotesStore, name: str) -> None:
    book = ReviewBook(store)
    book.make_plan(reviewers=["ann", "bob"], per_question=2)
    book.record_blind("Q001", "bob", [T, F, T, F])
    sight = book.visibility(name)
    assert sight.viewer == "bob"
    assert "Q001" not in sight.blind
