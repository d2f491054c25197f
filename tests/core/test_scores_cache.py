"""The scores cache (per fingerprint and desk version) and rescoring without some questions."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

import ai4hse_desk.scores.cache as cache_module
from ai4hse_desk import __version__
from ai4hse_desk.audit import open_audit
from ai4hse_desk.cli.main import main as cli_main
from ai4hse_desk.index import CACHE_ENV
from ai4hse_desk.scores import compute_scores, read_cached, scores_cache_path
from ai4hse_desk.scores.cache import CACHE_FORMAT, load_scores, write_cached
from ai4hse_desk.verdicts.rescore import RescoreCancelled, rescore

if TYPE_CHECKING:
    from pathlib import Path


def test_scores_equal_the_rescore_json_to_the_last_digit(
    demo_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_main(["rescore", str(demo_db)]) == 0
    printed = json.loads(capsys.readouterr().out)["runs"]
    with open_audit(demo_db) as db:
        fresh = compute_scores(db)
        cached = compute_scores(db)
    assert fresh.runs == printed
    assert cached.runs == printed
    assert json.dumps(cached.runs) == json.dumps(printed)  # same digits, same order


def test_cache_file_lives_in_the_cache_folder_keyed_by_fingerprint(
    audit_db: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = sorted(p.name for p in audit_db.parent.iterdir())
    with open_audit(audit_db) as db:
        fingerprint = db.fingerprint()
        first = compute_scores(db)
        path = scores_cache_path(fingerprint)
        assert path.parent == cache
        assert path.name == f"scores-{fingerprint[:32]}.json"
        stored = json.loads(path.read_text())
        assert stored["format"] == CACHE_FORMAT
        assert stored["fingerprint"] == fingerprint
        assert stored["desk_version"] == __version__

        def no_rescore(*_args: object, **_kwargs: object) -> None:
            raise AssertionError("the cache should have answered")

        monkeypatch.setattr(cache_module, "rescore", no_rescore)
        assert compute_scores(db) == first
    assert sorted(p.name for p in audit_db.parent.iterdir()) == before  # nothing beside it


def test_another_desk_version_or_a_damaged_file_recomputes(
    audit_db: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_audit(audit_db) as db:
        fingerprint = db.fingerprint()
        result = compute_scores(db)
        path = scores_cache_path(fingerprint)
        assert read_cached(fingerprint) == result
        monkeypatch.setattr(cache_module, "__version__", "9.9.9")
        assert read_cached(fingerprint) is None
        monkeypatch.undo()
        monkeypatch.setenv(CACHE_ENV, str(cache))
        for damage in ("{", "[]", '{"format": "other"}', ""):
            path.write_text(damage)
            assert read_cached(fingerprint) is None
        assert compute_scores(db) == result
        assert read_cached(fingerprint) == result
        assert compute_scores(db, use_cache=False) == result
    with pytest.raises(ValueError, match="fingerprint"):
        scores_cache_path("../../etc/passwd")


def test_a_cancelled_computation_caches_nothing(audit_db: Path) -> None:
    with open_audit(audit_db) as db:
        with pytest.raises(RescoreCancelled):
            compute_scores(db, progress=lambda _done, _total: False)
        assert read_cached(db.fingerprint()) is None


def test_load_scores_brings_settings_questions_and_the_consistency_facet(audit_db: Path) -> None:
    with open_audit(audit_db) as db:
        data = load_scores(db)
        assert data.result.runs == rescore(db).runs
    assert set(data.settings) == {"r1", "r2", "r3"}
    assert [q.question_id for q in data.questions][:2] == ["Q001", "Q002"]
    assert data.consistency_facet == "topic"


def test_write_cached_is_atomic_and_leaves_no_temp_file(audit_db: Path, cache: Path) -> None:
    with open_audit(audit_db) as db:
        path = write_cached(db.fingerprint(), rescore(db))
    assert [p.name for p in cache.iterdir()] == [path.name]


def _by_id(runs: list[dict[str, object]]) -> dict[str, dict[str, Any]]:
    """The run objects of a rescore by run id."""
    return {str(run["run_id"]): run for run in runs}


def test_rescore_without_questions_skips_their_attempts(audit_db: Path) -> None:
    with open_audit(audit_db) as db:
        official = _by_id(rescore(db).runs)
        same = rescore(db, exclude_questions=())
        without = rescore(db, exclude_questions={"Q001", "Q004"})
        with_progress = rescore(
            db, exclude_questions=["Q001", "Q004"], progress=lambda _d, _t: True
        )
        seen: list[str] = []
        rescore(db, exclude_questions={"Q001"}, on_attempt=lambda v: seen.append(v.question_id))
    assert same.runs == list(official.values())
    assert with_progress.runs == without.runs
    assert "Q001" not in seen
    assert len(seen) == 30 - 6
    assert without.attempts == 30 - 12
    by_id = _by_id(without.runs)
    r1 = by_id["r1"]
    assert r1["attempts"] == official["r1"]["attempts"] - 4
    assert r1["slices"]["topic"].keys() == {"PPE", "Fire Safety"}  # Q004 was the Chemicals one
    assert r1["baselines"]["always_true"] == 0.0  # Q004 (all TRUE) left out
    assert by_id["r1"]["exact_accuracy"] != official["r1"]["exact_accuracy"]
