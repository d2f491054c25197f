"""Run metrics of protocol.md section 6, one rule per test (issue 36, items 6, 7 and 10).

Each test states a rule on a small run whose numbers can be counted by hand, so
that it fails when the rule breaks, whatever the code looks like.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.protocol.metrics import RunInfo, RunScorer, order_runs
from ai4hse_desk.protocol.outcome import Selection, Status

if TYPE_CHECKING:
    from collections.abc import Mapping

T, F = True, False
V = Status.VALID
Attempt = tuple[str, int, Status, "Selection | None", bool, Selection, bool]


def score(
    attempts: list[Attempt],
    labels: Mapping[str, Mapping[str, str]] | None = None,
    *,
    track: str = "answer_only",
) -> dict[str, object]:
    scorer = RunScorer(RunInfo("r1", "model-x", track, 10, "complete"))
    for attempt in attempts:
        scorer.add(*attempt)
    return scorer.result(labels or {})


# --- item 6: slices weigh every question of a value ----------------------------------


def test_two_questions_in_one_slice_one_correct_give_one_half() -> None:
    key = (T, F)
    run = score(
        [("Q1", 1, V, key, True, key, False), ("Q2", 1, V, (F, T), True, key, False)],
        {"Q1": {"topic": "PPE"}, "Q2": {"topic": "PPE"}},
    )
    assert run["slices"] == {"topic": {"PPE": 0.5}}


def test_slice_accuracy_counts_every_attempt_of_every_question_of_the_value() -> None:
    # PPE: Q1 right twice, Q2 wrong twice, Q3 right once of two -> 3 of 6.
    key = (T, F)
    wrong = (F, F)
    attempts: list[Attempt] = [
        ("Q1", 1, V, key, True, key, False),
        ("Q2", 1, V, wrong, True, key, False),
        ("Q3", 1, V, key, True, key, False),
        ("Q1", 2, V, key, True, key, False),
        ("Q2", 2, V, wrong, True, key, False),
        ("Q3", 2, Status.MALFORMED, None, False, key, False),
    ]
    labels = {q: {"topic": "PPE"} for q in ("Q1", "Q2", "Q3")}
    assert score(attempts, labels)["slices"] == {"topic": {"PPE": 0.5}}


def test_consistency_index_uses_the_accuracy_of_whole_slices() -> None:
    # PPE: one of two questions right (0.5); Fire: both right (1.0).
    # M = 0.75, sigma = 0.25, CV = 1/3, I = M * (1 - CV) = 0.5.
    key = (T, F)
    attempts: list[Attempt] = [
        ("Q1", 1, V, key, True, key, False),
        ("Q2", 1, V, (T, T), True, key, False),
        ("Q3", 1, V, key, True, key, False),
        ("Q4", 1, V, key, True, key, False),
    ]
    labels = {
        "Q1": {"topic": "PPE"},
        "Q2": {"topic": "PPE"},
        "Q3": {"topic": "Fire"},
        "Q4": {"topic": "Fire"},
    }
    run = score(attempts, labels)
    assert run["slices"] == {"topic": {"Fire": 1.0, "PPE": 0.5}}
    assert run["consistency_index"] == 0.5


# --- item 7: runs without a score come last in their track ------------------------------


def _row(run_id: str, accuracy: float | None, *, scored: bool = True) -> dict[str, object]:
    return {"run_id": run_id, "track": "answer_only", "scored": scored, "exact_accuracy": accuracy}


def test_unscored_runs_come_after_a_run_scored_zero_whatever_their_ids() -> None:
    rows = [_row("a-unscored", None, scored=False), _row("z-zero", 0.0), _row("m-half", 0.5)]
    assert [row["run_id"] for row in order_runs(rows)] == ["m-half", "z-zero", "a-unscored"]


def test_a_run_without_attempts_comes_after_a_run_scored_zero() -> None:
    # A scored run with zero attempts has no exact_accuracy (null): it is ranked last too.
    rows = [_row("a-empty", None), _row("b-zero", 0.0)]
    assert [row["run_id"] for row in order_runs(rows)] == ["b-zero", "a-empty"]


def test_an_unscored_run_with_a_stale_accuracy_still_comes_last() -> None:
    rows = [_row("a-unscored", 1.0, scored=False), _row("b-zero", 0.0)]
    assert [row["run_id"] for row in order_runs(rows)] == ["b-zero", "a-unscored"]


# --- item 10: option metrics count every valid attempt --------------------------------


def test_repeated_identical_wrong_selections_are_counted_each_time() -> None:
    # Q1 key (T,F,T,F) answered (T,T,T,F) in both repetitions: TP 2, FP 1, TN 1 each time.
    # Q2 key (T,T,F,F) answered correctly once: TP 2, TN 2.
    # Over 12 options: TP 6, FP 2, FN 0, TN 4.
    q1, q2 = (T, F, T, F), (T, T, F, F)
    run = score(
        [
            ("Q1", 1, V, (T, T, T, F), True, q1, False),
            ("Q1", 2, V, (T, T, T, F), True, q1, False),
            ("Q2", 1, V, q2, True, q2, False),
        ]
    )
    assert run["option_accuracy"] == 10 / 12
    assert run["hamming_loss"] == 2 / 12
    assert run["precision"] == 6 / 8
    assert run["recall"] == 1.0


def test_counting_a_batch_equals_counting_one_attempt_at_a_time() -> None:
    # add_counts is the batch form of add: the same attempts give the same run object.
    q1, q2 = (T, F, T, F), (T, T, F, F)
    wrong = (T, T, T, F)
    attempts: list[Attempt] = [
        ("Q1", 1, V, wrong, True, q1, False),
        ("Q2", 1, V, q2, True, q2, True),
        ("Q1", 2, V, wrong, False, q1, False),
        ("Q2", 2, Status.MISSING, None, False, q2, True),
        ("Q1", 3, V, q1, True, q1, False),
    ]
    labels = {"Q1": {"topic": "PPE"}, "Q2": {"topic": "Fire"}}
    one_by_one = score(attempts, labels)

    batch = RunScorer(RunInfo("r1", "model-x", "answer_only", 10, "complete"))
    batch.add_counts(
        [a[2] for a in attempts],
        [a[0] for a in attempts],
        [a[1] for a in attempts],
        [a[2] is V and a[3] == a[5] for a in attempts],
        {"Q1": q1, "Q2": q2},
        sum(a[4] for a in attempts),
        sum(a[6] for a in attempts),
        [(a[0], a[3]) for a in attempts if a[2] is V and a[3] != a[5]],
    )
    assert batch.attempts == len(attempts)
    assert batch.result(labels) == one_by_one
    assert one_by_one["option_accuracy"] == 14 / 16  # wrong twice (2 misses), right once


def test_every_wrong_option_of_an_attempt_counts() -> None:
    # Key (T,T,F,F) answered (F,F,T,T): two false positives and two false negatives.
    key = (T, T, F, F)
    run = score([("Q1", 1, V, (F, F, T, T), True, key, False)])
    assert run["hamming_loss"] == 1.0
    assert run["option_accuracy"] == 0.0
    assert (run["precision"], run["recall"], run["f1"]) == (0.0, 0.0, 0.0)


def test_a_valid_attempt_without_a_selection_names_its_question() -> None:
    scorer = RunScorer(RunInfo("r1", "model-x", "answer_only", 10, "complete"))
    scorer.add("Q7", 1, V, None, False, (T, F), False)
    with pytest.raises(ValueError, match="Q7"):
        scorer.result({})


def test_each_repetition_counts_every_correct_attempt() -> None:
    key = (T, F)
    run = score(
        [
            ("Q1", 1, V, key, True, key, False),
            ("Q2", 1, V, key, True, key, False),
            ("Q3", 1, V, (F, F), True, key, False),
            ("Q1", 2, V, key, True, key, False),
        ]
    )
    repetitions = run["repetitions"]
    assert isinstance(repetitions, list)
    assert [(r["repetition"], r["attempts"], r["correct"]) for r in repetitions] == [
        (1, 3, 2),
        (2, 1, 1),
    ]
    assert repetitions[0]["exact_accuracy"] == 2 / 3


# --- the order of runs (cli.md): tracks in order, unknown tracks after by name --------------


def test_unknown_tracks_come_after_the_known_ones_by_name() -> None:
    rows = [
        {"run_id": "r1", "track": "zeta_track", "scored": True, "exact_accuracy": 0.9},
        {"run_id": "r2", "track": "alpha_track", "scored": True, "exact_accuracy": 0.1},
        {"run_id": "r3", "track": "single_choice", "scored": True, "exact_accuracy": 0.5},
        {"run_id": "r4", "track": "answer_only", "scored": True, "exact_accuracy": 0.2},
        {"run_id": "r0", "track": "zeta_track", "scored": True, "exact_accuracy": 0.95},
    ]
    assert [row["run_id"] for row in order_runs(rows)] == ["r4", "r3", "r2", "r0", "r1"]


def test_runs_without_a_score_are_ordered_by_run_id() -> None:
    rows = [
        _row("c", None, scored=False),
        _row("a", 0.4, scored=False),
        _row("b", None),
        _row("d", 0.3),
    ]
    assert [row["run_id"] for row in order_runs(rows)] == ["d", "a", "b", "c"]


def test_counting_in_several_batches_adds_them_up() -> None:
    q1, q2 = (T, F), (T, T)
    attempts: list[Attempt] = [
        ("Q1", 1, V, q1, True, q1, True),
        ("Q2", 1, V, (T, F), False, q2, True),
        ("Q1", 2, V, q1, True, q1, False),
        ("Q2", 2, V, q2, True, q2, True),
    ]
    batches = RunScorer(RunInfo("r1", "model-x", "answer_only", 10, "complete"))
    for batch in (attempts[:2], attempts[2:]):
        batches.add_counts(
            [a[2] for a in batch],
            [a[0] for a in batch],
            [a[1] for a in batch],
            [a[3] == a[5] for a in batch],
            {"Q1": q1, "Q2": q2},
            sum(a[4] for a in batch),
            sum(a[6] for a in batch),
            [(a[0], a[3]) for a in batch if a[3] != a[5]],
        )
    run = batches.result({})
    assert run == score(attempts)
    assert (run["strict_format_rate"], run["disagreements"]) == (3 / 4, 3)
