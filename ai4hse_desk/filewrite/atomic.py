"""Checking a write target, and writing it atomically (temporary file, fsync, rename)."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from ai4hse_desk.errors import InputProblem
from ai4hse_desk.filewrite.protected import SIDE_SUFFIXES, is_sqlite_file, protection_reason

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

#: Mode of a finished file (before the umask); exports are plain documents.
FILE_MODE = 0o644
_TEMP_ATTEMPTS = 100


def _read_umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current


#: Read once at import, while only one thread runs (``os.umask`` is process-wide).
_UMASK = _read_umask()


class WriteRefused(InputProblem):
    """A file cannot or must not be written; ``str()`` is one line for the user."""


def _os_problem(target: Path | str, exc: OSError) -> WriteRefused:
    reason = exc.strerror or str(exc)
    if exc.errno == errno.ENOSPC:
        reason = "no space left on the device"
    return WriteRefused(f"cannot write {target}: {reason}")


def check_target(
    target: str | os.PathLike[str], *, allow_sqlite: bool = False, desk_made: bool = False
) -> Path:
    """The resolved file a write to ``target`` would replace or create, if allowed.

    Args:
        target: where the caller wants to write (relative paths are taken from the
            working folder; a symlink is followed to the file it names).
        allow_sqlite: allow replacing or opening an existing SQLite database (the
            review index and the notes store are SQLite files); an export never may.
        desk_made: the target is an audit database the desk itself made and the
            caller has checked so (``import responses``): it may be replaced although
            it was opened. Its side-file names stay refused.

    Raises:
        WriteRefused: a protected file or side-file name, a folder, a device, a FIFO,
            a socket, an existing SQLite database (unless allowed), or a missing folder.
    """
    given = Path(os.path.abspath(os.fspath(target)))
    real = os.path.realpath(given)
    folder = os.path.dirname(real)
    if not os.path.isdir(folder):
        raise WriteRefused(f"cannot write {given}: no such folder {folder}")
    try:
        info: os.stat_result | None = os.stat(real)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise _os_problem(given, exc) from None
    if info is not None:
        if stat.S_ISDIR(info.st_mode):
            raise WriteRefused(f"cannot write {given}: it is a folder")
        if not stat.S_ISREG(info.st_mode):
            raise WriteRefused(
                f"cannot write {given}: it is not a regular file (a device, FIFO or socket)"
            )
    reason = protection_reason(real, allow_main=desk_made)
    if reason is not None:
        raise WriteRefused(f"refusing to write: {reason}")
    if info is not None and not allow_sqlite and is_sqlite_file(real):
        raise WriteRefused(f"refusing to replace {given}: it is an SQLite database")
    return Path(real)


def _new_temp(final: Path) -> Path:
    """An empty, exclusively created hidden file beside ``final``."""
    for _ in range(_TEMP_ATTEMPTS):
        temp = final.with_name(f".{final.name}.{os.getpid()}-{os.urandom(4).hex()}.tmp")
        try:
            fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue
        except OSError as exc:
            raise _os_problem(final, exc) from None
        os.close(fd)
        return temp
    raise WriteRefused(f"cannot create a temporary file in {final.parent}")


def _fsync(path: Path, *, directory: bool = False) -> None:
    flags = os.O_RDONLY | (getattr(os, "O_DIRECTORY", 0) if directory else 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        if directory:  # not every platform can open a folder
            return
        raise
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _publish(temp: Path, final: Path, replace: bool) -> None:
    """Rename ``temp`` to ``final``; with ``replace`` False never over an existing file."""
    if replace:
        os.replace(temp, final)
        return
    try:
        os.link(temp, final)  # atomic, and fails when final exists
    except FileExistsError:
        raise WriteRefused(f"{final} already exists; refusing to overwrite it") from None
    except OSError:  # a file system without hard links
        if os.path.lexists(final):
            raise WriteRefused(f"{final} already exists; refusing to overwrite it") from None
        os.rename(temp, final)
        return
    temp.unlink()


def _cleanup(temp: Path) -> None:
    for leftover in (temp, *(Path(f"{temp}{suffix}") for suffix in SIDE_SUFFIXES)):
        with contextlib.suppress(OSError):
            leftover.unlink()


class StagedFile:
    """A temporary file beside its target, published by :meth:`commit` or dropped by
    :meth:`discard` (see :func:`staged_file`, the usual way to use it)."""

    def __init__(
        self,
        target: str | os.PathLike[str],
        *,
        replace: bool = True,
        allow_sqlite: bool = False,
        desk_made: bool = False,
        mode: int = FILE_MODE,
    ) -> None:
        if not replace and os.path.lexists(os.path.abspath(os.fspath(target))):
            raise WriteRefused(f"{target} already exists; refusing to overwrite it")
        self._options = {"allow_sqlite": allow_sqlite, "desk_made": desk_made}
        self._replace = replace
        self._mode = mode
        self.target = check_target(target, **self._options)
        self.temp = _new_temp(self.target)

    def commit(self) -> Path:
        """fsync the temporary file, check the target again, rename, fsync the folder."""
        try:
            _fsync(self.temp)
            os.chmod(self.temp, self._mode & ~_UMASK)
            check_target(self.target, **self._options)
            _publish(self.temp, self.target, self._replace)
            _fsync(self.target.parent, directory=True)
        except OSError as exc:
            raise _os_problem(self.target, exc) from None
        finally:
            _cleanup(self.temp)
        return self.target

    def discard(self) -> None:
        """Delete the temporary file (and any SQLite side files of it); nothing is published."""
        _cleanup(self.temp)


@contextlib.contextmanager
def staged_file(
    target: str | os.PathLike[str],
    *,
    replace: bool = True,
    allow_sqlite: bool = False,
    desk_made: bool = False,
    mode: int = FILE_MODE,
) -> Iterator[Path]:
    """A new, empty temporary file beside ``target``; renamed onto it on success.

    The caller writes the temporary file by path (SQLite, Qt's image writer,
    openpyxl all want a path). On a normal exit it is fsynced, the target is
    checked again (it may have become a protected file meanwhile) and the file is
    renamed into place, then the folder is fsynced. On any exception, including a
    cancellation, the temporary file and any SQLite side files of it are deleted.

    Args:
        target: the file to create or replace (see :func:`check_target`).
        replace: False to refuse an existing target even at the last moment (new
            audit databases are never written over anything).
        allow_sqlite, desk_made: see :func:`check_target`.
        mode: permission bits of the finished file (before the umask).

    Raises:
        WriteRefused: the target is refused, or writing failed (no space, a
            read-only folder, …); the old file is then untouched.
    """
    staged = StagedFile(
        target, replace=replace, allow_sqlite=allow_sqlite, desk_made=desk_made, mode=mode
    )
    try:
        yield staged.temp
    except OSError as exc:
        staged.discard()
        raise _os_problem(staged.target, exc) from None
    except BaseException:
        staged.discard()
        raise
    staged.commit()


def write_atomic(
    target: str | os.PathLike[str], write: Callable[[Path], None], *, replace: bool = True
) -> Path:
    """Write ``target`` by calling ``write(temporary_path)``; see :func:`staged_file`.

    Returns:
        The file written (resolved).
    """
    with staged_file(target, replace=replace) as temp:
        write(temp)
    return Path(os.path.realpath(os.path.abspath(os.fspath(target))))


def write_bytes(target: str | os.PathLike[str], data: bytes) -> Path:
    """Write ``data`` to ``target`` atomically (see :func:`staged_file`)."""

    def write(temp: Path) -> None:
        temp.write_bytes(data)

    return write_atomic(target, write)


def write_text(target: str | os.PathLike[str], text: str) -> Path:
    """Write ``text`` as UTF-8 to ``target`` atomically (see :func:`staged_file`)."""
    return write_bytes(target, text.encode("utf-8"))
