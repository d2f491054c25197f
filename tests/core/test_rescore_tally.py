"""A run's tally, counted a batch at a time, fills its scorer exactly as one add per attempt."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from ai4hse_desk.protocol.metrics import RunInfo, RunScorer
from ai4hse_desk.protocol.outcome import Selection, Status
from ai4hse_desk.verdicts.tally import RunTally

_KEYS: dict[str, Selection] = {
    "q1": (True, False, False),
    "q2": (False, True, True),
    "q3": (True, True, False, False),
}
_INFO = RunInfo("r", "m", "answer_only", 1, "complete")
_LABELS = {"q1": {"topic": "a"}, "q2": {"topic": "b"}, "q3": {"topic": "a"}}


@st.composite
def _attempt(draw: st.DrawFn) -> tuple[str, int, Status, Selection | None, bool, bool]:
    question_id = draw(st.sampled_from(sorted(_KEYS)))
    n = len(_KEYS[question_id])
    status = draw(st.sampled_from(list(Status)))
    selection = draw(st.none() | st.tuples(*[st.booleans()] * n))
    if status is Status.VALID and selection is None:
        selection = _KEYS[question_id]
    return (question_id, draw(st.integers(1, 4)), status, selection, draw(st.booleans()),
            draw(st.booleans()))  # fmt: skip


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(_attempt(), max_size=30), max_size=5))
def test_a_tally_counts_as_add_per_attempt(
    batches: list[list[tuple[str, int, Status, Selection | None, bool, bool]]],
) -> None:
    """Several batches of attempts (valid and correct, valid and wrong, every status)."""
    one_by_one, batched = RunScorer(_INFO), RunScorer(_INFO)
    tally = RunTally(batched)
    for batch in batches:
        for question_id, repetition, status, selection, strict, differs in batch:
            key = _KEYS[question_id]
            one_by_one.add(question_id, repetition, status, selection, strict, key, differs)
            correct = status is Status.VALID and selection == key
            if status is Status.VALID and not correct:
                tally.append_wrong((question_id, selection))
            tally.append((question_id, repetition, status, strict, correct, differs))
        tally.flush(_KEYS)
    assert batched.attempts == one_by_one.attempts
    assert batched.result(_LABELS) == one_by_one.result(_LABELS)


def test_a_flushed_tally_starts_empty() -> None:
    """Flushing twice counts the attempts once."""
    scorer = RunScorer(_INFO)
    tally = RunTally(scorer)
    tally.append(("q1", 1, Status.VALID, True, True, False))
    tally.append_wrong(("q2", (True, True, True)))
    tally.append(("q2", 1, Status.VALID, False, False, True))
    tally.flush(_KEYS)
    tally.flush(_KEYS)
    result = scorer.result(_LABELS)
    assert (result["attempts"], result["correct"], result["disagreements"]) == (2, 1, 1)
