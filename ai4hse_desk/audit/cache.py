"""The user's cache folder, and the record of a value check an audit state passed.

Everything the desk derives from an audit file (review indexes, scores, this record)
is kept in the user's cache folder (``platformdirs.user_cache_dir("ai4hse-desk")``,
or ``$AI4HSE_DESK_CACHE_DIR`` when set, which tests and portable installs use),
named after the audit fingerprint, never beside the audit file.

Checking every attempt's values (:func:`~.value_check.check_attempts`) reads the
whole attempts table. Once the check has passed, ``checked-<fp[:32]>.json`` records
it for those very bytes (their SHA-256) and this desk version (the rules are the
desk's): a second open of the same file finds the record and does not check again.
A record that cannot be written only costs the next open a check; one that cannot
be read, or is of another fingerprint or desk version, counts as none.
"""

from __future__ import annotations

import contextlib
import json
import os
from datetime import UTC, datetime
from pathlib import Path

import platformdirs

from ai4hse_desk import __version__
from ai4hse_desk.filewrite import WriteRefused, write_text

#: Environment variable that overrides the cache folder.
CACHE_ENV = "AI4HSE_DESK_CACHE_DIR"
APP_NAME = "ai4hse-desk"
#: ``format`` of a check record.
RECORD_FORMAT = "ai4hse-desk-value-check"
_NAME_LENGTH = 32
_HEX = frozenset("0123456789abcdef")


def cache_dir() -> Path:
    """The folder holding the desk's caches (not created here)."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override).expanduser().absolute()
    return Path(platformdirs.user_cache_dir(APP_NAME)).absolute()


def check_record_path(fingerprint: str) -> Path:
    """``<cache>/checked-<fingerprint[:32]>.json``.

    Raises:
        ValueError: ``fingerprint`` is not a hex SHA-256.
    """
    if len(fingerprint) < _NAME_LENGTH or not set(fingerprint) <= _HEX:
        raise ValueError(f"not a SHA-256 hex fingerprint: {fingerprint!r}")
    return cache_dir() / f"checked-{fingerprint[:_NAME_LENGTH]}.json"


def check_recorded(fingerprint: str) -> bool:
    """True if this desk version recorded that the audit state ``fingerprint`` passed."""
    try:
        data = json.loads(check_record_path(fingerprint).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and (
        data.get("format"),
        data.get("desk_version"),
        data.get("fingerprint"),
    ) == (RECORD_FORMAT, __version__, fingerprint)


def record_check(fingerprint: str) -> None:
    """Record that the audit state ``fingerprint`` passed the value check (through the
    guarded writer; a cache folder that cannot be written is no error)."""
    path = check_record_path(fingerprint)
    record = {
        "format": RECORD_FORMAT,
        "desk_version": __version__,
        "fingerprint": fingerprint,
        "checked_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    with contextlib.suppress(OSError, WriteRefused):
        path.parent.mkdir(parents=True, exist_ok=True)
        write_text(path, json.dumps(record))


__all__ = [
    "APP_NAME",
    "CACHE_ENV",
    "cache_dir",
    "check_record_path",
    "check_recorded",
    "record_check",
]
