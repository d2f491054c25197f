"""The one exception of the audit layer and the translation of driver errors into it.

Every problem with the *input* (a file that is missing, empty, not SQLite, damaged,
of an unknown schema version, or an unknown run or question) is an
:class:`AuditError` whose message is one user-readable line that names the file.
The command line prints it as ``error: <message>`` and exits with status 2
(``cli.md``); the window shows it in a message box. Programming errors (bad SQL,
wrong arguments) are *not* translated and surface as ordinary exceptions.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from os import PathLike

from sqlalchemy.exc import DBAPIError

from ai4hse_desk.errors import InputProblem

#: Primary SQLite result codes that mean "the file cannot be read as a database".
_FILE_PROBLEMS: frozenset[int] = frozenset(
    {
        sqlite3.SQLITE_CORRUPT,
        sqlite3.SQLITE_NOTADB,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_CANTOPEN,
        sqlite3.SQLITE_PERM,
        sqlite3.SQLITE_AUTH,
        sqlite3.SQLITE_FULL,
    }
)


class AuditError(InputProblem):
    """A problem with an audit database, reported to the user as one line.

    Attributes:
        path: the file the problem concerns, when there is one.
    """

    def __init__(self, message: str, path: str | PathLike[str] | None = None) -> None:
        super().__init__(message)
        self.path = path


def is_file_problem(exc: BaseException) -> bool:
    """True if ``exc`` is an sqlite3 error that says the file itself is unreadable."""
    if isinstance(exc, DBAPIError):
        exc = exc.orig if isinstance(exc.orig, BaseException) else exc
    code = getattr(exc, "sqlite_errorcode", None)
    return (
        isinstance(exc, sqlite3.Error) and isinstance(code, int) and (code & 0xFF) in _FILE_PROBLEMS
    )


def driver_message(exc: BaseException) -> str:
    """The driver's own message for ``exc`` (unwrapping SQLAlchemy's wrapper)."""
    if isinstance(exc, DBAPIError) and exc.orig is not None:
        return str(exc.orig)
    return str(exc)


@contextmanager
def file_problems_as_audit_errors(path: str | PathLike[str]) -> Iterator[None]:
    """Turn sqlite3 errors that mean "damaged or unreadable file" into :class:`AuditError`.

    A damaged page may only be met deep inside a query (an immutable open reads
    lazily), so every query of the audit layer runs inside this guard.
    """
    try:
        yield
    except (sqlite3.Error, DBAPIError) as exc:
        if not is_file_problem(exc):
            raise
        raise AuditError(
            f"{path}: damaged or unreadable audit database ({driver_message(exc)})", path
        ) from exc
