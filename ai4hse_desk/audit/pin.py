"""Holding an audit file still while the desk reads it: one descriptor and a shared lock.

A rollback-journal database (the runner's usual format) can be rewritten in place
by a writer at any moment, and an ``immutable`` connection takes no lock, so a
rescore could read half of one committed state and half of the next. A
:class:`Pin` prevents that:

* it opens the file once (``O_RDONLY``) and keeps the descriptor until released;
  the header, the fingerprint and any private copy are read through it with
  ``pread``, so they describe the very inode the desk reads even if the path is
  replaced meanwhile;
* for a rollback-journal file it holds an SQLite **shared lock** (a ``mode=ro``
  connection inside an open read transaction): a well-behaved writer cannot
  commit until the desk lets go, so every read sees one committed state. A
  writer that holds the lock for longer than :data:`LOCK_TIMEOUT_SECONDS` makes
  the open fail ("being written"), never a mixed read;
* :meth:`Pin.unchanged` tells whether the path still names the same, unmodified
  file (for WAL-mode files, which cannot be locked without creating ``-shm``).

POSIX locks belong to a process and are dropped when *any* descriptor of the file
is closed, so the pins of one process are shared per inode and counted: a second
open of the same file reuses the first pin, and the descriptor is closed only
when the last user releases it. SQLite's own descriptors are safe (SQLite defers
closing them while a lock is held on the inode).
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
import threading
from typing import TYPE_CHECKING, Final

from ai4hse_desk.audit.errors import AuditError
from ai4hse_desk.audit.fingerprint import CHUNK_SIZE, Digest

if TYPE_CHECKING:
    from pathlib import Path

    from ai4hse_desk.progress import Progress

#: How long to wait for a writer's lock before giving up (exit 2, "being written").
LOCK_TIMEOUT_SECONDS: float = 5.0
#: Bytes per ``pread`` when hashing or copying (the fingerprint module's chunk).
CHUNK: Final = CHUNK_SIZE
#: SQLite's extended code for "a hot journal needs a rollback this read-only connection
#: cannot do" (a writer crashed mid-transaction).
SQLITE_READONLY_ROLLBACK: Final = 776


#: Chunks hashed between two progress reports of :meth:`Pin.sha256` (32 MiB).
REPORT_CHUNKS: Final = 32


class HotJournal(Exception):
    """A writer died mid-transaction: the committed state needs the journal rolled back."""


class FingerprintCancelled(Exception):
    """The progress of a fingerprint asked it to stop: no fingerprint was made."""


def _report(progress: Progress, done: int, total: int) -> None:
    if not progress(done, total):
        raise FingerprintCancelled


#: (device, inode, size, mtime, ctime) of a file: what :meth:`Pin.unchanged` compares.
FileState = tuple[int, int, int, int, int]


def _file_state(info: os.stat_result) -> FileState:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


class Pin:
    """One open descriptor on an audit file, and its shared lock when it has one."""

    def __init__(self, real: Path, shown: Path) -> None:
        self.real = real
        self.shown = shown
        self.fd = os.open(real, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        self.users = 0
        self._lock_conn: sqlite3.Connection | None = None
        info = os.fstat(self.fd)
        self.identity: tuple[int, int] = (info.st_dev, info.st_ino)

    def state(self) -> FileState:
        """The pinned file's state now (compare it later with :meth:`unchanged`)."""
        return _file_state(os.fstat(self.fd))

    @property
    def locked(self) -> bool:
        """True while the shared lock is held."""
        return self._lock_conn is not None

    def read(self, offset: int, size: int) -> bytes:
        """Up to ``size`` bytes at ``offset`` of the pinned file."""
        return os.pread(self.fd, size, offset)

    def lock(self, uri: str) -> None:
        """Take SQLite's shared lock through a read-only connection to ``uri``.

        Raises:
            HotJournal: a hot journal must be rolled back first (read a private copy).
            AuditError: a writer kept the file locked for :data:`LOCK_TIMEOUT_SECONDS`.
        """
        if self._lock_conn is not None:
            return
        conn = sqlite3.connect(
            uri, uri=True, isolation_level=None, timeout=LOCK_TIMEOUT_SECONDS,
            check_same_thread=False,
        )  # fmt: skip
        try:
            conn.execute("PRAGMA query_only = ON")
            conn.execute("BEGIN")
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.Error as exc:
            conn.close()
            if getattr(exc, "sqlite_errorcode", None) == SQLITE_READONLY_ROLLBACK:
                raise HotJournal from None
            if getattr(exc, "sqlite_errorcode", 0) & 0xFF == sqlite3.SQLITE_BUSY:
                raise AuditError(
                    f"{self.shown} is being written by another program (it holds the "
                    f"database lock for more than {LOCK_TIMEOUT_SECONDS:g} s); try again "
                    "when it has finished",
                    self.shown,
                ) from None
            raise AuditError(
                f"{self.shown}: damaged or unreadable audit database ({exc})", self.shown
            ) from None
        self._lock_conn = conn

    def unlock(self) -> None:
        """End the read transaction (the writer may commit again)."""
        if self._lock_conn is not None:
            self._lock_conn.close()
            self._lock_conn = None

    def hash_into(self, digest: Digest, progress: Progress | None = None) -> int:
        """Feed every byte of the pinned file into ``digest``; the number of bytes.

        Args:
            progress: called with (bytes read, file size) every :data:`REPORT_CHUNKS`
                chunks and at the end; returning False raises :class:`FingerprintCancelled`.
        """
        size = os.fstat(self.fd).st_size
        offset = chunks = 0
        while chunk := os.pread(self.fd, CHUNK, offset):
            digest.update(chunk)
            offset += len(chunk)
            chunks += 1
            if progress is not None and chunks % REPORT_CHUNKS == 0:
                _report(progress, offset, max(size, offset))
        if progress is not None:
            _report(progress, offset, max(size, offset))
        return offset

    def sha256(self, progress: Progress | None = None) -> str:
        """Hex SHA-256 of the pinned file's bytes (what ``sha256sum`` prints);
        ``progress`` as :meth:`hash_into` takes it."""
        digest = hashlib.sha256()
        self.hash_into(digest, progress)
        return digest.hexdigest()

    def copy_into(self, target: Path, digest: Digest) -> int:
        """Copy the pinned file to the new file ``target``, hashing what was copied."""
        offset = 0
        with open(target, "xb") as out:
            while chunk := os.pread(self.fd, CHUNK, offset):
                digest.update(chunk)
                out.write(chunk)
                offset += len(chunk)
        return offset

    def unchanged(self, expected: FileState) -> bool:
        """True if the path still names this file and its size and times are ``expected``."""
        try:
            now = _file_state(os.stat(self.real))
        except OSError:
            return False
        return now == expected and self.state() == expected

    def shut(self) -> None:
        """Drop the lock and close the descriptor (only :func:`release` calls this)."""
        self.unlock()
        os.close(self.fd)


_pins_lock = threading.Lock()
_pins: dict[tuple[int, int], Pin] = {}


def acquire(real: Path, shown: Path) -> Pin:
    """The process's pin of ``real`` (opened now, or shared with an earlier open).

    Raises:
        AuditError: the file cannot be opened, or is not a regular file.
    """
    try:
        info = os.stat(real)
    except OSError as exc:
        raise AuditError(f"cannot read {shown}: {exc.strerror or exc}", shown) from None
    if not stat.S_ISREG(info.st_mode):
        raise AuditError(f"{shown} is not a regular file, not an audit database", shown)
    with _pins_lock:
        pin = _pins.get((info.st_dev, info.st_ino))
        if pin is None:
            try:
                pin = Pin(real, shown)
            except OSError as exc:
                raise AuditError(f"cannot read {shown}: {exc.strerror or exc}", shown) from None
            _pins[pin.identity] = pin
        pin.users += 1
        return pin


def release(pin: Pin) -> None:
    """Give up one use of ``pin``; the last user closes it (and drops the lock)."""
    with _pins_lock:
        pin.users -= 1
        if pin.users > 0:
            return
        if _pins.get(pin.identity) is pin:
            del _pins[pin.identity]
    pin.shut()
