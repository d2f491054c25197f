"""The adjudication queue and each question's final state, worked by hand from verdicts
and decisions (issue 36, mutation testing; cli.md, "Reviewer identity, adjudication
queue, report evidence").

A question enters adjudication when its submitted verdicts differ in concern vs
``key_ok``, in the verdict or in the proposed key, or when one says ``key_wrong``; it
needs a decision while it has none or its latest is ``unresolved``. Its final state
follows from the verdicts, the decision and the plan's K (two without a plan).
"""

from __future__ import annotations

import pytest

from ai4hse_desk.review.final_state import (
    CONFIRMED,
    CORRECTED,
    DEFAULT_K,
    EXCLUDED,
    FINAL_STATES,
    NOT_REVIEWED,
    UNDER_REVIEW,
    UNRESOLVED,
    FinalState,
    counts,
    exploration,
    final_states,
    state_of,
)
from ai4hse_desk.review.queue import (
    REASONS,
    adjudication_queue,
    is_open,
    needs_adjudication,
    queue_item,
    reasons,
    reasons_of,
    submitted_by_question,
)
from ai4hse_desk.review.records import Decision, ReviewVerdict

T, F, U = "TRUE", "FALSE", "UNSURE"


def _verdict(
    qid: str,
    who: str,
    verdict: str | None,
    *,
    key: tuple[str, ...] | None = None,
    state: str = "submitted",
    blind: tuple[str, ...] | None = None,
) -> ReviewVerdict:
    return ReviewVerdict(
        verdict_id=f"{qid}-{who}",
        question_id=qid,
        reviewer=who,
        created_at="t0",
        blind="blind" if blind else "not_blind",
        blind_answer=blind,
        blind_at="t0",
        verdict=verdict,
        proposed_key=key,
        confidence="high",
        source="EN 166",
        note=f"{who}'s note",
        state=state,
        updated_at="t1",
    )


def _decision(qid: str, decision: str, key: tuple[str, ...] | None = None) -> Decision:
    return Decision(f"d-{qid}", qid, "cy", decision, key, "why", "t2")


# -- why a question enters adjudication ---------------------------------------------------


@pytest.mark.parametrize(
    ("verdicts", "keys", "expected"),
    [
        (["key_ok", "key_ok"], [None, None], []),
        (["key_ok"], [None], []),
        ([], [], []),
        (["unclear_question", "unclear_question"], [None, None], []),
        (["key_wrong"], [(T, T)], ["key_wrong"]),
        (["key_wrong", "key_wrong"], [(T, T), (T, T)], ["key_wrong"]),
        (["key_wrong", "key_wrong"], [(T, T), (T, F)], ["key_wrong", "proposed_keys_differ"]),
        (["key_ok", "typo_or_format"], [None, None], ["concern_vs_key_ok"]),
        (["unclear_options", "multiple_defensible"], [None, None], ["verdicts_differ"]),
        (["key_ok", "key_ok"], [None, (T, F)], ["proposed_keys_differ"]),
        (
            ["key_wrong", "key_ok", "other"],
            [(T, T), None, None],
            ["key_wrong", "concern_vs_key_ok", "verdicts_differ", "proposed_keys_differ"],
        ),
    ],
)
def test_the_reasons_a_question_enters_adjudication(
    verdicts: list[str], keys: list[tuple[str, ...] | None], expected: list[str]
) -> None:
    assert reasons_of(verdicts, keys) == expected
    submitted = [
        _verdict("Q1", f"r{n}", v, key=k)
        for n, (v, k) in enumerate(zip(verdicts, keys, strict=True))
    ]
    assert reasons(submitted) == expected
    assert needs_adjudication(submitted) is bool(expected)
    assert list(REASONS) == [
        "key_wrong",
        "concern_vs_key_ok",
        "verdicts_differ",
        "proposed_keys_differ",
    ]


def test_only_submitted_verdicts_count_grouped_by_question_in_name_order() -> None:
    rows = [
        _verdict("Q2", "cy", "key_ok"),
        _verdict("Q1", "bob", "key_wrong", key=(T, T)),
        _verdict("Q1", "ann", "key_ok"),
        _verdict("Q1", "dora", "other", state="draft"),
        _verdict("Q3", "ann", None, state="draft"),
    ]
    grouped = submitted_by_question(rows)
    assert {q: [v.reviewer for v in vs] for q, vs in grouped.items()} == {
        "Q1": ["ann", "bob"],
        "Q2": ["cy"],
    }


def test_a_question_is_open_until_decided_for_good() -> None:
    assert is_open(None)
    assert is_open(_decision("Q1", "unresolved"))
    for decided in ("key_confirmed", "key_corrected", "question_excluded"):
        assert not is_open(_decision("Q1", decided))


