"""The rows of stage 1: the desk's verdicts turned into ``rows`` tuples and inserted.

:func:`insert_rows` streams the verdicts of the whole file, or of one slice of
attempt ids, into the ``rows`` table of an index file being built (the one-process
build of :mod:`.build`, and both halves of the two-process build of
:mod:`.build_split`). Reason sentences get their ``reason_id`` in the order they
first appear, so the ids of two halves, numbered in turn (the lower ids first),
are the ids one pass over the file gives.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.index.stored import encode_selection
from ai4hse_desk.protocol.outcome import STATE_ANSWERED, Status

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterable, Iterator

    from ai4hse_desk.audit import AuditDB
    from ai4hse_desk.progress import Progress
    from ai4hse_desk.protocol.outcome import Extraction, Selection
    from ai4hse_desk.verdicts.rescore import VerdictTuple

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
    reasons: dict[str, int],
    progress: Progress | None,
    id_range: tuple[int, int] | None = None,
) -> int:
    """Insert the ``rows`` of every attempt (or of those whose id is in ``id_range``,
    inclusive) and return how many; ``reasons`` (text to id) gains the new sentences.

    The whole file's values are checked as the rescore checks them; a slice's own
    rows are checked inside its scan, and the checks beyond single rows are the
    caller's (:func:`~ai4hse_desk.verdicts.checked_scan.check_links`).
    """
    from ai4hse_desk.verdicts.run_scores import selected_runs, verdict_batches

    runs = {run.run_id: (run.run_id, run.model, run.track.value) for run in db.runs()}
    batches = verdict_batches(
        db, selected_runs(db, None), None, None, True, progress, id_range, check=True
    )
    return int(conn.executemany(INSERT_ROW, _rows(batches, runs, ordinals, reasons)).rowcount)


def insert_reasons(conn: sqlite3.Connection, reasons: dict[str, int]) -> None:
    """Write the ``reasons`` table: each sentence :func:`insert_rows` numbered, by id."""
    conn.executemany(
        "INSERT INTO reasons VALUES (?, ?)",
        sorted((reason_id, text) for text, reason_id in reasons.items()),
    )


__all__ = ["INSERT_ROW", "insert_reasons", "insert_rows"]
