"""A review index built by more than one process is the one a single process builds.

The workers are real spawned processes (as in the window), on small files with the
number of processes forced; a file below the size rule is built by this process alone.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

from ai4hse_desk.audit import AuditError, open_audit
from ai4hse_desk.index import BuildCancelled, build_index, build_rows, open_index
from ai4hse_desk.verdicts.workers import PARALLEL_MIN_ATTEMPTS, id_ranges
from ai4hse_desk.writer.demo import write_demo

MakeDb = Callable[..., Path]


def _content(path: Path) -> dict[str, list[tuple[object, ...]]]:
    with closing(sqlite3.connect(path)) as conn:
        return {
            table: sorted(conn.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
            for table in ("rows", "reasons", "questions", "labels")
        }


def _built(db_path: Path, cache: Path, workers: int) -> dict[str, list[tuple[object, ...]]]:
    with open_audit(db_path) as db:
        content = _content(build_index(db, workers=workers))
    for file in cache.iterdir():
        file.unlink()
    return content


def test_id_ranges_cover_every_id_once_in_order() -> None:
    assert id_ranges(1, 10, 2) == [(1, 5), (6, 10)]
    assert id_ranges(1, 11, 2) == [(1, 6), (7, 11)]
    assert id_ranges(5, 5, 2) == [(5, 5)]  # one id: one range, whatever is asked
    assert id_ranges(1, 10, 3) == [(1, 4), (5, 8), (9, 10)]
    assert id_ranges(1, 10, 1) == [(1, 10)]


@pytest.mark.parametrize("workers", [2, 3])
def test_rows_and_reason_numbers_equal_a_single_process_build(
    make_audit_db: MakeDb, cache: Path, workers: int
) -> None:
    audit = make_audit_db()
    alone = _built(audit, cache, 1)
    assert len(alone["rows"]) == 30
    # Meaningful only if a later range meets a sentence the first one never did.
    first = id_ranges(1, 30, workers)[0][1]
    ids = [(int(str(row[0])), row[14]) for row in alone["rows"]]
    lower = {reason for attempt, reason in ids if attempt <= first}
    assert {reason for attempt, reason in ids if attempt > first} - lower
    assert _built(audit, cache, workers) == alone


def test_a_large_demo_built_in_two_processes_is_the_same_index(tmp_path: Path, cache: Path) -> None:
    write_demo(tmp_path / "demo.sqlite", attempts=12_000)
    calls: list[tuple[int, int]] = []

    def record(done: int, total: int) -> bool:
        calls.append((done, total))
        return True

    with open_audit(tmp_path / "demo.sqlite") as db:
        attempts = db.count_attempts()
        split = build_index(db, workers=2, progress=record)
        digest = hashlib.sha256(repr(_content(split)).encode()).hexdigest()
        split.unlink()
        alone = build_index(db, workers=1)
        assert hashlib.sha256(repr(_content(alone)).encode()).hexdigest() == digest
    # The progress counts both processes' attempts: it reaches every attempt, never
    # goes back, and ends once at done = total.
    whole = calls[0][1]
    assert whole == attempts + attempts // 2
    dones = [done for done, _ in calls]
    assert dones == sorted(dones)
    assert attempts in dones
    assert calls[-1] == (whole, whole)
    assert sorted(p.name for p in cache.iterdir()) == [alone.name]  # no part file left


def test_a_cancelled_two_process_build_leaves_nothing(tmp_path: Path, cache: Path) -> None:
    write_demo(tmp_path / "demo.sqlite", attempts=12_000)
    with open_audit(tmp_path / "demo.sqlite") as db:
        with pytest.raises(BuildCancelled):
            build_index(db, workers=2, progress=lambda done, _total: done < 3_000)
        assert list(cache.iterdir()) == []
        assert open_index(db) is None


@pytest.mark.parametrize("how", ["bytes appended", "a commit in the WAL"])
def test_a_file_changed_before_a_worker_reads_it_is_refused(
    make_audit_db: MakeDb, cache: Path, how: str
) -> None:
    """The worker opens the file by name: other bytes there than the ones this process
    fingerprinted are refused, and nothing is left in the cache. (A commit that waits in
    the ``-wal`` leaves the file itself as it was: only the worker's fingerprint sees it.)"""
    audit = make_audit_db(journal_mode="wal")
    with open_audit(audit) as db, closing(sqlite3.connect(audit)) as writer:
        db.fingerprint()
        if how == "bytes appended":
            with audit.open("ab") as handle:  # a program that ignores SQLite's locks
                handle.write(b"\0" * 4096)
        else:
            writer.execute("PRAGMA wal_autocheckpoint = 0")
            writer.execute("UPDATE attempts SET raw_response = 'changed' WHERE attempt_id = 30")
            writer.commit()
        with pytest.raises(AuditError, match="changed while being read"):
            build_index(db, workers=2)
    assert list(cache.iterdir()) == []


def test_a_file_read_from_a_private_snapshot_is_built_from_the_snapshot(
    make_audit_db: MakeDb, cache: Path
) -> None:
    """A commit waiting in the ``-wal`` makes the desk read a private folded copy; the
    workers read that copy too (it cannot change), so the index holds the commit."""
    audit = make_audit_db(journal_mode="wal")
    with closing(sqlite3.connect(audit)) as writer:
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute("UPDATE attempts SET raw_response = 'no list' WHERE attempt_id = 1")
        writer.commit()
        with open_audit(audit) as db:
            assert db.snapshot
            alone = _content(build_index(db, workers=1))
            for file in cache.iterdir():
                file.unlink()
            assert _content(build_index(db, workers=2)) == alone
    first = next(row for row in alone["rows"] if row[0] == 1)
    assert first[8] == "missing"  # the committed reply, not the file's valid one


def test_a_worker_told_to_stop_stops(make_audit_db: MakeDb, tmp_path: Path) -> None:
    """A cancel (or a failure here) sets the stop signal: a worker then gives up at its
    next batch instead of deriving its whole range."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    done, stop = context.Array("q", 1, lock=False), context.Event()
    build_rows._worker_started(done, stop)
    audit = make_audit_db()
    with open_audit(audit) as db:
        runs = {run.run_id: (run.run_id, run.model, run.track.value) for run in db.runs()}
        given = (runs, {question.question_id: question.ordinal for question in db.questions()})
    out = tmp_path / "part.sqlite"
    assert build_rows._write_part(str(audit), None, 0, (16, 30), given, str(out)) == ("ok", 15)
    assert done[0] == 15
    stop.set()
    again = tmp_path / "again.sqlite"
    stopped = build_rows._write_part(str(audit), None, 0, (16, 30), given, str(again))
    assert stopped == ("cancelled", 0)


def test_a_data_problem_met_by_a_worker_is_the_builds_error(
    make_audit_db: MakeDb, cache: Path
) -> None:
    """The last attempt (a worker's range) refers to a question without options."""
    audit = make_audit_db()
    with closing(sqlite3.connect(audit)) as conn:
        conn.execute("INSERT INTO questions (question_id, ordinal, text) VALUES ('QX', 99, 'x')")
        conn.execute("UPDATE attempts SET question_id = 'QX' WHERE attempt_id = 30")
        conn.commit()
    with open_audit(audit) as db, pytest.raises(AuditError, match="QX"):
        build_index(db, workers=2)
    assert list(cache.iterdir()) == []


@pytest.mark.parametrize("attempt", [5, 25], ids=["this process's range", "a worker's range"])
def test_a_value_that_breaks_the_schema_is_named_whoever_meets_it(
    make_audit_db: MakeDb, cache: Path, attempt: int
) -> None:
    """A reply stored as bytes makes the rule fail, in this process or in a worker: the
    build says which value breaks which rule, as a one-process build does."""
    audit = make_audit_db()
    with closing(sqlite3.connect(audit)) as conn:
        conn.execute("UPDATE attempts SET raw_response = X'00ff' WHERE attempt_id = ?", (attempt,))
        conn.commit()
    expected = f"attempt {attempt}: raw_response is X'00FF' \\(must be text or NULL\\)"
    with open_audit(audit) as db, pytest.raises(AuditError, match=expected):
        build_index(db, workers=2)
    assert list(cache.iterdir()) == []


def test_a_small_file_is_built_by_this_process_alone(
    make_audit_db: MakeDb, monkeypatch: pytest.MonkeyPatch
) -> None:
    import concurrent.futures

    def refused(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("no worker process for a small file")

    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", refused)
    with open_audit(make_audit_db()) as db:
        assert db.count_attempts() < PARALLEL_MIN_ATTEMPTS
        build_index(db)  # (workers=None: by the file's size)
        assert open_index(db) is not None
