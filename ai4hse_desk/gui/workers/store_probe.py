"""Has the notes store changed since the last look? One cheap question, asked on a lane.

No Qt here: :class:`~ai4hse_desk.gui.controllers.store_watch.StoreWatch` asks a probe
for its :meth:`~StoreProbe.token` every few hundred milliseconds on its own lane and
compares it with the last one; a different token means another process (or this
window) committed a change.

* SQLite: ``PRAGMA data_version`` on a read-only connection of the probe's own, kept
  open between looks (the number changes when any *other* connection commits); a
  store file that appears, or is replaced, opens a new connection (a new token).
  A store not there yet has the token ``None``.
* PostgreSQL: every write transaction of the store notifies
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
        version = self._conn.execute("PRAGMA data_version").fetchone()[0]
        return (self._opened, version)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
        self._conn, self._file = None, None


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


__all__ = ["PostgresProbe", "SqliteProbe", "StoreProbe"]
