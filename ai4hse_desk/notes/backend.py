"""Engines, transactions and migrations of the notes store (SQLite or PostgreSQL).

SQLite (one reviewer, or several processes on one machine):

* WAL journal, ``synchronous = NORMAL`` (a killed process never loses a
  committed transaction), ``busy_timeout`` 30 s, foreign keys on;
* the driver's own transaction handling is off and every transaction begins
  explicitly — writes with ``BEGIN IMMEDIATE``, so two writers queue on the
  busy timeout instead of failing halfway — and a write that still meets
  "database is locked" is retried with back-off.

PostgreSQL (a team at once, through psycopg 3): default isolation; rows an
update depends on are locked (``SELECT … FOR UPDATE`` or an advisory lock), and
serialization failures and deadlocks are retried. Every write transaction sends
``NOTIFY`` on :data:`CHANGE_CHANNEL` (delivered at its commit), so an open window
that listens sees another desk's change at once — except a write no window shows
(``announce=False``: a showing, :data:`~.schema.UNSHOWN_TABLES`); on SQLite a window
polls ``PRAGMA data_version`` instead.

Migrations (Alembic, run in code): :func:`migrate` checks the version table;
at the head it does nothing more. Otherwise, inside one write transaction that
holds the migration lock (``BEGIN IMMEDIATE`` on SQLite, an advisory lock on
PostgreSQL), it runs ``alembic.command.upgrade`` with a ``Config`` pointing at
the packaged ``migrations`` folder, so concurrent first opens migrate once.
"""

from __future__ import annotations

import os
import random
import sqlite3
import stat
import time
from contextlib import closing, contextmanager
from importlib.resources import files
from typing import TYPE_CHECKING, Any, Final, TypeVar

from sqlalchemy import URL, Engine, create_engine, event, inspect, text
from sqlalchemy.exc import DBAPIError, OperationalError

from ai4hse_desk.audit.opening import SQLITE_MAGIC, connect_readonly, sqlite_uri
from ai4hse_desk.errors import first_line
from ai4hse_desk.notes.creation import NewStoreFile
from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.location import StoreLocation, guard_store_file
from ai4hse_desk.notes.model import utc_now
from ai4hse_desk.notes.schema import SCHEMA_HEAD, VERSION_TABLE

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from sqlalchemy.engine import Connection

T = TypeVar("T")

BUSY_TIMEOUT_MS: Final = 30_000
#: Advisory lock key of the PostgreSQL migration (any constant shared by all desks).
MIGRATION_LOCK: Final = 0x41493448
#: The channel every PostgreSQL write transaction notifies (a window LISTENs on it);
#: the payload is the store's schema (one database may hold several stores).
CHANGE_CHANNEL: Final = "ai4hse_desk_notes"
_NOTIFY: Final = text("SELECT pg_notify(:channel, current_schema())")
_RETRYABLE_SQLSTATES: Final = frozenset({"40001", "40P01", "55P03"})
_ATTEMPTS: Final = 12


def _sqlite_connect(dbapi_conn: sqlite3.Connection, _record: object) -> None:
    dbapi_conn.isolation_level = None  # transactions begin in _sqlite_begin
    for pragma in (
        f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}",
        "PRAGMA journal_mode = WAL",
        "PRAGMA synchronous = NORMAL",
        "PRAGMA foreign_keys = ON",
    ):
        dbapi_conn.execute(pragma).fetchall()


