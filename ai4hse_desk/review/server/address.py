"""A review server's address: the ``--server URL``, shown without its password.

``URL`` is a libpq connection URI, ``postgresql://ROLE[:PASSWORD]@HOST[:PORT]/DB[?...]``
(``postgres://`` and SQLAlchemy's ``postgresql+psycopg://`` mean the same). Its query
parameters are libpq's, so ``sslmode`` (``disable`` … ``verify-full``), ``sslrootcert``,
``connect_timeout`` and the rest are honoured as libpq documents them; without
``sslmode`` libpq's default ``prefer`` uses TLS whenever the server offers it.

The password is never shown: :attr:`ServerAddress.shown` names the role, host, port,
database and TLS mode only, and :meth:`ServerAddress.scrub` removes the password (as
typed and as percent-decoded) from any text, such as a driver's error message, before
it is printed, logged or kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Final
from urllib.parse import quote

from ai4hse_desk.notes.errors import ReviewError

#: URL schemes read as a PostgreSQL server.
SCHEMES: Final = ("postgresql://", "postgres://", "postgresql+psycopg://")
_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_USERINFO = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*://)([^@/?#]*)@")
_QUERY_PASSWORD = re.compile(r"([?&]password=)[^&#]*", re.IGNORECASE)
MASK: Final = "***"


class ServerError(ReviewError):
    """A problem with the review server (exit 2): unreachable, refused, or a wall."""


@dataclass(frozen=True, slots=True)
class ServerAddress:
    """A parsed ``--server URL``.

    Attributes:
        conninfo: the libpq URI to connect with (password included; never shown).
        shown: the URL without its password, for every message.
        role: the login role named (``None``: libpq's default, the OS user name).
        password: the password the URL holds (``None`` if it holds none).
    """

    conninfo: str = field(repr=False)
    shown: str
    role: str | None
    password: str | None = field(default=None, repr=False)

    def scrub(self, text: str, extra: str | None = None) -> str:
        """``text`` with this address's password (and ``extra``, a password typed at the
        prompt) replaced by ``***`` in every spelling."""
        for secret in (self.password, extra):
            if secret:
                for spelled in {secret, quote(secret, safe=""), quote(secret)}:
                    text = text.replace(spelled, MASK)
        return text


def _masked(url: str) -> str:
    """``url`` with the password of its user-info part replaced by ``***``."""

    def hide(match: re.Match[str]) -> str:
        user, colon, _secret = match.group(2).partition(":")
        return f"{match.group(1)}{user}{':' + MASK if colon else ''}@"

    return _QUERY_PASSWORD.sub(lambda m: m.group(1) + MASK, _USERINFO.sub(hide, url, count=1))


def parse_server_url(url: object) -> ServerAddress:
    """``--server URL`` as a :class:`ServerAddress`.

    Raises:
        ServerError: not a PostgreSQL URL (the message shows it without a password).
    """
    if not isinstance(url, str) or not url.strip():
        raise ServerError("--server needs a URL like postgresql://ROLE@HOST:PORT/DB")
    text = url.strip()
    lowered = text.lower()
    scheme = next((s for s in SCHEMES if lowered.startswith(s)), None)
    if scheme is None:
        shown = _masked(text) if _SCHEME.match(text) else "(not a URL)"
        raise ServerError(
            f"--server {shown[:80]} is not a PostgreSQL URL (postgresql://ROLE@HOST:PORT/DB)"
        )
    conninfo = "postgresql://" + text[len(scheme) :]
    import psycopg  # only when a server is named
    from psycopg.conninfo import conninfo_to_dict

    try:
        params = conninfo_to_dict(conninfo)
    except psycopg.Error:
        raise ServerError(f"--server {_masked(conninfo)[:80]}: not a usable URL") from None
    secret = params.get("password")
    password = None if secret is None else str(secret)
    role = params.get("user")
    return ServerAddress(
        conninfo=conninfo,
        shown=_masked(conninfo),
        role=None if role is None else str(role),
        password=password,
    )
