"""Run metrics of protocol.md section 6 and the run ordering of cli.md."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import TYPE_CHECKING

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai4hse_desk.protocol.metrics import VOID, RunInfo, RunScorer, consistency_index, order_runs
from ai4hse_desk.protocol.outcome import PARSE_ERRORS, Selection, Status

if TYPE_CHECKING:
    from collections.abc import Mapping

T, F = True, False
RATES = (
    "exact_accuracy",
    "coverage",
    "valid_accuracy",
    "option_accuracy",
    "precision",
    "recall",
    "f1",
    "hamming_loss",
    "strict_format_rate",
)
RUN_KEYS = {
    "run_id", "model", "track", "protocol_version", "status", "scored", "attempts", "correct",
    "valid", *RATES, "errors", "baselines", "repetitions", "slices", "consistency_index",
    "disagreements",
}  # fmt: skip

Attempt = tuple[str, int, Status, Selection | None, bool, Selection, bool]


def score(
    attempts: list[Attempt],
    labels: Mapping[str, Mapping[str, str]] | None = None,
    status: str = "complete",
) -> dict[str, object]:
    scorer = RunScorer(RunInfo("r1", "model-x", "answer_only", 10, status))
    for attempt in attempts:
        scorer.add(*attempt)
    return scorer.result(labels or {})


KEYS: dict[str, Selection] = {
    "Q1": (T, F, T, F),
    "Q2": (T, T, F, F),
    "Q3": (F, F, F, T),
    "Q4": (T, T, T, T),
}
V = Status.VALID
# Hand-counted option outcomes of the valid attempts:
#   Q1 r1 correct  (T,F,T,F)/(T,F,T,F): TP 2, TN 2
#   Q2 r1 wrong    (T,F,F,T)/(T,T,F,F): TP 1, FN 1, TN 1, FP 1
#   Q1 r2 wrong    (T,T,T,F)/(T,F,T,F): TP 2, FP 1, TN 1
#   Q2 r2 correct  (T,T,F,F)/(T,T,F,F): TP 2, TN 2
#   total over 16 options: TP 7, FP 2, FN 1, TN 6
MIXED: list[Attempt] = [
    ("Q1", 1, V, (T, F, T, F), True, KEYS["Q1"], False),
    ("Q2", 1, V, (T, F, F, T), True, KEYS["Q2"], True),
    ("Q3", 1, Status.MALFORMED, None, False, KEYS["Q3"], False),
    ("Q4", 1, Status.PROVIDER_ERROR, None, False, KEYS["Q4"], False),
    ("Q1", 2, V, (T, T, T, F), True, KEYS["Q1"], False),
    ("Q2", 2, V, (T, T, F, F), False, KEYS["Q2"], False),
    ("Q3", 2, Status.INCOMPLETE, (F, F, F, T), False, KEYS["Q3"], True),
    ("Q4", 2, Status.WRONG_LENGTH, None, False, KEYS["Q4"], False),
]
LABELS = {
    "Q1": {"topic": "PPE", "source": "X"},
    "Q2": {"topic": "PPE"},
    "Q3": {"topic": "Fire"},
    "Q4": {"topic": "Fire"},
}


def test_run_object_has_exactly_the_cli_keys() -> None:
    run = score(MIXED, LABELS)
    assert set(run) == RUN_KEYS
    assert run["run_id"] == "r1"
    assert run["model"] == "model-x"
    assert run["track"] == "answer_only"
    assert run["protocol_version"] == 10
    assert run["status"] == "complete"
    assert run["scored"] is True
    json.dumps(run)  # JSON-ready


def test_counts_and_rates_of_a_mixed_run() -> None:
    run = score(MIXED, LABELS)
    assert (run["attempts"], run["correct"], run["valid"], run["disagreements"]) == (8, 2, 4, 2)
    assert run["exact_accuracy"] == 2 / 8  # incomplete Q3 r2 matches the key yet is incorrect
    assert run["coverage"] == 4 / 8
    assert run["valid_accuracy"] == 2 / 4
    assert run["option_accuracy"] == 13 / 16
    assert run["precision"] == 7 / 9
    assert run["recall"] == 7 / 8
    assert run["f1"] == pytest.approx(2 * (7 / 9) * (7 / 8) / (7 / 9 + 7 / 8), abs=1e-15)
    assert run["hamming_loss"] == 3 / 16
    assert run["strict_format_rate"] == 3 / 8


def test_errors_sum_parse_errors_and_list_every_status() -> None:
    errors = score(MIXED)["errors"]
    assert isinstance(errors, dict)
    assert errors["provider_error"] == 1
    assert errors["parse_error"] == 2  # malformed + wrong_length
    assert errors["incomplete"] == 1
    expected = dict.fromkeys((s.value for s in Status), 0)
    expected.update(valid=4, malformed=1, wrong_length=1, provider_error=1, incomplete=1)
    assert errors["by_status"] == expected
    assert list(errors["by_status"]) == [s.value for s in Status]


def test_parse_error_counts_every_parse_error_status() -> None:
    attempts: list[Attempt] = [
        (f"Q{i}", 1, status, None, False, (T, F), False) for i, status in enumerate(PARSE_ERRORS)
    ]
    errors = score(attempts)["errors"]
    assert isinstance(errors, dict)
    assert errors["parse_error"] == 8
    assert errors["provider_error"] == errors["incomplete"] == 0


def test_repetitions_have_their_own_wilson_interval() -> None:
    repetitions = score(MIXED)["repetitions"]
    assert repetitions == [
        {
            "repetition": r,
            "attempts": 4,
            "correct": 1,
            "exact_accuracy": 0.25,
            "wilson_low": pytest.approx(0.0456, abs=1e-4),
            "wilson_high": pytest.approx(0.6994, abs=1e-4),
        }
        for r in (1, 2)
    ]


def test_repetitions_sorted_by_number() -> None:
    attempts: list[Attempt] = [("Q1", r, V, (T, F), False, (T, F), False) for r in (3, 1, 2, 10)]
    repetitions = score(attempts)["repetitions"]
    assert isinstance(repetitions, list)
    assert [r["repetition"] for r in repetitions] == [1, 2, 3, 10]


def test_slices_per_facet_and_value() -> None:
    run = score(MIXED, LABELS)
    # Q3, Q4 have no 'source': they are left out of that facet.
    assert run["slices"] == {"source": {"X": 1 / 2}, "topic": {"Fire": 0.0, "PPE": 2 / 4}}
    slices = run["slices"]
    assert isinstance(slices, dict)
    assert list(slices["topic"]) == ["Fire", "PPE"]
    # M = 0.25, σ = 0.25: CV = 1 exactly, still inside [0, 1] → I = 0.
    assert run["consistency_index"] == 0.0


def test_no_topic_facet_means_no_consistency_index() -> None:
    run = score(MIXED, {"Q1": {"course": "Ecology"}})
    assert run["slices"] == {"course": {"Ecology": 0.5}}
    assert run["consistency_index"] is None


def test_consistency_facet_can_be_chosen() -> None:
    scorer = RunScorer(RunInfo("r1", "m", "single_choice", 10, "complete"))
    course = {"Q1": {"course": "A"}, "Q2": {"course": "B"}}
    scorer.add("Q1", 1, V, (T, F), True, (T, F), False)
    scorer.add("Q1", 2, V, (T, F), True, (T, F), False)
    scorer.add("Q1", 3, V, (F, T), True, (T, F), False)
    scorer.add("Q2", 1, V, (T, F), True, (T, F), False)
    scorer.add("Q2", 2, V, (F, T), True, (T, F), False)
    scorer.add("Q2", 3, V, (F, T), True, (T, F), False)
    # accuracies 2/3 and 1/3: M = 1/2, σ = 1/6, I = 1/2 − 1/6 = 1/3
    assert scorer.result(course, consistency_facet="course")["consistency_index"] == (
        pytest.approx(1 / 3, abs=1e-15)
    )
    assert scorer.result(course)["consistency_index"] is None


def test_consistency_index_valid_case() -> None:
    accuracies = [0.8, 0.6, 0.4]
    m = sum(accuracies) / 3
    cv = math.sqrt(sum((a - m) ** 2 for a in accuracies) / 3) / m
    result = consistency_index([(4, 5), (3, 5), (2, 5)])
    assert result == pytest.approx(m * (1 - cv), abs=1e-12)
    assert result == pytest.approx(0.4367007, abs=1e-6)


def test_consistency_index_void_and_undefined() -> None:
    assert consistency_index([(0, 1), (0, 1), (1, 1)]) == VOID == "void"  # CV = √2 > 1
    assert consistency_index([(0, 2), (0, 3)]) == VOID  # M = 0
    assert consistency_index([(1, 2), (1, 2)]) == 0.5  # CV = 0
    assert consistency_index([]) is None


def _index_on_fractions(slices: list[tuple[int, int]]) -> float | str:
    """The definition itself: M − σ on exact fractions, void when M = 0 or CV > 1."""
    accuracies = [Fraction(correct, attempts) for correct, attempts in slices]
    mean = sum(accuracies, Fraction(0)) / len(accuracies)
    if mean == 0:
        return VOID
    variance = sum(((a - mean) ** 2 for a in accuracies), Fraction(0)) / len(accuracies)
    if variance > mean * mean:
        return VOID
    if variance == mean * mean:
        return 0.0
    return max(0.0, float(mean) - math.sqrt(variance))


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.integers(1, 400).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
        min_size=1,
        max_size=12,
    )
)
def test_consistency_index_is_the_fraction_definition_to_the_last_bit(
    slices: list[tuple[int, int]],
) -> None:
    # Computed on integers; every verdict (void or not) and every float as on fractions.
    assert consistency_index(slices) == _index_on_fractions(slices)


def test_consistency_index_edge_of_void_is_exact() -> None:
    # CV exactly 1 (σ = M): 0.0, not void, and not float noise either way.
    assert consistency_index([(0, 1), (1, 1)]) == 0.0
    assert consistency_index([(0, 3), (2, 3)]) == 0.0
    assert consistency_index([(0, 7), (0, 7), (3, 7)]) == VOID


def test_baselines_count_each_question_once() -> None:
    attempts: list[Attempt] = [("Q0", r, V, (F, F), False, (F, F), False) for r in (1, 2, 3)]
    attempts.append(("Q1", 1, V, (T, F), False, (T, F), False))
    # per attempt it would be 3/4 all FALSE; per question it is 1/2.
    assert score(attempts)["baselines"] == {"always_true": 0.0, "always_false": 0.5}
    assert score(MIXED)["baselines"] == {"always_true": 0.25, "always_false": 0.0}


def test_valid_accuracy_is_undefined_without_valid_attempts() -> None:
    attempts: list[Attempt] = [
        ("Q1", 1, Status.MISSING, None, False, (T, F), False),
        ("Q2", 1, Status.PROVIDER_ERROR, None, False, (T, F), False),
    ]
    run = score(attempts)
    assert run["exact_accuracy"] == 0.0
    assert run["coverage"] == 0.0
    for rate in ("valid_accuracy", "option_accuracy", "precision", "recall", "f1", "hamming_loss"):
        assert run[rate] is None, rate


def test_precision_undefined_when_nothing_predicted_true() -> None:
    run = score([("Q1", 1, V, (F, F, F), False, (T, F, F), False)])
    assert run["precision"] is None
    assert run["recall"] == 0.0
    assert run["f1"] is None
    assert run["option_accuracy"] == 2 / 3
    assert run["hamming_loss"] == 1 / 3


def test_recall_undefined_when_no_key_is_true() -> None:
    run = score([("Q1", 1, V, (T, F, F), False, (F, F, F), False)])
    assert run["recall"] is None
    assert run["precision"] == 0.0
    assert run["f1"] is None


def test_f1_is_zero_when_precision_and_recall_are_zero() -> None:
    run = score([("Q1", 1, V, (T, F), False, (F, T), False)])
    assert run["precision"] == 0.0
    assert run["recall"] == 0.0
    assert run["f1"] == 0.0


def test_rates_are_full_precision() -> None:
    attempts: list[Attempt] = [
        ("Q1", r, V, (T, F) if r == 1 else (F, F), False, (T, F), False) for r in (1, 2, 3)
    ]
    assert score(attempts)["exact_accuracy"] == 1 / 3


def assert_unscored(run: dict[str, object]) -> None:
    assert run["scored"] is False
    for rate in RATES:
        assert run[rate] is None, rate
    assert run["baselines"] == {"always_true": None, "always_false": None}
    assert run["consistency_index"] is None
    repetitions = run["repetitions"]
    assert isinstance(repetitions, list)
    assert repetitions
    for repetition in repetitions:
        assert repetition["exact_accuracy"] is None
        assert repetition["wilson_low"] is None
        assert repetition["wilson_high"] is None
    slices = run["slices"]
    assert isinstance(slices, dict)
    assert slices
    assert all(v is None for values in slices.values() for v in values.values())


def test_unfinished_run_keeps_counts_but_no_rates() -> None:
    run = score(MIXED, LABELS, status="unfinished")
    assert_unscored(run)
    assert (run["attempts"], run["correct"], run["valid"], run["disagreements"]) == (8, 2, 4, 2)
    assert run["errors"]["parse_error"] == 2  # type: ignore[index]
    assert [(r["attempts"], r["correct"]) for r in run["repetitions"]] == [(4, 1), (4, 1)]  # type: ignore[attr-defined]
    assert run["slices"] == {"source": {"X": None}, "topic": {"Fire": None, "PPE": None}}


def test_pending_attempt_makes_the_run_unscored() -> None:
    pending: Attempt = ("Q5", 2, Status.PENDING, None, False, (T, F), False)
    run = score([*MIXED, pending], LABELS)
    assert_unscored(run)
    assert run["attempts"] == 9
    assert run["errors"]["by_status"]["pending"] == 1  # type: ignore[index]


def test_run_without_attempts_has_null_rates() -> None:
    run = score([])
    assert run["scored"] is True
    assert run["attempts"] == 0
    assert all(run[rate] is None for rate in RATES)
    assert run["baselines"] == {"always_true": None, "always_false": None}
    assert run["repetitions"] == []
    assert run["slices"] == {}
    assert run["consistency_index"] is None


def test_valid_selection_of_the_wrong_length_is_rejected() -> None:
    with pytest.raises(ValueError, match="against key"):
        score([("Q1", 1, V, (T, F, T), False, (T, F), False)])


def run_row(
    run_id: str, track: str, accuracy: float | None, scored: bool = True
) -> dict[str, object]:
    return {"run_id": run_id, "track": track, "scored": scored, "exact_accuracy": accuracy}


def test_order_runs_groups_tracks_then_accuracy_then_run_id() -> None:
    rows = [
        run_row("sc", "single_choice", 0.99),
        run_row("so", "structured_output", 0.9),
        run_row("a-c", "answer_only", 0.5),
        run_row("a-d", "answer_only", None, scored=False),
        run_row("a-a", "answer_only", 0.5),
        run_row("a-e", "answer_only", None),  # scored, zero attempts
        run_row("a-b", "answer_only", 0.7),
        run_row("ra", "reasoning_assisted", 0.1),
        run_row("a-0", "answer_only", 0.0),
    ]
    ordered = [row["run_id"] for row in order_runs(rows)]
    assert ordered == ["a-b", "a-a", "a-c", "a-0", "a-d", "a-e", "ra", "so", "sc"]


def test_order_runs_ignores_accuracy_of_unscored_runs() -> None:
    rows = [run_row("b", "answer_only", 0.1), run_row("a", "answer_only", 0.9, scored=False)]
    assert [row["run_id"] for row in order_runs(rows)] == ["b", "a"]


STATUSES = list(Status)
selections = st.tuples(st.booleans(), st.booleans(), st.booleans())


@settings(max_examples=60, deadline=None)
@given(
    keys=st.lists(selections, min_size=1, max_size=5),
    draws=st.lists(
        st.tuples(st.integers(0, 4), st.integers(1, 3), st.sampled_from(STATUSES), selections),
        max_size=40,
    ),
)
def test_streamed_metrics_match_a_direct_count(
    keys: list[Selection], draws: list[tuple[int, int, Status, Selection]]
) -> None:
    scorer = RunScorer(RunInfo("r", "m", "answer_only", 10, "complete"))
    tp = fp = fn = tn = correct = 0
    seen = set()
    for q, repetition, status, selection in draws:
        if status is Status.PENDING:
            continue
        key = keys[q % len(keys)]
        seen.add(q % len(keys))
        scorer.add(f"Q{q % len(keys)}", repetition, status, selection, False, key, False)
        if status is V:
            correct += selection == key
            for s, k in zip(selection, key, strict=True):
                tp, fp, fn, tn = (
                    tp + (s and k),
                    fp + (s and not k),
                    fn + (k and not s),
                    tn + (not s and not k),
                )
    run = scorer.result({f"Q{i}": {"topic": str(i % 2)} for i in range(len(keys))})
    n = sum(1 for d in draws if d[2] is not Status.PENDING)
    assert run["attempts"] == n
    assert run["correct"] == correct
    assert run["exact_accuracy"] == (correct / n if n else None)
    options = tp + fp + fn + tn
    assert run["option_accuracy"] == ((tp + tn) / options if options else None)
    assert run["precision"] == (tp / (tp + fp) if tp + fp else None)
    assert run["recall"] == (tp / (tp + fn) if tp + fn else None)
    assert run["hamming_loss"] == ((fp + fn) / options if options else None)
    for rate in RATES:
        value = run[rate]
        assert value is None or (isinstance(value, float) and 0.0 <= value <= 1.0), rate
    index = run["consistency_index"]
    assert index is None or index == VOID or (isinstance(index, float) and 0.0 <= index <= 1.0)
