"""A small pool of read-only sqlite3 connections to one audit file.

The audit layer talks to the sqlite3 driver directly (no SQLAlchemy: importing it
costs a headless command about 0.3 s, and every audit query is fixed SQL text).
Opening a connection is cheap but not free (the schema is parsed on first use),
so connections are reused: a caller borrows one with :meth:`ConnectionPool.connection`
and it comes back, reset, when the block ends; at most ``keep`` idle ones are kept.
Connections are made with ``check_same_thread=False`` by the factory, and any thread
may borrow one, but a connection is only ever used by one borrower at a time.

A process made by ``fork`` inherits the parent's idle connections; it must never
use or close them (SQLite connections do not survive a fork). The pool notices
the new process id and abandons them, as :meth:`ConnectionPool.dispose` with
``close=False`` does.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

#: Connections inherited across a fork: kept referenced, so that the child's garbage
#: collector never closes a connection that belongs to the parent.
_ABANDONED: list[sqlite3.Connection] = []


class ConnectionPool:
    """Reusable connections made by ``factory``; thread-safe.

    Args:
        factory: makes a new read-only connection (the caller's guarantees apply).
        keep: the most idle connections kept for reuse.
    """

    def __init__(self, factory: Callable[[], sqlite3.Connection], keep: int = 4) -> None:
        self._factory = factory
        self._keep = keep
        self._idle: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self._pid = os.getpid()
        self._generation = 0

    def _take(self) -> tuple[sqlite3.Connection | None, int]:
        with self._lock:
            if self._pid != os.getpid():  # a forked child: the parent's connections are not ours
                _ABANDONED.extend(self._idle)
                self._idle = []
                self._pid = os.getpid()
            return (self._idle.pop() if self._idle else None), self._generation

    def _give_back(self, conn: sqlite3.Connection, generation: int) -> None:
        if self._pid != os.getpid():  # borrowed before a fork: the parent's
            _ABANDONED.append(conn)
            return
        try:
            if conn.in_transaction:
                conn.rollback()
            conn.row_factory = None
            conn.text_factory = str
        except sqlite3.Error:
            conn.close()
            return
        with self._lock:
            if generation == self._generation and len(self._idle) < self._keep:
                self._idle.append(conn)
                return
        conn.close()

    @contextmanager
    def connection(self) -> Iterator[sqlite3.Connection]:
        """Borrow a connection (plain tuples, ``str`` text) for the ``with`` block."""
        conn, generation = self._take()
        if conn is None:
            conn = self._factory()
        try:
            yield conn
        finally:
            self._give_back(conn, generation)

    def dispose(self, *, close: bool = True) -> None:
        """Drop every idle connection; borrowed ones are closed when they come back.

        Args:
            close: close them (the default), or only forget them (in a forked child,
                whose inherited connections belong to the parent).
        """
        with self._lock:
            idle, self._idle = self._idle, []
            self._generation += 1
        if close:
            for conn in idle:
                conn.close()
        else:
            _ABANDONED.extend(idle)
