"""Building the review index: content, reuse, cancellation, and no trace beside the audit."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from ai4hse_desk import __version__
from ai4hse_desk.audit import open_audit
from ai4hse_desk.index import (
    CACHE_ENV,
    INDEX_FORMAT,
    INDEXES,
    AttemptQuery,
    BuildCancelled,
    build_fts,
    build_index,
    build_rows,
    cache_dir,
    ensure_index,
    fts_path,
    index_path,
    open_index,
)
from ai4hse_desk.index import build as build_module
from ai4hse_desk.index import fts as fts_module
from ai4hse_desk.verdicts.rescore import iter_verdicts
from ai4hse_desk.verdicts.stream import verdict_stream
from ai4hse_desk.writer.demo import write_demo

MakeDb = Callable[..., Path]


def _files(folder: Path) -> dict[str, str]:
    """Every file in ``folder`` (hidden ones too) with its SHA-256."""
    if not folder.exists():
        return {}
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in folder.iterdir()}


def test_cache_dir_follows_the_environment(cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert cache_dir() == cache
    monkeypatch.delenv(CACHE_ENV)
    assert cache_dir().name == "ai4hse-desk"
    fingerprint = "ab" * 32
    monkeypatch.setenv(CACHE_ENV, str(cache))
    assert index_path(fingerprint) == cache / f"index-{'ab' * 16}.sqlite"
    assert fts_path(fingerprint) == cache / f"index-{'ab' * 16}-fts.sqlite"
    with pytest.raises(ValueError, match="not a SHA-256 hex fingerprint"):
        index_path("../../etc/passwd")


def test_rows_equal_the_desk_verdicts(make_audit_db: MakeDb) -> None:
    with open_audit(make_audit_db()) as db:
        path = build_index(db)
        runs = {run.run_id: run for run in db.runs()}
        ordinals = {q.question_id: q.ordinal for q in db.questions()}
        expected = [
            (
                v.attempt_id, ordinals[v.question_id], v.question_id, v.run_id,
                runs[v.run_id].model, runs[v.run_id].track.value, v.repetition,
                v.outcome.status.value if v.outcome.status.value in ("pending", "provider_error")
                else "answered",
                v.outcome.status.value, int(v.correct), int(v.outcome.strict_format),
                int(not v.agrees), v.recorded_status,
                None if v.outcome.selection is None
                else "".join("T" if x else "F" for x in v.outcome.selection),
                v.outcome.reason,
            )
            for v in iter_verdicts(db)
        ]  # fmt: skip
        with closing(sqlite3.connect(path)) as conn:
            rows = conn.execute(
                "SELECT r.attempt_id, ordinal, question_id, run_id, model, track, repetition, "
                "state, status, correct, strict, disagrees, recorded_status, selection, x.text "
                "FROM rows AS r JOIN reasons AS x USING (reason_id) ORDER BY attempt_id"
            ).fetchall()
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            labels = set(conn.execute("SELECT question_id, facet, value FROM labels"))
            text = conn.execute("SELECT search_text FROM questions WHERE question_id = 'Q001'")
            q001 = text.fetchone()[0]
        recorded_states = {a.attempt_id: a.state for a in db.attempts_by_ids(range(1, 31))}
        assert rows == expected
        assert len(rows) == 30
        assert {row[0]: row[7] for row in rows} == recorded_states
        assert set(recorded_states.values()) == {"answered", "pending", "provider_error"}
        assert any(row[11] for row in rows)  # the fenced JSON the runner called valid
        assert meta["index_format"] == str(INDEX_FORMAT)
        assert meta["desk_version"] == __version__
        assert meta["audit_fingerprint"] == db.fingerprint()
        assert meta["attempts"] == "30"
        assert meta["built_at"].endswith("Z")
        assert labels == {
            (qid, facet, value)
            for qid, facets in db.labels().items()
            for facet, value in facets.items()
        }
        assert q001.splitlines() == [
            "Which PPE is required when grinding metal?",
            "Safety glasses", "Open-toe sandals", "Hearing protection", "Loose necktie",
        ]  # fmt: skip


def test_a_valid_index_is_reused_not_rebuilt(make_audit_db: MakeDb, cache: Path) -> None:
    with open_audit(make_audit_db()) as db:
        assert open_index(db) is None
        with ensure_index(db) as index:
            assert index.total() == 30
        built = index_path(db.fingerprint())
        stamp = built.stat().st_mtime_ns, built.stat().st_ino
        with ensure_index(db) as again:
            assert again.path == built
        assert (built.stat().st_mtime_ns, built.stat().st_ino) == stamp
        assert sorted(_files(cache)) == [built.name]


def test_another_format_or_version_is_rebuilt(
    make_audit_db: MakeDb, monkeypatch: pytest.MonkeyPatch
) -> None:
    with open_audit(make_audit_db()) as db:
        build_index(db)
        monkeypatch.setattr(build_module, "INDEX_FORMAT", INDEX_FORMAT + 1)
        assert open_index(db) is None
        with ensure_index(db) as index:
            assert index.meta["index_format"] == str(INDEX_FORMAT + 1)
        monkeypatch.setattr(build_module, "__version__", "0.0.0-other")
        assert open_index(db) is None


def test_a_damaged_index_file_is_not_opened(make_audit_db: MakeDb) -> None:
    with open_audit(make_audit_db()) as db:
        path = build_index(db)
        path.write_bytes(b"not a database at all" * 10)
        assert open_index(db) is None
        with ensure_index(db) as index:
            assert index.count() == 30


def test_another_fingerprint_gets_another_file(make_audit_db: MakeDb, cache: Path) -> None:
    with (
        open_audit(make_audit_db()) as first,
        open_audit(make_audit_db(extra_questions=1)) as second,
    ):
        assert first.fingerprint() != second.fingerprint()
        one, two = build_index(first), build_index(second)
        assert one != two
        assert one.parent == two.parent == cache
        with ensure_index(first) as a, ensure_index(second) as b:
            assert (a.total(), b.total()) == (30, 36)


@pytest.mark.usefixtures("cache")
def test_the_progress_runs_on_through_the_index_creations(tmp_path: Path) -> None:
    """A progress bar fed by the build neither stops nor hides while the indexes are
    made (it showed done = total for seconds, and hid, before the index was ready):
    the attempts fill two thirds, each index a step of the last third, and done =
    total comes once, at the end."""
    calls: list[tuple[int, int]] = []
    write_demo(tmp_path / "demo.sqlite", attempts=25_000)
    with open_audit(tmp_path / "demo.sqlite") as db:
        attempts = db.count_attempts()

        def record(done: int, total: int) -> bool:
            calls.append((done, total))
            return True

        build_index(db, progress=record)
    whole = calls[0][1]
    assert {total for _, total in calls} == {whole}
    assert whole == attempts + attempts // 2
    dones = [done for done, _ in calls]
    assert dones == sorted(dones)  # never backwards
    assert [call for call in calls if call[0] == whole] == [(whole, whole)]
    assert calls[-1] == (whole, whole)
    index_steps = sorted({done for done in dones if done > attempts})
    assert len(index_steps) == len(INDEXES) + 1  # each index, ANALYZE, the end


@pytest.mark.parametrize("stage", ["verdicts", "indexes"])
def test_a_cancelled_build_leaves_nothing(tmp_path: Path, cache: Path, stage: str) -> None:
    """Cancelled while verdicts stream, or after them while the indexes are made."""
    calls: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> bool:
        calls.append((done, total))
        if stage == "verdicts":
            return False
        return sum(1 for call in calls if call[0] > attempts) < 2  # the second index

    write_demo(tmp_path / "demo.sqlite", attempts=25_000)
    with open_audit(tmp_path / "demo.sqlite") as db:
        attempts = db.count_attempts()
        with pytest.raises(BuildCancelled):
            build_index(db, progress=progress)
        if stage == "verdicts":
            assert len(calls) == 1
            assert 0 < calls[0][0] < attempts
        else:
            assert attempts < calls[-1][0] < calls[-1][1]  # among the index creations
        assert _files(cache) == {}
        assert open_index(db) is None


def test_a_cancelled_fts_build_leaves_nothing(
    make_audit_db: MakeDb, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fts_module, "_CHUNK", 7)
    seen: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> bool:
        seen.append((done, total))
        return len(seen) < 3

    with open_audit(make_audit_db()) as db:
        index_file = build_index(db)
        before = _files(cache)
        with pytest.raises(BuildCancelled):
            build_fts(db, progress=progress)
        assert seen == [(7, 30), (14, 30), (21, 30)]
        assert _files(cache) == before == {index_file.name: before[index_file.name]}
        seen.clear()

        def record(done: int, total: int) -> bool:
            seen.append((done, total))
            return True

        build_fts(db, progress=record)
        assert seen[-1] == (30, 30)


def test_the_audit_file_stays_untouched_and_alone(make_audit_db: MakeDb, cache: Path) -> None:
    audit = make_audit_db(journal_mode="wal")
    before = _files(audit.parent)
    with open_audit(audit) as db:
        build_fts(db)
        with ensure_index(db) as index:
            for mode in ("fts", "like"):
                assert index.count(AttemptQuery(text="snake_case", text_mode=mode)) == 1
            index.rows([1, 2, 3])
            index.compare_grid("Q001")
    assert _files(audit.parent) == before
    assert sorted(name for name in _files(cache)) == sorted(
        [index_path(db.fingerprint()).name, fts_path(db.fingerprint()).name]
    )


def test_stale_temporary_files_of_a_crashed_build_are_removed(
    make_audit_db: MakeDb, cache: Path
) -> None:
    with open_audit(make_audit_db()) as db:
        target = index_path(db.fingerprint())
        cache.mkdir()
        stale = cache / f".{target.name}.123-abcd1234.tmp"
        recent = cache / f".{target.name}.456-efgh5678.tmp"
        other = cache / f".{fts_path(db.fingerprint()).name}.123-abcd1234.tmp"
        for leftover in (stale, recent, other):
            leftover.write_bytes(b"half an index")
        for old in (stale, other):
            os.utime(old, (1_000_000, 1_000_000))
        build_index(db)
        assert sorted(_files(cache)) == sorted([target.name, recent.name, other.name])


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_while_verdicts_stream_and_left_as_found(
    make_audit_db: MakeDb, monkeypatch: pytest.MonkeyPatch, enabled: bool
) -> None:
    import gc

    seen: list[bool] = []
    stream = verdict_stream  # the build reads it from build_rows

    def watched(*args: object, **kwargs: object) -> object:
        for batch in stream(*args, **kwargs):  # type: ignore[arg-type]
            seen.append(gc.isenabled())
            yield batch

    monkeypatch.setattr(build_rows, "verdict_stream", watched)
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        with open_audit(make_audit_db()) as db:
            build_index(db)
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()
    assert seen
    assert not any(seen)
