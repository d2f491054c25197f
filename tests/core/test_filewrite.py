"""The one guarded writer: what it refuses, and that it writes atomically."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from ai4hse_desk.filewrite import (
    WriteRefused,
    check_target,
    protect,
    staged_file,
    write_atomic,
    write_bytes,
    write_text,
)


def _sqlite_file(path: Path) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    conn.commit()
    conn.close()
    return path


@pytest.fixture
def audit(tmp_path: Path) -> Path:
    path = _sqlite_file(tmp_path / "audit.sqlite")
    protect(path, "the audit database")
    return path


def test_writes_a_new_file_and_replaces_an_old_export(tmp_path: Path) -> None:
    out = tmp_path / "notes.csv"
    write_text(out, "a,b\n")
    assert out.read_text() == "a,b\n"
    write_text(out, "c,d\n")
    assert out.read_text() == "c,d\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.csv"]


@pytest.mark.parametrize("suffix", ["", "-wal", "-journal", "-shm"])
def test_the_audit_file_and_its_side_names_are_refused(audit: Path, suffix: str) -> None:
    target = Path(f"{audit}{suffix}")
    before = audit.read_bytes()
    with pytest.raises(WriteRefused, match="the desk never writes it"):
        write_bytes(target, b"\x89PNG")
    assert audit.read_bytes() == before
    assert not suffix or not target.exists()


def test_a_symlink_or_hard_link_to_the_audit_file_is_refused(audit: Path, tmp_path: Path) -> None:
    link = tmp_path / "innocent.png"
    link.symlink_to(audit)
    hard = tmp_path / "hard.csv"
    os.link(audit, hard)
    for target in (link, hard):
        with pytest.raises(WriteRefused, match="audit database"):
            write_text(target, "x")
    assert audit.read_bytes().startswith(b"SQLite format 3")


def test_a_side_name_of_any_sqlite_file_is_refused(tmp_path: Path) -> None:
    other = _sqlite_file(tmp_path / "other.sqlite")
    with pytest.raises(WriteRefused, match="journal file of"):
        write_text(Path(f"{other}-journal"), "{}")
    assert not Path(f"{other}-journal").exists()


def test_an_existing_sqlite_database_is_not_replaced_by_an_export(tmp_path: Path) -> None:
    db = _sqlite_file(tmp_path / "someone.sqlite")
    with pytest.raises(WriteRefused, match="it is an SQLite database"):
        write_text(db, "x")
    assert check_target(db, allow_sqlite=True) == db.resolve()


def test_folders_fifos_and_devices_are_refused(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(WriteRefused, match="not a regular file"):
        write_text(fifo, "x")
    with pytest.raises(WriteRefused, match="not a regular file"):
        write_text("/dev/null", "x")
    with pytest.raises(WriteRefused, match="it is a folder"):
        write_text(tmp_path, "x")
    with pytest.raises(WriteRefused, match="no such folder"):
        write_text(tmp_path / "missing" / "x.csv", "x")
    assert fifo.exists()
    assert os.path.exists("/dev/null")


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    out.write_text("old")

    def fail(temp: Path) -> None:
        temp.write_text("half")
        raise OSError(28, "No space left on device")

    with pytest.raises(WriteRefused, match="no space left"):
        write_atomic(out, fail)
    assert out.read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["report.html"]


def test_staged_file_without_replace_never_overwrites(tmp_path: Path) -> None:
    out = tmp_path / "new.sqlite"
    with staged_file(out, replace=False) as temp:
        _sqlite_file(temp)
    assert out.read_bytes().startswith(b"SQLite format 3")
    with pytest.raises(WriteRefused, match="already exists"), staged_file(out, replace=False):
        pass
    assert len(list(tmp_path.iterdir())) == 1


def test_a_target_that_becomes_protected_meanwhile_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "late.csv"

    def stage_while_it_becomes_protected() -> None:
        with staged_file(out) as temp:
            temp.write_text("x")
            protect(out, "the notes store")

    with pytest.raises(WriteRefused, match="the notes store"):
        stage_while_it_becomes_protected()
    assert not out.exists()
