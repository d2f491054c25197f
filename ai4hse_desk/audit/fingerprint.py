"""Content fingerprints of audit databases: streaming SHA-256 of file bytes.

The fingerprint identifies exactly which bytes the desk read, so that reports,
reviewer notes and cached verdicts can say which record they belong to. It is the
same number ``sha256sum`` prints for a closed record. Files are read in 1 MiB
chunks, so memory stays flat for multi-gigabyte records.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import os

#: Bytes read per chunk when hashing or copying.
CHUNK_SIZE = 1 << 20


class Digest(Protocol):
    """What a ``hashlib`` hash object is to the code that feeds it bytes."""

    def update(self, data: bytes, /) -> None: ...

    def hexdigest(self) -> str: ...


def hash_into(digest: Digest, path: str | os.PathLike[str]) -> int:
    """Feed the bytes of ``path`` into ``digest`` chunk by chunk.

    Returns:
        The number of bytes read.
    """
    total = 0
    with open(path, "rb") as source:
        while chunk := source.read(CHUNK_SIZE):
            digest.update(chunk)
            total += len(chunk)
    return total


def sha256_file(path: str | os.PathLike[str]) -> str:
    """Hex SHA-256 of the bytes of ``path`` (identical to ``sha256sum``)."""
    digest = hashlib.sha256()
    hash_into(digest, path)
    return digest.hexdigest()


def copy_hashing(
    source: str | os.PathLike[str], target: str | os.PathLike[str], digest: Digest
) -> int:
    """Copy ``source`` to the new file ``target``, feeding the copied bytes into ``digest``.

    Hashing while copying guarantees the fingerprint describes exactly the bytes
    of the copy, even if the source keeps changing afterwards.

    Returns:
        The number of bytes copied.
    """
    total = 0
    with open(source, "rb") as src, open(target, "xb") as dst:
        while chunk := src.read(CHUNK_SIZE):
            digest.update(chunk)
            dst.write(chunk)
            total += len(chunk)
    return total
