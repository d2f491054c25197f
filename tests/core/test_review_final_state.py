"""One final state per question, read by every view: ⚑ marks, the notes list, the
sensitivity exploration and the report agree (issue 34, "Decisions never reach the
window")."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.adjudication import Adjudication
from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.review.final_state import (
    CONFIRMED,
    CORRECTED,
    EXCLUDED,
    NOT_REVIEWED,
    UNDER_REVIEW,
    UNRESOLVED,
    exploration,
    read_final_states,
    read_question_state,
    state_of,
)
from ai4hse_desk.review.list_rows import COLUMNS, CONCERN, note_cells, note_rows
from ai4hse_desk.review.marks import marked_questions
from ai4hse_desk.review.report import review_report
from ai4hse_desk.review.visibility import Visibility
from ai4hse_desk.verdicts.rescore import rescore

if TYPE_CHECKING:
    from collections.abc import Iterator

    from ai4hse_desk.audit import AuditDB

T, F = "TRUE", "FALSE"


@pytest.fixture
def decided(audit: AuditDB, store_url: str) -> Iterator[NotesStore]:
    """ann and bob (K = 2) on every question; cy decides four of them.

    Q001 key_wrong vs key_ok → key_confirmed; Q002 key_wrong + no_correct_option → corrected;
    Q003 unclear_options vs key_ok → excluded; Q005 typo vs key_ok → unresolved;
    Q004 only ann's key_wrong so far (under review)."""
    with NotesStore.open(audit, store_url) as notes:
        book = ReviewBook(notes)
        book.make_plan(reviewers=["ann", "bob"], per_question=2, created_by="coord")
        book.save_verdict("Q001", "ann", verdict="key_wrong", not_blind=True,
                          proposed_key=[T, F, F, F])  # fmt: skip
        book.save_verdict("Q001", "bob", verdict="key_ok", not_blind=True)
        book.save_verdict("Q002", "ann", verdict="key_wrong", not_blind=True,
                          proposed_key=[F, F, T, T])  # fmt: skip
        book.save_verdict("Q002", "bob", verdict="no_correct_option", not_blind=True)
        book.save_verdict("Q003", "ann", verdict="unclear_options", not_blind=True)
        book.save_verdict("Q003", "bob", verdict="key_ok", not_blind=True)
        book.save_verdict("Q005", "ann", verdict="typo_or_format", not_blind=True)
        book.save_verdict("Q005", "bob", verdict="key_ok", not_blind=True)
        book.save_verdict("Q004", "ann", verdict="key_wrong", not_blind=True,
                          proposed_key=[T, T, T, F])  # fmt: skip
        adjudication = Adjudication(notes)
        adjudication.adjudicate("Q001", "cy", "key_confirmed", note="the key stands")
        adjudication.adjudicate("Q002", "cy", "key_corrected", key=[F, F, T, T])
        adjudication.adjudicate("Q003", "cy", "question_excluded")
        adjudication.adjudicate("Q005", "cy", "unresolved")
        yield notes


def test_each_question_has_one_final_state(decided: NotesStore) -> None:
    states = read_final_states(decided)
    shown = {qid: (s.state, s.basis, s.flagged) for qid, s in states.items()}
    assert shown == {
        "Q001": (CONFIRMED, "decision", False),
        "Q002": (CORRECTED, "decision", False),
        "Q003": (EXCLUDED, "decision", False),
        "Q004": (UNDER_REVIEW, "", True),
        "Q005": (UNRESOLVED, "", True),
    }
    assert states["Q002"].key == (F, F, T, T)
    assert states["Q002"].text == "Key corrected: A FALSE, B FALSE, C TRUE, D TRUE"
    assert states["Q004"].text == "Awaiting adjudication"
    assert state_of(states, "Q999").state == NOT_REVIEWED


def test_agreeing_reviewers_confirm_the_key_without_a_decision(
    audit: AuditDB, store_url: str
) -> None:
    with NotesStore.open(audit, store_url) as notes:
        book = ReviewBook(notes)
        book.make_plan(reviewers=["ann", "bob"], per_question=2, questions=["Q001", "Q002"])
        book.save_verdict("Q001", "ann", verdict="key_ok", not_blind=True)
        assert read_final_states(notes)["Q001"].state == UNDER_REVIEW  # 1 of K = 2
        assert read_final_states(notes)["Q002"].state == UNDER_REVIEW  # planned, untouched
        book.save_verdict("Q001", "bob", verdict="key_ok", not_blind=True)
        book.save_verdict("Q002", "ann", verdict="typo_or_format", not_blind=True)
        book.save_verdict("Q002", "bob", verdict="typo_or_format", not_blind=True)
        states = read_final_states(notes)
        assert (states["Q001"].state, states["Q001"].basis) == (CONFIRMED, "agreement")
        assert states["Q001"].text == "Key confirmed (reviewers agree)"
        # an agreed concern keeps its ⚑: nobody decided it away
        assert (states["Q002"].state, states["Q002"].flagged) == (CONFIRMED, True)
        assert marked_questions(book.store, Visibility.everything()) == {"Q002"}
        assert state_of(states, "Q003").state == NOT_REVIEWED


def test_one_question_read_alone_has_the_state_the_whole_review_gives_it(
    decided: NotesStore, audit: AuditDB
) -> None:
    # (the Review view reads one question's state per page, from its own rows)
    every = read_final_states(decided)
    assert {s.state for s in every.values()} >= {CONFIRMED, CORRECTED, EXCLUDED, UNRESOLVED}
    for question_id in [*audit.answer_keys(), "Q999"]:
        alone = decided.run(partial(read_question_state, question_id=question_id))
        assert alone == state_of(every, question_id), question_id


