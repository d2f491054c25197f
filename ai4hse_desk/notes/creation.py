"""A new SQLite notes store is created whole, at its first write, or not at all.

Opening a store whose file does not exist yet creates nothing under its name. The
store is built in a private file beside it (a fresh name made with ``O_EXCL``,
known to this process only), migrated there, and reads see it empty. The first
write is committed there, the file is checkpointed and closed, and then it is
*hard-linked* to the store's name — atomically, and only if that name is still
free. If another process created the store meanwhile, the private file is
dropped and the write runs again on theirs. So:

* another process never sees a half-made store (no empty file, no file without
  its tables);
* a command refused for bad input leaves nothing behind, and nothing anyone else
  wrote is ever removed: the only file this module deletes is its own private one.

A folder whose file system has no hard links cannot hold a new store (the desk
says so and names ``--notes``); an existing store there opens as usual.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
from pathlib import Path
from typing import TYPE_CHECKING

from ai4hse_desk.filewrite.atomic import FILE_MODE
from ai4hse_desk.notes.errors import ReviewError

if TYPE_CHECKING:
    from collections.abc import Callable

    from sqlalchemy import Engine

_SIDES = ("-wal", "-shm", "-journal")


class NewStoreFile:
    """The private file a new store is built in until its first write is published.

    Attributes:
        final: the store's name (does not exist yet).
        temp: the private file, beside it.
        engine: an engine on :attr:`temp`.
    """

    def __init__(self, final: Path, make_engine: Callable[[Path], Engine]) -> None:
        self.final = final
        self.temp = final.with_name(f".{final.name}.{secrets.token_hex(8)}.new")
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
        try:
            os.close(os.open(self.temp, flags, FILE_MODE))
        except OSError as exc:
            raise ReviewError(f"cannot create notes store {final}: {exc.strerror or exc}") from None
        self.engine = make_engine(self.temp)

    def appeared(self) -> bool:
        """True once something exists under the store's name (another process made it)."""
        return os.path.lexists(self.final)

    def publish(self) -> bool:
        """Give the built store its name: True if it is now the store, False if another
        process made the store first (the private file is dropped either way).

        Raises:
            ReviewError: the folder's file system has no hard links.
        """
        with self.engine.connect() as conn:
            conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
        self.engine.dispose()
        try:
            os.link(self.temp, self.final, follow_symlinks=False)
        except FileExistsError:
            return False
        except OSError as exc:
            if exc.errno in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOSYS, errno.EXDEV):
                raise ReviewError(
                    f"cannot create notes store {self.final}: its folder's file system has "
                    "no hard links, which the desk needs to create a store safely; name a "
                    "store in another folder with --notes"
                ) from None
            raise ReviewError(
                f"cannot create notes store {self.final}: {exc.strerror or exc}"
            ) from None
        finally:
            self.discard()
        return True

    def discard(self) -> None:
        """Close the engine and remove the private file and its side files (ours only)."""
        self.engine.dispose()
        for name in (self.temp, *(Path(f"{self.temp}{side}") for side in _SIDES)):
            with contextlib.suppress(FileNotFoundError):
                name.unlink()
