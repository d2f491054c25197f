"""The rows of stage 1: the desk's verdicts turned into ``rows`` tuples and inserted.

:func:`insert_rows` streams the verdicts of the whole file
(:func:`~ai4hse_desk.verdicts.stream.verdict_stream`) into the ``rows`` table of an
index file being built (:mod:`.build`), and then each distinct reason sentence,
numbered in the order met, into ``reasons``.

A large file is derived by more than one process (deriving is CPU-bound Python): one
:class:`concurrent.futures.ProcessPoolExecutor` over attempt-id ranges, chosen by the
file's size and the ``workers`` argument only (:func:`~ai4hse_desk.verdicts.workers.
default_workers`, the rule ``rescore`` uses; never the machine's load). This process
derives the first range into the index while each worker derives one of the others
into a part file of its own (a staged file of the guarded writer, dropped afterwards);
the parts are then appended in order, their reason sentences numbered on after this
process's, so the index is the one a single process builds, row for row. The workers
are *spawned* (fresh interpreters, safe from the window's worker thread: nothing is
inherited, so a program that builds an index must guard its main code with
``if __name__ == "__main__":``, and a frozen one call ``multiprocessing.freeze_support()``
first, as every spawning library requires: ``packaging/bundle_entry.py`` does). A worker opens
the very file this process reads and refuses it if its fingerprint differs; this
process checks the whole file's values meanwhile, and a failure anywhere that a bad
value explains is reported as that value. Progress counts every process's attempts; a
cancel or a failure stops the workers within one batch.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Literal, cast

from ai4hse_desk.audit.errors import AuditError
from ai4hse_desk.filewrite import StagedFile
from ai4hse_desk.index.layout import start_index_file
from ai4hse_desk.index.location import audit_file
from ai4hse_desk.index.stored import encode_selection
from ai4hse_desk.protocol.outcome import STATE_ANSWERED, Status
from ai4hse_desk.verdicts.collector import collector_paused
from ai4hse_desk.verdicts.stream import (
    RescoreCancelled,
    values_explain_failures,
    verdict_stream,
)
from ai4hse_desk.verdicts.workers import default_workers, id_ranges

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from concurrent.futures import Future
    from multiprocessing.sharedctypes import SynchronizedArray
    from multiprocessing.synchronize import Event

    from ai4hse_desk.audit import AuditDB
    from ai4hse_desk.progress import Progress
    from ai4hse_desk.protocol.outcome import Extraction, Selection
    from ai4hse_desk.verdicts.attempt_verdict import VerdictTuple

INSERT_ROW = "INSERT INTO rows VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
#: Each desk status as plain text, and the attempt state it implies (protocol.md section 2).
_STATUS_TEXT: dict[Status, str] = {status: status.value for status in Status}
_STATES: dict[Status, str] = {
    status: status.value if status in (Status.PENDING, Status.PROVIDER_ERROR) else STATE_ANSWERED
    for status in Status
}
#: Outcome objects whose row columns are remembered (the rest are computed again).
_OUTCOME_CACHE = 100_000


def _rows(
    batches: Iterable[list[VerdictTuple]],
    runs: dict[str, tuple[str, str, str]],
    ordinals: dict[str, int],
    reasons: dict[str, int],
) -> Iterator[tuple[object, ...]]:
    """One ``rows`` tuple per verdict, made as ``executemany`` binds it.

    The hot loop of the build: each tuple is bound and freed at once (no batch of
    them ever lives, so the cyclic garbage collector has nothing to walk), booleans
    become ints here (the driver binds an int directly, a bool only after an adapter
    look-up), and the columns an outcome gives are computed once per outcome object
    (the rescore memo hands the same object to every repeat of a response).
    """
    by_outcome: dict[int, tuple[Extraction, str, str, int, str | None, int]] = {}
    selections: dict[Selection | None, str | None] = {None: None}
    for batch in batches:
        for attempt_id, run_id, qid, rep, outcome, correct, recorded, agrees in batch:
            cols = by_outcome.get(id(outcome))
            if cols is None or cols[0] is not outcome:
                status = outcome.status
                selection = outcome.selection
                text = selections.get(selection)
                if text is None and selection is not None:
                    text = selections[selection] = encode_selection(selection)
                reason = reasons.get(outcome.reason)
                if reason is None:
                    reason = reasons[outcome.reason] = len(reasons) + 1
                if len(by_outcome) >= _OUTCOME_CACHE:
                    by_outcome.clear()  # (the entries hold their outcome: no id is reused)
                cols = by_outcome[id(outcome)] = (
                    outcome, _STATES[status], _STATUS_TEXT[status],
                    1 if outcome.strict_format else 0, text, reason,
                )  # fmt: skip
            run, model, track = runs[run_id]
            yield (
                attempt_id, ordinals[qid], qid, run, model, track, rep, cols[1], cols[2],
                1 if correct else 0, cols[3], 0 if agrees else 1, recorded, cols[4], cols[5],
            )  # fmt: skip


def insert_rows(
    conn: sqlite3.Connection,
    db: AuditDB,
    ordinals: dict[str, int],
    progress: Progress | None,
    *,
    target: Path,
    workers: int | None = None,
) -> int:
    """Insert the ``rows`` of every attempt, then the ``reasons``; return how many rows.

    The values are checked as the verdict stream checks them (beside its scan); the
    index built is the record of that check (:func:`~.build.open_index`).

    Args:
        conn: the new index file's connection, in a transaction (committed and begun
            again when parts are appended).
        target: the index file being built; the workers' part files are staged
            beside it.
        workers: processes that derive (None: by the file's size, see the module
            docstring; 1: this one only).

    Raises:
        AuditError: the data's problem, met by any process.
        RescoreCancelled: ``progress`` returned False.
    """
    runs = {run.run_id: (run.run_id, run.model, run.track.value) for run in db.runs()}
    reasons: dict[str, int] = {}
    bounds = db.attempt_id_bounds()
    ranges: list[tuple[int, int]] = []
    if bounds is not None:
        count = workers or default_workers(bounds[1] - bounds[0] + 1)
        ranges = id_ranges(*bounds, count)
    with collector_paused():  # (see ai4hse_desk.verdicts.collector)
        if len(ranges) < 2:
            rows = _insert_range(conn, db, (runs, ordinals, reasons), progress)
            insert_reasons(conn, reasons)
            return rows
        parts = [
            StagedFile(Path(f"{target}.part{n}"), allow_sqlite=True) for n in range(1, len(ranges))
        ]
        try:
            rows = _derive_in_parts(conn, db, (runs, ordinals, reasons), progress, ranges, parts)
            insert_reasons(conn, reasons)
            return rows + _append_parts(conn, [part.temp for part in parts])
        finally:
            for part in parts:
                part.discard()


#: What a row takes from its run and question: run id -> (run_id, model, track), question
#: id -> ordinal; and the reason sentences numbered so far (sentence -> id).
Columns = tuple[dict[str, tuple[str, str, str]], dict[str, int], dict[str, int]]


def _insert_range(
    conn: sqlite3.Connection,
    db: AuditDB,
    columns: Columns,
    progress: Progress | None,
    id_range: tuple[int, int] | None = None,
) -> int:
    """Insert the rows of ``id_range`` (None: of every attempt); return how many."""
    stream = verdict_stream(db, progress=progress, id_range=id_range)
    return int(conn.executemany(INSERT_ROW, _rows(stream, *columns)).rowcount)


#: What a worker hands back: ("ok", rows written), ("error", the data's problem) or
#: ("cancelled", 0).
PartResult = tuple[Literal["ok", "error", "cancelled"], "int | str"]
#: In a worker process: the attempts each part has derived so far, and the stop signal.
_shared: list[object] = []


def _worker_started(done: SynchronizedArray[int], stop: Event) -> None:
    """A worker's initializer: keep what the parent shares with it."""
    _shared[:] = [done, stop]


