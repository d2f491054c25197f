"""Has the notes store changed since the last look? One cheap question, asked on a lane.

No Qt here: :class:`~ai4hse_desk.gui.controllers.store_watch.StoreWatch` asks a probe
for its :meth:`~StoreProbe.token` every few hundred milliseconds on its own lane and
compares it with the last one; a different token means another process (or this
window) committed a change.

* SQLite: ``PRAGMA data_version`` on a read-only connection of the probe's own, kept
  open between looks (the number changes when any *other* connection commits, this
  window's included). When it changes, the token is read: the largest rowid of each
  table a window shows — every table but :data:`~ai4hse_desk.notes.schema.UNSHOWN_TABLES`
  (the store only ever appends rows, so a new row is a larger rowid). A showing the
  Review page records as the reviewer moves on therefore changes no token: it would
  have read the notes and the page again every half second. A store file that appears,
  or is replaced, opens a new connection (a new token). A store not there yet has the
  token ``None``.
* PostgreSQL: every write transaction of the store but those no window shows notifies
  :data:`~ai4hse_desk.notes.backend.CHANGE_CHANNEL` (the payload: its schema); the
  probe LISTENs on a connection of its own and counts the notifications for its
  store's schema — each look is one ``SELECT 1`` round trip, which delivers them.

A probe is used on one thread (its lane's) and closed there.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Protocol

from ai4hse_desk.audit.opening import connect_readonly, sqlite_uri

if TYPE_CHECKING:
    import sqlite3
    from pathlib import Path

    import psycopg
    from sqlalchemy.engine import URL


class StoreProbe(Protocol):
    """A way to tell whether a store changed."""

    def token(self) -> object:
        """Something that differs after a change (``None``: no store yet)."""
        ...

    def close(self) -> None:
        """Release the probe's connection."""
        ...


class SqliteProbe:
    """``PRAGMA data_version`` of the store file ``path`` (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self._path = path
        self._conn: sqlite3.Connection | None = None
        self._file: tuple[int, int] | None = None  # (device, inode) the connection is on
        self._opened = 0
        self._version: object = None  # data_version at the last look
        self._shown: object = None  # what the windows show, as of that look

    def token(self) -> object:
        try:
            info = os.stat(self._path)
        except FileNotFoundError:
            self.close()
            return None
        if self._conn is None or self._file != (info.st_dev, info.st_ino):
            self.close()
            self._conn = connect_readonly(sqlite_uri(self._path, mode="ro"))
            self._file, self._opened = (info.st_dev, info.st_ino), self._opened + 1
            self._version = None
        version = self._conn.execute("PRAGMA data_version").fetchone()[0]
        if version != self._version:
            self._version, self._shown = version, shown_state(self._conn)
        return (self._opened, self._shown)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
        self._conn, self._file = None, None


def shown_state(conn: sqlite3.Connection) -> tuple[tuple[str, object], ...]:
    """Each table a window shows (every one but the store's
    :data:`~ai4hse_desk.notes.schema.UNSHOWN_TABLES`) with its largest rowid."""
    from ai4hse_desk.notes.schema import UNSHOWN_TABLES  # (SQLAlchemy: not at the start)

    names = [
        str(name)
        for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite!_%' "
            "ESCAPE '!' ORDER BY name"
        )
        if name not in UNSHOWN_TABLES
    ]
    if not names:
        return ()
    quoted = ('"' + name.replace('"', '""') + '"' for name in names)
    row = conn.execute(
        "SELECT " + ", ".join(f"(SELECT max(rowid) FROM {table})" for table in quoted)
    ).fetchone()
    return tuple(zip(names, row, strict=True))


class PostgresProbe:
    """The notifications of one PostgreSQL store (see the module docstring)."""

    def __init__(self, url: URL) -> None:
        self._url = url
        self._conn: psycopg.Connection[tuple[object, ...]] | None = None
        self._schema = ""
        self._heard = 0
        self._opened = 0

    def _hear(self, notice: psycopg.Notify) -> None:
        if notice.payload == self._schema:
            self._heard += 1

    def token(self) -> object:
        import psycopg

        from ai4hse_desk.notes.backend import CHANGE_CHANNEL

        if self._conn is None:
            plain = self._url.set(drivername="postgresql")
            self._conn = psycopg.connect(
                plain.render_as_string(hide_password=False), autocommit=True
            )
            row = self._conn.execute("SELECT current_schema()").fetchone()
            self._schema = "" if row is None else str(row[0])
            self._conn.add_notify_handler(self._hear)
            self._conn.execute(f"LISTEN {CHANGE_CHANNEL}")
            self._opened += 1
        try:
            self._conn.execute("SELECT 1")  # delivers what was notified since
        except psycopg.Error:
            self.close()  # a lost connection: a new one (and a new token) next time
            raise
        return (self._opened, self._heard)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
        self._conn = None


__all__ = ["PostgresProbe", "SqliteProbe", "StoreProbe", "shown_state"]
