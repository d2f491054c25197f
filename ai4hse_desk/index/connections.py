"""The review index's SQLite connections: :class:`IndexConnections`.

Threads: every thread gets its own read-only connection (opened on first use,
``check_same_thread=False`` only so that :meth:`IndexConnections.close` and
:meth:`IndexConnections.interrupt` can reach it), so a worker thread may query
while the GUI thread does too. Each connection opens the index
``mode=ro&immutable=1`` with ``PRAGMA query_only=ON`` and attaches the audit file
the same way (as ``audit``; raw text for searches) and, once built, the full-text
index (as ``fts``). Close the index before the :class:`~ai4hse_desk.audit.AuditDB`.
"""

from __future__ import annotations

import sqlite3
import threading
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from ai4hse_desk.index.fts import fts_is_current
from ai4hse_desk.index.location import read_meta, readonly_uri

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence
    from pathlib import Path

# No memory-mapping of the files: measured on a million attempts it made no query
# faster, and every mapped page a walk touched stayed in the window's resident memory.


class QueryInterrupted(Exception):
    """A query was stopped by :meth:`~ai4hse_desk.index.query.ReviewIndex.interrupt`
    (e.g. the filter changed)."""


@contextmanager
def interruptible() -> Iterator[None]:
    """Turn SQLite's "interrupted" error inside the block into :class:`QueryInterrupted`."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        if "interrupt" in str(exc):
            raise QueryInterrupted(str(exc)) from None
        raise


class IndexConnections:
    """One read-only connection per thread to a review index (see the module docstring).

    Args:
        path: the index file.
        audit_uri: the audit file's read-only URI, attached as ``audit``.
        fts_path: where the full-text index is (attached as ``fts`` once complete).
        fingerprint: the audit's fingerprint the full-text index must carry.
    """

    def __init__(self, path: Path, audit_uri: str, fts_path: Path, fingerprint: str) -> None:
        self._path = path
        self._audit_uri = audit_uri
        self._fts_path = fts_path
        self._fingerprint = fingerprint
        self._local = threading.local()
        self._lock = threading.Lock()
        self._connections: list[sqlite3.Connection] = []
        self._fts = False
        self._closed = False

    @property
    def fts_ready(self) -> bool:
        """True once the full-text index of this audit is complete (checked on disk)."""
        if not self._fts:
            self._fts = fts_is_current(read_meta(self._fts_path), self._fingerprint)
        return self._fts

    @property
    def fts_found(self) -> bool:
        """What :attr:`fts_ready` last found, without looking at the disk again."""
        return self._fts

    def connect(self) -> sqlite3.Connection:
        """This thread's connection, opened on first use; ``fts`` attached once ready.

        Raises:
            RuntimeError: after :meth:`close`.
        """
        if self._closed:
            raise RuntimeError("the review index is closed")
        conn: sqlite3.Connection | None = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(readonly_uri(self._path), uri=True, check_same_thread=False)
            conn.execute("ATTACH DATABASE ? AS audit", (self._audit_uri,))
            conn.execute("PRAGMA query_only = ON")
            with self._lock:
                if self._closed:  # closed while this one opened: never left open
                    conn.close()
                    raise RuntimeError("the review index is closed")
                self._connections.append(conn)
            self._local.conn = conn
            self._local.fts = False
        if self.fts_ready and not self._local.fts:
            conn.execute("ATTACH DATABASE ? AS fts", (readonly_uri(self._fts_path),))
            self._local.fts = True
        return conn

    def all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Every row of one statement on this thread's connection.

        Raises:
            QueryInterrupted: :meth:`interrupt` stopped it.
        """
        with interruptible():
            return self.connect().execute(sql, params).fetchall()

    def interrupt(self) -> None:
        """Abort every running query on every thread's connection."""
        with self._lock:
            for conn in self._connections:
                conn.interrupt()

    def close(self) -> None:
        """Close every thread's connection and refuse new ones; idempotent."""
        with self._lock:
            self._closed = True
            for conn in self._connections:
                conn.close()
            self._connections.clear()


__all__ = ["IndexConnections", "QueryInterrupted", "interruptible"]
