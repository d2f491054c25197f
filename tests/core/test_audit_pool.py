"""The audit layer's connection pool: reuse, reset, disposal and fork safety."""

from __future__ import annotations

import os
import sqlite3
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.audit import open_audit
from ai4hse_desk.audit.pool import ConnectionPool

if TYPE_CHECKING:
    from pathlib import Path


class _Factory:
    """Makes in-memory connections and keeps every one it made."""

    def __init__(self) -> None:
        self.made: list[sqlite3.Connection] = []

    def __call__(self) -> sqlite3.Connection:
        conn = sqlite3.connect(":memory:", check_same_thread=False)
        self.made.append(conn)
        return conn


def _is_open(conn: sqlite3.Connection) -> bool:
    try:
        conn.execute("SELECT 1")
    except sqlite3.ProgrammingError:
        return False
    return True


def test_connections_are_reused_and_reset() -> None:
    factory = _Factory()
    pool = ConnectionPool(factory, keep=2)
    with pool.connection() as conn:
        conn.row_factory = sqlite3.Row
        conn.text_factory = bytes
        conn.execute("CREATE TABLE t (x)")
        conn.execute("INSERT INTO t VALUES ('a')")  # opens a transaction
        assert conn.in_transaction
    with pool.connection() as again:
        assert again is conn
        assert not again.in_transaction
        assert again.execute("SELECT count(*) FROM t").fetchone() == (0,)  # rolled back
        assert again.row_factory is None
        assert again.text_factory is str
    assert len(factory.made) == 1


def test_at_most_keep_idle_connections_stay_open() -> None:
    factory = _Factory()
    pool = ConnectionPool(factory, keep=1)
    with pool.connection() as first, pool.connection() as second:
        assert first is not second
    assert sum(map(_is_open, factory.made)) == 1


def test_dispose_closes_idle_and_returning_connections() -> None:
    factory = _Factory()
    pool = ConnectionPool(factory)
    with pool.connection() as borrowed:
        with pool.connection():
            pass
        pool.dispose()
        assert not _is_open(factory.made[1])
        assert _is_open(borrowed)
    assert not _is_open(borrowed)
    with pool.connection() as fresh:  # still usable: a new connection
        assert fresh not in factory.made[:2]


def test_dispose_without_closing_only_forgets() -> None:
    factory = _Factory()
    pool = ConnectionPool(factory)
    with pool.connection() as conn:
        pass
    pool.dispose(close=False)
    assert _is_open(conn)
    with pool.connection() as fresh:
        assert fresh is not conn


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_never_uses_the_parents_connections(audit_db: Path) -> None:
    with open_audit(audit_db) as db:
        with db.raw_connection() as parent_conn:
            pass
        read, write = os.pipe()
        child = os.fork()
        if child == 0:  # pragma: no cover - runs in the child
            try:
                with db.raw_connection() as conn:
                    same = conn is parent_conn
                    counted = db.count_attempts()
                os.write(write, f"{int(same)} {counted}".encode())
            finally:
                os._exit(0)
        os.close(write)
        answer = os.read(read, 100).decode()
        os.close(read)
        os.waitpid(child, 0)
        assert answer == "0 30"
        with db.raw_connection() as conn:
            assert conn is parent_conn  # the parent's pool is untouched
