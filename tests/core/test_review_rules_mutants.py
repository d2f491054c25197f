"""The review rules issue 36 found unheld by any test (mutation testing), asserted as a
user meets them (SQLite, and PostgreSQL under ``make test``):

1. an assigned reviewer who has not given a verdict yet does not adjudicate their
   own question;
2. a corrected key reads back as it was entered (decision, final state, exploration);
3. a blind answer given as text may hold ``UNSURE``; a proposed key may not;
4. a question outside the reviewer's queue is refused by the blind rule;
5. a decision is stored with the sha256 of the audit file it was made on.

The default audit file has five questions in the order Q001, Q002, Q003, Q005, Q004;
Q001's key is [TRUE, FALSE, TRUE, FALSE], Q002's [FALSE, FALSE, FALSE, TRUE].
"""

from __future__ import annotations

import hashlib
import itertools
import json
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.adjudication import Adjudication
from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.review.exports import export_notes
from ai4hse_desk.review.final_state import exploration, read_final_states
from ai4hse_desk.review.read import read_review
from ai4hse_desk.review.rules import BlindRuleError
from ai4hse_desk.review.values import answer_of, check_answer, key_of

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from ai4hse_desk.audit import AuditDB

T, F, U = "TRUE", "FALSE", "UNSURE"


@pytest.fixture
def notes(audit: AuditDB, store_url: str) -> Iterator[NotesStore]:
    with NotesStore.open(audit, store_url) as opened:
        yield opened


# -- 1. an assigned reviewer does not adjudicate their own question --------------------


def test_an_assigned_reviewer_without_a_verdict_may_not_adjudicate(notes: NotesStore) -> None:
    """ann and bob are assigned Q001; bob says the key is wrong, ann has not answered
    yet: ann may not decide Q001 (in any spelling); cy, not assigned, may."""
    book = ReviewBook(notes)
    book.make_plan(reviewers=["ann", "bob", "cy"], per_question=2, questions=["Q001"])
    assert book.plan().plan.assignments == {"Q001": ("ann", "bob")}  # type: ignore[union-attr]
    book.save_verdict("Q001", "bob", verdict="key_wrong", not_blind=True, proposed_key=[T, F, T, T])
    assert book.own_verdict("Q001", "ann") is None
    adjudication = Adjudication(notes)
    for spelling in ("ann", "ANN"):
        with pytest.raises(ReviewError, match="one of Q001's reviewers"):
            adjudication.adjudicate("Q001", spelling, "key_confirmed")
    assert adjudication.decisions() == []
    assert adjudication.adjudicate("Q001", "cy", "key_confirmed").adjudicator == "cy"


def test_without_a_plan_anyone_but_the_questions_reviewers_adjudicates(
    notes: NotesStore,
) -> None:
    book = ReviewBook(notes)
    book.save_verdict("Q001", "ann", verdict="key_wrong", not_blind=True, proposed_key=[T, F, T, T])
    adjudication = Adjudication(notes)
    with pytest.raises(ReviewError, match="one of Q001's reviewers"):
        adjudication.adjudicate("Q001", "Ann", "key_confirmed")
    decided = adjudication.adjudicate("Q001", "bob", "unresolved")
    assert (decided.question_id, decided.adjudicator, decided.decision) == (
        "Q001",
        "bob",
        "unresolved",
    )
    # and the other way round: bob, who decided it, gives no verdict on it
    with pytest.raises(ReviewError, match="bob adjudicated Q001"):
        book.save_verdict("Q001", "BOB", verdict="key_ok", not_blind=True)


# -- 2. corrected keys read back as entered -------------------------------------------


def test_a_corrected_key_reads_back_as_it_was_entered(notes: NotesStore) -> None:
    book = ReviewBook(notes)
    book.save_verdict("Q001", "ann", verdict="key_wrong", not_blind=True, proposed_key=[F, T, T, F])
    entered = [F, T, T, F]  # official: TRUE, FALSE, TRUE, FALSE
    decision = Adjudication(notes).adjudicate("Q001", "cy", "key_corrected", key=entered)
    assert decision.corrected_key == tuple(entered)
    assert decision.to_json()["key"] == [False, True, True, False]
    states = read_final_states(notes)
    assert states["Q001"].key == tuple(entered)
    assert states["Q001"].to_json()["key"] == [False, True, True, False]
    assert states["Q001"].text == "Key corrected: A FALSE, B TRUE, C TRUE, D FALSE"
    # what the sensitivity figures rescore with ("rescored with corrected keys")
    assert exploration(states).corrected_keys == {"Q001": (False, True, True, False)}


