"""The rows of stage 1: the desk's verdicts turned into ``rows`` tuples and inserted.

:func:`insert_rows` streams the verdicts of the whole file, or of one slice of
attempt ids, into the ``rows`` table of an index file being built (the one-process
build of :mod:`.build`, and both halves of the two-process build of
:mod:`.build_split`). Each reason sentence's ``reason_id`` is a function of the
sentence alone (:class:`ReasonIds`), so the two processes of a split build number
every sentence as one pass over the file does, and the worker's rows are appended as
they are.
"""

from __future__ import annotations

from hashlib import blake2b
from typing import TYPE_CHECKING

from ai4hse_desk.index.stored import encode_selection
from ai4hse_desk.protocol.outcome import STATE_ANSWERED, Status
from ai4hse_desk.verdicts.collector import collector_paused

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
_ID_BITS = 63  # (SQLite's INTEGER PRIMARY KEY is a signed 64-bit integer)


class ReasonIds(dict[str, int]):
    """Reason sentence → its ``reason_id``: 63 bits of the sentence's BLAKE2b digest,
    or on a collision with another sentence's (about one in 10^13 files of a few
    thousand sentences) the next free id. Ids are given by :meth:`add` (and
    :meth:`adopt`) only, never by setting an item."""

    def __init__(self) -> None:
        super().__init__()
        self._taken: set[int] = set()

    def add(self, text: str) -> int:
        """The id of a sentence not numbered yet (recorded)."""
        digest = blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest()
        wanted = int.from_bytes(digest, "big") >> (64 - _ID_BITS)
        while wanted in self._taken:
            wanted = (wanted + 1) % (1 << _ID_BITS)
        self._record(text, wanted)
        return wanted

    def adopt(self, text: str, reason_id: int) -> bool:
        """Take another process's ``reason_id`` for ``text``; False (nothing recorded)
        when this numbering gives the sentence another id, or the id to another."""
        known = self.get(text)
        if known is not None:
            return known == reason_id
        if reason_id in self._taken:
            return False
        self._record(text, reason_id)
        return True

    def _record(self, text: str, reason_id: int) -> None:
        self._taken.add(reason_id)
        dict.__setitem__(self, text, reason_id)


def _rows(
    batches: Iterable[list[VerdictTuple]],
    runs: dict[str, tuple[str, str, str]],
    ordinals: dict[str, int],
    reasons: ReasonIds,
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
                    reason = reasons.add(outcome.reason)
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
    reasons: ReasonIds,
    progress: Progress | None,
    id_range: tuple[int, int] | None = None,
) -> int:
    """Insert the ``rows`` of every attempt (or of those whose id is in ``id_range``,
    inclusive) and return how many; ``reasons`` (text to id) gains the new sentences.

    The whole file's values are checked as the rescore checks them; a slice's own
    rows are checked inside its scan, and the uniqueness checks are the caller's
    (:func:`~ai4hse_desk.verdicts.checked_scan.check_ids_unique`).
    """
    from ai4hse_desk.verdicts.run_scores import selected_runs, verdict_batches

    runs = {run.run_id: (run.run_id, run.model, run.track.value) for run in db.runs()}
    batches = verdict_batches(
        db, selected_runs(db, None), None, None, True, progress, id_range, check=True
    )
    with collector_paused():  # (see ai4hse_desk.verdicts.collector)
        return int(conn.executemany(INSERT_ROW, _rows(batches, runs, ordinals, reasons)).rowcount)


def insert_reasons(conn: sqlite3.Connection, reasons: ReasonIds) -> None:
    """Write the ``reasons`` table: each sentence :func:`insert_rows` numbered, by id."""
    conn.executemany(
        "INSERT INTO reasons VALUES (?, ?)",
        sorted((reason_id, text) for text, reason_id in reasons.items()),
    )


__all__ = ["INSERT_ROW", "ReasonIds", "insert_reasons", "insert_rows"]
