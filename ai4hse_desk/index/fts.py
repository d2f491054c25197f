"""Stage 2 of the review index: full-text search over the raw responses.

What a search means, in every mode: the user's text is split on whitespace into
terms; an attempt matches when its raw response contains *every* term, or its
question (question text and option texts) contains every term. "Contains" is a
case-insensitive (ASCII letters) substring test with ``%``, ``_`` and ``\\``
taken literally, i.e. SQLite ``LIKE`` with an escape: exactly what the plain
``LIKE`` fallback does. The full-text index only makes it faster.

The index (``index-<fp>-fts.sqlite``, see :mod:`.location`) is one FTS5 table
``responses(raw_response)`` with ``rowid = attempt_id``, built with:

* ``tokenize='trigram'``: every run of three characters is a token, so any
  substring of at least three characters can be found, in any script (Chinese
  text of imported sets has no spaces between words, which ``unicode61`` would
  index as single enormous tokens);
* ``content=''``: contentless, the text stays in the audit file;
* ``detail=none``, ``columnsize=0``: only which responses hold each trigram;
  on the 1M-attempt demo this is about a quarter of the size of the positional
  index (~108 MiB against ~417 MiB for 150 MB of text) and builds twice as fast.

A term of three or more characters becomes an AND of its trigrams, each quoted
as an FTS5 string (``"…"`` with quotes doubled) so no user input is ever FTS5
syntax (``NEAR``, ``OR``, ``*``, ``-``, ``"`` are plain characters). The trigram
match finds a superset of the true matches (trigrams present anywhere, in any
letter case); each candidate is then checked with the same ``LIKE`` as the
fallback against the attached audit file, so both modes give identical results.
Terms shorter than three characters have no trigram and are checked by ``LIKE``
only; a search made only of such terms scans like the fallback.

Question text is searched with ``LIKE`` over the index's ``questions`` table
(a few thousand rows at most), which needs no full-text index.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ai4hse_desk.audit import AuditDB
from ai4hse_desk.audit.filters import escape_like
from ai4hse_desk.audit.rescore import Progress
from ai4hse_desk.index.location import (
    BuildCancelled,
    audit_uri,
    fts_path,
    read_meta,
    staged_file,
)

#: Version of the full-text layout and tokenizer; another format is rebuilt.
FTS_FORMAT = 1
_CHUNK = 20_000
#: At most this many trigrams per search go to FTS5 (a superset stays a superset).
_MAX_TRIGRAMS = 48

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
        closing(sqlite3.connect(temp, isolation_level=None)) as conn,
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


def search_terms(text: str | None) -> list[str]:
    """The terms of a search: ``text`` split on whitespace, duplicates dropped."""
    if not text:
        return []
    return list(dict.fromkeys(text.replace("\x00", " ").split()))


def fts_string(token: str) -> str:
    """``token`` as an FTS5 string literal: it can only ever mean itself."""
    return '"' + token.replace('"', '""') + '"'


def match_expression(terms: list[str]) -> str | None:
    """FTS5 query (an AND of quoted trigrams) for the terms, or ``None`` when no
    term has three characters."""
    trigrams = dict.fromkeys(
        term[i : i + 3].lower() for term in terms if len(term) >= 3 for i in range(len(term) - 2)
    )
    if not trigrams:
        return None
    return " ".join(fts_string(trigram) for trigram in list(trigrams)[:_MAX_TRIGRAMS])


def text_condition(text: str | None, use_fts: bool) -> tuple[str, list[Any]]:
    """SQL condition over ``rows`` for the search ``text`` and its parameters.

    Args:
        text: what the user typed (``None`` or blank: no condition, ``"1"``).
        use_fts: use the attached full-text index ``fts`` to find candidates.
            Otherwise every response of the attached ``audit`` is scanned.
    """
    terms = search_terms(text)
    if not terms:
        return "1", []
    patterns = [f"%{escape_like(term)}%" for term in terms]
    like_response = " AND ".join("t.raw_response LIKE ? ESCAPE '\\'" for _ in patterns)
    like_question = " AND ".join("search_text LIKE ? ESCAPE '\\'" for _ in patterns)
    match = match_expression(terms) if use_fts else None
    response_sql = f"SELECT t.attempt_id FROM audit.attempts AS t WHERE {like_response}"
    params: list[Any] = []
    if match is not None:
        response_sql += (
            " AND t.attempt_id IN (SELECT rowid FROM fts.responses WHERE responses MATCH ?)"
        )
        params = [*patterns, match]
    else:
        params = list(patterns)
    sql = (
        f"(attempt_id IN ({response_sql}) OR ordinal IN "
        f"(SELECT ordinal FROM questions WHERE {like_question}))"
    )
    return sql, [*params, *patterns]
