"""The review report's sensitivity table: official, without excluded, with corrected keys."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.audit import open_audit
from ai4hse_desk.errors import InputProblem
from ai4hse_desk.protocol.outcome import Status
from ai4hse_desk.verdicts.key_sensitivity import (
    FIGURES,
    SensitivityInputError,
    review_sensitivity,
)
from ai4hse_desk.verdicts.rescore import AttemptVerdict, RescoreCancelled, rescore

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Mapping
    from pathlib import Path

T, F = True, False


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _recorder(seen: list[tuple[int, int]]) -> Callable[[int, int], bool]:
    def progress(done: int, total: int) -> bool:
        seen.append((done, total))
        return True

    return progress


def _by_run(runs: list[dict[str, object]]) -> dict[str, dict[str, object]]:
    return {str(run["run_id"]): run for run in runs}


def _decisions(path: Path) -> tuple[dict[str, tuple[bool, ...]], set[str]]:
    """Corrected keys (the first option flipped) for three questions, two others excluded."""
    with open_audit(path) as db:
        ids = list(db.answer_keys().items())
    corrected = {qid: (not key[0], *key[1:]) for qid, key in ids[:3]}
    return corrected, {ids[3][0], ids[4][0]}


def _rekeyed_copy(
    path: Path, target: Path, corrected: Mapping[str, tuple[bool, ...]], excluded: Collection[str]
) -> Path:
    """A copy of ``path`` with the corrected keys written in and the excluded attempts gone."""
    shutil.copyfile(path, target)
    conn = sqlite3.connect(target)
    try:
        for question_id, key in corrected.items():
            for position, value in enumerate(key):
                conn.execute(
                    "UPDATE options SET key = ? WHERE question_id = ? AND position = ?",
                    (int(value), question_id, position),
                )
        conn.executemany("DELETE FROM attempts WHERE question_id = ?", [(q,) for q in excluded])
        conn.commit()
    finally:
        conn.close()
    return target


@pytest.mark.parametrize("source", ["audit_db", "demo_db"])
def test_without_decisions_every_figure_is_the_official_one(
    source: str, request: pytest.FixtureRequest
) -> None:
    path: Path = request.getfixturevalue(source)
    with open_audit(path) as db:
        official = rescore(db).runs
        rows = review_sensitivity(db, {}, ())
    assert [row["run_id"] for row in rows] == [run["run_id"] for run in official]
    assert any(run["scored"] is False for run in official)
    for row, run in zip(rows, official, strict=True):
        assert (row["model"], row["track"]) == (run["model"], run["track"])
        assert row["not_official"] is True
        assert row["official"] == row["without_excluded"] == row["with_corrected_keys"]
        assert row["official"] == run["exact_accuracy"]
        assert row["repetitions"] == dict.fromkeys(FIGURES, run["repetitions"])


@pytest.mark.parametrize("source", ["audit_db", "demo_db"])
def test_corrected_keys_equal_a_rescore_of_a_rekeyed_copy(
    source: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    path: Path = request.getfixturevalue(source)
    corrected, excluded = _decisions(path)
    copy = _rekeyed_copy(path, tmp_path / "rekeyed.sqlite", corrected, excluded)
    with open_audit(copy) as db:
        by_hand = _by_run(rescore(db).runs)
    with open_audit(path) as db:
        official = rescore(db).runs
        rows = review_sensitivity(db, corrected, excluded)
    assert [row["run_id"] for row in rows] == [run["run_id"] for run in official]
    changed = 0
    for row, run in zip(rows, official, strict=True):
        expected = by_hand[str(row["run_id"])]
        assert row["official"] == run["exact_accuracy"]
        if run["scored"]:
            assert row["with_corrected_keys"] == expected["exact_accuracy"]
            assert row["repetitions"]["with_corrected_keys"] == expected["repetitions"]  # type: ignore[index]
            changed += row["with_corrected_keys"] != row["without_excluded"]
        else:
            assert row["with_corrected_keys"] is None
    assert changed  # the corrections move at least one run's figure


def test_corrected_keys_equal_a_count_by_hand(demo_db: Path) -> None:
    corrected, excluded = _decisions(demo_db)
    counts: dict[str, list[int]] = {}

    def count(verdict: AttemptVerdict) -> None:
        if verdict.question_id in excluded:
            return
        tally = counts.setdefault(verdict.run_id, [0, 0])
        key = corrected.get(verdict.question_id)
        right = verdict.correct if key is None else verdict.outcome.selection == key
        tally[0] += 1
        tally[1] += verdict.outcome.status is Status.VALID and right

    with open_audit(demo_db) as db:
        official = _by_run(rescore(db, on_attempt=count).runs)
        rows = review_sensitivity(db, corrected, excluded)
    for row in rows:
        attempts, correct = counts[str(row["run_id"])]
        scored = official[str(row["run_id"])]["scored"]
        assert row["with_corrected_keys"] == (correct / attempts if scored else None)


def test_without_excluded_equals_rescore_without_those_questions(audit_db: Path) -> None:
    excluded = {"Q001", "Q004"}
    with open_audit(audit_db) as db:
        explored = _by_run(rescore(db, exclude_questions=excluded).runs)
        official = _by_run(rescore(db).runs)
        rows = review_sensitivity(db, {"Q001": (F, F, F, F)}, excluded)
    moved = 0
    for row in rows:
        run = explored[str(row["run_id"])]
        scored = official[str(row["run_id"])]["scored"]
        assert row["without_excluded"] == (run["exact_accuracy"] if scored else None)
        assert row["repetitions"]["without_excluded"] == run["repetitions"]  # type: ignore[index]
        # Q001's corrected key does not count: the question is excluded.
        assert row["with_corrected_keys"] == row["without_excluded"]
        moved += row["without_excluded"] != row["official"]
    assert moved


def test_unscored_runs_give_no_figure(audit_db: Path) -> None:
    with open_audit(audit_db) as db:
        rows = _by_run(review_sensitivity(db, {"Q001": (F, F, T, F)}, {"Q002"}))
    assert {figure: rows["r3"][figure] for figure in FIGURES} == dict.fromkeys(FIGURES)
    assert rows["r1"]["official"] is not None


def test_a_run_unscored_officially_stays_unscored_without_its_pending_questions(
    make_audit_db: Callable[..., Path],
) -> None:
    # r3 complete, but with pending attempts on Q004 and Q005 only.
    path = make_audit_db(after=["UPDATE runs SET status = 'complete' WHERE run_id = 'r3'"])
    excluded = {"Q004", "Q005"}
    with open_audit(path) as db:
        assert _by_run(rescore(db).runs)["r3"]["scored"] is False
        assert _by_run(rescore(db, exclude_questions=excluded).runs)["r3"]["scored"] is True
        row = _by_run(review_sensitivity(db, {}, excluded))["r3"]
    assert {figure: row[figure] for figure in FIGURES} == dict.fromkeys(FIGURES)
    for repetitions in row["repetitions"].values():  # type: ignore[attr-defined]
        assert repetitions
        for repetition in repetitions:
            assert repetition["attempts"] > 0
            assert repetition["exact_accuracy"] is None
            assert repetition["wilson_low"] is repetition["wilson_high"] is None


def test_a_list_key_scores_like_the_same_tuple(audit_db: Path) -> None:
    with open_audit(audit_db) as db:
        as_tuple = review_sensitivity(db, {"Q001": (F, F, T, F)}, ())
        as_list = review_sensitivity(db, {"Q001": [F, F, T, F]}, ())
    assert as_list == as_tuple
    assert any(row["with_corrected_keys"] != row["official"] for row in as_tuple)


@pytest.mark.parametrize(
    ("corrected", "excluded", "message"),
    [
        ({"Q001": (T, F, T, F, F)}, (), "Q001 has 5 values, the question has 4 options"),
        ({"Q003": (T, T, F, F)}, (), "Q003 has 4 values, the question has 5 options"),
        ({"Q002": ()}, (), "Q002 has 0 values"),
        ({"Q999": (T, F, T, F)}, (), "unknown question: Q999"),
        ({"Q001": (1, 0, 1, 0)}, (), "only TRUE/FALSE"),
        ({}, ("Q001", "Q404"), "excluded question not in the audit database: Q404"),
    ],
)
def test_a_key_or_exclusion_that_does_not_fit_is_refused(
    audit_db: Path,
    corrected: dict[str, tuple[object, ...]],
    excluded: tuple[str, ...],
    message: str,
) -> None:
    read: list[tuple[int, int]] = []
    with open_audit(audit_db) as db, pytest.raises(SensitivityInputError, match=message) as info:
        review_sensitivity(db, corrected, excluded, progress=_recorder(read))  # type: ignore[arg-type]
    assert isinstance(info.value, InputProblem)
    assert isinstance(info.value, ValueError)
    assert read == []  # refused before reading any attempt


def test_progress_is_reported_and_can_cancel(audit_db: Path) -> None:
    seen: list[tuple[int, int]] = []
    with open_audit(audit_db) as db:
        review_sensitivity(db, {}, (), progress=_recorder(seen))
        assert seen
        assert seen[-1] == (30, 30)
        with pytest.raises(RescoreCancelled):
            review_sensitivity(db, {}, (), progress=lambda _d, _t: False)


def test_the_audit_file_is_left_unchanged(audit_db: Path) -> None:
    before = _sha256(audit_db)
    files = sorted(p.name for p in audit_db.parent.iterdir())
    with open_audit(audit_db) as db:
        rows = review_sensitivity(db, {"Q001": (F, F, T, F)}, {"Q004"})
    assert rows
    assert _sha256(audit_db) == before
    assert sorted(p.name for p in audit_db.parent.iterdir()) == files
