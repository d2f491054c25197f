"""The independent review in the notes store (SQLite and PostgreSQL): plan, blind answers,
the blind rule through a second connection, verdicts, adjudication, status, concerns as flags.

The default audit file (``tests/audit_factory.py``) has five questions in the
order Q001, Q002, Q003, Q005, Q004; Q003 and Q005 have 5 options, the others 4.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.notes import ReviewError
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.adjudication import Adjudication
from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.review.marks import marked_questions
from ai4hse_desk.review.rules import BlindRuleError
from ai4hse_desk.review.visibility import Visibility

if TYPE_CHECKING:
    from ai4hse_desk.audit import AuditDB

ORDER = ["Q001", "Q002", "Q003", "Q005", "Q004"]
T, F, U = "TRUE", "FALSE", "UNSURE"


def _sha(audit: AuditDB) -> str:
    return hashlib.sha256(audit.path.read_bytes()).hexdigest()


def test_a_plan_is_balanced_stored_and_not_replaced_by_accident(
    audit: AuditDB, store_url: str
) -> None:
    with NotesStore.open(audit, store_url) as notes:
        plan = ReviewBook(notes).make_plan(reviewers=["ann", "bob", "cy"], per_question=2)
        assert plan.plan.questions == tuple(ORDER)
        counts = plan.plan.counts()
        assert sorted(counts.values()) == [3, 3, 4]
        assert all(len(set(who)) == 2 for who in plan.plan.assignments.values())
        with pytest.raises(ReviewError, match="already exists"):
            ReviewBook(notes).make_plan(reviewers=["ann", "bob"], per_question=1)
    with NotesStore.open(audit, store_url) as again:
        stored = ReviewBook(again).plan()
        assert stored is not None
        assert stored.plan.assignments == plan.plan.assignments
        assert ReviewBook(again).queue("ann") == plan.plan.queue("ann")


def test_bad_plans_are_refused_and_write_nothing(store: NotesStore) -> None:
    for kwargs, message in (
        ({"reviewers": ["ann"], "per_question": 2}, "needs at least that many"),
        ({"reviewers": ["ann", "ann"], "per_question": 1}, "named once"),
        ({"reviewers": ["ann", ""], "per_question": 1}, "reviewer name"),
        ({"reviewers": ["ann"], "per_question": 1, "questions": ["Q999"]}, "unknown question"),
        ({"reviewers": ["ann"], "per_question": 1, "order": "alphabet"}, "unknown plan order"),
    ):
        with pytest.raises(ReviewError, match=message):
            ReviewBook(store).make_plan(**kwargs)  # type: ignore[arg-type]
    assert ReviewBook(store).plan() is None


def test_replanning_keeps_every_verdict(store: NotesStore) -> None:
    review = ReviewBook(store)
    review.make_plan(reviewers=["ann", "bob"], per_question=2)
    review.save_verdict("Q001", "ann", verdict="key_ok", blind_answer=[T, F, T, F])
    review.make_plan(reviewers=["ann", "bob", "cy"], per_question=1, order="random", seed=3,
                     replace=True)  # fmt: skip
    assert [v.question_id for v in review.all_verdicts()] == ["Q001"]
    plan = review.plan()
    assert plan is not None
    assert plan.plan.order == "random"
    assert plan.plan.seed == 3


def test_blind_rule_holds_through_a_second_connection(audit: AuditDB, store_url: str) -> None:
    """Others' verdicts are refused to a reviewer until their own is submitted; a blind
    answer cannot be given after the reveal (on either connection)."""
    with NotesStore.open(audit, store_url) as ann, NotesStore.open(audit, store_url) as bob:
        ReviewBook(ann).make_plan(reviewers=["ann", "bob"], per_question=2)
        ReviewBook(ann).save_verdict("Q001", "ann", verdict="key_wrong", blind_answer=[T, F, T, T],
                                proposed_key=[T, F, T, T], confidence="high")  # fmt: skip
        with pytest.raises(BlindRuleError, match="has not submitted"):
            ReviewBook(bob).others_verdicts("Q001", "bob")
        assert ReviewBook(bob).own_verdict("Q001", "bob") is None
        ReviewBook(bob).record_blind("Q001", "bob", [F, U, T, F])
        with pytest.raises(BlindRuleError, match="has not submitted"):
            ReviewBook(bob).others_verdicts("Q001", "bob")  # a draft is not enough
        with pytest.raises(BlindRuleError, match="cannot be recorded after"):
            ReviewBook(ann).record_blind("Q001", "bob", [T, T, T, T])
        with pytest.raises(BlindRuleError, match="cannot change"):
            ReviewBook(bob).save_verdict("Q001", "bob", verdict="key_ok", blind_answer=[T, T, T, T])
        mine = ReviewBook(bob).save_verdict("Q001", "bob", verdict="key_ok", not_blind=True)
        assert mine.blind_answer == (F, U, T, F)
        assert mine.submitted
        seen = ReviewBook(bob).others_verdicts("Q001", "bob")
        assert [(v.reviewer, v.verdict) for v in seen] == [("ann", "key_wrong")]


def test_a_skipped_blind_answer_is_recorded_and_cannot_be_added_later(store: NotesStore) -> None:
    review = ReviewBook(store)
    skipped = review.record_blind("Q002", "ann", None)
    assert skipped.blind == "not_blind"
    assert skipped.blind_answer is None
    with pytest.raises(BlindRuleError, match="not blind"):
        review.save_verdict("Q002", "ann", verdict="key_ok", blind_answer=[T, F, F, F])
    assert review.own_verdict("Q002", "ann") == skipped


def test_questions_outside_the_queue_stay_hidden(store: NotesStore) -> None:
    review = ReviewBook(store)
    review.make_plan(reviewers=["ann", "bob", "cy"], per_question=2)
    outside = next(q for q in ORDER if "cy" not in review.plan().plan.assignments[q])  # type: ignore[union-attr]
    review.save_verdict(outside, "cy", verdict="key_ok", not_blind=True)
    with pytest.raises(BlindRuleError, match="not in cy's review queue"):
        review.others_verdicts(outside, "cy")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"question_id": "Q999", "verdict": "key_ok"}, "unknown question"),
        ({"verdict": "fine"}, "unknown verdict"),
        ({"verdict": "key_wrong"}, "needs a proposed key"),
        ({"verdict": "key_wrong", "proposed_key": [T, F, T, F]}, "proposed key is the official"),
        (
            {"verdict": "key_wrong", "proposed_key": "[TRUE, FALSE, TRUE, FALSE]", "submit": False},
            "proposed key is the official key; propose the key you think is right",
        ),
        ({"verdict": "key_ok", "proposed_key": [T, F]}, "has 2 values"),
        ({"verdict": "key_ok", "proposed_key": [T, F, U, F]}, "other than TRUE, FALSE"),
        ({"verdict": "key_ok", "confidence": "certain"}, "unknown confidence"),
        ({"verdict": "key_ok", "reviewer": "zed"}, "unknown reviewer: zed"),
        ({"verdict": "key_ok", "blind_answer": [T, F, T]}, "has 3 values"),
        ({"verdict": "key_ok", "blind_answer": None}, "needs --blind-answer"),
    ],
)
def test_bad_verdicts_are_refused_and_write_nothing(
    store: NotesStore, audit: AuditDB, kwargs: dict[str, object], message: str
) -> None:
    ReviewBook(store).make_plan(reviewers=["ann", "bob"], per_question=2)
    before = _sha(audit)
    call: dict[str, object] = {"question_id": "Q001", "reviewer": "ann",
                               "blind_answer": [T, F, T, F], **kwargs}  # fmt: skip
    with pytest.raises(ReviewError, match=message):
        ReviewBook(store).save_verdict(**call)  # type: ignore[arg-type]
    assert ReviewBook(store).all_verdicts() == []
    assert _sha(audit) == before


def test_key_wrong_proposes_a_key_other_than_the_official_one(store: NotesStore) -> None:
    book = ReviewBook(store)
    book.make_plan(reviewers=["ann", "bob"], per_question=2)
    with pytest.raises(ReviewError) as refused:  # Q001's key is A, C
        book.save_verdict("Q001", "ann", verdict="key_wrong", not_blind=True,
                          proposed_key=[T, F, T, F])  # fmt: skip
    assert str(refused.value) == (
        "key_wrong: the proposed key is the official key; propose the key you think is right"
    )
    assert book.all_verdicts() == []
    # only key_wrong proposes a key: another verdict may carry the official one
    book.save_verdict("Q001", "ann", verdict="multiple_defensible", not_blind=True,
                      proposed_key=[T, F, T, F])  # fmt: skip
    made = book.save_verdict("Q001", "bob", verdict="key_wrong", not_blind=True,
                             proposed_key=[T, F, T, T])  # fmt: skip
    assert made.proposed_key == (T, F, T, T)


def test_revisions_append_and_status_counts_queues(store: NotesStore) -> None:
    review = ReviewBook(store)
    review.make_plan(reviewers=["ann", "bob"], per_question=2, questions=["Q001", "Q002"])
    review.save_verdict("Q001", "ann", verdict="key_ok", blind_answer=[T, F, T, F], submit=False)
    first = review.save_verdict("Q001", "ann", verdict="key_ok", not_blind=True, note="checked")
    assert first.submitted
    assert first.note == "checked"
    assert first.blind == "blind"
    assert review.save_verdict("Q001", "ann", verdict="key_ok", not_blind=True,
                               note="checked") == first  # fmt: skip
    review.save_verdict("Q001", "bob", verdict="unclear_question", not_blind=True)
    status = review.status()
    assert status["plan"] == {"per_question": 2, "questions": 2, "order": "corpus", "seed": None}
    assert status["reviewers"] == [
        {"reviewer": "ann", "assigned": 2, "submitted": 1, "drafts": 0, "remaining": 1},
        {"reviewer": "bob", "assigned": 2, "submitted": 1, "drafts": 0, "remaining": 1},
    ]
    assert status["coverage"] == {"questions": 2, "fully_reviewed": 1, "partly_reviewed": 0,
                                  "unreviewed": 1}  # fmt: skip
    assert status["adjudication"] == {"needed": 1, "decided": 0}


def test_adjudication_list_decisions_and_their_history(store: NotesStore) -> None:
    review = ReviewBook(store)
    review.save_verdict("Q001", "ann", verdict="key_ok", not_blind=True)
    review.save_verdict("Q001", "bob", verdict="key_ok", not_blind=True)
    review.save_verdict("Q002", "ann", verdict="key_ok", not_blind=True)
    review.save_verdict("Q002", "bob", verdict="key_ok", not_blind=True, proposed_key=[T, T, F, F])
    review.save_verdict("Q003", "ann", verdict="key_wrong", not_blind=True,
                        proposed_key=[T, T, T, F, F])  # fmt: skip
    adjudication = Adjudication(store)
    assert adjudication.adjudication_list() == ["Q002", "Q003"]
    with pytest.raises(ReviewError, match="one of Q003's reviewers"):
        adjudication.adjudicate("Q003", "ann", "key_confirmed")
    with pytest.raises(ReviewError, match="needs the corrected key"):
        adjudication.adjudicate("Q003", "cy", "key_corrected")
    with pytest.raises(ReviewError, match="only with key_corrected"):
        adjudication.adjudicate("Q003", "cy", "unresolved", key=[T, T, T, F, F])
    with pytest.raises(ReviewError, match="unknown decision"):
        adjudication.adjudicate("Q003", "cy", "keep")
    adjudication.adjudicate("Q003", "cy", "unresolved", note="ask the author")
    final = adjudication.adjudicate("Q003", "cy", "key_corrected", key=[T, T, T, F, F])
    assert final.to_json()["key"] == [True, True, True, False, False]
    assert [d.decision for d in adjudication.decisions()] == ["key_corrected"]
    assert review.status()["adjudication"] == {"needed": 2, "decided": 1}


def test_a_submitted_concern_shows_like_a_flag(store: NotesStore) -> None:
    ReviewBook(store).save_verdict("Q004", "ann", verdict="key_wrong", not_blind=True,
                              proposed_key=[T, T, T, F])  # fmt: skip
    ReviewBook(store).save_verdict("Q002", "ann", verdict="unclear_question", not_blind=True,
                              submit=False)  # fmt: skip
    ReviewBook(store).save_verdict("Q001", "ann", verdict="key_ok", not_blind=True)
    everyone = Visibility.everything()
    assert marked_questions(store, everyone) == {"Q004"}
    assert marked_questions(store, everyone, category="key_incorrect") == {"Q004"}
    assert marked_questions(store, everyone, category="ambiguous_wording") == set()


def test_progress_counts_the_reviewers_own_queue(store: NotesStore) -> None:
    review = ReviewBook(store)
    assert review.progress("ann")["queue"] == ORDER  # no plan: every question, corpus order
    review.make_plan(reviewers=["ann", "bob"], per_question=1)
    queue = review.queue("ann")
    review.save_verdict(queue[0], "ann", verdict="key_ok", not_blind=True)
    review.record_blind(queue[1], "ann", None)
    review.save_verdict(queue[0], "bob", verdict="key_ok", not_blind=True)  # not bob's queue
    progress = review.progress("ann")
    assert progress["queue"] == queue
    assert (progress["assigned"], progress["submitted"], progress["drafts"]) == (len(queue), 1, 1)
    assert review.progress("bob")["submitted"] == 0
