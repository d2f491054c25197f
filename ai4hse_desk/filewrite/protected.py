"""Files no write may touch: the audit databases and notes stores this process opened.

:func:`protect` is called by the audit layer for every audit database it opens
and by the notes layer for every SQLite notes store. A protected file is
remembered by its resolved path and, while it exists, by its device and inode,
so a symlink or a hard link to it is recognised too. Its SQLite side files
(``-wal``, ``-journal``, ``-shm``) are protected with it: a file written under
one of those names would be read by SQLite as the database's journal or WAL.

The registry only grows: a file once opened as an audit database stays
protected for the life of the process (the window may have opened several).
"""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path
from typing import Final, NamedTuple

#: Names SQLite gives the side files of a database ``X``: ``X-wal``, ``X-journal``, ``X-shm``.
SIDE_SUFFIXES: Final = ("-wal", "-journal", "-shm")
#: The first 16 bytes of every SQLite database file.
SQLITE_MAGIC: Final = b"SQLite format 3\x00"


def is_sqlite_file(path: str | os.PathLike[str]) -> bool:
    """True if ``path`` is a regular file that starts with the SQLite header.

    Opened non-blocking and checked with ``fstat`` first, so a FIFO or a device
    under that name is never read (and never blocks).
    """
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return False
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return False
        return os.read(fd, len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False
    finally:
        os.close(fd)


class _Protected(NamedTuple):
    real: str
    role: str
    identity: tuple[int, int] | None


_lock = threading.Lock()
_registry: dict[str, _Protected] = {}


def _identity(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_dev, info.st_ino) if stat.S_ISREG(info.st_mode) else None


def protect(path: str | os.PathLike[str], role: str) -> None:
    """Never let a guarded write touch ``path`` or its SQLite side files.

    Args:
        path: an audit database or notes store (it need not exist yet).
        role: what it is, for messages: ``"the audit database"``, ``"the notes store"``.
    """
    real = os.path.realpath(os.fspath(path))
    entry = _Protected(real, role, _identity(real))
    with _lock:
        known = _registry.get(real)
        if known is None or known.identity is None:
            _registry[real] = entry


def protected_paths() -> list[Path]:
    """Every protected file (resolved), in the order first protected."""
    with _lock:
        return [Path(entry.real) for entry in _registry.values()]


def _same_inode(target: str, other: str, remembered: tuple[int, int] | None) -> bool:
    mine = _identity(target)
    if mine is None:
        return False
    return mine == remembered or mine == _identity(other)


def protection_reason(target: str, *, allow_main: bool = False) -> str | None:
    """Why ``target`` (a resolved path) must not be written, or ``None``.

    Checks every protected file and its side names, then the general rule that a
    name ending in a side suffix must not belong to an existing SQLite database.
    With ``allow_main``, a protected file itself is allowed (never its side names).
    """
    with _lock:
        entries = list(_registry.values())
    for entry in entries:
        for suffix in ("", *SIDE_SUFFIXES):
            if allow_main and not suffix:
                continue
            name = entry.real + suffix
            remembered = entry.identity if not suffix else None
            if target == name or _same_inode(target, name, remembered):
                what = entry.role if not suffix else f"the {suffix[1:]} file of {entry.role}"
                return f"{target} is {what} ({entry.real}); the desk never writes it"
    for suffix in SIDE_SUFFIXES:
        if target.endswith(suffix) and is_sqlite_file(target[: -len(suffix)]):
            owner = target[: -len(suffix)]
            return (
                f"{target} would be read by SQLite as the {suffix[1:]} file of {owner}; "
                "choose another name"
            )
    return None