def test_one_question_read_alone_counts_the_plan_and_its_k(audit: AuditDB, store_url: str) -> None:
    with NotesStore.open(audit, store_url) as notes:
        alone = notes.run(partial(read_question_state, question_id="Q001"))
        assert alone.state == NOT_REVIEWED  # no plan yet: nothing to read K from
        book = ReviewBook(notes)
        book.make_plan(reviewers=["ann", "bob", "cy"], per_question=3,
                       questions=["Q001", "Q002", "Q003"])  # fmt: skip
        for who in ("ann", "bob"):  # 2 of K = 3 agree: still under review
            book.save_verdict("Q001", who, verdict="key_ok", not_blind=True)
        every = read_final_states(notes)
        for question_id, state in {"Q001": UNDER_REVIEW, "Q002": UNDER_REVIEW,
                                   "Q004": NOT_REVIEWED}.items():  # fmt: skip
            alone = notes.run(partial(read_question_state, question_id=question_id))
            assert alone == state_of(every, question_id)
            assert alone.state == state, question_id


def test_a_confirmed_key_loses_its_flag_and_a_settled_one_is_marked_as_such(
    decided: NotesStore,
) -> None:
    everyone = Visibility.everything()
    assert marked_questions(decided, everyone) == {"Q004", "Q005"}
    assert marked_questions(decided, everyone, category="key_incorrect") == {"Q004"}
    assert marked_questions(decided, everyone, category="typo_or_format") == {"Q005"}
    # revising the decision to unresolved brings the ⚑ back
    Adjudication(decided).adjudicate("Q001", "cy", "unresolved")
    assert marked_questions(decided, everyone) == {"Q001", "Q004", "Q005"}


def test_a_concern_marks_nothing_for_a_reviewer_still_blind_on_it(
    audit: AuditDB, store_url: str
) -> None:
    with NotesStore.open(audit, store_url) as notes:
        book = ReviewBook(notes)
        book.make_plan(reviewers=["ann", "bob"], per_question=2, questions=["Q001", "Q002"])
        book.save_verdict("Q001", "ann", verdict="key_wrong", not_blind=True,
                          proposed_key=[T, T, F, F])  # fmt: skip
        assert marked_questions(notes, Visibility.everything()) == {"Q001"}
        assert marked_questions(notes, book.visibility("ann")) == {"Q001"}  # her own
        assert marked_questions(notes, book.visibility("bob")) == set()  # bob: blind on Q001
        assert marked_questions(notes, book.visibility(None)) == set()  # no name: all hidden
        book.save_verdict("Q001", "bob", verdict="key_ok", not_blind=True)
        assert marked_questions(notes, book.visibility("bob")) == {"Q001"}


def test_the_exploration_leaves_out_excluded_questions_and_uses_corrected_keys(
    decided: NotesStore, audit: AuditDB
) -> None:
    explored = exploration(read_final_states(decided))
    assert explored.excluded == {"Q003"}  # not Q001 (confirmed), not Q004 (still open)
    assert explored.corrected_keys == {"Q002": (False, False, True, True)}
    report = review_report(audit, ReviewBook(decided))
    without = {r["run_id"]: r["exact_accuracy"]
               for r in rescore(audit, exclude_questions=explored.excluded).runs}  # fmt: skip
    rows = report["sensitivity"]
    assert isinstance(rows, list)
    assert {r["run_id"]: r["without_excluded"] for r in rows} == without


def test_the_notes_list_shows_the_decision_and_the_verdict_by_its_own_name(
    decided: NotesStore,
) -> None:
    concerns = [v for v in ReviewBook(decided).all_verdicts() if v.concern]
    rows = note_rows([], [], concerns=concerns, states=read_final_states(decided))
    cells = {(r.question_id, r.reviewer): dict(zip(COLUMNS, note_cells(r), strict=True))
             for r in rows}  # fmt: skip
    assert cells[("Q001", "ann")]["Decision"] == "Key confirmed"
    assert cells[("Q002", "bob")]["Decision"] == "Key corrected: A FALSE, B FALSE, C TRUE, D TRUE"
    assert cells[("Q003", "ann")]["Decision"] == "Question excluded"
    assert cells[("Q005", "ann")]["Decision"] == "Unresolved"
    assert cells[("Q004", "ann")]["Decision"] == "Awaiting adjudication"
    # the verdict is shown by its own name, and still filtered as its flag category
    assert cells[("Q003", "ann")]["Category"] == "Options unclear"
    assert cells[("Q003", "ann")]["Verdict"] == "Options unclear"
    overlap = note_rows([], [], concerns=concerns, category="option_overlap")
    assert [(r.kind, r.question_id, r.category) for r in overlap] == [
        (CONCERN, "Q003", "unclear_options"),
    ]  # fmt: skip
    flagged = decided.add_flag(question_id="Q002", category="other", note="n", reviewer="dee")
    rows = note_rows([flagged], [], states=read_final_states(decided))
    assert rows[0].decision.startswith("Key corrected")
    flag_cells = dict(zip(COLUMNS, note_cells(rows[0]), strict=True))
    assert (flag_cells["Category"], flag_cells["Verdict"]) == ("Other", "")
