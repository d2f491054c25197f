"""Where the notes live: beside the audit file, the data folder when that is read-only,
or any path or URL; never the audit file itself, never some other database."""

from __future__ import annotations

import os
import sqlite3
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.audit import open_audit
from ai4hse_desk.notes import ReviewError, location
from ai4hse_desk.notes.location import SUFFIX, folder_writable, probe_write, resolve_location
from ai4hse_desk.notes.store import NotesStore

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path


def test_default_store_is_beside_the_audit_file(
    make_audit_db: Callable[..., Path], data_dir: Path
) -> None:
    audit_path = make_audit_db("bench run.sqlite")
    with open_audit(audit_path) as audit, NotesStore.open(audit) as notes:
        assert notes.location.path == audit_path.with_name("bench run.sqlite.review.sqlite")
        assert notes.location.default
        notes.add_flag(question_id="Q001", category="typo_or_format", note="", reviewer="ann")
    names = sorted(p.name for p in audit_path.parent.iterdir())
    assert names == ["bench run.sqlite", "bench run.sqlite.review.sqlite"]  # no probe left
    assert not data_dir.exists()


@pytest.fixture
def read_only_folder(
    make_audit_db: Callable[..., Path], monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    """An audit file in a folder nobody may write to (as root: the probe says so)."""
    audit_path = make_audit_db()
    folder = audit_path.parent
    folder.chmod(0o555)
    if os.geteuid() == 0:  # root writes anyway: only the probe can tell
        monkeypatch.setattr(location, "probe_write", lambda _folder: False)
    try:
        yield audit_path
    finally:
        folder.chmod(0o755)


def test_read_only_audit_folder_falls_back_to_the_data_dir(
    read_only_folder: Path, data_dir: Path
) -> None:
    audit_path = read_only_folder
    with open_audit(audit_path) as audit, NotesStore.open(audit) as notes:
        assert notes.location.path is not None
        assert notes.location.path.parent == data_dir
        assert notes.location.path.name.startswith("audit.sqlite-")
        assert notes.location.path.name.endswith(SUFFIX)
        flag = notes.add_flag(
            question_id="Q002", category="typo_or_format", note="", reviewer="ann"
        )
    assert [p.name for p in audit_path.parent.iterdir()] == ["audit.sqlite"]
    with open_audit(audit_path) as audit, NotesStore.open(audit) as again:
        assert [f.flag_id for f in again.flags()] == [flag.flag_id]


def test_writability_uses_access_and_a_real_probe(tmp_path: Path) -> None:
    assert probe_write(tmp_path)
    assert folder_writable(tmp_path)
    assert list(tmp_path.iterdir()) == []  # the probe file is gone
    assert not probe_write(tmp_path / "missing")
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o555)
    try:
        if os.geteuid() != 0:
            assert not folder_writable(locked)
    finally:
        locked.chmod(0o755)


def test_paths_and_urls(tmp_path: Path) -> None:
    audit_path = tmp_path / "a.sqlite"
    file_store = resolve_location(audit_path, str(tmp_path / "n.sqlite"))
    assert file_store.path == tmp_path / "n.sqlite"
    assert file_store.backend == "sqlite"
    url_store = resolve_location(audit_path, f"sqlite:///{tmp_path}/u.sqlite")
    assert url_store.path == tmp_path / "u.sqlite"
    for scheme in ("postgres", "postgresql", "postgresql+psycopg"):
        given = f"{scheme}://u:pw@h/db"
        pg = resolve_location(audit_path, given)
        assert pg.path is None
        assert pg.url.drivername == "postgresql+psycopg"
        assert pg.shown == "postgresql+psycopg://u:***@h/db"


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ("", "empty"),
        ("mysql://u@h/db", "unsupported notes store"),
        ("postgresql+psycopg2://u@h/db", "unsupported notes store"),
        ("sqlite://", "must name a file"),
        ("sqlite:///:memory:", "must name a file"),
    ],
)
def test_unusable_locations(tmp_path: Path, given: str, message: str) -> None:
    with pytest.raises(ReviewError, match=message):
        resolve_location(tmp_path / "a.sqlite", given)


def test_the_audit_file_is_never_the_store(make_audit_db: Callable[..., Path]) -> None:
    audit_path = make_audit_db()
    link = audit_path.with_name("link.sqlite")
    link.symlink_to(audit_path)
    before = audit_path.read_bytes()
    with open_audit(audit_path) as audit:
        for given in (str(audit_path), str(link), f"sqlite:///{audit_path}"):
            with pytest.raises(ReviewError, match="cannot be the audit database"):
                NotesStore.open(audit, given)
    assert audit_path.read_bytes() == before


def test_other_databases_and_missing_folders_are_refused(
    make_audit_db: Callable[..., Path], tmp_path: Path
) -> None:
    other = make_audit_db("other-audit.sqlite")
    before = other.read_bytes()
    with open_audit(make_audit_db()) as audit:
        with pytest.raises(ReviewError, match="is not a notes store"):
            NotesStore.open(audit, str(other))
        text_file = tmp_path / "notes.txt"
        text_file.write_text("not a database at all, just some words to fill the header\n" * 4)
        with pytest.raises(ReviewError, match="not a notes store"):
            NotesStore.open(audit, str(text_file))
        assert text_file.read_text().startswith("not a database")
        with pytest.raises(ReviewError, match="no such folder"):
            NotesStore.open(audit, str(tmp_path / "missing" / "n.sqlite"))
        with pytest.raises(ReviewError, match="is a directory"):
            NotesStore.open(audit, str(tmp_path))
    assert other.read_bytes() == before
    assert sorted(p.name for p in other.parent.iterdir()) == ["other-audit.sqlite"]


def test_a_store_from_a_newer_desk_is_refused(
    make_audit_db: Callable[..., Path], tmp_path: Path
) -> None:
    store_path = tmp_path / "n.sqlite"
    with open_audit(make_audit_db()) as audit:
        with NotesStore.open(audit, str(store_path)) as made:  # made by its first write
            made.add_flag(question_id="Q001", category="typo_or_format", note="", reviewer="ann")
        with sqlite3.connect(store_path) as conn:
            conn.execute("UPDATE review_schema_version SET version_num = '9999'")
        conn.close()
        with pytest.raises(ReviewError, match="newer than this ai4hse-desk knows"):
            NotesStore.open(audit, str(store_path))
