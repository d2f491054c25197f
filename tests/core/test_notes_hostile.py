"""Hostile notes-store locations, stores and export targets (issue 11, items 1, 5, 8, 9).

Each case builds its hostile file in ``tmp_path`` and checks that the command exits 2
with one ``error:`` line and that nothing — the audit file, its side names, the store,
the target — was created or changed.
"""

from __future__ import annotations

import errno
import json
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.audit import open_audit
from ai4hse_desk.filewrite import WriteRefused, write_bytes
from ai4hse_desk.notes import ReviewError, backend, location
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review import exports
from tests.core.desk_helpers import cli, entry_names, sha256

if TYPE_CHECKING:
    from collections.abc import Callable

SIDES = ("-wal", "-journal", "-shm")


def flag_args(audit: Path, *extra: str) -> list[str]:
    return ["flag", str(audit), "--question", "Q001", "--category", "other",
            "--note", "n", "--reviewer", "ann", *extra]  # fmt: skip


def assert_one_error(code: int, out: str, err: str, *parts: str) -> None:
    assert (code, out) == (2, ""), err
    assert err.startswith("error: "), err
    assert err.count("\n") == 1, err
    for part in parts:
        assert part in err, err


def run_process(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real command in a child process; a blocked open fails the test by timeout."""
    env = {**os.environ, location.DATA_ENV: str(tmp_path / "data-dir")}
    return subprocess.run(
        [sys.executable, "-m", "ai4hse_desk", *args],
        capture_output=True, text=True, check=False, cwd=tmp_path, env=env, timeout=60,
    )  # fmt: skip


# -- where the store may live -----------------------------------------------------------


@pytest.mark.parametrize("suffix", SIDES)
def test_notes_naming_a_side_file_of_the_audit_is_refused(
    make_audit_db: Callable[..., Path], suffix: str
) -> None:
    audit = make_audit_db()
    digest, names = sha256(audit), entry_names(audit.parent)
    elsewhere = audit.parent.parent / f"links{suffix}"
    elsewhere.mkdir()
    link = elsewhere / "innocent.sqlite"
    link.symlink_to(f"{audit}{suffix}")  # dangling: the side file does not exist
    for given in (f"{audit}{suffix}", str(link), f"sqlite:///{audit}{suffix}"):
        code, out, err = cli(*flag_args(audit, "--notes", given))
        assert_one_error(code, out, err, f"{suffix[1:]} file of the audit database")
    assert entry_names(audit.parent) == names
    assert sha256(audit) == digest


def test_a_planted_symlink_at_the_default_store_is_refused(
    make_audit_db: Callable[..., Path], tmp_path: Path
) -> None:
    audit = make_audit_db()
    victim = tmp_path / "victim"
    victim.mkdir()
    other_audit = make_audit_db(directory=victim)
    assert cli(*flag_args(other_audit))[0] == 0  # someone else's notes
    theirs = Path(f"{other_audit}.review.sqlite")
    before = theirs.read_bytes()
    planted = Path(f"{audit}.review.sqlite")
    for target in (theirs, victim / "new.sqlite"):
        planted.unlink(missing_ok=True)
        planted.symlink_to(target)
        code, out, err = cli(*flag_args(audit))
        assert_one_error(code, out, err, "is a symbolic link", "planted")
    assert theirs.read_bytes() == before
    assert entry_names(victim) == ["audit.sqlite", "audit.sqlite.review.sqlite"]


def test_a_planted_symlink_in_the_data_dir_is_refused(
    make_audit_db: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    data_dir: Path,
) -> None:
    audit = make_audit_db()
    monkeypatch.setattr(location, "folder_writable", lambda _folder: False)
    fallback = location.default_store_path(audit)
    assert fallback.parent == data_dir
    data_dir.mkdir()
    fallback.symlink_to(tmp_path / "redirected.sqlite")
    code, out, err = cli(*flag_args(audit))
    assert_one_error(code, out, err, "is a symbolic link")
    assert not (tmp_path / "redirected.sqlite").exists()


def test_a_fifo_at_the_default_store_is_refused_without_blocking(
    make_audit_db: Callable[..., Path], tmp_path: Path
) -> None:
    audit = make_audit_db()
    os.mkfifo(f"{audit}.review.sqlite")
    done = run_process(tmp_path, *flag_args(audit))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "is not a regular file" in done.stderr
    assert stat.S_ISFIFO(os.stat(f"{audit}.review.sqlite").st_mode)


def test_an_opened_store_and_its_side_files_are_protected(
    make_audit_db: Callable[..., Path], tmp_path: Path
) -> None:
    store_path = tmp_path / "team.sqlite"
    with open_audit(make_audit_db()) as audit:
        with NotesStore.open(audit, str(store_path)) as notes:
            flag = notes.add_flag(
                question_id="Q001", category="typo_or_format", note="", reviewer="a"
            )
        before = store_path.read_bytes()
        link = tmp_path / "report.png"
        link.symlink_to(store_path)
        for target in (store_path, link, *(Path(f"{store_path}{s}") for s in SIDES)):
            with pytest.raises(WriteRefused, match="the notes store"):
                write_bytes(target, b"\x89PNG")
        assert store_path.read_bytes() == before
        with NotesStore.open(audit, str(store_path)) as again:  # its own store opens again
            assert [f.flag_id for f in again.flags()] == [flag.flag_id]


def _left_after_a_full_disk(audit: Path, folder: Path) -> Path:
    """A store whose committed data is in its ``-wal``, its main file torn (page 1's
    b-tree zeroed, header intact) as by a checkpoint that ran out of space."""
    live = folder / "live.sqlite"
    with open_audit(audit) as db:
        with NotesStore.open(db, str(live)) as notes:
            notes.add_flag(question_id="Q001", category="other", note="old", reviewer="a")
        holder = sqlite3.connect(live)  # keeps the last close from checkpointing
        try:
            holder.execute("SELECT count(*) FROM review_items").fetchone()
            with NotesStore.open(db, str(live)) as notes:
                for i in range(30):
                    notes.add_flag(question_id="Q002", category="other", note=f"{i}", reviewer="b")
            left = folder / "left" / "notes.sqlite"
            left.parent.mkdir()
            shutil.copyfile(live, left)
            shutil.copyfile(f"{live}-wal", f"{left}-wal")
        finally:
            holder.close()
    page = int.from_bytes(left.read_bytes()[16:18], "big")
    with open(left, "r+b") as handle:
        handle.seek(100)
        handle.write(bytes(page - 100))
    return left


def test_a_store_left_after_a_full_disk_opens_with_its_wal(
    make_audit_db: Callable[..., Path], tmp_path: Path
) -> None:
    audit = make_audit_db()
    left = _left_after_a_full_disk(audit, tmp_path)
    immutable = sqlite3.connect(f"file:{left}?mode=ro&immutable=1", uri=True)
    with pytest.raises(sqlite3.DatabaseError, match="malformed"):
        immutable.execute("SELECT name FROM sqlite_master").fetchall()
    immutable.close()
    with sqlite3.connect(f"file:{left}?mode=ro", uri=True) as reader:
        assert reader.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    reader.close()
    names, digest = entry_names(audit.parent), sha256(audit)
    with open_audit(audit) as db, NotesStore.open(db, str(left)) as notes:
        assert len(notes.flags()) == 31
    assert entry_names(audit.parent) == names
    assert sha256(audit) == digest


def test_a_store_on_a_full_disk_is_exit_2(
    make_audit_db: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    audit = make_audit_db()
    assert cli(*flag_args(audit))[0] == 0
    store = Path(f"{audit}.review.sqlite")
    with sqlite3.connect(store) as conn:
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.close()
    connect = backend._sqlite_connect

    def full_disk(dbapi_conn: sqlite3.Connection, record: object) -> None:
        connect(dbapi_conn, record)
        dbapi_conn.execute(f"PRAGMA max_page_count = {pages}").fetchall()  # SQLITE_FULL

    monkeypatch.setattr(backend, "_sqlite_connect", full_disk)
    args = flag_args(audit)
    args[args.index("--note") + 1] = "x" * 20_000
    code, out, err = cli(*args)
    assert_one_error(code, out, err, "database or disk is full")


@pytest.mark.parametrize("option", ["--notes", "--question", "--reviewer", "--note"])
def test_undecodable_bytes_in_an_argument_are_exit_2(
    make_audit_db: Callable[..., Path], option: str
) -> None:
    audit = make_audit_db()
    names = entry_names(audit.parent)
    bad = os.fsdecode(b"\xff")  # how Python hands an invalid-UTF-8 argv byte over
    args = flag_args(audit)
    value = str(audit.parent / f"{bad}.sqlite") if option == "--notes" else bad
    if option in args:
        args[args.index(option) + 1] = value
    else:
        args += [option, value]
    code, out, err = cli(*args)
    assert_one_error(code, out, err)
    if option == "--notes":
        assert entry_names(audit.parent) == names  # no store made under a name SQLite can't open


# -- export targets ----------------------------------------------------------------------


def _device(folder: Path, minor: int) -> Path:
    """A character device like /dev/null (minor 3) or /dev/full (7), made in ``folder``."""
    node = folder / f"dev-{minor}"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, minor))
    except PermissionError:
        pytest.skip("cannot make device nodes here")
    return node


TARGETS = ("audit", *(f"audit{s}" for s in SIDES), "store", "store-wal", "store-shm",
           "dev-null", "dev-full", "fifo", "folder", "sqlite", "side-of-sqlite")  # fmt: skip


@pytest.mark.parametrize("target", TARGETS)
def test_export_to_a_protected_or_special_target_is_refused(
    make_audit_db: Callable[..., Path],
    tmp_path: Path,
    target: str,
) -> None:
    audit = make_audit_db()
    assert cli(*flag_args(audit))[0] == 0
    store = Path(f"{audit}.review.sqlite")
    other = make_audit_db("other.sqlite", directory=tmp_path)
    paths = {
        **{f"audit{s}": Path(f"{audit}{s}") for s in ("", *SIDES)},
        "store": store,
        "store-wal": Path(f"{store}-wal"),
        "store-shm": Path(f"{store}-shm"),
        "fifo": tmp_path / "pipe",
        "folder": tmp_path / "folder",
        "sqlite": other,
        "side-of-sqlite": Path(f"{other}-journal"),
    }
    if target.startswith("dev-"):
        paths[target] = _device(tmp_path, 3 if target == "dev-null" else 7)
    os.mkfifo(paths["fifo"])
    paths["folder"].mkdir()
    out_path = paths[target]
    watched = [audit, store, other, out_path]
    before = {p: (os.lstat(p).st_mode, p.read_bytes() if p.is_file() else None)
              for p in watched if os.path.lexists(p)}  # fmt: skip
    names = {folder: entry_names(folder) for folder in (audit.parent, tmp_path)}
    args = ["notes", "export", str(audit), "--format", "json", "--out", str(out_path)]
    code, out, err = cli(*args)
    assert_one_error(code, out, err)
    after = {p: (os.lstat(p).st_mode, p.read_bytes() if p.is_file() else None)
             for p in watched if os.path.lexists(p)}  # fmt: skip
    assert after == before
    assert {folder: entry_names(folder) for folder in names} == names


def test_export_on_a_full_disk_is_exit_2_and_keeps_the_old_file(
    make_audit_db: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    audit = make_audit_db()
    assert cli(*flag_args(audit))[0] == 0
    out_file = tmp_path / "out" / "notes.csv"
    out_file.parent.mkdir()
    args = ["notes", "export", str(audit), "--format", "csv", "--out", str(out_file)]
    assert cli(*args)[0] == 0
    before = out_file.read_bytes()

    def no_space(path: Path, *_: object) -> None:
        path.write_text("half a file")
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(exports, "_write_csv", no_space)
    code, out, err = cli(*args)
    assert_one_error(code, out, err, "no space left on the device")
    assert out_file.read_bytes() == before
    assert entry_names(out_file.parent) == ["notes.csv"]


def test_export_into_a_read_only_folder_is_exit_2(
    make_audit_db: Callable[..., Path],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    audit = make_audit_db()
    assert cli(*flag_args(audit))[0] == 0
    locked = tmp_path / "locked"
    locked.mkdir()
    real_open = os.open

    def read_only_folder(path: object, flags: int, *rest: int, **kw: object) -> int:
        if str(path).startswith(str(locked)) and flags & os.O_CREAT:  # root ignores 0o555
            raise PermissionError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real_open(path, flags, *rest, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", read_only_folder)  # the os.open filewrite/atomic.py calls
    locked.chmod(0o555)
    try:
        args = ["notes", "export", str(audit), "--format", "xlsx"]
        code, out, err = cli(*args, "--out", str(locked / "notes.xlsx"))
    finally:
        locked.chmod(0o755)
    assert_one_error(code, out, err, "Read-only file system")
    assert entry_names(locked) == []


def test_export_api_refuses_with_a_review_error(
    make_audit_db: Callable[..., Path], tmp_path: Path
) -> None:
    with open_audit(make_audit_db()) as audit, NotesStore.open(audit) as notes:
        assert notes.location.path is not None
        for target in (Path(f"{notes.location.path}-wal"), tmp_path):
            with pytest.raises(ReviewError):
                exports.export_notes(notes, "csv", target)
        summary = exports.export_notes(notes, "json", tmp_path / "fine.json")
    assert json.loads((tmp_path / "fine.json").read_text())["flags"] == []
    assert summary["flags"] == 0