def _write_part(
    audit: str,
    fingerprint: str | None,
    slot: int,
    id_range: tuple[int, int],
    given: tuple[dict[str, tuple[str, str, str]], dict[str, int]],
    out: str,
) -> PartResult:
    """In a worker: the rows of ``id_range`` and their reasons (numbered from 1 in the
    order met) written into ``out``, a new index file; ``fingerprint`` (None for a
    private snapshot, which cannot change) must be the file's; ``given``: the runs' and
    questions' columns, as this process read them."""
    from ai4hse_desk.audit.queries import open_audit

    done = cast("SynchronizedArray[int]", _shared[0])
    stop = cast("Event", _shared[1])

    def report(count: int, _total: int) -> bool:
        done[slot] = count
        return not stop.is_set()

    try:
        with open_audit(audit) as db:
            if fingerprint is not None and db.fingerprint() != fingerprint:
                return "error", f"{audit} changed while being read; nothing is reported from it"
            with closing(sqlite3.connect(out, isolation_level=None)) as conn:
                start_index_file(conn)  # only rows and reasons are filled
                reasons: dict[str, int] = {}
                with collector_paused():
                    count = _insert_range(conn, db, (*given, reasons), report, id_range)
                insert_reasons(conn, reasons)
                conn.execute("COMMIT")
    except RescoreCancelled:
        return "cancelled", 0
    except AuditError as exc:
        return "error", str(exc)
    return "ok", count


