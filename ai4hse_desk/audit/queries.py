"""The query API the window and the headless commands use: :class:`AuditDB`, made by
:func:`open_audit`.

Queries are fixed SQL text with bound parameters, run on the sqlite3 driver's
pooled read-only connections (:mod:`.pool`; no SQLAlchemy on this path). The
window does not list attempts from here: it reads its review index
(:mod:`ai4hse_desk.index`), built once from :meth:`AuditDB.iter_rescore_batches`,
and fetches full rows only for the attempts it shows (:meth:`AuditDB.attempts_by_ids`).
Rescoring streams plain driver tuples
(:meth:`AuditDB.iter_rescore_rows`) in ``attempt_id`` (rowid) order; the run
filter uses ``UNIQUE(run_id, question_id, repetition)`` only to count. The desk
never adds an index: the audit file is not to be changed.

The values of every attempt are checked once per audit state: beside the first scan
of the file (:meth:`AuditDB.check_attempts`), unless the cache records that these
bytes passed before (:mod:`.cache`). A whole scan whose check passed records it when
asked to (``ai4hse-desk rescore`` does; a review index built from a scan is a record
of its own; the analysis frames write nothing at all).
"""

from __future__ import annotations

import json
from contextlib import closing
from types import MappingProxyType, TracebackType
from typing import TYPE_CHECKING, Any

from ai4hse_desk.audit.cache import check_recorded, record_check
from ai4hse_desk.audit.errors import AuditError, file_problems_as_audit_errors
from ai4hse_desk.audit.opening import open_readonly
from ai4hse_desk.audit.records import (
    ATTEMPT_COLUMNS,
    KEY_ROWS_SQL,
    LABEL_ROWS_SQL,
    RUN_COLUMNS,
    Attempt,
    Question,
    Run,
    build_answer_keys,
    build_labels,
    build_questions,
)
from ai4hse_desk.audit.rescore_scan import ATTEMPT_ID_BOUNDS, RescoreRow, rescore_batches
from ai4hse_desk.audit.schema_check import check_schema, quick_check
from ai4hse_desk.audit.value_check import OnceCheck, check_attempts, check_tables, lenient_text
from ai4hse_desk.protocol.outcome import TRACK_ORDER, Selection, Track

if TYPE_CHECKING:
    import os
    import sqlite3
    from collections.abc import Iterable, Iterator, Mapping, Sequence
    from contextlib import AbstractContextManager
    from pathlib import Path

    from ai4hse_desk.audit.opening import ReadOnlyFile
    from ai4hse_desk.audit.pool import ConnectionPool
    from ai4hse_desk.progress import Progress


#: Where the track and the run id sit in the ``RUN_COLUMNS`` and ``ATTEMPT_COLUMNS`` rows
#: (checked before the rows become records, so a bad track names its run).
_RUN_ID, _RUN_TRACK = RUN_COLUMNS.index("run_id"), RUN_COLUMNS.index("track")
_ATTEMPT_RUN, _ATTEMPT_TRACK = ATTEMPT_COLUMNS.index("a.run_id"), ATTEMPT_COLUMNS.index("r.track")

_ATTEMPT_JOIN = (
    "FROM attempts AS a JOIN runs AS r ON r.run_id = a.run_id "
    "JOIN questions AS q ON q.question_id = a.question_id"
)


