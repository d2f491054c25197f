"""Scoring a verdict stream a batch at a time, column by column, fills every run's scorer
exactly as one ``RunScorer.add`` per attempt: with the official keys, leaving questions
out, and with corrected keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hypothesis import given, settings
from hypothesis import strategies as st

from ai4hse_desk.protocol.metrics import RunInfo, RunScorer
from ai4hse_desk.protocol.outcome import Extraction, Selection, Status
from ai4hse_desk.verdicts.scoring import Scoring, score_batches

if TYPE_CHECKING:
    from ai4hse_desk.verdicts.attempt_verdict import VerdictTuple

_KEYS: dict[str, Selection] = {
    "q1": (True, False, False),
    "q2": (False, True, True),
    "q3": (True, True, False, False),
}
_CORRECTED: dict[str, Selection] = {**_KEYS, "q2": (True, False, False)}
_RUNS = ("r1", "r2", "r3")
_LABELS = {"q1": {"topic": "a"}, "q2": {"topic": "b"}, "q3": {"topic": "a"}}


def _info(run_id: str) -> RunInfo:
    return RunInfo(run_id, "m", "answer_only", 1, "complete")


@st.composite
def _verdict(draw: st.DrawFn) -> VerdictTuple:
    question_id = draw(st.sampled_from(sorted(_KEYS)))
    n = len(_KEYS[question_id])
    status = draw(st.sampled_from(list(Status)))
    selection = draw(st.none() | st.tuples(*[st.booleans()] * n) | st.just(_KEYS[question_id]))
    if status is Status.VALID and selection is None:
        selection = _KEYS[question_id]
    outcome = Extraction(status, selection, draw(st.booleans()), (), "reason")
    correct = status is Status.VALID and selection == _KEYS[question_id]
    run_id = draw(st.sampled_from(_RUNS))  # runs interleaved, or together
    return (0, run_id, question_id, draw(st.integers(1, 4)), outcome, correct,
            None, draw(st.booleans()))  # fmt: skip


def _one_by_one(
    batches: list[list[VerdictTuple]], keys: dict[str, Selection], left_out: frozenset[str]
) -> dict[str, RunScorer]:
    scorers = {run_id: RunScorer(_info(run_id)) for run_id in _RUNS[:2]}  # r3 not scored
    for batch in batches:
        for _, run_id, question_id, repetition, outcome, _, _, agrees in batch:
            if run_id in scorers and question_id not in left_out:
                scorers[run_id].add(
                    question_id, repetition, outcome.status, outcome.selection,
                    outcome.strict_format, keys[question_id], not agrees,
                )  # fmt: skip
    return scorers


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(_verdict(), max_size=30), max_size=5))
def test_the_scorings_count_as_one_add_per_attempt(batches: list[list[VerdictTuple]]) -> None:
    left_out = frozenset({"q3"})
    scorings = [
        Scoring({run_id: RunScorer(_info(run_id)) for run_id in _RUNS[:2]}, _KEYS),
        Scoring({run_id: RunScorer(_info(run_id)) for run_id in _RUNS[:2]}, _KEYS, left_out),
        Scoring(
            {run_id: RunScorer(_info(run_id)) for run_id in _RUNS[:2]},
            _CORRECTED, left_out, rekeyed=True,
        ),
    ]  # fmt: skip
    score_batches(batches, scorings)
    expected = [
        _one_by_one(batches, _KEYS, frozenset()),
        _one_by_one(batches, _KEYS, left_out),
        _one_by_one(batches, _CORRECTED, left_out),
    ]
    for scoring, one_by_one in zip(scorings, expected, strict=True):
        for run_id, scorer in scoring.scorers.items():
            assert scorer.attempts == one_by_one[run_id].attempts
            assert scorer.result(_LABELS) == one_by_one[run_id].result(_LABELS)


def test_a_batch_is_counted_once_and_an_empty_one_counts_nothing() -> None:
    scorer = RunScorer(_info("r1"))
    right = Extraction(Status.VALID, _KEYS["q1"], True, (), "ok")
    wrong = Extraction(Status.VALID, (True, True, True), False, (), "wrong")
    batch: list[VerdictTuple] = [
        (1, "r1", "q1", 1, right, True, "valid", True),
        (2, "r1", "q2", 1, wrong, False, "valid", False),
    ]
    score_batches([batch, []], [Scoring({"r1": scorer}, _KEYS)])
    result = scorer.result(_LABELS)
    assert (result["attempts"], result["correct"], result["disagreements"]) == (2, 1, 1)
