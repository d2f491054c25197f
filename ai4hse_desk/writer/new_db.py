"""Create a NEW audit database (schema v1) safely: build in a temp file, then rename.

A database is built in a temporary file next to its destination (the guarded
writer's :class:`~ai4hse_desk.filewrite.StagedFile`) with fast, unsafe
bulk-insert settings (no journal, no fsync). Only when everything was written
does :func:`finish_audit_db` switch it to an ordinary rollback-journal database,
fsync it and move it into place with an atomic rename that never replaces an
existing file. On failure :func:`discard_audit_db` removes the temp file, so a
half-written database is never visible under its final name.

Typical use::

    with new_audit_db(path, {"benchmark": ..., "corpus_id": ..., "created_at": ...}) as db:
        db.executemany("INSERT INTO questions VALUES (?, ?, ?)", rows)
"""

from __future__ import annotations

import contextlib
import sqlite3
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from ai4hse_desk import AUDIT_FORMAT, AUDIT_SCHEMA_VERSION
from ai4hse_desk.errors import InputProblem
from ai4hse_desk.filewrite import StagedFile

if TYPE_CHECKING:
    import os
    from collections.abc import Iterator, Mapping

#: Keys every caller must supply; ``format`` and ``schema_version`` are added.
REQUIRED_META: tuple[str, ...] = ("benchmark", "corpus_id", "created_at")
_RESOURCE_PACKAGE = "ai4hse_desk.resources"
_SOURCE_RESOURCES = Path(__file__).resolve().parents[2] / "resources"


class WriterError(InputProblem):
    """A new database cannot be written; ``str()`` is one line for the user."""


class BuildingConnection(sqlite3.Connection):
    """A connection to a database under construction in a temporary file."""

    final_path: Path
    temp_path: Path
    staged: StagedFile


def read_resource(*parts: str) -> str:
    """Text of a file shipped in the ``ai4hse_desk.resources`` package.

    Falls back to the source tree's ``resources/`` directory when the package
    is not importable (an editable install that does not map it).

    Args:
        *parts: path components below the resources directory.
    """
    try:
        return resources.files(_RESOURCE_PACKAGE).joinpath(*parts).read_text("utf-8")
    except ModuleNotFoundError:
        return _SOURCE_RESOURCES.joinpath(*parts).read_text("utf-8")


def schema_sql() -> str:
    """The schema v1 DDL shipped with the desk (``resources/schema/audit-db-v1.sql``)."""
    return read_resource("schema", "audit-db-v1.sql")


def _meta_rows(meta: Mapping[str, str]) -> list[tuple[str, str]]:
    fixed = {"format": AUDIT_FORMAT, "schema_version": str(AUDIT_SCHEMA_VERSION)}
    for key, value in fixed.items():
        if key in meta and meta[key] != value:
            raise WriterError(f"audit_meta {key} must be {value!r}, not {meta[key]!r}")
    missing = [key for key in REQUIRED_META if not meta.get(key)]
    if missing:
        raise WriterError(f"audit_meta is missing required keys: {', '.join(missing)}")
    rows = list(fixed.items())
    rows += [(key, str(value)) for key, value in meta.items() if key not in fixed]
    return rows


def create_audit_db(path: str | os.PathLike[str], meta: Mapping[str, str]) -> BuildingConnection:
    """Start a new schema-v1 audit database that will appear at ``path``.

    The schema and ``audit_meta`` are written at once; the caller inserts the
    rest and then calls :func:`finish_audit_db` (or :func:`discard_audit_db`).
    Prefer :func:`new_audit_db`, which does both.

    Args:
        path: destination; must not exist yet, its directory must.
        meta: ``audit_meta`` values; needs ``benchmark``, ``corpus_id`` and
            ``created_at``. ``format`` and ``schema_version`` are filled in.

    Returns:
        A connection to the temporary file, inside an open transaction.

    Raises:
        WriterError: the destination exists, its directory is missing, or the
            meta is incomplete.
    """
    final = Path(path)
    if final.exists() or final.is_symlink():
        raise WriterError(f"{final} already exists; refusing to overwrite it")
    if not final.parent.is_dir():
        raise WriterError(f"no such directory: {final.parent}")
    rows = _meta_rows(meta)
    staged = StagedFile(final, replace=False, allow_sqlite=True, mode=0o666)
    temp = staged.temp
    try:
        conn = sqlite3.connect(temp, factory=BuildingConnection, isolation_level=None)
    except sqlite3.Error as exc:
        staged.discard()
        raise WriterError(f"cannot create {temp}: {exc}") from None
    conn.final_path, conn.temp_path, conn.staged = final, temp, staged
    try:
        conn.execute("PRAGMA page_size = 4096")
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("PRAGMA cache_size = -65536")
        conn.executescript(schema_sql())
        conn.execute("BEGIN")
        conn.executemany("INSERT INTO audit_meta (key, value) VALUES (?, ?)", rows)
    except BaseException:
        discard_audit_db(conn)
        raise
    return conn


def finish_audit_db(conn: BuildingConnection) -> Path:
    """Commit, make it a plain rollback-journal file, fsync and rename into place.

    Args:
        conn: a connection from :func:`create_audit_db`; closed afterwards.

    Returns:
        The final path.

    Raises:
        WriteRefused: the destination appeared meanwhile, or the write failed (the
            temp file is removed).
    """
    try:
        if conn.in_transaction:
            conn.execute("COMMIT")
        conn.execute("PRAGMA journal_mode = DELETE")
        conn.execute("PRAGMA synchronous = FULL")
    except BaseException:
        discard_audit_db(conn)
        raise
    conn.close()
    conn.staged.commit()
    return conn.final_path


def discard_audit_db(conn: BuildingConnection) -> None:
    """Close the connection and delete the temporary file; nothing is published."""
    with contextlib.suppress(sqlite3.Error):
        conn.close()
    conn.staged.discard()


@contextlib.contextmanager
def new_audit_db(
    path: str | os.PathLike[str], meta: Mapping[str, str]
) -> Iterator[BuildingConnection]:
    """Context manager: a new audit database that appears at ``path`` only on success.

    Yields the connection of :func:`create_audit_db` inside one transaction; on
    a normal exit it is committed, closed, fsynced and renamed into place, on
    an exception the temporary file is removed and the exception propagates.

    Raises:
        WriterError: see :func:`create_audit_db` and :func:`finish_audit_db`.
    """
    conn = create_audit_db(path, meta)
    try:
        yield conn
    except BaseException:
        discard_audit_db(conn)
        raise
    finish_audit_db(conn)