class AuditDB:
    """A read-only audit database: metadata, typed records and attempt queries.

    Obtain one with :func:`ai4hse_desk.audit.open_audit`; close it (or use it as
    a context manager) to release connections and any snapshot copy. Every
    query method may raise :class:`AuditError` if the file turns out damaged.
    """

    def __init__(self, source: ReadOnlyFile, meta: Mapping[str, str], schema_version: int):
        self._source = source
        self.meta: Mapping[str, str] = MappingProxyType(dict(meta))
        self.schema_version = schema_version
        self._questions: tuple[Question, ...] | None = None
        self._by_id: dict[str, Question] = {}
        self._keys: dict[str, Selection] | None = None  # read alone (answer_keys)
        self._labels: dict[str, dict[str, str]] | None = None  # read alone (labels)
        self._attempts_check = OnceCheck(source.connect, self._check_attempt_values)

    @property
    def path(self) -> Path:
        """Absolute path of the audit database as given (not of a snapshot copy)."""
        return self._source.path

    @property
    def pool(self) -> ConnectionPool:
        """The pool of read-only driver connections (a forked worker drops it unused)."""
        return self._source.pool

    @property
    def snapshot(self) -> bool:
        """True when a pending WAL or journal made the desk read a private copy."""
        return self._source.snapshot

    def raw_connection(self) -> AbstractContextManager[sqlite3.Connection]:
        """Context manager yielding a read-only sqlite3 connection for hot paths."""
        return self._source.raw_connection()

    def fingerprint(self, progress: Progress | None = None) -> str:
        """SHA-256 of the bytes read (computed once, with ``progress`` in bytes while it
        is; see :mod:`.opening`)."""
        return self._source.fingerprint(progress)

    def summary(self) -> dict[str, object]:
        """Which file this is: the ``audit`` object of cli.md's ``rescore`` JSON.

        Raises:
            AuditError: the file changed while it was being read (nothing is reported).
        """
        fingerprint = self.fingerprint()
        self.verify_unchanged()
        return {
            "path": str(self.path),
            "sha256": fingerprint,
            "schema_version": self.schema_version,
            "benchmark": self.meta.get("benchmark"),
            "corpus_id": self.meta.get("corpus_id"),
        }

    @property
    def locked(self) -> bool:
        """True while the desk holds the file's shared lock (see :mod:`.pin`)."""
        return self._source.locked

    def changed_on_disk(self) -> bool:
        """True if the file changed since it was opened."""
        return self._source.changed_on_disk()

    def verify_unchanged(self) -> None:
        """Raise ``AuditError`` ("changed while being read") if the file read has changed."""
        self._source.verify_unchanged()

    # -- value checks (see :mod:`.value_check`) ---------------------------------

    def _check_attempt_values(self, conn: sqlite3.Connection) -> None:
        fingerprint = self.fingerprint()
        if check_recorded(fingerprint):
            return
        repetitions = {run.run_id: run.repetitions for run in self.runs()}
        questions = set(self.answer_keys())
        conn.text_factory = lenient_text
        with file_problems_as_audit_errors(self.path, broad=True):
            check_attempts(conn, self.path, repetitions, questions)

    def check_attempts(self) -> None:
        """Check every attempt's values against the schema: once per audit state, a
        full scan unless the cache records that these bytes passed (:mod:`.cache`).

        Raises:
            AuditError: the first attempts that break a rule (nothing may be scored).
        """
        self._attempts_check.wait()

    def start_attempts_check(self) -> None:
        """Begin :meth:`check_attempts` on a background thread, to run beside a scan."""
        self._attempts_check.start()

    def record_attempts_check(self) -> None:
        """Record in the cache that these bytes passed :meth:`check_attempts` (which must
        have passed), so that the next open of them does not check again."""
        if not self._attempts_check.passed:
            raise RuntimeError("the attempts have not passed the value check")
        fingerprint = self.fingerprint()
        if not check_recorded(fingerprint):
            record_check(fingerprint)

    def attempts_checked(self) -> None:
        """Note that these bytes passed :meth:`check_attempts` before (a cached index
        built from them)."""
        self._attempts_check.mark_passed()

    @property
    def attempts_valid(self) -> bool:
        """True once :meth:`check_attempts` has passed (or was recorded as passed)."""
        return self._attempts_check.passed

    def close(self) -> None:
        """Release every connection and any snapshot copy; idempotent."""
        self._attempts_check.cancel()
        self._source.close()

    def __enter__(self) -> AuditDB:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"AuditDB({str(self.path)!r}, schema_version={self.schema_version})"

    def _rows(self, sql: str, params: Mapping[str, Any] | None = None) -> Sequence[Sequence[Any]]:
        with file_problems_as_audit_errors(self.path), self.raw_connection() as conn:
            return conn.execute(sql, dict(params or {})).fetchall()

    def _track(self, value: Any, where: str) -> Track:
        try:
            return Track(str(value))
        except ValueError:
            raise AuditError(f"{self.path}: {where} has unknown track {value!r}") from None

    # -- runs ---------------------------------------------------------------

    def _runs(self, where: str = "", params: Mapping[str, Any] | None = None) -> list[Run]:
        rows = self._rows(f"SELECT {', '.join(RUN_COLUMNS)} FROM runs {where}", params)
        for row in rows:
            self._track(row[_RUN_TRACK], f"run {row[_RUN_ID]!r}")
        return [Run.from_row(row) for row in rows]

    def runs(self) -> list[Run]:
        """Every run, ordered by ``run_id``."""
        return self._runs("ORDER BY run_id")

    def run(self, run_id: str) -> Run:
        """The run called ``run_id`` (``AuditError`` "unknown run: …" if absent)."""
        found = self._runs("WHERE run_id = :run_id", {"run_id": run_id})
        if not found:
            raise AuditError(f"unknown run: {run_id}", self.path)
        return found[0]

    def models(self) -> list[str]:
        """Distinct model names of the runs, sorted."""
        return [str(row[0]) for row in self._rows("SELECT DISTINCT model FROM runs ORDER BY 1")]

    def tracks(self) -> list[Track]:
        """Tracks that have at least one run, in reporting order (``TRACK_ORDER``)."""
        present = {
            self._track(row[0], "a run") for row in self._rows("SELECT DISTINCT track FROM runs")
        }
        return [track for track in TRACK_ORDER if track in present]

    # -- questions ------------------------------------------------------------

    def _load_questions(self) -> tuple[Question, ...]:
        if self._questions is None:
            questions = build_questions(
                self._rows("SELECT question_id, ordinal, text FROM questions ORDER BY ordinal"),
                self._rows(
                    "SELECT question_id, position, text, key FROM options "
                    "ORDER BY question_id, position"
                ),
                self._rows("SELECT question_id, facet, value FROM question_labels"),
            )
            self._by_id = {question.question_id: question for question in questions}
            self._questions = questions
        return self._questions

    def questions(self) -> list[Question]:
        """Every question in corpus (``ordinal``) order, options by position."""
        return list(self._load_questions())

    def question(self, question_id: str) -> Question:
        """The question ``question_id`` (``AuditError`` "unknown question: …" if absent)."""
        self._load_questions()
        try:
            return self._by_id[question_id]
        except KeyError:
            raise AuditError(f"unknown question: {question_id}", self.path) from None

    def answer_keys(self) -> dict[str, Selection]:
        """Answer key per question id (corpus order), for scoring. Unless the questions
        are loaded, read on their own: a rescore needs no question texts."""
        if self._questions is not None:
            return {question.question_id: question.key for question in self._questions}
        if self._keys is None:
            self._keys = build_answer_keys(self._rows(KEY_ROWS_SQL))
        return dict(self._keys)

    def labels(self) -> dict[str, dict[str, str]]:
        """Labels (facet → value) per question id, every question included (read like
        :meth:`answer_keys`)."""
        if self._questions is not None:
            return {q.question_id: dict(q.labels) for q in self._questions}
        if self._labels is None:
            self._labels = build_labels(self._rows(LABEL_ROWS_SQL))
        return {question_id: dict(facets) for question_id, facets in self._labels.items()}

    def label_facets(self) -> dict[str, list[str]]:
        """Every label facet (sorted) with its distinct values (sorted)."""
        facets: dict[str, set[str]] = {}
        for question in self._load_questions():
            for facet, value in question.labels.items():
                facets.setdefault(facet, set()).add(value)
        return {facet: sorted(facets[facet]) for facet in sorted(facets)}

    # -- attempts -------------------------------------------------------------

    def count_attempts(self, run_ids: Iterable[str] | None = None) -> int:
        """Number of attempts of ``run_ids`` (every attempt when ``None``): a progress total.

        Unknown run ids count nothing.
        """
        if run_ids is None:
            return int(self._rows("SELECT count(*) FROM attempts")[0][0])
        wanted = json.dumps(sorted({str(run_id) for run_id in run_ids}))
        sql = "SELECT count(*) FROM attempts WHERE run_id IN (SELECT value FROM json_each(:ids))"
        return int(self._rows(sql, {"ids": wanted})[0][0])

    def attempts_by_ids(self, ids: Iterable[int]) -> list[Attempt]:
        """Full attempts for ``ids``, in the order given; unknown ids are skipped."""
        wanted = [int(attempt_id) for attempt_id in ids]
        if not wanted:
            return []
        rows = self._rows(
            f"SELECT {', '.join(ATTEMPT_COLUMNS)} {_ATTEMPT_JOIN} "
            "WHERE a.attempt_id IN (SELECT value FROM json_each(:ids))",
            {"ids": json.dumps(wanted)},
        )
        for row in rows:
            self._track(row[_ATTEMPT_TRACK], f"run {row[_ATTEMPT_RUN]!r}")
        try:
            found = {attempt.attempt_id: attempt for attempt in map(Attempt.from_row, rows)}
        except (TypeError, ValueError):
            self.check_attempts()  # names the value that broke the conversion
            raise
        return [found[attempt_id] for attempt_id in wanted if attempt_id in found]

    def iter_rescore_rows(
        self, run_ids: Sequence[str] | None = None, batch: int = 10000
    ) -> Iterator[RescoreRow]:
        """Stream every attempt (of ``run_ids`` if given) as a :data:`RESCORE_COLUMNS` tuple.

        The hot path for rescoring a million attempts: one driver cursor read with
        ``fetchmany(batch)`` in ``attempt_id`` (rowid) order, no per-row work, so
        memory stays bounded by ``batch``. The run filter is written ``+run_id``
        so SQLite keeps the rowid scan instead of sorting a whole run.
        """
        for rows in self.iter_rescore_batches(run_ids, batch):
            yield from rows

    def attempt_id_bounds(self) -> tuple[int, int] | None:
        """Smallest and largest attempt_id (``None`` without attempts); two rowid
        look-ups (:data:`ATTEMPT_ID_BOUNDS`)."""
        row = self._rows(ATTEMPT_ID_BOUNDS, {})[0]
        if row[0] is None:
            return None
        if not (isinstance(row[0], int) and isinstance(row[1], int)):
            self.check_attempts()  # raises: attempt ids that are not whole numbers
        return int(row[0]), int(row[1])

    def iter_rescore_batches(
        self,
        run_ids: Sequence[str] | None = None,
        batch: int = 10000,
        id_range: tuple[int, int] | None = None,
        *,
        record: bool = False,
    ) -> Iterator[list[RescoreRow]]:
        """Like :meth:`iter_rescore_rows`, but one list of at most ``batch`` rows at a time.

        :meth:`check_attempts` runs beside the scan (on a thread: SQLite works without
        the GIL) and is waited for before the last batch is handed over, and the file
        must be unchanged (:meth:`verify_unchanged`): a consumer that reaches the end
        has read valid values of one committed state. With ``record`` the passed check
        is then recorded in the cache (:meth:`record_attempts_check`).

        ``id_range`` (inclusive) reads only that slice of attempt ids, unchecked: the
        share of one worker process of a rescore, whose parent checks the whole file
        (:mod:`ai4hse_desk.verdicts.workers`).

        Raises:
            AuditError: a value breaks the schema, or the file changed while read.
        """
        return rescore_batches(self, run_ids, batch, id_range, record=record)


def open_audit(path: str | os.PathLike[str], *, verify: bool = False) -> AuditDB:
    """Open an audit database read-only and check that the desk can read it.

    Checks the schema and every value of the small tables; the attempts' values are
    checked by :meth:`AuditDB.check_attempts` (beside the first full read of them).

    Args:
        path: the audit database file; it is never created or changed.
        verify: also run ``PRAGMA quick_check``, which reads the whole file.

    Raises:
        AuditError: one line naming the file, for every problem with the input.
    """
    source = open_readonly(path)
    try:
        with (
            file_problems_as_audit_errors(source.path, broad=True),
            closing(source.connect()) as conn,
        ):
            conn.text_factory = lenient_text
            meta, version = check_schema(conn, source.path)
            check_tables(conn, source.path)
            if verify:
                quick_check(conn, source.path)
        return AuditDB(source, meta, version)
    except BaseException:
        source.close()
        raise
