"""The desk's verdict on an attempt as the review index stores it: one verdict table.

The index build re-derives every attempt once (:mod:`ai4hse_desk.verdicts.rescore`)
and stores all that a view needs from that: status, the extracted selection, the
strict-format flag, correctness, whether the runner's recorded verdict differs,
the runner's status and the reason. The review table, the compare grid, the
window's scores and its key audit read these rows instead of deriving again; the
detail panel re-derives only the character spans it highlights.

A selection is stored as text, one ``T`` or ``F`` per option (``"TFTF"``), NULL
when nothing was extracted; reasons are stored once each in a ``reasons`` table
and referred to by id.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ai4hse_desk.protocol.outcome import Extraction, Selection, Status
from ai4hse_desk.verdicts.attempt_verdict import AttemptVerdict, VerdictTuple

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterator, Sequence

#: ``SELECT`` list (``rows AS r JOIN reasons AS x``) for :func:`stored_verdict`.
VERDICT_COLUMNS: Final = (
    "r.attempt_id, r.run_id, r.question_id, r.repetition, r.status, r.selection, r.strict, "
    "r.correct, r.recorded_status, r.disagrees, x.text"
)
#: The join that gives every row its reason text.
VERDICT_FROM: Final = "rows AS r JOIN reasons AS x ON x.reason_id = r.reason_id"


def encode_selection(selection: Selection | None) -> str | None:
    """``(True, False)`` → ``"TF"``; ``None`` stays ``None``."""
    if selection is None:
        return None
    return "".join("T" if value else "F" for value in selection)


def decode_selection(text: str | None) -> Selection | None:
    """The inverse of :func:`encode_selection`."""
    if text is None:
        return None
    return tuple(char == "T" for char in text)


def stored_verdict(row: Sequence[Any]) -> AttemptVerdict:
    """The verdict in a row selected with :data:`VERDICT_COLUMNS` (its outcome has no
    spans: they are not stored)."""
    (attempt_id, run_id, question_id, repetition, status, selection, strict, correct,
     recorded_status, disagrees, reason) = row  # fmt: skip
    outcome = Extraction(Status(status), decode_selection(selection), bool(strict), (), str(reason))
    return AttemptVerdict(
        attempt_id=int(attempt_id),
        run_id=str(run_id),
        question_id=str(question_id),
        repetition=int(repetition),
        outcome=outcome,
        correct=bool(correct),
        recorded_status=None if recorded_status is None else str(recorded_status),
        agrees=not disagrees,
    )


def read_verdict_batches(
    cursor: sqlite3.Cursor, skipped: frozenset[str], batch: int
) -> Iterator[list[VerdictTuple]]:
    """Every stored verdict in attempt_id order, ``batch`` at a time, as
    :data:`~ai4hse_desk.verdicts.rescore.VerdictTuple` lists (outcomes without
    spans, one shared object per distinct verdict); ``skipped`` questions left out."""
    outcomes: dict[tuple[str, str | None, int, str], Extraction] = {}
    cursor.execute(f"SELECT {VERDICT_COLUMNS} FROM {VERDICT_FROM} ORDER BY r.attempt_id")
    while rows := cursor.fetchmany(batch):
        out: list[VerdictTuple] = []
        for aid, run_id, qid, rep, status, sel, strict, correct, rec, differs, reason in rows:
            if qid in skipped:
                continue
            key = (status, sel, strict, reason)
            outcome = outcomes.get(key)
            if outcome is None:
                outcome = outcomes[key] = Extraction(
                    Status(status), decode_selection(sel), bool(strict), (), reason
                )
            out.append((aid, run_id, qid, rep, outcome, bool(correct), rec, not differs))
        yield out
