"""Stage 2 of the review index: a full-text index of the raw responses.

:func:`build_fts` writes ``index-<fp>-fts.sqlite`` (see :mod:`.location`): one
FTS5 table ``responses(raw_response)`` with ``rowid = attempt_id``, filled from
the audit file (attached read-only) in chunks of attempts, with progress and
cancel, then merged into one segment (``'optimize'``). Table options:

* ``tokenize='trigram'``: every run of three characters is a token, so any
  substring of at least three characters can be found, in any script (Chinese
  text of imported sets has no spaces between words, which ``unicode61`` would
  index as single enormous tokens, unsearchable by substring);
* ``content=''``: contentless, the text stays in the audit file;
* ``detail=none``, ``columnsize=0``: only which responses hold each trigram. On
  the 1M-attempt demo (150 MB of response text) this is ~110 MiB built in ~15 s,
  against ~417 MiB and ~38 s for the positional (``detail=full``) index; a
  ``unicode61 remove_diacritics 2`` word index would be ~63 MiB but could not
  find substrings inside words or Chinese text.

Without positions, a trigram match is a superset of the true matches; the
searches of :mod:`.search` check every candidate against the raw text, so the
results are exact.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from ai4hse_desk.index.location import (
    BuildCancelled,
    audit_uri,
    fts_path,
    read_meta,
    staged_file,
)

if TYPE_CHECKING:
    from pathlib import Path

    from ai4hse_desk.audit import AuditDB
    from ai4hse_desk.progress import Progress

#: Version of the full-text layout and tokenizer; another format is rebuilt.
FTS_FORMAT = 1
_CHUNK = 20_000

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE VIRTUAL TABLE responses USING fts5(
    raw_response, tokenize = 'trigram', content = '', detail = none, columnsize = 0
);
"""


def fts_is_current(meta: dict[str, str] | None, fingerprint: str) -> bool:
    """True if ``meta`` describes a complete full-text index of this format and audit."""
    return (
        meta is not None
        and meta.get("fts_format") == str(FTS_FORMAT)
        and meta.get("audit_fingerprint") == fingerprint
        and meta.get("complete") == "1"
    )


def fts_ready(db: AuditDB) -> bool:
    """True if a complete full-text index of ``db`` exists in the cache."""
    fingerprint = db.fingerprint()
    return fts_is_current(read_meta(fts_path(fingerprint)), fingerprint)


def _next_chunk(conn: sqlite3.Connection, after: int) -> tuple[int, int] | None:
    """(attempts, last attempt_id) of the next chunk of attempts after ``after``."""
    count, end = conn.execute(
        "SELECT count(*), max(attempt_id) FROM (SELECT attempt_id FROM audit.attempts "
        "WHERE attempt_id > ? ORDER BY attempt_id LIMIT ?)",
        (after, _CHUNK),
    ).fetchone()
    return None if end is None else (int(count), int(end))


def build_fts(db: AuditDB, *, progress: Progress | None = None) -> Path:
    """Build the full-text index of ``db``'s raw responses and return its path.

    An open :class:`~ai4hse_desk.index.ReviewIndex` of the same audit picks it
    up by itself (see ``ReviewIndex.fts_ready``).

    Args:
        db: the open audit database; attached read-only, never written.
        progress: called with (attempts done, attempts in total) after every
            chunk of attempts; returning False cancels.

    Raises:
        BuildCancelled: ``progress`` returned False (nothing is left on disk).
    """
    fingerprint = db.fingerprint()
    target = fts_path(fingerprint)
    with (
        staged_file(target) as temp,
        closing(sqlite3.connect(temp.resolve().as_uri(), uri=True, isolation_level=None)) as conn,
    ):
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("PRAGMA synchronous = OFF")
        conn.executescript(_SCHEMA)
        conn.execute("ATTACH DATABASE ? AS audit", (audit_uri(db),))
        total = int(conn.execute("SELECT count(*) FROM audit.attempts").fetchone()[0])
        conn.execute("BEGIN")
        done, last = 0, -(2**63)
        while (chunk := _next_chunk(conn, last)) is not None:
            count, end = chunk
            conn.execute(
                "INSERT INTO responses (rowid, raw_response) SELECT attempt_id, raw_response "
                "FROM audit.attempts WHERE attempt_id > ? AND attempt_id <= ? "
                "AND raw_response IS NOT NULL",
                (last, end),
            )
            done, last = done + count, end
            if progress is not None and not progress(done, total):
                raise BuildCancelled
        conn.execute("INSERT INTO responses (responses) VALUES ('optimize')")
        meta = {
            "fts_format": str(FTS_FORMAT),
            "audit_fingerprint": fingerprint,
            "built_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "complete": "1",
        }
        conn.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
        conn.execute("COMMIT")
        conn.execute("DETACH DATABASE audit")
    return target
