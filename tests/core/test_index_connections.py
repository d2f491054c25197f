"""The review index's per-thread read-only connections (:mod:`ai4hse_desk.index.connections`)."""

from __future__ import annotations

import sqlite3
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING

import pytest

import ai4hse_desk.index
import ai4hse_desk.index.query
from ai4hse_desk.index import ReviewIndex, build_fts, ensure_index
from ai4hse_desk.index.connections import IndexConnections, QueryInterrupted, interruptible
from ai4hse_desk.index.location import audit_uri

if TYPE_CHECKING:
    from collections.abc import Iterator

    from ai4hse_desk.audit import AuditDB

ENDLESS = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"


@pytest.fixture
def index(audit: AuditDB) -> Iterator[ReviewIndex]:
    with ensure_index(audit) as built:
        yield built


@pytest.fixture
def connections(index: ReviewIndex, audit: AuditDB) -> Iterator[IndexConnections]:
    opened = IndexConnections(index.path, audit_uri(audit), index.fts_path, index.fingerprint)
    yield opened
    opened.close()


def _attached(conn: sqlite3.Connection) -> list[str]:
    return [str(row[1]) for row in conn.execute("PRAGMA database_list")]


def test_query_interrupted_is_one_class_everywhere() -> None:
    assert ai4hse_desk.index.QueryInterrupted is QueryInterrupted
    assert ai4hse_desk.index.query.QueryInterrupted is QueryInterrupted


def test_each_thread_has_its_own_connection(connections: IndexConnections) -> None:
    mine = connections.connect()
    assert connections.connect() is mine
    with ThreadPoolExecutor(1) as pool:
        theirs = pool.submit(connections.connect).result()
    assert theirs is not mine
    assert (
        connections.all("SELECT count(*) FROM rows")
        == theirs.execute("SELECT count(*) FROM rows").fetchall()
    )


def test_a_connection_is_read_only_with_the_audit_attached(
    connections: IndexConnections,
) -> None:
    conn = connections.connect()
    assert _attached(conn) == ["main", "audit"]
    assert conn.execute("PRAGMA query_only").fetchone() == (1,)
    with pytest.raises(sqlite3.OperationalError):
        conn.execute("DELETE FROM rows")
    with pytest.raises(sqlite3.OperationalError, match="no such table"):
        connections.all("SELECT * FROM no_such_table")  # other errors pass unchanged


def test_interrupt_stops_a_query_on_another_thread(connections: IndexConnections) -> None:
    started = threading.Event()

    def endless() -> object:
        connections.connect()
        started.set()
        return connections.all(ENDLESS)

    with ThreadPoolExecutor(1) as pool:
        running = pool.submit(endless)
        assert started.wait(10)
        deadline = time.monotonic() + 10
        while not running.done() and time.monotonic() < deadline:
            connections.interrupt()  # again until it lands inside the statement
            time.sleep(0.02)
        with pytest.raises(QueryInterrupted, match="interrupt"):
            running.result()
        assert pool.submit(connections.all, "SELECT 1").result() == [(1,)]  # still usable


def test_interruptible_translates_only_interrupts() -> None:
    with pytest.raises(QueryInterrupted, match="interrupted"), interruptible():
        raise sqlite3.OperationalError("interrupted")
    with pytest.raises(sqlite3.OperationalError, match="locked"), interruptible():
        raise sqlite3.OperationalError("database is locked")


def test_a_closed_set_refuses_to_connect(connections: IndexConnections) -> None:
    conn = connections.connect()
    connections.close()
    connections.close()
    with pytest.raises(sqlite3.ProgrammingError):
        conn.execute("SELECT 1")
    with pytest.raises(RuntimeError, match=r"^the review index is closed$"):
        connections.connect()
    with pytest.raises(RuntimeError, match=r"^the review index is closed$"):
        connections.all("SELECT 1")


def test_the_full_text_index_is_attached_once_built(
    audit: AuditDB, index: ReviewIndex, connections: IndexConnections
) -> None:
    conn = connections.connect()
    assert not connections.fts_ready
    assert not connections.fts_found
    assert repr(index) == f"ReviewIndex({str(index.path)!r}, fts_ready=False)"
    build_fts(audit)
    assert not connections.fts_found  # not looked at again yet
    assert connections.connect() is conn
    assert connections.fts_found
    assert _attached(conn) == ["main", "audit", "fts"]
    assert index.fts_ready
    assert repr(index) == f"ReviewIndex({str(index.path)!r}, fts_ready=True)"
