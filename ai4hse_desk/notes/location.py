"""Where a notes store lives: the ``--notes STORE`` argument, or the default.

``STORE`` is a file path (an SQLite file, created when missing) or an SQLAlchemy
URL: ``sqlite:///relative.sqlite``, ``sqlite:////absolute.sqlite`` or
``postgresql+psycopg://user:password@host:5432/db`` (``postgresql://`` and
``postgres://`` mean the same; psycopg 3 is the one PostgreSQL driver).

Default (no ``STORE``): ``AUDIT_DB.review.sqlite`` next to the audit database —
the audit file's name plus ``.review.sqlite`` — when that folder is writable;
otherwise ``<data dir>/<audit file name>-<16 hex of sha256(absolute audit path)>.review.sqlite``
in the user data folder (``platformdirs.user_data_dir("ai4hse-desk")``, or
``$AI4HSE_DESK_DATA_DIR``). Writability is tested with ``os.access`` *and* by
creating and deleting a probe file, because ``os.access`` says yes to root on a
read-only folder.

Guards (:func:`guard_store_file`, also run just before the file is created): the
store is never the audit file nor one of its ``-wal``/``-journal``/``-shm`` names
(compared by resolved path and by inode), never a file :mod:`ai4hse_desk.filewrite`
protects, never a folder, device or FIFO; a *default* path that is a symlink is
refused (a planted link would redirect the notes). An opened SQLite store is itself
protected (:func:`remember_store`): no export or screenshot can write over it.
"""

from __future__ import annotations

import hashlib
import os
import stat
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import platformdirs
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from ai4hse_desk.filewrite import SIDE_SUFFIXES, WriteRefused, check_target, protect
from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.model import usable_text

#: Environment variable overriding the user data folder (tests, portable installs).
DATA_ENV: Final = "AI4HSE_DESK_DATA_DIR"
APP_NAME: Final = "ai4hse-desk"
SUFFIX: Final = ".review.sqlite"
_POSTGRES_NAMES: Final = ("postgresql", "postgres", "postgresql+psycopg")
_SQLITE_NAMES: Final = ("sqlite", "sqlite+pysqlite")
_lock = threading.Lock()
#: Resolved path → (device, inode) of every SQLite store this process opened.
_opened: dict[str, tuple[int, int] | None] = {}


@dataclass(frozen=True, slots=True)
class StoreLocation:
    """A resolved notes store.

    Attributes:
        url: the SQLAlchemy URL to connect to (password included).
        path: the SQLite file, or ``None`` for PostgreSQL.
        default: True when chosen by default (its folder is created if needed).
    """

    url: URL
    path: Path | None
    default: bool = False

    @property
    def shown(self) -> str:
        """The URL with any password masked, for messages and ``NotesStore.url``."""
        return self.url.render_as_string(hide_password=True)

    @property
    def backend(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.url.get_backend_name()


def data_dir() -> Path:
    """The user data folder for notes that cannot live beside their audit file."""
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override).expanduser().absolute()
    return Path(platformdirs.user_data_dir(APP_NAME)).absolute()


def probe_write(folder: Path) -> bool:
    """True if a file can really be created (and is then deleted) in ``folder``."""
    try:
        handle, name = tempfile.mkstemp(prefix=".ai4hse-probe-", dir=folder)
    except OSError:
        return False
    os.close(handle)
    try:
        os.unlink(name)
    except OSError:
        return False
    return True


def folder_writable(folder: Path) -> bool:
    """``os.access`` says writable and a probe file could be made (see the module doc)."""
    return os.access(folder, os.W_OK | os.X_OK) and probe_write(folder)


def default_store_path(audit_path: Path) -> Path:
    """The default notes file of ``audit_path`` (see the module docstring)."""
    audit_path = Path(os.path.abspath(audit_path))
    beside = audit_path.with_name(audit_path.name + SUFFIX)
    if folder_writable(beside.parent):
        return beside
    digest = hashlib.sha256(os.fsencode(audit_path)).hexdigest()[:16]
    return data_dir() / f"{audit_path.name}-{digest}{SUFFIX}"


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (a.exists() and b.exists() and a.samefile(b))
    except OSError:
        return False


def _check_not_audit(path: Path, audit_path: Path) -> None:
    """Refuse the audit file and its side-file names, by resolved path and by inode."""
    if _same_file(path, audit_path):
        raise ReviewError(f"the notes store cannot be the audit database itself: {path}")
    for suffix in SIDE_SUFFIXES:
        if _same_file(path, Path(f"{audit_path}{suffix}")):
            raise ReviewError(
                f"the notes store cannot be {path}: SQLite reads that name as the "
                f"{suffix[1:]} file of the audit database {audit_path}"
            )