def test_a_queue_item_holds_what_an_adjudicator_weighs() -> None:
    submitted = [
        _verdict("Q1", "bob", "key_wrong", key=(T, T, F), blind=(T, U, F)),
        _verdict("Q1", "ann", "key_ok"),
    ]
    item = queue_item("Q1", submitted, [True, False, False], None)
    assert item.open
    assert item.to_json() == {
        "question_id": "Q1",
        "reasons": ["key_wrong", "concern_vs_key_ok", "proposed_keys_differ"],
        "official_key": [True, False, False],
        "verdicts": [
            {
                "reviewer": "ann",
                "verdict": "key_ok",
                "blind_answer": None,
                "proposed_key": None,
                "confidence": "high",
                "source": "EN 166",
                "note": "ann's note",
            },
            {
                "reviewer": "bob",
                "verdict": "key_wrong",
                "blind_answer": [T, U, F],
                "proposed_key": [T, T, F],
                "confidence": "high",
                "source": "EN 166",
                "note": "bob's note",
            },
        ],
        "decision": None,
    }
    decided = queue_item("Q1", submitted, (True, False, False), _decision("Q1", "key_confirmed"))
    assert not decided.open
    assert decided.to_json()["decision"] == _decision("Q1", "key_confirmed").to_json()


def test_the_queue_is_in_corpus_order_and_leaves_decided_questions_out() -> None:
    verdicts = [
        _verdict("Q3", "ann", "key_wrong", key=(T, T)),
        _verdict("Q1", "ann", "key_ok"),
        _verdict("Q1", "bob", "other"),
        _verdict("Q2", "ann", "key_ok"),
        _verdict("Q2", "bob", "key_ok"),
        _verdict("Q4", "ann", "key_wrong", key=(F, F)),
        _verdict("Q5", "ann", "key_wrong", key=(F, T)),
        _verdict("Q6", "ann", "key_wrong", key=(F, T), state="draft"),  # Q7: nothing at all
    ]
    decisions = [_decision("Q4", "key_confirmed"), _decision("Q5", "unresolved")]
    keys = {q: (True, False) for q in ("Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7")}
    order = ["Q5", "Q4", "Q3", "Q2", "Q1", "Q6", "Q7"]
    queue = adjudication_queue(verdicts, decisions, keys, order)
    assert [i.question_id for i in queue] == ["Q5", "Q3", "Q1"]
    assert queue[0].decision == _decision("Q5", "unresolved")
    assert queue[1].decision is None
    every = adjudication_queue(verdicts, decisions, keys, order, include_decided=True)
    assert [i.question_id for i in every] == ["Q5", "Q4", "Q3", "Q1"]
    assert [i.official_key for i in every] == [(True, False)] * 4


# -- each question's final state ----------------------------------------------------------


def test_each_state_follows_from_the_verdicts_the_decision_and_k() -> None:
    verdicts = [
        _verdict("A", "ann", "key_ok"),
        _verdict("A", "bob", "key_ok"),  # agree: confirmed
        _verdict("B", "ann", "key_ok"),  # one of two: under review
        _verdict("C", "ann", "key_wrong", key=(T, T)),
        _verdict("C", "bob", "key_ok"),
        _verdict("D", "ann", "other", state="draft"),  # a draft only
        _verdict("E", "ann", "typo_or_format"),
        _verdict("E", "bob", "typo_or_format"),
        _verdict("F", "ann", "key_wrong", key=(F, F)),
        _verdict("F", "bob", "key_ok"),
        _verdict("G", "ann", "key_wrong", key=(F, F)),
        _verdict("H", "ann", "unclear_question"),
        _verdict("H", "bob", "key_ok"),
    ]
    decisions = [
        _decision("F", "key_corrected", (F, T)),
        _decision("G", "question_excluded"),
        _decision("H", "unresolved"),
        _decision("I", "key_confirmed"),
    ]
    states = final_states(verdicts, decisions, planned=["J", "A"])
    assert {q: s.state for q, s in states.items()} == {
        "A": CONFIRMED,
        "B": UNDER_REVIEW,
        "C": UNDER_REVIEW,
        "D": UNDER_REVIEW,
        "E": CONFIRMED,
        "F": CORRECTED,
        "G": EXCLUDED,
        "H": UNRESOLVED,
        "I": CONFIRMED,
        "J": UNDER_REVIEW,
    }
    assert {q: s.basis for q, s in states.items()} == {
        "A": "agreement",
        "B": "",
        "C": "",
        "D": "",
        "E": "agreement",
        "F": "decision",
        "G": "decision",
        "H": "",
        "I": "decision",
        "J": "",
    }
    assert {q: s.in_queue for q, s in states.items()} == {
        "A": False,
        "B": False,
        "C": True,
        "D": False,
        "E": False,
        "F": True,
        "G": True,
        "H": True,
        "I": False,
        "J": False,
    }
    assert all(s.question_id == q for q, s in states.items())
    assert {q: s.submitted for q, s in states.items()} == {
        "A": 2,
        "B": 1,
        "C": 2,
        "D": 0,
        "E": 2,
        "F": 2,
        "G": 1,
        "H": 2,
        "I": 0,
        "J": 0,
    }
    assert states["F"].key == (F, T)
    assert [s.key for q, s in states.items() if q != "F"] == [None] * 9
    assert states["E"].concerns == ("typo_or_format", "typo_or_format")
    assert states["C"].concerns == ("key_wrong",)
    assert {q: s.decision for q, s in states.items() if s.decision is not None} == {
        d.question_id: d for d in decisions
    }
    assert states["A"].decision is None
    assert state_of(states, "Z") == FinalState("Z", NOT_REVIEWED)
    assert state_of(states, "A") is states["A"]


