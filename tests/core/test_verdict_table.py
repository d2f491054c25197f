"""One verdict table: the review index stores the whole verdict, and every view reads it.

The window's scores, key audit, compare grid and detail panel read the stored
verdicts instead of deriving again; each must equal what a fresh derivation
gives, exactly.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.audit import AuditDB, open_audit
from ai4hse_desk.index import CACHE_ENV, ReviewIndex, ensure_index
from ai4hse_desk.keyaudit import compute_key_audit
from ai4hse_desk.scores.cache import compute_scores
from ai4hse_desk.verdicts.attempt_detail import build_detail
from ai4hse_desk.verdicts.rescore import AttemptVerdict, RescoreCancelled, iter_verdicts, rescore
from ai4hse_desk.verdicts.scoring import score_verdicts, with_progress
from ai4hse_desk.writer.demo import write_demo

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path


@dataclass
class Demo:
    db: AuditDB
    index: ReviewIndex
    derived: list[AttemptVerdict]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    folder = tmp_path_factory.mktemp("verdict-table")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(folder / "cache"))
        write_demo(folder / "demo.sqlite")
        with open_audit(folder / "demo.sqlite") as db:
            derived = list(iter_verdicts(db))
            with ensure_index(db) as index:
                yield Demo(db, index, derived)


def _without_spans(verdict: AttemptVerdict) -> AttemptVerdict:
    return replace(verdict, outcome=replace(verdict.outcome, spans=()))


def test_the_index_stores_every_verdict_whole(demo: Demo) -> None:
    stored = [demo.index.verdict(v.attempt_id) for v in demo.derived]
    assert stored == [_without_spans(v) for v in demo.derived]
    assert demo.index.verdict(10**9) is None
    assert any(v.outcome.selection is None for v in demo.derived)  # NULL selections too


def test_stored_batches_are_the_derived_ones(demo: Demo) -> None:
    stored = [t for batch in demo.index.verdict_batches(batch=97) for t in batch]
    assert [AttemptVerdict(*t) for t in stored] == [_without_spans(v) for v in demo.derived]
    skipped = {"Q001", "Q060"}
    kept = [t[0] for b in demo.index.verdict_batches(skipped) for t in b]
    assert kept == [v.attempt_id for v in demo.derived if v.question_id not in skipped]


def test_scores_from_the_index_equal_rescore_exactly(demo: Demo) -> None:
    official = rescore(demo.db, workers=1)
    from_index = score_verdicts(demo.db, demo.index.verdict_batches())
    assert json.dumps(from_index.runs) == json.dumps(official.runs)
    assert from_index.attempts == official.attempts
    run_id = official.runs[0]["run_id"]
    assert isinstance(run_id, str)
    one = score_verdicts(demo.db, demo.index.verdict_batches(), [run_id])
    assert json.dumps(one.runs) == json.dumps(rescore(demo.db, [run_id]).runs)


def test_the_window_scores_come_from_the_index(demo: Demo, tmp_path: Path) -> None:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(tmp_path))  # an empty scores cache
        patch.setattr("ai4hse_desk.scores.cache.rescore", _no_rescore)
        result = compute_scores(demo.db, index=demo.index, use_cache=False)
    assert json.dumps(result.runs) == json.dumps(rescore(demo.db).runs)


def _no_rescore(*_: object, **__: object) -> object:
    raise AssertionError("the window's scores must not derive the attempts again")


def test_reading_the_index_reports_progress_and_can_be_cancelled(demo: Demo) -> None:
    seen: list[tuple[int, int]] = []
    total = demo.index.total()

    def record(done: int, total: int) -> bool:
        seen.append((done, total))
        return True

    batches = with_progress(demo.index.verdict_batches(batch=500), total, record)
    score_verdicts(demo.db, batches)
    assert seen[-1] == (total, total)
    assert len(seen) == -(-total // 500)
    stop = with_progress(demo.index.verdict_batches(batch=500), total, lambda d, _t: d < 1000)
    with pytest.raises(RescoreCancelled):
        score_verdicts(demo.db, stop)


def test_the_key_audit_from_the_index_equals_a_fresh_one(demo: Demo) -> None:
    fresh = compute_key_audit(demo.db).to_json(None)
    from_index = compute_key_audit(demo.db, index=demo.index).to_json(None)
    assert from_index == fresh


def test_the_detail_from_a_stored_verdict_equals_a_full_derivation(demo: Demo) -> None:
    questions = {q.question_id: q for q in demo.db.questions()}
    runs = {r.run_id: r for r in demo.db.runs()}
    ids = [v.attempt_id for v in demo.derived][::7]
    for attempt in demo.db.attempts_by_ids(ids):
        question, run = questions[attempt.question_id], runs[attempt.run_id]
        full = build_detail(attempt, question, run)
        stored = demo.index.verdict(attempt.attempt_id)
        assert build_detail(attempt, question, run, stored) == full
    other = demo.index.verdict(ids[1])
    first = demo.db.attempts_by_ids(ids[:1])[0]
    with pytest.raises(ValueError, match="is not attempt"):
        build_detail(first, questions[first.question_id], runs[first.run_id], other)


def test_compare_grid_rows_carry_the_selection(demo: Demo) -> None:
    by_id = {v.attempt_id: v for v in demo.derived}
    grid = demo.index.compare_grid("Q060")
    assert grid
    assert all(row.selection == by_id[row.attempt_id].outcome.selection for row in grid)
