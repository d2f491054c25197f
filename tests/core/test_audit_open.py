"""Opening audit databases: read-only, validated, and without any trace on disk."""

from __future__ import annotations

import hashlib
import re
import sqlite3
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from ai4hse_desk.audit import REQUIRED_COLUMNS, AuditError, open_audit, opening, pin, sha256_file

MakeDb = Callable[..., Path]


def _state(directory: Path) -> dict[str, str]:
    """Every file in ``directory`` with the SHA-256 of its bytes."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in directory.iterdir()}


@pytest.fixture(autouse=True)
def private_tempdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Snapshot copies go to a directory the tests can inspect; it must end empty."""
    folder = tmp_path / "tempdir"
    folder.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    yield folder
    assert list(folder.iterdir()) == []


def test_opens_a_good_database(audit_db: Path) -> None:
    before = _state(audit_db.parent)
    with open_audit(audit_db) as db:
        assert db.path == audit_db
        assert db.schema_version == 1
        assert db.meta["format"] == "ai4hse-audit"
        assert db.meta["benchmark"] == "AI4HSE-Bench v1"
        assert not db.snapshot
        assert db.fingerprint() == hashlib.sha256(audit_db.read_bytes()).hexdigest()
        assert db.fingerprint() == sha256_file(audit_db)
        assert not db.changed_on_disk()
        with db.raw_connection() as conn:
            assert conn.execute("PRAGMA query_only").fetchone() == (1,)
    assert _state(audit_db.parent) == before


