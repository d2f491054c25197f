"""Opening an audit database strictly read-only, reading one consistent state of it.

How a file is opened (see :mod:`.pin` for why):

* **Rollback-journal record** (the usual case): the file is pinned (one open
  descriptor) and SQLite's **shared lock** is taken and held until the database
  is closed, so no writer can commit while the desk reads: every query, the
  fingerprint and every worker process see the same committed state. The data
  connections use ``file:…?mode=ro&immutable=1`` (no locking overhead; the lock is
  held on their behalf). A writer holding the lock for more than
  :data:`~.pin.LOCK_TIMEOUT_SECONDS` makes the open fail ("being written").
* **WAL record with no pending WAL**: a WAL-mode file cannot be locked without
  creating ``-shm``; it is read ``immutable`` and :meth:`ReadOnlyFile.verify_unchanged`
  refuses the results if the file changed while it was read.
* **Live or un-checkpointed record** (a non-empty ``-wal``, or a hot ``-journal``
  left by a writer that died mid-transaction): ``immutable`` would silently ignore
  committed transactions in the WAL (or read half-written pages). Instead the
  database and that side file are copied into a private temporary directory,
  where SQLite recovers them (applies the committed WAL frames, or rolls back the
  journal) and folds them into one file; that copy is then opened like a closed
  record. Nothing is ever written beside the original and its ``-shm`` is never
  touched. The copy is retried if the files change while being copied, and is
  deleted by :meth:`ReadOnlyFile.close`.

Fingerprint: for a pinned record, the SHA-256 of the pinned file's bytes (what
``sha256sum`` prints), computed on first request through the pinned descriptor,
so it names the very bytes read even if the path is replaced meanwhile. For a
*snapshot*, the SHA-256 of the database bytes followed by the side file's bytes,
exactly as copied: it names the state read, and differs from ``sha256sum`` of the
database because something was pending.

Every connection has ``PRAGMA query_only = ON`` and an authorizer that refuses
``ATTACH`` (which could otherwise create files, e.g. via ``VACUUM INTO``). A path
is never opened unless it is an existing regular file with an SQLite header, so
a missing path is never created. The checked opening (schema and small tables) that
makes an :class:`~.queries.AuditDB` of it is :func:`~.queries.open_audit`.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import sqlite3
import stat
import tempfile
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

from ai4hse_desk.audit.errors import AuditError, file_problems_as_audit_errors
from ai4hse_desk.audit.fingerprint import copy_hashing
from ai4hse_desk.audit.pin import FileState, HotJournal, Pin, acquire, release
from ai4hse_desk.audit.pool import ConnectionPool
from ai4hse_desk.filewrite import protect

if TYPE_CHECKING:
    from contextlib import AbstractContextManager

    from ai4hse_desk.progress import Progress

SQLITE_MAGIC = b"SQLite format 3\x00"
#: Side files whose content SQLite would need to read a consistent state.
SIDE_FILES: tuple[str, ...] = ("-wal", "-journal")
_COPY_ATTEMPTS = 5


def sqlite_uri(path: Path, **params: str) -> str:
    """An SQLite ``file:`` URI for ``path``; every unusual character is %-quoted."""
    posix = path.absolute().as_posix()
    if not posix.startswith("/"):
        posix = "/" + posix  # Windows drive letters: file:///C:/...
    query = "&".join(f"{name}={value}" for name, value in params.items())
    return f"file://{quote(posix, safe='/')}" + (f"?{query}" if query else "")


def _authorize(action: int, arg1: str | None, arg2: str | None, *_: str | None) -> int:
    if action in (sqlite3.SQLITE_ATTACH, sqlite3.SQLITE_DETACH):
        return sqlite3.SQLITE_DENY
    if action == sqlite3.SQLITE_PRAGMA and (arg1 or "").lower() == "query_only" and arg2:
        return sqlite3.SQLITE_DENY
    return sqlite3.SQLITE_OK


def connect_readonly(uri: str) -> sqlite3.Connection:
    """A driver connection to ``uri`` that cannot write or attach anything."""
    conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
    try:
        conn.execute("PRAGMA query_only = ON")
        conn.set_authorizer(_authorize)
    except BaseException:
        conn.close()
        raise
    return conn


def _stat_regular(path: Path) -> os.stat_result:
    try:
        info = path.stat()
    except FileNotFoundError:
        raise AuditError(f"no such file: {path}", path) from None
    except OSError as exc:
        raise AuditError(f"cannot read {path}: {exc.strerror or exc}", path) from None
    if stat.S_ISDIR(info.st_mode):
        raise AuditError(f"{path} is a directory, not an audit database", path)
    if not stat.S_ISREG(info.st_mode):
        raise AuditError(f"{path} is not a regular file, not an audit database", path)
    if info.st_size == 0:
        raise AuditError(f"{path} is empty, not an audit database", path)
    return info


def _check_header(header: bytes, size: int, shown: Path, check_size: bool = True) -> None:
    """Reject non-SQLite files and (``check_size``) files shorter than their header says."""
    if len(header) < 100 or not header.startswith(SQLITE_MAGIC):
        raise AuditError(f"{shown}: not an SQLite database (file is not a database)", shown)
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    if page_size < 512 or page_size & (page_size - 1):
        raise AuditError(f"{shown}: damaged SQLite database (bad page size)", shown)
    if check_size and header[24:28] == header[92:96] and pages * page_size > size:
        raise AuditError(
            f"{shown}: damaged SQLite database (truncated: {size} of {pages * page_size} bytes)",
            shown,
        )


def _check_file_header(path: Path, shown: Path) -> None:
    """:func:`_check_header` on a private file (a snapshot copy) read by path."""
    try:
        with open(path, "rb") as handle:
            header = handle.read(100)
            size = os.fstat(handle.fileno()).st_size
    except OSError as exc:
        raise AuditError(f"cannot read {shown}: {exc.strerror or exc}", shown) from None
    _check_header(header, size, shown)


def _is_wal(header: bytes) -> bool:
    """True if the header's read/write versions say WAL mode (bytes 18 and 19 = 2)."""
    return header[18:19] == b"\x02" or header[19:20] == b"\x02"