def _check_default(path: Path) -> None:
    """A default store path must be a new name or a regular file, never a symlink."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise ReviewError(f"cannot use notes store {path}: {exc.strerror or exc}") from None
    if stat.S_ISLNK(info.st_mode):
        raise ReviewError(
            f"the default notes store {path} is a symbolic link; a planted link would "
            "redirect the notes elsewhere, so it is refused (remove it, or name a store "
            "with --notes)"
        )
    if not stat.S_ISREG(info.st_mode):
        raise ReviewError(f"the default notes store {path} exists and is not a regular file")


def _identity(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _opened_before(real: str) -> bool:
    """True if this process already opened ``real`` as its notes store (so protected it)."""
    with _lock:
        if real in _opened:
            return True
        identity = _identity(real)
        return identity is not None and identity in _opened.values()


def guard_store_file(location: StoreLocation) -> None:
    """Check that the desk may create or open the SQLite file of ``location``.

    The file must be a new name or a regular file in an existing folder, and must
    not be a file the desk protects (an audit database, another notes store, or a
    side file of either: :func:`ai4hse_desk.filewrite.check_target`); a default
    path must not be a symlink. A store this process already opened is protected
    as "the notes store" by :func:`remember_store`, so it passes on a second open.

    Raises:
        ReviewError: the file is refused (the reason in one line).
    """
    path = location.path
    if path is None:
        return
    if location.default:
        _check_default(path)
    real = os.path.realpath(path)
    if _opened_before(real):
        if os.path.exists(real) and not os.path.isfile(real):
            raise ReviewError(f"notes store {path} is no longer a regular file")
        return
    try:
        check_target(path, allow_sqlite=True)
    except WriteRefused as exc:
        raise ReviewError(f"cannot keep notes in {path}: {exc}") from None
    for suffix in SIDE_SUFFIXES:
        side = f"{real}{suffix}"
        if os.path.islink(side) or (os.path.lexists(side) and not os.path.isfile(side)):
            raise ReviewError(f"cannot keep notes in {path}: {side} is not a regular file")


def remember_store(location: StoreLocation) -> None:
    """Protect an opened SQLite store (and its side files) from every guarded write."""
    if location.path is None:
        return
    real = os.path.realpath(location.path)
    protect(real, "the notes store")
    with _lock:
        _opened[real] = _identity(real)


def _sqlite(path: Path, audit_path: Path, default: bool = False) -> StoreLocation:
    path = Path(os.path.abspath(path.expanduser()))
    if path.is_dir():
        raise ReviewError(f"notes store {path} is a directory")
    _check_not_audit(path, audit_path)
    where = StoreLocation(URL.create("sqlite", database=str(path)), path, default)
    if path.parent.is_dir():  # a default data folder is made when the store is created
        guard_store_file(where)
    if not default:  # SQLite follows symlinks; so do the checks, with the real name
        real = Path(os.path.realpath(path))
        where = StoreLocation(URL.create("sqlite", database=str(real)), real, default)
    return where


def resolve_location(audit_path: Path, location: str | None) -> StoreLocation:
    """Turn ``--notes STORE`` (or ``None`` for the default) into a :class:`StoreLocation`.

    Raises:
        ReviewError: an unusable URL or path, or one naming the audit file.
    """
    if location is None:
        return _sqlite(default_store_path(audit_path), audit_path, default=True)
    if not location.strip():
        raise ReviewError("the notes store location is empty")
    if not usable_text(location):  # undecodable bytes of a file name arrive as surrogates
        raise ReviewError(f"the notes store location {location!r} is not valid UTF-8 text")
    if "://" not in location:
        return _sqlite(Path(location), audit_path)
    try:
        url = make_url(location)
    except (ArgumentError, ValueError) as exc:
        raise ReviewError(f"not a notes store URL: {exc}") from None
    if url.drivername in _SQLITE_NAMES:
        if not url.database or url.database == ":memory:" or url.database.startswith("file:"):
            raise ReviewError("an SQLite notes store URL must name a file: sqlite:///notes.sqlite")
        return _sqlite(Path(url.database), audit_path)
    if url.drivername in _POSTGRES_NAMES:
        return StoreLocation(url.set(drivername="postgresql+psycopg"), None)
    shown = url.render_as_string(hide_password=True)
    raise ReviewError(
        f"unsupported notes store {shown}: use a file path, sqlite:///FILE or "
        "postgresql+psycopg://USER@HOST/DB"
    )