def _sqlite_begin(conn: Connection) -> None:
    write = conn.get_execution_options().get("review_write", False)
    conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def _read_header(path: Path) -> bytes | None:
    """The first 100 bytes of ``path`` (``None`` if missing); never blocks on a FIFO."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ReviewError(f"cannot read notes store {path}: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ReviewError(f"notes store {path} is not a regular file")
        return os.read(fd, 100)
    except OSError as exc:
        raise ReviewError(f"cannot read notes store {path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _pending_wal(path: Path) -> bool:
    try:
        return os.stat(f"{path}-wal").st_size > 0
    except OSError:
        return False


def check_existing_file(path: Path) -> None:
    """Refuse an existing file that is not a notes store, before anything can write to it.

    Connecting for real would already switch a rollback-journal database to WAL
    (a change to its header), so the file is first read through a read-only
    connection with ``query_only``: it must be empty, an SQLite file without
    tables, or one with the store's version table. Without a non-empty ``-wal``
    the connection is ``immutable`` (it creates no side file); with one — a store
    whose last writer stopped before a checkpoint, e.g. on a full disk — it is an
    ordinary read-only connection, so the committed transactions in the WAL are
    seen (it may create the ``-shm`` beside the store, never anything else).

    Raises:
        ReviewError: not SQLite, unreadable, or a database holding other tables.
    """
    header = _read_header(path)
    if not header:
        return
    if not header.startswith(SQLITE_MAGIC):
        raise ReviewError(f"{path} is not a notes store (not an SQLite database)")
    params = {"mode": "ro"} if _pending_wal(path) else {"mode": "ro", "immutable": "1"}
    try:
        with closing(connect_readonly(sqlite_uri(path, **params))) as conn:
            rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    except sqlite3.Error as exc:
        raise ReviewError(f"cannot open notes store {path}: {exc}") from None
    names = {str(row[0]) for row in rows}
    if names and VERSION_TABLE not in names:
        raise ReviewError(f"{path} is not a notes store (it holds other tables)")


def sqlite_engine(path: Path) -> Engine:
    """An engine on the SQLite store file ``path`` (WAL, busy timeout, explicit BEGIN)."""
    url = URL.create("sqlite", database=str(path))
    engine = create_engine(url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000})
    event.listen(engine, "connect", _sqlite_connect)
    event.listen(engine, "begin", _sqlite_begin)
    return engine


def make_engine(location: StoreLocation) -> tuple[Engine, NewStoreFile | None]:
    """An engine for ``location`` (not yet connected), and — for an SQLite store whose
    file does not exist yet — the private file it is built in
    (:class:`~ai4hse_desk.notes.creation.NewStoreFile`; the engine is on that file).

    An existing SQLite file is checked (:func:`~ai4hse_desk.notes.location.guard_store_file`,
    :func:`check_existing_file`) before anything connects to it.

    Raises:
        ReviewError: the SQLite file's folder does not exist, the file is refused,
            or it is something other than a notes store.
    """
    if location.path is None:
        engine = create_engine(location.url, pool_pre_ping=True, pool_size=2, max_overflow=4)
        return engine, None
    folder = location.path.parent
    if location.default:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ReviewError(f"cannot create {folder}: {exc.strerror or exc}") from None
    elif not folder.is_dir():
        raise ReviewError(f"cannot create notes store {location.path}: no such folder {folder}")
    guard_store_file(location)
    if not os.path.lexists(location.path):
        new = NewStoreFile(location.path, sqlite_engine)
        return new.engine, new
    check_existing_file(location.path)
    return sqlite_engine(location.path), None


def is_retryable(exc: BaseException) -> bool:
    """True for "database is locked/busy" (SQLite), serialization failures and deadlocks."""
    orig: Any = exc.orig if isinstance(exc, DBAPIError) else exc
    if isinstance(orig, sqlite3.OperationalError):
        message = str(orig).lower()
        return "locked" in message or "busy" in message
    return getattr(orig, "sqlstate", None) in _RETRYABLE_SQLSTATES


def _store_problem(engine: Engine, exc: DBAPIError) -> Exception:
    """A store the user can fix (full disk, read-only file, locked for too long,
    unreachable server, damaged file) as a :class:`ReviewError`; anything else as is."""
    orig = exc.orig
    if isinstance(exc, OperationalError) or type(orig) is sqlite3.DatabaseError:
        shown = engine.url.render_as_string(hide_password=True)
        return ReviewError(f"notes store {shown}: {first_line(exc)}; nothing was changed")
    return exc


def _transaction(
    engine: Engine, work: Callable[[Connection], T], *, writing: bool, announce: bool = True
) -> T:
    """Run ``work`` in one transaction, retried while the database is busy.

    Reads are retried too: opening a connection switches a new SQLite file to
    WAL, which SQLite refuses at once ("database is locked", no busy wait)
    while another process holds its write lock, e.g. during a first migration.
    """
    for attempt in range(_ATTEMPTS):
        try:
            with engine.connect() as conn:
                if writing:
                    conn.execution_options(review_write=True)
                with conn.begin():
                    result = work(conn)
                    if writing and announce and conn.dialect.name == "postgresql":
                        conn.execute(_NOTIFY, {"channel": CHANGE_CHANNEL})  # at the commit
                    return result
        except DBAPIError as exc:
            if attempt == _ATTEMPTS - 1 or not is_retryable(exc):
                raise _store_problem(engine, exc) from None
        time.sleep(min(1.0, 0.005 * 2**attempt) * (0.5 + random.random()))
    raise AssertionError("unreachable")


def write(engine: Engine, work: Callable[[Connection], T], *, announce: bool = True) -> T:
    """Run ``work`` in one write transaction, retried when the database is busy
    (``announce``: notify the windows that listen, on PostgreSQL)."""
    return _transaction(engine, work, writing=True, announce=announce)


def read(engine: Engine, work: Callable[[Connection], T]) -> T:
    """Run ``work`` in one read transaction (a consistent snapshot on both backends)."""
    return _transaction(engine, work, writing=False)


#: PostgreSQL's own clock in the notes store's time format (UTC, microseconds).
_SERVER_NOW: Final = (
    "SELECT to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')"
)


def clock(conn: Connection) -> str:
    """Now, for a write on ``conn``: the server's clock on PostgreSQL (every client of
    a team's store agrees on it), this computer's on SQLite (one machine's store)."""
    if conn.dialect.name == "postgresql":
        return str(conn.execute(text(_SERVER_NOW)).scalar_one())
    return utc_now()


def lock(conn: Connection, key: str) -> None:
    """Serialize writers that use the same ``key`` (PostgreSQL; SQLite writers are serial)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))"), {"k": key})


def _version(conn: Connection) -> str | None:
    if not inspect(conn).has_table(VERSION_TABLE):
        return None
    row = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).first()
    return None if row is None else str(row[0])


def _known_revisions() -> list[str]:
    """Every migration, oldest first."""
    from alembic.script import ScriptDirectory

    script = ScriptDirectory(str(files("ai4hse_desk.notes.migrations")))
    return [rev.revision for rev in reversed(list(script.walk_revisions()))]


def _upgrade(conn: Connection, location: StoreLocation) -> tuple[str, ...]:
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": MIGRATION_LOCK})
    before = _version(conn)
    known = _known_revisions()
    if before is not None and before not in known:
        raise ReviewError(
            f"notes store {location.shown} has schema version {before}, newer than this "
            f"ai4hse-desk knows ({known[-1]}); update ai4hse-desk"
        )
    if before is None and conn.dialect.name == "sqlite" and inspect(conn).get_table_names():
        raise ReviewError(f"{location.path} is not a notes store (it holds other tables)")
    if before == known[-1]:
        return ()
    from alembic import command
    from alembic.config import Config

    config = Config()
    folder = str(files("ai4hse_desk.notes.migrations"))
    config.set_main_option("script_location", folder.replace("%", "%%"))
    config.attributes["connection"] = conn
    command.upgrade(config, "head")
    return tuple(known[known.index(before) + 1 :] if before else known)


@contextmanager
def opening_errors(location: StoreLocation) -> Iterator[None]:
    """Report a store that cannot be reached, read or written as one :class:`ReviewError`."""
    try:
        yield
    except OperationalError as exc:
        raise ReviewError(f"cannot open notes store {location.shown}: {first_line(exc)}") from None
    except DBAPIError as exc:
        if not isinstance(exc.orig, sqlite3.DatabaseError):
            raise
        raise ReviewError(f"cannot open notes store {location.shown}: {first_line(exc)}") from None


def migrate(engine: Engine, location: StoreLocation) -> tuple[str, ...]:
    """Bring the store's schema to the head; return the migrations applied (none if current).

    Raises:
        ReviewError: the store cannot be reached or opened, is newer than this
            desk, or (SQLite) is some other database.
    """
    with opening_errors(location):
        if read(engine, _version) == SCHEMA_HEAD:
            return ()
        return write(engine, lambda conn: _upgrade(conn, location))