def _pending_side_file(path: Path) -> Path | None:
    for suffix in SIDE_FILES:
        side = Path(f"{path}{suffix}")
        try:
            if side.stat().st_size > 0:
                return side
        except OSError:
            continue
    return None


DiskState = tuple[tuple[int, int] | None, ...]


def _disk_state(path: Path) -> DiskState:
    """(size, mtime) of the database and of each side file (``None`` when absent)."""
    state: list[tuple[int, int] | None] = []
    for suffix in ("", *SIDE_FILES):
        try:
            info = os.stat(f"{path}{suffix}")
        except OSError:
            state.append(None)
        else:
            state.append((info.st_size, info.st_mtime_ns))
    return tuple(state)


def _copy_pair(pin: Pin, side: Path, directory: Path, shown: Path) -> tuple[Path, str] | None:
    """Copy the pinned database and ``side`` into the empty ``directory``, hashing the bytes.

    Returns:
        The copy and the digest, or ``None`` if ``side`` vanished meanwhile (a
        writer closed and checkpointed it): the caller looks again.
    """
    copy = directory / "audit.sqlite"
    digest = hashlib.sha256()
    try:
        pin.copy_into(copy, digest)
        copy_hashing(side, Path(f"{copy}{side.name[len(pin.real.name) :]}"), digest)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise AuditError(f"cannot read {shown}: {exc.strerror or exc}", shown) from None
    return copy, digest.hexdigest()


def _fold(copy: Path, shown: Path) -> None:
    """Let SQLite recover the private copy (apply the WAL, roll back a journal) and
    leave it as one self-contained file."""
    with file_problems_as_audit_errors(shown), closing(sqlite3.connect(copy)) as conn:
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        conn.execute("PRAGMA journal_mode = DELETE").fetchone()
    for leftover in copy.parent.iterdir():
        if leftover != copy:
            leftover.unlink()


