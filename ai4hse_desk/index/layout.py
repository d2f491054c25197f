"""The layout of a stage-1 review index file: its tables, indexes and build settings.

Bump :data:`INDEX_FORMAT` when it changes:

* ``meta(key, value)``: ``index_format``, ``desk_version``, ``audit_fingerprint``,
  ``built_at``, ``attempts``;
* ``rows``: ``attempt_id`` (rowid), ``ordinal``, ``question_id``, ``run_id``,
  ``model``, ``track``, ``repetition``, ``state``, ``status`` (the desk's),
  ``correct``, ``strict``, ``disagrees`` (0/1), ``recorded_status``, the desk's
  ``selection`` (``"TFTF"``, NULL when none) and ``reason_id``: everything a view
  needs from the re-derivation (:mod:`.stored`), so nothing derives it again;
* ``reasons(reason_id, text)``: each distinct reason sentence once;
* indexes: :data:`INDEXES`;
* ``questions(ordinal, question_id, search_text)``: question text and option
  texts, one per line (searched with ``LIKE``: at most a few thousand rows);
* ``labels(question_id, facet, value)``: a copy of ``question_labels``.

``state`` is not re-read from the audit file: protocol.md section 2 makes it a
function of the desk status (``pending`` and ``provider_error`` come exactly
from those states, every other status from ``answered``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import sqlite3

#: Version of this layout; an index of another format is rebuilt. (4: only
#: files whose attempts passed the value check are indexed; 5: the whole verdict,
#: selection and reason included, is stored.)
INDEX_FORMAT = 6

#: The index file's tables.
INDEX_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE questions (
    ordinal INTEGER PRIMARY KEY, question_id TEXT NOT NULL UNIQUE, search_text TEXT NOT NULL
);
CREATE TABLE labels (
    question_id TEXT NOT NULL, facet TEXT NOT NULL, value TEXT NOT NULL,
    PRIMARY KEY (facet, value, question_id)
) WITHOUT ROWID;
CREATE TABLE rows (
    attempt_id INTEGER PRIMARY KEY, ordinal INTEGER NOT NULL, question_id TEXT NOT NULL,
    run_id TEXT NOT NULL, model TEXT NOT NULL, track TEXT NOT NULL,
    repetition INTEGER NOT NULL, state TEXT NOT NULL, status TEXT NOT NULL,
    correct INTEGER NOT NULL, strict INTEGER NOT NULL, disagrees INTEGER NOT NULL,
    recorded_status TEXT, selection TEXT, reason_id INTEGER NOT NULL
);
CREATE TABLE reasons (reason_id INTEGER PRIMARY KEY, text TEXT NOT NULL);
"""

#: One index per sortable column (each implicitly ends in the rowid, which is
#: exactly the keyset order ``(value, attempt_id)``), so the first page of any
#: sort, and the next page after any key, is an index seek. Filters on the same
#: columns use them too; ``ANALYZE`` lets the planner pick among them. Without
#: STAT4 the planner assumes every value equally common, so the rare
#: disagreements get a partial index of their own, whose size ``ANALYZE`` knows.
#: ``(ordinal, status)`` covers the status counts of label and question filters.
INDEXES: dict[str, str] = {
    "rows_status": "rows(status)",
    "rows_run": "rows(run_id)",
    "rows_ordinal": "rows(ordinal)",
    "rows_ordinal_status": "rows(ordinal, status)",
    "rows_model": "rows(model)",
    "rows_track": "rows(track)",
    "rows_repetition": "rows(repetition)",
    "rows_correct": "rows(correct)",
    # The counts line under a correct/incorrect filter (about half of all rows each)
    # groups by status: this covering index answers it without touching the rows.
    "rows_correct_status": "rows(correct, status)",
    "rows_strict": "rows(strict)",
    "rows_disagrees": "rows(disagrees)",
    "rows_disagreeing": "rows(disagrees) WHERE disagrees = 1",
}

#: Settings of the connection that writes a new index: a new private file has
#: nothing to undo, and staged_file syncs it before the rename.
BUILD_PRAGMAS = ("journal_mode = OFF", "synchronous = OFF")


def start_index_file(conn: sqlite3.Connection) -> None:
    """Make the empty file of ``conn`` a new index (:data:`BUILD_PRAGMAS`, then the tables
    of :data:`INDEX_SCHEMA`) and begin its one transaction. ``conn`` is in autocommit mode
    (``isolation_level=None``): ``executescript`` would commit an open transaction."""
    for pragma in BUILD_PRAGMAS:
        conn.execute(f"PRAGMA {pragma}")
    conn.executescript(INDEX_SCHEMA)
    conn.execute("BEGIN")


__all__ = ["BUILD_PRAGMAS", "INDEXES", "INDEX_FORMAT", "INDEX_SCHEMA", "start_index_file"]
