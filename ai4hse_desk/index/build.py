"""Stage 1 of the review index: the desk's verdicts, denormalised for the table.

:func:`build_index` streams the desk's verdicts (from
:func:`~ai4hse_desk.verdicts.stream.verdict_stream`, the one derivation) into a new SQLite file
in the cache directory (see :mod:`.location`): one row per attempt with
everything the review table filters and sorts on, so the window's queries never
touch the audit file (except for raw text). Rows are inserted by one
``executemany`` over the verdicts (a large file's ranges by worker processes
too, appended: :mod:`.build_rows`), the indexes
are created afterwards (cheaper than maintaining them while inserting), then
``ANALYZE`` gives the query planner real selectivities. The file is renamed into
place only when complete; a cancelled or failed build leaves nothing behind.

The file's tables, indexes and settings are in :mod:`.layout`.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from ai4hse_desk import __version__
from ai4hse_desk.index.layout import INDEX_FORMAT, INDEXES, start_index_file
from ai4hse_desk.index.location import BuildCancelled, index_path, read_meta, staged_file
from ai4hse_desk.index.query import ReviewIndex

if TYPE_CHECKING:
    from pathlib import Path

    from ai4hse_desk.audit import AuditDB
    from ai4hse_desk.progress import Progress


def is_current(meta: dict[str, str] | None, fingerprint: str) -> bool:
    """True if ``meta`` describes a complete stage-1 index of this format,
    desk version and audit fingerprint."""
    return (
        meta is not None
        and meta.get("index_format") == str(INDEX_FORMAT)
        and meta.get("desk_version") == __version__
        and meta.get("audit_fingerprint") == fingerprint
    )


def _copy_questions(conn: sqlite3.Connection, db: AuditDB) -> dict[str, int]:
    ordinals: dict[str, int] = {}
    for question in db.questions():
        ordinals[question.question_id] = question.ordinal
        text = "\n".join([question.text, *(option.text for option in question.options)])
        conn.execute(
            "INSERT INTO questions VALUES (?, ?, ?)",
            (question.ordinal, question.question_id, text),
        )
        conn.executemany(
            "INSERT INTO labels VALUES (?, ?, ?)",
            [(question.question_id, facet, value) for facet, value in question.labels.items()],
        )
    return ordinals


class _BuildProgress:
    """One (done, total) over a build's two phases, so a progress bar neither stops
    nor hides while the indexes are made: the scan's attempts fill the first two
    thirds, the index creations (and ANALYZE) the last, one step each (about a
    third of a build's time). Without a ``progress`` it
    reports nothing and never cancels."""

    def __init__(self, progress: Progress | None, steps: int) -> None:
        self._progress = progress
        self._steps = steps
        self._rows = 0

    @property
    def scan(self) -> Progress | None:
        """The progress of the scan (``None`` without one: the scan then counts nothing)."""
        return None if self._progress is None else self._scanning

    def _whole(self, rows: int) -> int:
        return rows + rows // 2  # the index phase: a third of the whole

    def _scanning(self, done: int, total: int) -> bool:
        assert self._progress is not None
        self._rows = total
        return self._progress(done, self._whole(total))

    def _report(self, made: int) -> bool:
        if self._progress is None:
            return True
        whole = self._whole(self._rows)
        return self._progress(self._rows + (whole - self._rows) * made // self._steps, whole)

    def scanned(self, rows: int) -> None:
        """Every attempt's row is written (``rows`` of them; also for none)."""
        if self._progress is not None and not self._scanning(rows, rows):
            raise BuildCancelled

    def step(self, made: int) -> None:
        """``made`` of the index phase's steps are done (:class:`BuildCancelled` if the
        progress says stop)."""
        if not self._report(made):
            raise BuildCancelled

    def finished(self) -> None:
        """The index is in place: the whole is done (a progress bar may hide now)."""
        self._report(self._steps)


def build_index(
    db: AuditDB, *, progress: Progress | None = None, workers: int | None = None
) -> Path:
    """Build (or rebuild) the stage-1 review index of ``db`` and return its path.

    Args:
        db: the open audit database; only read.
        progress: called with (done, total) every few thousand attempts and between
            index creations (the attempts are the first two thirds of ``total``,
            see :class:`_BuildProgress`); returning False cancels.
        workers: processes that derive the verdicts (None: two for a large file on a
            machine with two CPUs or more, see :mod:`.build_rows`; 1: this one only).

    Raises:
        BuildCancelled: ``progress`` returned False (nothing is left on disk).
        AuditError: the audit file is inconsistent, a value breaks the schema, or
            the file changed while it was read (see ``iter_rescore_batches``);
            nothing is left on disk.
    """
    from ai4hse_desk.index.build_rows import insert_rows  # only a build needs it
    from ai4hse_desk.verdicts.stream import RescoreCancelled

    fingerprint = db.fingerprint()
    target = index_path(fingerprint)
    with (
        staged_file(target) as temp,
        closing(sqlite3.connect(temp, isolation_level=None)) as conn,
    ):
        start_index_file(conn)
        phases = _BuildProgress(progress, steps=len(INDEXES) + 1)  # each index, then ANALYZE
        try:
            ordinals = _copy_questions(conn, db)
            count = insert_rows(conn, db, ordinals, phases.scan, target=target, workers=workers)
            phases.scanned(count)
            for made, (name, columns) in enumerate(INDEXES.items()):
                phases.step(made)
                conn.execute(f"CREATE INDEX {name} ON {columns}")
            phases.step(len(INDEXES))
        except RescoreCancelled:  # the scan's; the steps raise BuildCancelled themselves
            raise BuildCancelled from None  # staged_file deletes the temporary file
        meta = {
            "index_format": str(INDEX_FORMAT),
            "desk_version": __version__,
            "audit_fingerprint": fingerprint,
            "built_at": datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "attempts": str(count),
        }
        conn.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
        conn.execute("ANALYZE")
        conn.execute("COMMIT")
    phases.finished()
    return target


def open_index(db: AuditDB) -> ReviewIndex | None:
    """The existing, complete index of ``db``'s fingerprint, or ``None``.

    ``None`` also when the file is of another :data:`INDEX_FORMAT` or desk
    version, or unreadable: the caller then runs :func:`build_index`.
    """
    fingerprint = db.fingerprint()
    path = index_path(fingerprint)
    if not is_current(read_meta(path), fingerprint):
        return None
    # An index is only ever built from a scan whose values passed the check, and
    # its name is these very bytes' fingerprint: the check need not run again.
    db.attempts_checked()
    return ReviewIndex(path, db)


def ensure_index(
    db: AuditDB, *, progress: Progress | None = None, workers: int | None = None
) -> ReviewIndex:
    """:func:`open_index`, building the index first when there is no valid one
    (``workers``: see :func:`build_index`)."""
    index = open_index(db)
    if index is None:
        build_index(db, progress=progress, workers=workers)
        index = open_index(db)
        if index is None:
            raise RuntimeError(f"the review index of {db.path} could not be read back")
    return index
