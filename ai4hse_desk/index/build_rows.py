"""The rows of stage 1: the desk's verdicts turned into ``rows`` tuples and inserted.

:func:`insert_rows` streams the verdicts of the whole file
(:func:`~ai4hse_desk.verdicts.stream.verdict_stream`) into the ``rows`` table of an
index file being built (:mod:`.build`), and then each distinct reason sentence,
numbered in the order met, into ``reasons``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.index.stored import encode_selection
from ai4hse_desk.protocol.outcome import STATE_ANSWERED, Status
from ai4hse_desk.verdicts.collector import collector_paused
from ai4hse_desk.verdicts.stream import verdict_stream

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterable, Iterator

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
) -> int:
    """Insert the ``rows`` of every attempt, then the ``reasons``; return how many rows.

    The values are checked as the verdict stream checks them (beside its scan); the
    index built is the record of that check (:func:`~.build.open_index`).
    """
    runs = {run.run_id: (run.run_id, run.model, run.track.value) for run in db.runs()}
    reasons: dict[str, int] = {}
    with collector_paused():  # (see ai4hse_desk.verdicts.collector)
        stream = verdict_stream(db, progress=progress)
        rows = _rows(stream, runs, ordinals, reasons)
        count = int(conn.executemany(INSERT_ROW, rows).rowcount)
    insert_reasons(conn, reasons)
    return count


def insert_reasons(conn: sqlite3.Connection, reasons: dict[str, int]) -> None:
    """Write the ``reasons`` table: each sentence numbered (sentence -> id), by id."""
    conn.executemany(
        "INSERT INTO reasons VALUES (?, ?)",
        sorted((reason_id, text) for text, reason_id in reasons.items()),
    )


__all__ = ["INSERT_ROW", "insert_reasons", "insert_rows"]
