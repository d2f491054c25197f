"""Scores tables (CSV, XLSX) are written only through the guarded writer.

The red team's attack: the Scores view's table export wrote in place, to any
path, the audit file included. Here every refused target must raise
``WriteRefused`` and leave the file as it was (sha256), create no side file and
leave no temporary file; an allowed target is replaced by a rename (a new inode),
and a write that fails half-way keeps the old file.
"""

from __future__ import annotations

import errno
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

import pytest

from ai4hse_desk.audit import open_audit
from ai4hse_desk.filewrite import WriteRefused, protect
from ai4hse_desk.scores import ScoreRow, track_tables, write_csv, write_xlsx
from ai4hse_desk.verdicts.rescore import rescore
from tests.core.desk_helpers import entry_names, sha256

Writer = Callable[[Path, Mapping[str, Sequence[ScoreRow]]], Path]
WRITERS: dict[str, Writer] = {"csv": write_csv, "xlsx": write_xlsx}


@pytest.fixture
def opened(audit_db: Path) -> Iterator[tuple[Path, dict[str, list[ScoreRow]]]]:
    """The audit file, opened (so protected, as in the window), and its score tables."""
    with open_audit(audit_db) as db:
        tables = track_tables(rescore(db).runs, {run.run_id: run for run in db.runs()})
        yield audit_db, tables


@pytest.mark.parametrize("kind", sorted(WRITERS))
@pytest.mark.parametrize("name", ["", "-wal", "-journal", "-shm", "symlink", "hardlink"])
def test_the_audit_file_and_its_side_names_are_refused(
    opened: tuple[Path, dict[str, list[ScoreRow]]], kind: str, name: str
) -> None:
    audit, tables = opened
    before = sha256(audit)
    if name == "symlink":
        target = audit.with_name("scores.out")
        target.symlink_to(audit)
    elif name == "hardlink":
        target = audit.with_name("scores.out")
        os.link(audit, target)
    else:
        target = Path(f"{audit}{name}")
    files = entry_names(audit.parent)
    with pytest.raises(WriteRefused):
        WRITERS[kind](target, tables)
    assert sha256(audit) == before
    assert entry_names(audit.parent) == files  # no side file, no temporary file left


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_the_notes_store_folders_fifos_devices_and_databases_are_refused(
    opened: tuple[Path, dict[str, list[ScoreRow]]], tmp_path: Path, kind: str
) -> None:
    _, tables = opened
    store = tmp_path / "audit.sqlite.review.sqlite"
    sqlite3.connect(store).execute("CREATE TABLE notes (x)").connection.close()
    protect(store, "the notes store")
    other = tmp_path / "other.sqlite"  # an SQLite file nobody protected
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    folder = tmp_path / "folder.csv"
    folder.mkdir()
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    sums = {path: sha256(path) for path in (store, other)}
    files = entry_names(tmp_path)
    targets = [store, Path(f"{store}-wal"), other, folder, fifo]
    if Path("/dev/null").exists():
        targets.append(Path("/dev/null"))
    for target in targets:
        with pytest.raises(WriteRefused):
            WRITERS[kind](target, tables)
    assert {path: sha256(path) for path in sums} == sums
    assert entry_names(tmp_path) == files
    assert not list(folder.iterdir())


@pytest.mark.parametrize("kind", sorted(WRITERS))
def test_an_allowed_export_is_renamed_into_place(
    opened: tuple[Path, dict[str, list[ScoreRow]]], tmp_path: Path, kind: str
) -> None:
    _, tables = opened
    target = tmp_path / f"scores.{kind}"
    target.write_text("old export\n")
    old_inode = target.stat().st_ino
    assert WRITERS[kind](target, tables) == target
    assert target.read_bytes() != b"old export\n"
    assert target.stat().st_ino != old_inode  # a new file renamed over the old one
    assert entry_names(tmp_path) == [target.name]


def test_a_failed_write_keeps_the_old_file(
    opened: tuple[Path, dict[str, list[ScoreRow]]],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pandas as pd

    _, tables = opened
    target = tmp_path / "scores.csv"
    target.write_text("old export\n")

    def disk_full(_frame: object, path: str | os.PathLike[str], **_kw: object) -> None:
        Path(path).write_text("track,rank_in")  # half a file, then the disk is full
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(pd.DataFrame, "to_csv", disk_full)
    with pytest.raises(WriteRefused, match="no space left"):
        write_csv(target, tables)
    assert target.read_text() == "old export\n"
    assert entry_names(tmp_path) == [target.name]
