"""One login to a review server: connect, call the review schema's functions, map errors.

The password comes from the URL, ``PGPASSWORD`` or ``~/.pgpass`` (``PGPASSFILE``), all
read by libpq itself, or — only when the server asks for one that none of these gave
and stdin is a terminal — from a prompt (:func:`getpass.getpass`). It is kept in memory
for this login's reconnections and never written anywhere; every message is scrubbed of
it (:meth:`~.address.ServerAddress.scrub`).

The connection is in autocommit mode: each function call is one statement, so one
transaction — a verdict is stored whole or not at all. Errors become one line:

* :class:`ServerUnavailable` — cannot connect (or log in);
* :class:`ServerRefused` — the database refused: a wall (SQLSTATE 42501), a bad value
  (22023, 22xxx, 23xxx), the schema's own messages shown as they are;
* :class:`ConnectionLost` — the connection broke during a call: what the call did is
  unknown until asked again (:mod:`.client` asks).

All three are :class:`~.address.ServerError`, an input problem (exit 2).
"""

from __future__ import annotations

import contextlib
import getpass
import os
import sys
from typing import TYPE_CHECKING, Any, Final

from ai4hse_desk.errors import one_line
from ai4hse_desk.review.server.address import ServerAddress, ServerError, parse_server_url
from ai4hse_desk.review.server.migrations import SCHEMA, schema_version

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from types import TracebackType

    import psycopg

#: libpq's words for "the server wants a password this login did not give" (a wrong one
#: is "password authentication failed": reported, never asked again, as psql does).
_NO_PASSWORD: Final = ("no password supplied",)
_CONNECT_TIMEOUT: Final = 15


class ServerUnavailable(ServerError):
    """The review server cannot be reached, or refused the login."""


class ServerRefused(ServerError):
    """The review database refused a call (a wall or a bad value)."""


class ConnectionLost(ServerError):
    """The connection broke during a call; whether the call's write was committed is
    unknown until the server is asked again."""


def _first_line(exc: BaseException) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def _prompt_allowed() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