@pytest.mark.parametrize("size", [1, 2, 4, 5])
def test_keys_and_answers_convert_both_ways_unchanged(size: int) -> None:
    for key in itertools.product((True, False), repeat=size):
        answer = answer_of(key)
        assert answer == tuple(T if value else F for value in key)
        assert key_of(answer) == key


def test_a_correction_that_keeps_the_official_key_is_refused(notes: NotesStore) -> None:
    """The official key (Booleans in the audit file) is compared as entered: Q002's own
    key is refused as a correction, any other is recorded."""
    book = ReviewBook(notes)
    book.save_verdict("Q002", "ann", verdict="key_wrong", not_blind=True, proposed_key=[T, F, F, T])
    adjudication = Adjudication(notes)
    with pytest.raises(ReviewError) as refused:
        adjudication.adjudicate("Q002", "cy", "key_corrected", key=[F, F, F, T])
    assert str(refused.value) == (
        "key_corrected: the corrected key is the official key; change the options the key "
        "has wrong, or decide key_confirmed"
    )
    assert adjudication.decisions() == []
    kept = adjudication.adjudicate("Q002", "cy", "key_corrected", key=[T, F, F, T])
    assert kept.corrected_key == (T, F, F, T)


# -- 3. UNSURE in a blind answer given as text, never in a key ----------------------------


def test_a_blind_answer_given_as_text_may_be_unsure(notes: NotesStore) -> None:
    book = ReviewBook(notes)
    saved = book.save_verdict(
        "Q001", "ann", verdict="key_ok", blind_answer="[TRUE, unsure, FALSE, Unsure]"
    )
    assert saved.blind_answer == (T, U, F, U)
    drafted = book.record_blind("Q002", "ann", "[UNSURE, UNSURE, FALSE, TRUE]")
    assert drafted.blind_answer == (U, U, F, T)


def test_a_proposed_or_corrected_key_given_as_text_may_not_be_unsure(notes: NotesStore) -> None:
    book = ReviewBook(notes)
    with pytest.raises(ReviewError, match=r"the proposed key: item 2 is 'UNSURE'"):
        book.save_verdict(
            "Q001",
            "ann",
            verdict="key_wrong",
            not_blind=True,
            proposed_key="[TRUE, UNSURE, FALSE, FALSE]",
        )
    assert book.all_verdicts() == []
    book.save_verdict(
        "Q001",
        "ann",
        verdict="key_wrong",
        not_blind=True,
        proposed_key="[TRUE, TRUE, FALSE, FALSE]",
    )
    with pytest.raises(ReviewError, match=r"the corrected key: item 4 is 'UNSURE'"):
        Adjudication(notes).adjudicate(
            "Q001", "cy", "key_corrected", key="[TRUE, FALSE, TRUE, UNSURE]"
        )


@pytest.mark.parametrize(
    ("given", "unsure", "expected"),
    [
        ("[true, UNSURE]", True, (T, U)),
        (" [ FALSE ,TRUE ] ", False, (F, T)),
        ([U, F], True, (U, F)),
        ((T, F), False, (T, F)),
    ],
)
def test_answers_are_read_from_text_or_lists(
    given: object, unsure: bool, expected: tuple[str, ...]
) -> None:
    assert check_answer(given, 2, unsure=unsure, what="the answer") == expected


@pytest.mark.parametrize(
    ("given", "unsure", "message"),
    [
        ("[TRUE, UNSURE]", False, r"the key: item 2 is 'UNSURE' \(one of TRUE, FALSE\)"),
        ([T, U], False, "the key holds a value other than TRUE, FALSE"),
        ("[TRUE, MAYBE]", True, r"item 2 is 'MAYBE' \(one of TRUE, FALSE, UNSURE\)"),
        ([T, "maybe"], True, "holds a value other than TRUE, FALSE, UNSURE"),
        ("[TRUE, FALSE, TRUE]", True, "the key has 3 values, but the question has 2 options"),
        ([T], True, "the key has 1 values, but the question has 2 options"),
        ("TRUE, FALSE", True, "the key must be a list like"),
        (7, True, "the key must be a list of TRUE/FALSE values"),
        ([True, False], False, "holds a value other than"),
    ],
)
def test_bad_answers_are_refused_with_what_they_are(
    given: object, unsure: bool, message: str
) -> None:
    with pytest.raises(ReviewError, match=message):
        check_answer(given, 2, unsure=unsure, what="the key")


# -- 4. a question outside the queue: the blind rule's refusal ---------------------------