def _derive_in_parts(
    conn: sqlite3.Connection,
    db: AuditDB,
    columns: Columns,
    progress: Progress | None,
    ranges: list[tuple[int, int]],
    parts: list[StagedFile],
) -> int:
    """This process's range inserted into ``conn`` while workers write the others into
    ``parts``; the whole file's values checked meanwhile. Returns this process's rows."""
    import multiprocessing  # (only a large file's build needs them)
    from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait

    context = multiprocessing.get_context("spawn")
    done = context.Array("q", len(parts), lock=False)
    stop = context.Event()
    fingerprint = None if db.snapshot else db.fingerprint()
    audit = str(audit_file(db))
    given = columns[:2]  # (the reasons each part numbers itself)
    seen = [0, 0]  # this process's attempts so far, the total

    def counted(own: int, total: int) -> bool:
        seen[:] = [own, total]
        return progress is None or progress(own + sum(done), total)

    db.start_attempts_check()
    with (
        values_explain_failures(db),  # a worker's failure too
        ProcessPoolExecutor(
            len(parts), mp_context=context, initializer=_worker_started, initargs=(done, stop)
        ) as pool,
    ):
        futures: list[Future[PartResult]] = [
            pool.submit(_write_part, audit, fingerprint, slot, span, given, str(part.temp))
            for slot, (span, part) in enumerate(zip(ranges[1:], parts, strict=True))
        ]
        try:
            count = _insert_range(conn, db, columns, counted, ranges[0])
            pending = set(futures)
            while pending:  # progress and Cancel go on while the workers finish
                finished, pending = wait(pending, timeout=0.1, return_when=FIRST_EXCEPTION)
                for future in finished:
                    future.result()  # a worker that failed raises here at once
                if pending and not counted(*seen):
                    raise RescoreCancelled
            results = [future.result() for future in futures]
        except BaseException:
            stop.set()  # the workers stop within one batch; the pool waits for them
            raise
    db.check_attempts()  # the whole file's values (a bad one explains a worker's error)
    for status, value in results:
        if status != "ok":
            raise AuditError(str(value), db.path)
    db.verify_unchanged()
    return count


#: A part's reason sentences not met before, numbered on in the part's order.
_NEW_REASONS = (
    "INSERT INTO main.reasons (text) SELECT text FROM part.reasons "
    "WHERE text NOT IN (SELECT text FROM main.reasons) ORDER BY reason_id"
)
#: A part's rows, each with its sentence's number in the index.
_PART_ROWS = (
    "INSERT INTO main.rows SELECT r.attempt_id, r.ordinal, r.question_id, r.run_id, r.model, "
    "r.track, r.repetition, r.state, r.status, r.correct, r.strict, r.disagrees, "
    "r.recorded_status, r.selection, m.reason_id FROM part.rows AS r "
    "JOIN part.reasons AS p ON p.reason_id = r.reason_id "
    "JOIN main.reasons AS m ON m.text = p.text ORDER BY r.attempt_id"
)


def _append_parts(conn: sqlite3.Connection, files: list[Path]) -> int:
    """Append the rows and reasons of each part file in order; return the rows appended.

    ``ATTACH`` needs no open transaction: the rows so far are committed (a new file
    without a journal: nothing to undo) and a new transaction begun."""
    appended = 0
    conn.execute("COMMIT")
    for file in files:
        conn.execute("ATTACH DATABASE ? AS part", (str(file),))
        conn.execute("BEGIN")
        conn.execute(_NEW_REASONS)
        appended += int(conn.execute(_PART_ROWS).rowcount)
        conn.execute("COMMIT")
        conn.execute("DETACH DATABASE part")
    conn.execute("BEGIN")
    return appended


def insert_reasons(conn: sqlite3.Connection, reasons: dict[str, int]) -> None:
    """Write the ``reasons`` table: each sentence numbered (sentence -> id), by id."""
    conn.executemany(
        "INSERT INTO reasons VALUES (?, ?)",
        sorted((reason_id, text) for text, reason_id in reasons.items()),
    )


__all__ = ["INSERT_ROW", "insert_reasons", "insert_rows"]