class ReadOnlyFile:
    """An audit file opened read-only: its pool of driver connections and its fingerprint.

    Use :func:`open_readonly`; :class:`~ai4hse_desk.audit.queries.AuditDB` wraps it.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        protect(path, "the audit database")  # even if it fails to open: never write it
        _stat_regular(path)
        self._real = path.resolve()  # side files live beside the symlink's target
        self._pin: Pin | None = None
        self._pinned: FileState | None = None
        self._temp: Path | None = None
        self._state: DiskState = ()
        self._fingerprint: str | None = None
        try:
            opened = self._open_state()
        except BaseException:
            self._release()
            raise
        self.uri = sqlite_uri(opened, mode="ro", immutable="1")
        self.pool = ConnectionPool(self.connect)

    def _open_state(self) -> Path:
        """The file to open: the pinned original, or a folded snapshot (module docstring)."""
        for _ in range(_COPY_ATTEMPTS):
            self._release()
            pin = self._pin = acquire(self._real, self.path)
            header = pin.read(0, 100)
            _check_header(header, pin.state()[2], self.path)
            side = _pending_side_file(self._real)
            if not _is_wal(header):
                try:
                    pin.lock(sqlite_uri(self._real, mode="ro"))
                except HotJournal:
                    side = Path(f"{self._real}-journal")
                else:
                    header = pin.read(0, 100)
                    if _is_wal(header):  # switched to WAL meanwhile: look again
                        continue
                    side = None
            elif side is not None and not side.name.endswith("-wal"):
                side = None  # a WAL-mode file ignores a stray journal
            if side is None:
                self._state = _disk_state(self._real)
                self._pinned = pin.state()
                _check_header(header, self._pinned[2], self.path)
                return self._real
            copy = self._copy(pin, side)
            if copy is not None:
                return copy
        raise AuditError(f"{self.path} keeps changing while being read; try again", self.path)

    def _copy(self, pin: Pin, side: Path) -> Path | None:
        """Fold the pinned file and ``side`` into a private snapshot; ``None`` if they moved."""
        self._state = _disk_state(self._real)
        if self._temp is None:
            self._temp = Path(tempfile.mkdtemp(prefix="ai4hse-audit-"))
        for stale in self._temp.iterdir():
            stale.unlink()
        copied = _copy_pair(pin, side, self._temp, self.path)
        if copied is None or _disk_state(self._real) != self._state:
            return None
        copy, self._fingerprint = copied
        _fold(copy, self.path)
        _check_file_header(copy, self.path)
        self._release_pin()
        return copy

    def _release_pin(self) -> None:
        if self._pin is not None:
            release(self._pin)
            self._pin = None

    def _release(self) -> None:
        self._release_pin()
        if self._temp is not None:
            shutil.rmtree(self._temp, ignore_errors=True)
            self._temp = None

    @property
    def snapshot(self) -> bool:
        """True when a pending ``-wal`` or hot ``-journal`` made the desk read a private copy."""
        return self._temp is not None

    @property
    def locked(self) -> bool:
        """True while the desk holds the file's shared lock (a rollback-journal record)."""
        return self._pin is not None and self._pin.locked

    def connect(self) -> sqlite3.Connection:
        """A new read-only driver connection (the pool's connection factory)."""
        return connect_readonly(self.uri)

    def raw_connection(self) -> AbstractContextManager[sqlite3.Connection]:
        """A pooled read-only driver connection, returned to the pool on exit."""
        return self.pool.connection()

    def fingerprint(self, progress: Progress | None = None) -> str:
        """SHA-256 of the bytes read, computed once (see the module docstring).

        Args:
            progress: (bytes read, file size) while it is computed; returning False
                stops it (:class:`~.pin.FingerprintCancelled`; none is kept).
        """
        if self._fingerprint is None:
            assert self._pin is not None  # a snapshot has its digest from the copy
            try:
                self._fingerprint = self._pin.sha256(progress)
            except OSError as exc:
                raise AuditError(f"cannot read {self.path}: {exc.strerror}", self.path) from None
        return self._fingerprint

    def changed_on_disk(self) -> bool:
        """True if the file or its ``-wal``/``-journal`` changed since opening (new commits
        may exist; what was read stays consistent, see :meth:`verify_unchanged`)."""
        pin, pinned = self._pin, self._pinned
        if pin is not None and pinned is not None and not pin.unchanged(pinned):
            return True
        return _disk_state(self._real) != self._state

    def verify_unchanged(self) -> None:
        """Refuse to report anything if the file read changed while it was being read.

        A snapshot is private and cannot change; a pinned file must still be the
        same inode with the same size and times (a locked file always is, unless a
        program ignoring SQLite's locks rewrote it).

        Raises:
            AuditError: "changed while being read".
        """
        pin, pinned = self._pin, self._pinned
        if pin is not None and pinned is not None and not pin.unchanged(pinned):
            raise AuditError(
                f"{self.path} changed while being read; nothing is reported from it "
                "(try again when it is no longer being written)",
                self.path,
            )

    def close(self) -> None:
        """Close every connection, release the lock and delete a snapshot copy; idempotent."""
        self.pool.dispose()
        self._release()


def open_readonly(path: str | os.PathLike[str]) -> ReadOnlyFile:
    """Open ``path`` read-only (see the module docstring); validates only the file.

    Raises:
        AuditError: missing, a directory, empty, not SQLite, truncated.
    """
    return ReadOnlyFile(Path(os.path.abspath(os.fspath(path))))
