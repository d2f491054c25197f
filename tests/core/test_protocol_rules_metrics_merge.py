"""A run scored in parts gives the numbers of the run scored whole (``RunScorer.merge``).

The rescore splits a large run's attempts over worker processes and adds their
scorers together; a user sees the run's numbers, which must not depend on how the
attempts were split (issue 36: ``merge`` was held only by the parallel path).
"""

from __future__ import annotations

import pytest

from ai4hse_desk.protocol.metrics import RunInfo, RunScorer
from ai4hse_desk.protocol.outcome import Selection, Status

T, F = True, False
V = Status.VALID
INFO = RunInfo("r1", "model-x", "answer_only", 10, "complete")
KEYS: dict[str, Selection] = {
    "Q1": (T, F, T, F),
    "Q2": (T, T, F, F),
    "Q3": (F, F, F, F),
    "Q4": (T, T, T, T),
}
# Every counter of a run moves here: statuses, a correct and a wrong valid attempt per
# repetition, strict lines, disagreements, the same wrong selection twice, and questions
# (Q3, Q4) whose keys feed the always-true / always-false baselines.
Attempt = tuple[str, int, Status, "Selection | None", bool, Selection, bool]
ATTEMPTS: list[Attempt] = [
    ("Q1", 1, V, (T, F, T, F), True, KEYS["Q1"], False),
    ("Q2", 1, V, (T, F, F, T), True, KEYS["Q2"], True),
    ("Q3", 1, Status.MALFORMED, None, False, KEYS["Q3"], False),
    ("Q4", 1, Status.PROVIDER_ERROR, None, False, KEYS["Q4"], False),
    ("Q1", 2, V, (T, T, T, F), True, KEYS["Q1"], False),
    ("Q2", 2, V, (T, T, F, F), False, KEYS["Q2"], False),
    ("Q3", 2, V, (F, F, F, F), True, KEYS["Q3"], True),
    ("Q4", 2, Status.INCOMPLETE, (T, T, T, T), False, KEYS["Q4"], True),
    ("Q2", 3, V, (T, F, F, T), False, KEYS["Q2"], False),
]
LABELS = {"Q1": {"topic": "PPE"}, "Q2": {"topic": "PPE"}, "Q3": {"topic": "Fire"}}


def _scorer(attempts: list[Attempt]) -> RunScorer:
    scorer = RunScorer(INFO)
    for attempt in attempts:
        scorer.add(*attempt)
    return scorer


@pytest.mark.parametrize("cut", range(len(ATTEMPTS) + 1))
def test_a_run_scored_in_two_parts_gives_the_numbers_of_the_whole_run(cut: int) -> None:
    whole = _scorer(ATTEMPTS).result(LABELS)
    first, second = _scorer(ATTEMPTS[:cut]), _scorer(ATTEMPTS[cut:])
    first.merge(second)
    assert first.result(LABELS) == whole
    assert first.attempts == len(ATTEMPTS)


def test_parts_merged_into_an_empty_scorer_give_the_whole_run() -> None:
    whole = _scorer(ATTEMPTS).result(LABELS)
    merged = RunScorer(INFO)
    for attempt in ATTEMPTS:
        merged.merge(_scorer([attempt]))
    assert merged.result(LABELS) == whole
    # Spelled out, the numbers that come only from the parts' counters.
    run = merged.result(LABELS)
    assert run["attempts"] == 9
    assert run["correct"] == 3
    assert run["valid"] == 6
    assert run["disagreements"] == 3
    assert run["strict_format_rate"] == 4 / 9
    assert run["baselines"] == {"always_true": 1 / 4, "always_false": 1 / 4}
    assert run["errors"]["provider_error"] == 1  # type: ignore[index]
    assert run["errors"]["parse_error"] == 1  # type: ignore[index]
    assert run["errors"]["incomplete"] == 1  # type: ignore[index]
    assert [r["attempts"] for r in run["repetitions"]] == [4, 4, 1]  # type: ignore[attr-defined]
    assert [r["correct"] for r in run["repetitions"]] == [1, 2, 0]  # type: ignore[attr-defined]
    # 6 valid attempts x 4 options; the two (T,F,F,T) answers to Q2 count 2 wrong each.
    assert run["hamming_loss"] == 5 / 24


def test_a_part_keeps_the_key_a_question_was_first_counted_with() -> None:
    merged = _scorer([("Q1", 1, V, (T, F, T, F), True, KEYS["Q1"], False)])
    # The same question counted again elsewhere (a key given twice must not replace it).
    merged.merge(_scorer([("Q1", 2, V, (T, F, T, F), True, KEYS["Q1"], False)]))
    assert merged.result({})["correct"] == 2
    assert merged.result({})["option_accuracy"] == 1.0


def test_another_runs_scorer_is_refused() -> None:
    scorer = _scorer(ATTEMPTS[:2])
    before = scorer.result(LABELS)
    other = RunScorer(RunInfo("r2", "model-x", "answer_only", 10, "complete"))
    other.add(*ATTEMPTS[2])
    with pytest.raises(ValueError, match="cannot merge run 'r2' into 'r1'"):
        scorer.merge(other)
    assert scorer.result(LABELS) == before
