"""The candidate features of the key audit's search beyond the votes
(``tests/benchmarks/keyaudit_candidates.py``): each measures what
``docs/explain/key-audit-model.md`` says it measures, so the figures there mean what
they say."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from keyaudit_candidates import Context, columns
from keyaudit_redux import ReduxQuestion


def question(
    qid: str, text: str, options: tuple[str, ...], key: int, subject: str = "s"
) -> ReduxQuestion:
    return ReduxQuestion(qid, subject, text, options, key, "ok", {})


def column(ctx: Context, name: str) -> np.ndarray:
    return columns(ctx, [name])[name][0]


def test_a_key_duplicating_the_plurality_option_is_seen_as_a_near_duplicate() -> None:
    dup = question(
        "q1",
        "How do charges flow in dc?",
        ("steadily in one direction", "in one direction", "to and fro", "all"),
        1,
    )
    plain = question("q2", "What is 2 + 2?", ("3", "4", "5", "6"), 1)  # fmt: skip
    # Both: 8 runs choose A against key B.
    letters = np.array([[0] * 8 + [1, 1], [0] * 8 + [1, 1]])
    ctx = Context([dup, plain], letters, np.array([1, 1]))
    assert column(ctx, "contains").tolist() == [1.0, 0.0]
    overlap = column(ctx, "jaccard")
    assert overlap[0] > 0.5
    assert overlap[1] == 0.0


def test_identical_runs_count_once() -> None:
    qs = [question(f"q{i}", "Q?", ("a", "b", "c", "d"), 0) for i in range(3)]
    # Runs 0 and 1 answer identically everywhere and contest the key of q0 together.
    letters = np.array([[1, 1, 0, 0], [0, 0, 0, 2], [2, 2, 3, 0]])
    shift = column(Context(qs, letters, np.zeros(3, dtype=int)), "dedup")
    # q0: the plurality drops from 2 of 4 runs to 1 of 3 once the twins count once.
    assert shift[0] == pytest.approx(1 / 3 - 2 / 4)


def test_a_category_feature_never_reads_the_question_itself() -> None:
    qs = [question("a1", "Q?", ("a", "b", "c", "d"), 0, "one"),
          question("a2", "Q?", ("a", "b", "c", "d"), 0, "one"),
          question("b1", "Q?", ("a", "b", "c", "d"), 0, "two")]  # fmt: skip
    letters = np.array([[1, 1, 1, 1], [0, 0, 0, 0], [1, 1, 0, 0]])
    contest = column(Context(qs, letters, np.zeros(3, dtype=int)), "category_contest")
    # a1 is contested by every run, a2 by none: each sees only the other.
    assert contest.tolist() == [0.0, 1.0, 0.0]


def test_a_negated_stem_is_found_and_a_word_containing_not_is_not() -> None:
    stems = (
        "Which of these is NOT a noble gas?",
        "Knot theory studies which objects?",
        "All of these are metals except which one?",
    )
    qs = [question(f"n{i}", stem, ("a", "b", "c", "d"), 0) for i, stem in enumerate(stems)]
    ctx = Context(qs, np.zeros((3, 2), dtype=int), np.zeros(3, dtype=int))
    assert column(ctx, "negation_strict").tolist() == [1.0, 0.0, 1.0]