def test_a_decision_this_desk_does_not_know_keeps_the_question_unresolved() -> None:
    """A store written by a later version may hold a decision this one does not know:
    it settles nothing (it stays in the adjudication queue, its concern flagged)."""
    verdicts = [_verdict("A", "ann", "key_wrong", key=(T, T))]
    (state,) = final_states(verdicts, [_decision("A", "key_reworded")]).values()
    assert (state.state, state.basis, state.settled, state.flagged) == (
        UNRESOLVED,
        "",
        False,
        True,
    )


def test_k_is_the_plans_or_two_without_a_plan() -> None:
    assert DEFAULT_K == 2
    one = [_verdict("A", "ann", "key_ok")]
    assert final_states(one, []).get("A").state == UNDER_REVIEW  # type: ignore[union-attr]
    assert final_states(one, [], per_question=1)["A"].state == CONFIRMED
    three = [_verdict("A", n, "key_ok") for n in ("ann", "bob")]
    assert final_states(three, [], per_question=3)["A"].state == UNDER_REVIEW
    assert final_states(three, [], per_question=2)["A"].state == CONFIRMED
    assert final_states(three, [])["A"].state == CONFIRMED


def test_flags_texts_and_json_of_the_states() -> None:
    verdicts = [
        _verdict("A", "ann", "typo_or_format"),
        _verdict("A", "bob", "typo_or_format"),
        _verdict("B", "ann", "key_wrong", key=(F, F)),
        _verdict("B", "bob", "no_correct_option"),
        _verdict("C", "ann", "unclear_options"),
        _verdict("C", "bob", "key_ok"),
        _verdict("D", "ann", "key_wrong", key=(T, F, T)),
        _verdict("E", "ann", "key_ok"),
        _verdict("E", "bob", "key_ok"),
    ]
    decisions = [_decision("C", "key_confirmed"), _decision("D", "key_corrected", (T, F, T))]
    states = final_states(verdicts, decisions)
    assert {q: s.flagged for q, s in states.items()} == {
        "A": True,
        "B": True,
        "C": False,
        "D": False,
        "E": False,
    }
    assert states["A"].flag_categories() == {"typo_or_format"}
    assert states["B"].flag_categories() == {"key_incorrect"}
    assert states["C"].flag_categories() == set()
    assert {q: s.settled for q, s in states.items()} == {
        "A": True,
        "B": False,
        "C": True,
        "D": True,
        "E": True,
    }
    assert {q: s.text for q, s in states.items()} == {
        "A": "Key confirmed (reviewers agree)",
        "B": "Awaiting adjudication",
        "C": "Key confirmed",
        "D": "Key corrected: A TRUE, B FALSE, C TRUE",
        "E": "Key confirmed (reviewers agree)",
    }
    assert FinalState("X", UNDER_REVIEW).text == "Under review"
    assert FinalState("X", NOT_REVIEWED).text == "Not reviewed"
    assert FinalState("X", EXCLUDED, "decision").text == "Question excluded"
    assert FinalState("X", UNRESOLVED).text == "Unresolved"
    assert FinalState("X", CORRECTED, "decision").text == "Key corrected"  # no key to show
    assert states["D"].to_json() == {
        "question_id": "D",
        "state": "corrected",
        "basis": "decision",
        "key": [True, False, True],
        "concerns": ["key_wrong"],
        "in_queue": True,
        "flagged": False,
    }
    assert states["B"].to_json() == {
        "question_id": "B",
        "state": "under_review",
        "basis": None,
        "key": None,
        "concerns": ["key_wrong", "no_correct_option"],
        "in_queue": True,
        "flagged": True,
    }


def test_the_exploration_and_the_counts_of_the_states() -> None:
    states = final_states(
        [_verdict("B", "ann", "key_ok")],
        [
            _decision("A", "key_corrected", (T, F)),
            _decision("C", "question_excluded"),
            _decision("D", "unresolved"),
            _decision("E", "key_confirmed"),
        ],
        planned=["F"],
    )
    explored = exploration(states)
    assert explored.excluded == frozenset({"C"})
    assert explored.corrected_keys == {"A": (True, False)}
    assert not explored.empty
    assert exploration(final_states([_verdict("B", "ann", "key_ok")], [])).empty
    tally = counts(states, ["A", "B", "C", "D", "E", "F", "G", "H"])
    assert tally == {
        NOT_REVIEWED: 2,
        UNDER_REVIEW: 2,
        CONFIRMED: 1,
        CORRECTED: 1,
        EXCLUDED: 1,
        UNRESOLVED: 1,
    }
    assert list(tally) == list(FINAL_STATES)
    assert counts(states, []) == dict.fromkeys(FINAL_STATES, 0)
