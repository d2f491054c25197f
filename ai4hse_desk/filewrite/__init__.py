"""The one guarded way the desk writes a file.

Every export, report, screenshot, cache file, review index and notes store is
written through this package, never with a bare ``open(..., "w")``:

* :func:`check_target` refuses, by resolved path *and* by inode (symlinks and hard
  links followed), every audit database and notes store this process opened
  (:func:`protect`) together with their ``-wal``, ``-journal`` and ``-shm`` names;
  any name SQLite would read as the side file of an existing database; anything
  that exists and is not a regular file (a folder, device, FIFO or socket); and,
  unless asked, an existing SQLite database.
* :func:`write_atomic` (and :func:`write_bytes`, :func:`write_text`) writes a
  temporary file beside the target, fsyncs it, checks the target again and
  renames it into place; a failure (no space, a read-only folder) leaves the old
  file untouched and raises :class:`WriteRefused`.
* :func:`staged_file` does the same for files built by SQLite (review indexes, new
  audit databases), optionally never replacing an existing file.
"""

from ai4hse_desk.filewrite.atomic import (
    StagedFile,
    WriteRefused,
    check_target,
    staged_file,
    write_atomic,
    write_bytes,
    write_text,
)
from ai4hse_desk.filewrite.protected import SIDE_SUFFIXES, protect, protected_paths

__all__ = [
    "SIDE_SUFFIXES",
    "StagedFile",
    "WriteRefused",
    "check_target",
    "protect",
    "protected_paths",
    "staged_file",
    "write_atomic",
    "write_bytes",
    "write_text",
]
