"""The one exception of the audit layer and the translation of driver errors into it.

Every problem with the *input* (a file that is missing, empty, not SQLite, damaged,
of an unknown schema version, or an unknown run or question) is an
:class:`AuditError` whose message is one user-readable line that names the file.
The command line prints it as ``error: <message>`` and exits with status 2
(``cli.md``); the window shows it in a message box. Programming errors (bad SQL,
wrong arguments) are *not* translated and surface as ordinary exceptions.
"""

from __future__ import annotations

import re
import sqlite3
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ai4hse_desk.errors import InputProblem

if TYPE_CHECKING:
    from collections.abc import Iterator
    from os import PathLike

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
    code = getattr(exc, "sqlite_errorcode", None)
    return (
        isinstance(exc, sqlite3.Error) and isinstance(code, int) and (code & 0xFF) in _FILE_PROBLEMS
    )


def _not_utf8(exc: BaseException) -> str | None:
    """The column named by the driver's "Could not decode to UTF-8" error, else ``None``."""
    message = str(exc)
    if not message.startswith("Could not decode to UTF-8"):
        return None
    match = re.search(r"column '([^']*)'", message)
    return match.group(1) if match else "?"


@contextmanager
def file_problems_as_audit_errors(
    path: str | PathLike[str], *, broad: bool = False
) -> Iterator[None]:
    """Turn sqlite3 errors that mean "damaged or unreadable file" into :class:`AuditError`.

    A damaged page may only be met deep inside a query (an immutable open reads
    lazily), so every query of the audit layer runs inside this guard. Text that is
    not valid UTF-8 is always an input problem. With ``broad``, every database error
    is (the checks that run fixed, tested SQL over a file: an unknown collation or
    function in the file's schema, a malformed schema).
    """
    try:
        yield
    except sqlite3.Error as exc:
        column = _not_utf8(exc)
        if column is not None:
            raise AuditError(
                f"{path}: text that is not valid UTF-8 in column {column!r}", path
            ) from exc
        programming = isinstance(exc, (sqlite3.ProgrammingError, sqlite3.InterfaceError))
        if not is_file_problem(exc) and not (broad and not programming):
            raise
        raise AuditError(f"{path}: damaged or unreadable audit database ({exc})", path) from exc