def test_the_fingerprint_reports_the_bytes_it_has_read_and_can_be_stopped(
    audit_db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A large file's sha256 takes a while: it reports (bytes read, file size) as it goes,
    and stops when asked (nothing kept: the next request computes it whole)."""
    monkeypatch.setattr(pin, "CHUNK", 4096)
    monkeypatch.setattr(pin, "REPORT_CHUNKS", 2)
    size = audit_db.stat().st_size
    assert size > 16384
    expected = hashlib.sha256(audit_db.read_bytes()).hexdigest()
    seen: list[tuple[int, int]] = []

    def stop_at_the_second(done: int, total: int) -> bool:
        seen.append((done, total))
        return len(seen) < 2

    def record(done: int, total: int) -> bool:
        seen.append((done, total))
        return True

    with open_audit(audit_db) as db:
        with pytest.raises(pin.FingerprintCancelled):
            db.fingerprint(progress=stop_at_the_second)
        assert seen == [(8192, size), (16384, size)]
        seen.clear()
        assert db.fingerprint(progress=record) == expected
        assert [done for done, _ in seen] == sorted(done for done, _ in seen)
        assert {total for _, total in seen} == {size}
        assert seen[-1] == (size, size)
        assert len(seen) == size // 8192 + 1  # every second chunk, then at the end
        seen.clear()
        assert db.fingerprint(progress=record) == expected  # computed once
        assert seen == []


def test_verify_runs_quick_check(audit_db: Path) -> None:
    with open_audit(audit_db, verify=True) as db:
        assert db.count_attempts() == 30


@pytest.mark.parametrize("name", ["a b?c#d%20e é 監査.sqlite", "100%.db", "x?mode=rw.sqlite"])
def test_unusual_paths(make_audit_db: MakeDb, tmp_path: Path, name: str) -> None:
    path = make_audit_db(name, directory=tmp_path / "dir with ? # % ü")
    before = _state(path.parent)
    with open_audit(str(path)) as db:
        assert db.path == path
        assert len(db.runs()) == 3
    assert _state(path.parent) == before


def _text_file(path: Path, _make: MakeDb) -> None:
    path.write_text("question_id,text\nQ001,hello\n", encoding="utf-8")


def _empty(path: Path, _make: MakeDb) -> None:
    path.write_bytes(b"")


def _truncated(path: Path, make: MakeDb) -> None:
    data = make(extra_questions=40).read_bytes()
    path.write_bytes(data[: len(data) // 2])


def _foreign(path: Path, _make: MakeDb) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.commit()
    conn.close()


def _built(**options: object) -> Callable[[Path, MakeDb], None]:
    def build(path: Path, make: MakeDb) -> None:
        path.write_bytes(make(**options).read_bytes())

    return build


BAD_INPUTS = {
    "text file": (_text_file, "not an SQLite database (file is not a database)"),
    "empty file": (_empty, "is empty, not an audit database"),
    "truncated": (_truncated, "damaged SQLite database (truncated: "),
    "foreign SQLite": (_foreign, "not an AI4HSE audit database (no audit_meta table)"),
    "wrong format": (_built(meta={"format": "other"}), "audit_meta has format 'other'"),
    "no format": (_built(meta={"format": None}), "audit_meta has no format"),
    "schema v2": (
        _built(schema_version="2"),
        "unsupported audit schema version 2 (this desk reads version 1)",
    ),
    "schema 'one'": (_built(schema_version="one"), "unsupported audit schema version 'one'"),
    "no schema version": (_built(meta={"schema_version": None}), "has no schema_version"),
    "missing table": (_built(drop_tables=["runs"]), "missing table 'runs'"),
    "missing column": (
        _built(drop_columns={"attempts": ["latency_ms"]}),
        "table 'attempts' lacks required column 'latency_ms'",
    ),
    "missing columns": (
        _built(drop_columns={"options": ["key", "text"]}),
        "table 'options' lacks required columns 'text', 'key'",
    ),
}


@pytest.mark.parametrize("case", BAD_INPUTS)
def test_bad_inputs_are_clean_errors_and_leave_no_trace(
    case: str, make_audit_db: MakeDb, tmp_path: Path
) -> None:
    build, expected = BAD_INPUTS[case]
    folder = tmp_path / "bad"
    folder.mkdir()
    path = folder / "input.sqlite"
    build(path, make_audit_db)
    before = _state(folder)
    with pytest.raises(AuditError) as caught:
        open_audit(path)
    message = str(caught.value)
    assert expected in message
    assert str(path) in message
    assert "\n" not in message
    assert _state(folder) == before


def test_missing_path_creates_nothing(tmp_path: Path) -> None:
    path = tmp_path / "absent.sqlite"
    with pytest.raises(AuditError, match=r"^no such file: .*absent\.sqlite$"):
        open_audit(path)
    assert list(tmp_path.iterdir()) == [tmp_path / "tempdir"]


def test_directory(tmp_path: Path) -> None:
    folder = tmp_path / "folder.sqlite"
    folder.mkdir()
    with pytest.raises(AuditError, match="is a directory, not an audit database"):
        open_audit(folder)
    assert list(folder.iterdir()) == []


def _open_and_read(path: Path) -> None:
    with open_audit(path) as db:
        db.count_attempts()
        list(db.iter_rescore_rows())


def test_damaged_pages_give_clean_errors(make_audit_db: MakeDb) -> None:
    path = make_audit_db(extra_questions=40)
    data = bytearray(path.read_bytes())
    page = int.from_bytes(data[16:18], "big")
    data[2 * page : len(data) - page] = b"\xa5" * (len(data) - 3 * page)
    path.write_bytes(bytes(data))
    before = _state(path.parent)
    with pytest.raises(AuditError, match=r"damaged|malformed"):
        open_audit(path, verify=True)
    with pytest.raises(AuditError, match=re.escape(str(path))):
        _open_and_read(path)  # fails at the open or at the first read, never with a traceback
    assert _state(path.parent) == before


def test_writes_are_impossible(audit_db: Path) -> None:
    before = _state(audit_db.parent)
    with open_audit(audit_db) as db:
        with db.raw_connection() as conn, pytest.raises(sqlite3.OperationalError, match="readonly"):
            conn.execute("INSERT INTO audit_meta (key, value) VALUES ('x', 'y')")
        with db.raw_connection() as conn, pytest.raises(sqlite3.DatabaseError):
            conn.execute("PRAGMA query_only = OFF")
        with db.raw_connection() as conn, pytest.raises(sqlite3.DatabaseError):
            conn.execute("ATTACH ? AS other", (str(audit_db.parent / "new.sqlite"),))
        with db.raw_connection() as conn, pytest.raises(sqlite3.DatabaseError):
            conn.execute("VACUUM INTO ?", (str(audit_db.parent / "copy.sqlite"),))
        with db.raw_connection() as conn, pytest.raises(sqlite3.OperationalError):
            conn.execute("SELECT load_extension(?)", (str(audit_db.parent / "evil.so"),))
        with db.raw_connection() as conn, pytest.raises(sqlite3.OperationalError, match="readonly"):
            conn.execute("DELETE FROM attempts")
        assert db.count_attempts() == 30
    assert _state(audit_db.parent) == before


def test_extra_tables_and_columns_are_tolerated(make_audit_db: MakeDb) -> None:
    with open_audit(make_audit_db(extras=True)) as db:
        assert [run.run_id for run in db.runs()] == ["r1", "r2", "r3"]
        assert len(db.questions()) == 5
        assert len(db.attempts_by_ids(range(1, 31))) == 30


def test_required_columns_match_the_schema_sql() -> None:
    schema = Path(__file__).resolve().parents[2] / "resources" / "schema" / "audit-db-v1.sql"
    conn = sqlite3.connect(":memory:")
    conn.executescript(schema.read_text(encoding="utf-8"))
    for table, columns in REQUIRED_COLUMNS.items():
        found = tuple(row[1] for row in conn.execute(f"PRAGMA table_info({table})"))
        assert found == columns
    conn.close()


def test_wal_database_closed_cleanly_leaves_no_side_files(make_audit_db: MakeDb) -> None:
    path = make_audit_db(journal_mode="wal")
    assert path.read_bytes()[18:20] == b"\x02\x02"  # WAL mode in the header
    before = _state(path.parent)
    assert list(before) == [path.name]
    with open_audit(path) as db:
        assert not db.snapshot
        assert db.count_attempts() == 30
        assert len(db.questions()) == 5
        assert _state(path.parent) == before
    assert _state(path.parent) == before


def test_uncheckpointed_wal_is_read_from_a_private_snapshot(make_audit_db: MakeDb) -> None:
    path = make_audit_db(journal_mode="wal")
    writer = sqlite3.connect(path)
    try:
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute(
            "INSERT INTO runs (run_id, model, track, protocol_version, repetitions, status)"
            " VALUES ('r4', 'model-c', 'answer_only', 10, 1, 'unfinished')"
        )
        writer.execute(
            "INSERT INTO attempts (run_id, question_id, repetition, state)"
            " VALUES ('r4', 'Q001', 1, 'pending')"
        )
        writer.commit()
        wal = Path(f"{path}-wal")
        assert wal.stat().st_size > 0
        before = _state(path.parent)
        assert set(before) == {path.name, wal.name, f"{path.name}-shm"}
        with open_audit(path) as db:
            assert db.snapshot
            assert [run.run_id for run in db.runs()][-1] == "r4"
            assert db.count_attempts() == 31
            expected = hashlib.sha256(path.read_bytes() + wal.read_bytes()).hexdigest()
            assert db.fingerprint() == expected
            assert _state(path.parent) == before
        assert _state(path.parent) == before
    finally:
        writer.close()


def test_a_writer_holding_the_lock_is_waited_for_then_refused(
    make_audit_db: MakeDb, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = make_audit_db()
    monkeypatch.setattr(pin, "LOCK_TIMEOUT_SECONDS", 0.2)
    writer = sqlite3.connect(path)
    try:
        writer.execute("PRAGMA cache_size = 1")  # spill uncommitted pages into the file
        writer.execute("BEGIN")
        writer.execute("UPDATE attempts SET raw_response = ?", ("x" * 2000,))
        writer.executemany(
            "INSERT INTO attempts (run_id, question_id, repetition, state) VALUES (?, ?, ?, ?)",
            [("r1", f"Q{i}", 9, "pending") for i in range(300)],
        )
        assert Path(f"{path}-journal").stat().st_size > 0
        before = _state(path.parent)
        with pytest.raises(AuditError, match="is being written by another program"):
            open_audit(path)
        assert _state(path.parent) == before
    finally:
        writer.rollback()
        writer.close()


def test_a_hot_journal_is_rolled_back_in_a_private_snapshot(make_audit_db: MakeDb) -> None:
    path = make_audit_db()
    crash = (
        "import os, signal, sqlite3, sys\n"
        "c = sqlite3.connect(sys.argv[1])\n"
        "c.execute('PRAGMA cache_size = 1')\n"
        "c.execute('BEGIN')\n"
        "c.execute('UPDATE attempts SET raw_response = ?', ('x' * 2000,))\n"
        "c.executemany('INSERT INTO attempts (run_id, question_id, repetition, state) '\n"
        "              'VALUES (?, ?, ?, ?)',\n"
        "              [('r1', f'Q{i}', 9, 'pending') for i in range(300)])\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    subprocess.run([sys.executable, "-c", crash, str(path)], check=False)
    assert Path(f"{path}-journal").stat().st_size > 0  # hot: nobody holds a lock
    before = _state(path.parent)
    with open_audit(path) as db:
        assert db.snapshot
        assert not db.locked
        assert db.count_attempts() == 30
        assert db.attempts_by_ids([1])[0].raw_response == "[TRUE, FALSE, TRUE, FALSE]"
    assert _state(path.parent) == before


def _delete_first_attempt(writer: sqlite3.Connection) -> None:
    writer.execute("DELETE FROM attempts WHERE attempt_id = 1")
    writer.commit()


def test_a_rollback_journal_record_is_locked_while_open(make_audit_db: MakeDb) -> None:
    path = make_audit_db()
    with open_audit(path) as db:
        assert db.locked
        assert not db.snapshot
        writer = sqlite3.connect(path, timeout=0.1)
        try:
            with pytest.raises(sqlite3.OperationalError, match="locked"):
                _delete_first_attempt(writer)
        finally:
            writer.rollback()
            writer.close()
        assert db.count_attempts() == 30
    writer = sqlite3.connect(path, timeout=1)
    writer.execute("DELETE FROM attempts WHERE attempt_id = 1")  # released on close
    writer.commit()
    writer.close()


def test_changes_after_opening_are_noticed(make_audit_db: MakeDb) -> None:
    path = make_audit_db(journal_mode="wal")
    with open_audit(path) as db:
        assert not db.changed_on_disk()
        writer = sqlite3.connect(path)
        try:
            writer.execute("PRAGMA wal_autocheckpoint = 0")
            writer.execute("DELETE FROM attempts WHERE attempt_id = 1")
            writer.commit()
            assert db.changed_on_disk()
            assert db.count_attempts() == 30  # still the state that was opened
        finally:
            writer.close()


def test_a_record_that_keeps_changing_is_refused(
    make_audit_db: MakeDb, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = make_audit_db(journal_mode="wal")
    Path(f"{path}-wal").write_bytes(b"\0" * 64)
    ticks = iter(range(1000))
    monkeypatch.setattr(opening, "_disk_state", lambda _: ((next(ticks), 0),))
    with pytest.raises(AuditError, match="keeps changing while being read"):
        open_audit(path)


def test_symlinked_live_record(make_audit_db: MakeDb, tmp_path: Path) -> None:
    path = make_audit_db(journal_mode="wal")
    writer = sqlite3.connect(path)
    try:
        writer.execute("PRAGMA wal_autocheckpoint = 0")
        writer.execute("DELETE FROM attempts WHERE run_id = 'r3'")
        writer.commit()
        link = tmp_path / "link.sqlite"
        link.symlink_to(path)
        with open_audit(link) as db:
            assert db.path == link
            assert db.snapshot
            assert db.count_attempts() == 20
    finally:
        writer.close()


def test_connections_work_from_worker_threads(audit_db: Path) -> None:
    with open_audit(audit_db) as db, ThreadPoolExecutor(max_workers=4) as pool:
        counts = list(pool.map(lambda _: db.count_attempts(), range(16)))
        rows = list(pool.map(lambda _: sum(1 for _ in db.iter_rescore_rows(batch=4)), range(8)))
    assert counts == [30] * 16
    assert rows == [30] * 8