class ServerSession:
    """A login to one review server (see the module docstring).

    Args:
        address: the server, or its URL.
        prompt: ask for a missing password on the terminal (when stdin is one);
            ``None`` asks only when stdin is a terminal; a callable is asked instead
            (the window's password dialog).
        check_version: refuse a schema this desk does not know (newer, or not yet
            migrated to its version); ``review publish`` migrates instead.
    """

    def __init__(
        self,
        address: ServerAddress | str,
        *,
        prompt: bool | Callable[[str], str | None] | None = None,
        check_version: bool = True,
    ) -> None:
        self.address = address if isinstance(address, ServerAddress) else parse_server_url(address)
        self._prompt = prompt
        self._typed: str | None = None
        self._conn: psycopg.Connection[Any] | None = None
        self._check_version = check_version

    # -- connecting ----------------------------------------------------------------------

    def __enter__(self) -> ServerSession:
        self.connection()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def scrub(self, text: str) -> str:
        """``text`` without any password this login knows, on one line."""
        extra = self._typed or os.environ.get("PGPASSWORD")
        return one_line(self.address.scrub(text, extra))

    def _open(self) -> psycopg.Connection[Any]:
        import psycopg

        options: dict[str, Any] = {
            "autocommit": True,
            "connect_timeout": _CONNECT_TIMEOUT,
            "application_name": "ai4hse-desk",
        }
        if self._typed is not None:
            options["password"] = self._typed
        return psycopg.connect(self.address.conninfo, **options)

    def _ask_password(self) -> str | None:
        who = self.address.role or "this login"
        question = f"Password for {who} on {self.address.shown}: "
        if callable(self._prompt):
            return self._prompt(question)
        if self._prompt is False or not _prompt_allowed():
            return None
        return getpass.getpass(question)

    def connection(self) -> psycopg.Connection[Any]:
        """The open connection (connecting, and checking the schema, the first time).

        Raises:
            ServerUnavailable: the server cannot be reached or refused the login.
            ServerError: no review schema, or one this desk cannot use.
        """
        if self._conn is not None and not self._conn.closed and not self._conn.broken:
            return self._conn
        import psycopg

        first = self._conn is None
        try:
            try:
                conn = self._open()
            except psycopg.OperationalError as exc:
                if self._typed is not None or not any(w in str(exc) for w in _NO_PASSWORD):
                    raise
                typed = self._ask_password()
                if not typed:
                    raise ServerUnavailable(
                        f"cannot log in to {self.address.shown}: a password is needed (give it "
                        "in the URL, PGPASSWORD or ~/.pgpass; no terminal to ask for it)"
                    ) from None
                self._typed = typed
                conn = self._open()
        except psycopg.Error as exc:
            raise ServerUnavailable(
                f"cannot connect to the review server {self.address.shown}: "
                f"{self.scrub(_first_line(exc))}"
            ) from None
        self._conn = conn
        if first and self._check_version:
            try:
                self._check_schema(conn)
            except ServerError:
                self.close()
                raise
        return conn

    def _check_schema(self, conn: psycopg.Connection[Any]) -> None:
        import psycopg

        try:
            found = conn.execute(f"SELECT max(version) FROM {SCHEMA}.schema_version").fetchone()
        except psycopg.Error as exc:
            raise ServerError(
                f"no review is published on {self.address.shown} that this login may read "
                f"({self.scrub(_first_line(exc))})"
            ) from None
        check_version(None if found is None else found[0], self.address.shown)

    def reconnect(self) -> None:
        """Drop the connection (if any) and connect again.

        Raises:
            ServerUnavailable: the server cannot be reached.
        """
        self.close()
        self.connection()

    def close(self) -> None:
        """Close the connection; a later call connects again."""
        if self._conn is not None:
            import psycopg

            with contextlib.suppress(psycopg.Error, OSError):  # a broken one may fail to close
                self._conn.close()
            self._conn = None

    # -- calling -------------------------------------------------------------------------

    def call(self, function: str, args: Sequence[object] = (), types: Sequence[str] = ()) -> Any:
        """``SELECT ai4hse_review.function(args…)``: its one value (JSON as Python).

        Args:
            function: a function of the review schema (a name from this package).
            types: the SQL type of each argument (``text``, ``text[]``, ``uuid`` …), so
                that a ``None`` is a typed NULL.

        Raises:
            ServerRefused: the database refused the call.
            ConnectionLost: the connection broke during the call.
        """
        conn = self.connection()
        casts = ", ".join(f"%s::{kind}" for kind in types)
        return self._run(conn, f"SELECT {SCHEMA}.{function}({casts})", list(args))

    def _run(self, conn: psycopg.Connection[Any], query: str, params: list[object]) -> Any:
        import psycopg

        try:
            row = conn.execute(query, params).fetchone()
        except psycopg.Error as exc:
            raise self.error(exc, conn) from None
        return None if row is None else row[0]

    def error(self, exc: BaseException, conn: psycopg.Connection[Any] | None = None) -> ServerError:
        """``exc`` (a driver error) as one of this module's errors, password scrubbed."""
        import psycopg

        conn = conn or self._conn
        message = self.scrub(_first_line(exc))
        if isinstance(exc, psycopg.OperationalError) and (
            conn is None or conn.broken or conn.closed
        ):
            return ConnectionLost(f"the connection to {self.address.shown} was lost: {message}")
        state = getattr(exc, "sqlstate", None) or ""
        if state == "42501" and message.startswith("permission denied"):
            who = self.address.role or "this login"
            return ServerRefused(f"the review server refused: {message} (not granted to {who})")
        if state in ("42501", "22023") or state.startswith(("22", "23")):
            return ServerRefused(message)
        if state.startswith("42"):
            return ServerRefused(f"the review server refused: {message}")
        return ServerError(f"the review server failed: {message}")


def check_version(found: object, shown: str) -> int:
    """The server's schema version if this desk can use it.

    Raises:
        ServerError: no version (nothing published), newer than this desk's, or older.
    """
    desk = schema_version()
    if not isinstance(found, int):
        raise ServerError(f"no review is published on {shown} (the review schema is empty)")
    if found > desk:
        raise ServerError(
            f"the review schema on {shown} is version {found}, newer than this desk's "
            f"({desk}); update the desk"
        )
    if found < desk:
        raise ServerError(
            f"the review schema on {shown} is version {found}, older than this desk's "
            f"({desk}); the coordinator's `review publish` updates it"
        )
    return found