def test_a_question_outside_the_queue_is_refused_by_the_blind_rule(notes: NotesStore) -> None:
    """Q004 is in nobody's queue (the plan covers two questions), Q002 is in bob's only:
    ann asking for the others' verdicts on either hears the blind rule, on Q002 even
    after submitting a verdict of her own on it."""
    book = ReviewBook(notes)
    book.make_plan(reviewers=["ann", "bob"], per_question=1, questions=["Q001", "Q002"])
    assert book.queue("ann") == ["Q001"]
    assert book.queue("bob") == ["Q002"]
    book.save_verdict("Q002", "bob", verdict="key_ok", not_blind=True)
    for qid in ("Q002", "Q004"):
        with pytest.raises(BlindRuleError, match=f"{qid} is not in ann's review queue"):
            book.others_verdicts(qid, "ann")
    book.save_verdict("Q002", "ann", verdict="key_ok", not_blind=True)
    with pytest.raises(BlindRuleError, match="Q002 is not in ann's review queue"):
        book.others_verdicts("Q002", "Ann")
    # in her queue, once submitted, she sees the others' verdicts (none: K = 1)
    book.save_verdict("Q001", "ann", verdict="key_ok", not_blind=True)
    assert book.others_verdicts("Q001", "ANN") == []


# -- 5. a decision names the audit file it was made on -----------------------------------


def test_a_decision_is_stored_with_the_audit_files_sha256(
    notes: NotesStore, audit: AuditDB, tmp_path: Path
) -> None:
    sha = hashlib.sha256(audit.path.read_bytes()).hexdigest()
    assert notes.audit_sha256 == sha
    ReviewBook(notes).save_verdict(
        "Q001", "ann", verdict="key_wrong", not_blind=True, proposed_key=[T, T, T, F]
    )
    adjudication = Adjudication(notes)
    first = adjudication.adjudicate("Q001", "cy", "unresolved")
    second = adjudication.adjudicate("Q001", "cy", "key_confirmed")
    adjudication.restore_decision(second, first)
    (decision,) = notes.run(read_review).decisions
    assert decision.audit_sha256 == sha
    assert [r.decision for r in decision.revisions] == ["unresolved", "key_confirmed", "unresolved"]
    exported = tmp_path / "review.json"
    export_notes(notes, "json", exported)
    (row,) = json.loads(exported.read_text(encoding="utf-8"))["review_decisions"]
    assert row["audit_sha256"] == sha


# -- the blind rule's refusals, as the reviewer reads them ------------------------------


def test_a_blind_answer_is_a_draft_with_nothing_else_recorded(notes: NotesStore) -> None:
    drafted = ReviewBook(notes).record_blind("Q001", "ann", [T, U, F, F])
    assert (drafted.blind, drafted.blind_answer, drafted.state) == ("blind", (T, U, F, F), "draft")
    assert (drafted.verdict, drafted.proposed_key, drafted.confidence) == (None, None, None)
    assert (drafted.source, drafted.note) == ("", "")
    assert drafted.blind_at == drafted.created_at


def test_the_blind_rule_says_what_was_refused_and_since_when(notes: NotesStore) -> None:
    book = ReviewBook(notes)
    with pytest.raises(ReviewError) as refused:
        book.save_verdict("Q001", "ann", verdict="key_ok")
    assert str(refused.value) == "a first verdict needs --blind-answer LIST or --not-blind"

    drafted = book.record_blind("Q001", "ann", [T, F, T, F])
    with pytest.raises(BlindRuleError) as refused:
        book.record_blind("Q001", "ann", [T, F, T, F])
    assert str(refused.value) == (
        f"ann already answered Q001 (at {drafted.blind_at}); a blind answer cannot be "
        "recorded after the key was shown"
    )
    with pytest.raises(BlindRuleError) as refused:
        book.save_verdict("Q001", "ann", verdict="key_ok", blind_answer=[T, T, T, F])
    assert str(refused.value) == (
        f"ann's blind answer on Q001 was recorded at {drafted.blind_at}; it cannot change "
        "after the key was shown"
    )
    with pytest.raises(BlindRuleError) as refused:
        book.others_verdicts("Q001", "ann")
    assert str(refused.value) == (
        "ann has not submitted a verdict on Q001; the other reviewers' verdicts stay hidden "
        "until then"
    )

    skipped = book.record_blind("Q002", "ann", None)
    with pytest.raises(BlindRuleError) as refused:
        book.save_verdict("Q002", "ann", verdict="key_ok", blind_answer=[T, F, F, F])
    assert str(refused.value) == (
        f"ann's verdict on Q002 was recorded as not blind at {skipped.blind_at}; a blind "
        "answer cannot be added after the key was shown"
    )
    # the same blind answer given again is no change
    kept = book.save_verdict("Q001", "ann", verdict="key_ok", blind_answer=[T, F, T, F])
    assert (kept.blind_answer, kept.blind_at, kept.state) == (
        (T, F, T, F),
        drafted.blind_at,
        "submitted",
    )
