"""Reading a notes export for ``notes import``: a regular file, strict JSON.

* Only a regular file is read: its name is checked with ``stat`` first, then it is
  opened with ``O_NONBLOCK`` and checked again with ``fstat`` (the name may have
  been swapped meanwhile), so a FIFO, device or socket is refused at once and
  never blocks the desk.
* The text must be UTF-8 (a leading byte-order mark is allowed) and strict JSON:
  ``NaN``, ``Infinity`` and ``-Infinity`` are refused, as is an object naming the
  same key twice (which of the two would count?), and a document nested too
  deeply for the parser (``RecursionError``) is refused rather than crashing.
"""

from __future__ import annotations

import json
import os
import stat
from typing import TYPE_CHECKING, NoReturn

from ai4hse_desk.notes.errors import ReviewError

if TYPE_CHECKING:
    from pathlib import Path

_CHUNK = 1 << 20


def _not_regular(path: Path, mode: int) -> NoReturn:
    if stat.S_ISDIR(mode):
        raise ReviewError(f"{path} is a folder, not a notes export")
    raise ReviewError(
        f"{path} is not a regular file (a FIFO, device or socket); save the export "
        "to a file and import that"
    )


def read_regular_file(path: Path) -> bytes:
    """The bytes of ``path``, which must be a regular file (never blocks on a FIFO).

    Raises:
        ReviewError: missing, unreadable, or not a regular file.
    """
    try:
        if not stat.S_ISREG(mode := os.stat(path).st_mode):
            _not_regular(path, mode)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise ReviewError(f"no such file: {path}") from None
    except OSError as exc:
        raise ReviewError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(mode := os.fstat(fd).st_mode):
            _not_regular(path, mode)
        chunks = []
        while chunk := os.read(fd, _CHUNK):
            chunks.append(chunk)
        return b"".join(chunks)
    except OSError as exc:
        raise ReviewError(f"cannot read {path}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


def _no_constants(name: str) -> NoReturn:
    raise ValueError(f"{name} is not a JSON number")


def _no_duplicates(pairs: list[tuple[str, object]]) -> dict[str, object]:
    obj: dict[str, object] = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError(f"the key {key!r} occurs twice in one object")
        obj[key] = value
    return obj


def load_json(path: Path) -> object:
    """The strict JSON document in the regular file ``path`` (see the module docstring).

    Raises:
        ReviewError: unreadable, not a regular file, not UTF-8, or not strict JSON.
    """
    data = read_regular_file(path)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        where = f"{exc.reason} at byte {exc.start}"
        raise ReviewError(f"{path.name}: not UTF-8 text ({where})") from None
    try:
        return json.loads(text, parse_constant=_no_constants, object_pairs_hook=_no_duplicates)
    except RecursionError:
        raise ReviewError(f"{path.name}: not a notes export (JSON nested too deeply)") from None
    except ValueError as exc:
        raise ReviewError(f"{path.name}: not JSON ({exc})") from None
