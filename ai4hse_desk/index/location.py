"""Where the review index lives, and how the index reaches the audit file.

The index is a *derived cache*: it is kept in the user's cache folder
(:func:`~ai4hse_desk.audit.cache.cache_dir`), named after the audit fingerprint.
Nothing is ever written beside an audit database.

Files per audit fingerprint ``fp`` (``fp[:32]`` in the names):

* ``index-<fp>.sqlite``: stage 1, the denormalised verdict rows (:mod:`.build`);
* ``index-<fp>-fts.sqlite``: stage 2, the full-text index (:mod:`.fts`).

Both are written to a hidden temporary file in the same directory and renamed
into place when complete, so a reader never sees half a file.
"""

from __future__ import annotations

import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from ai4hse_desk import filewrite
from ai4hse_desk.audit.cache import CACHE_ENV, cache_dir
from ai4hse_desk.audit.opening import sqlite_uri

if TYPE_CHECKING:
    from collections.abc import Iterator

    from ai4hse_desk.audit import AuditDB

_NAME_LENGTH = 32
_STALE_SECONDS = 24 * 3600


def _stem(fingerprint: str) -> str:
    if len(fingerprint) < _NAME_LENGTH or not all(c in "0123456789abcdef" for c in fingerprint):
        raise ValueError(f"not a SHA-256 hex fingerprint: {fingerprint!r}")
    return f"index-{fingerprint[:_NAME_LENGTH]}"


def index_path(fingerprint: str) -> Path:
    """``<cache>/index-<fingerprint[:32]>.sqlite``: the stage-1 index of one audit state."""
    return cache_dir() / f"{_stem(fingerprint)}.sqlite"


def fts_path(fingerprint: str) -> Path:
    """``<cache>/index-<fingerprint[:32]>-fts.sqlite``: the full-text index."""
    return cache_dir() / f"{_stem(fingerprint)}-fts.sqlite"


def readonly_uri(path: Path) -> str:
    """URI opening ``path`` read-only without locks or side files (``immutable``)."""
    return sqlite_uri(path, mode="ro", immutable="1")


def audit_file(db: AuditDB) -> Path:
    """The file ``db`` actually reads.

    For a live record (pending ``-wal``/``-journal``) :mod:`ai4hse_desk.audit.opening`
    reads a private folded snapshot; ``PRAGMA database_list`` on one of ``db``'s
    own connections names that file, so the index attaches exactly the bytes the
    fingerprint describes.
    """
    with db.raw_connection() as conn:
        for _seq, name, filename in conn.execute("PRAGMA database_list"):
            if name == "main" and filename:
                return Path(filename)
    raise RuntimeError(f"cannot tell which file {db.path} was opened from")


def audit_uri(db: AuditDB) -> str:
    """Read-only ``immutable`` URI of :func:`audit_file`."""
    return readonly_uri(audit_file(db))


class BuildCancelled(Exception):
    """A build's progress callback asked to stop; its temporary file was deleted."""


def _remove_stale(target: Path) -> None:
    """Delete temporary files of ``target`` left by a build that crashed a day ago."""
    now = time.time()
    for stale in target.parent.glob(f".{target.name}.*.tmp"):
        try:
            if now - stale.stat().st_mtime > _STALE_SECONDS:
                stale.unlink()
        except OSError:
            continue


@contextmanager
def staged_file(target: Path) -> Iterator[Path]:
    """A new, empty temporary file beside ``target`` in the cache directory.

    The guarded writer's :func:`~ai4hse_desk.filewrite.staged_file`: on a normal
    exit the temporary file is flushed to disk and atomically renamed to
    ``target`` (replacing an older index); on any exception, including a
    cancellation, it is deleted, so nothing is left behind. (A process killed
    mid-build leaves its hidden ``.tmp`` file; the next build of the same
    target deletes it after a day.)
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    _remove_stale(target)
    with filewrite.staged_file(target, allow_sqlite=True) as temp:
        yield temp


def read_meta(path: Path) -> dict[str, str] | None:
    """The ``meta`` table of an index file, or ``None`` if it is missing or unreadable."""
    if not path.is_file():
        return None
    try:
        conn = sqlite3.connect(readonly_uri(path), uri=True)
    except sqlite3.Error:
        return None
    try:
        return {str(key): str(value) for key, value in conn.execute("SELECT key, value FROM meta")}
    except sqlite3.Error:
        return None
    finally:
        conn.close()


__all__ = [
    "CACHE_ENV",
    "BuildCancelled",
    "audit_file",
    "audit_uri",
    "cache_dir",
    "fts_path",
    "index_path",
    "read_meta",
    "readonly_uri",
    "staged_file",
]
