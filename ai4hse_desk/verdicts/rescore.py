"""Re-derive every attempt of an audit database with the protocol and score each run.

The entry of ``ai4hse-desk rescore`` and of the window's scores: the verdict stream
(:mod:`.stream`, the one derivation) scored by :mod:`.scoring`; a large file is
split over two processes by attempt id (:mod:`.workers`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.progress import Progress
from ai4hse_desk.verdicts.attempt_verdict import AttemptVerdict, VerdictTuple
from ai4hse_desk.verdicts.collector import collector_paused
from ai4hse_desk.verdicts.scoring import (
    RescoreResult,
    official,
    run_objects,
    run_results,
    score_batches,
    selected_runs,
)
from ai4hse_desk.verdicts.stream import (
    MEMO_MAX_ENTRIES,
    MEMO_MAX_TEXT,
    RescoreCancelled,
    verdict_stream,
)
from ai4hse_desk.verdicts.workers import rescore_in_processes

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterator, Sequence

    from ai4hse_desk.audit.queries import AuditDB


def iter_verdicts(
    db: AuditDB, run_ids: Sequence[str] | None = None, *, progress: Progress | None = None
) -> Iterator[AttemptVerdict]:
    """Yield the desk's verdict on every attempt (of ``run_ids``) in attempt_id order.

    Raises:
        AuditError: an unknown run, or an attempt whose question or run is not
            in the database, or a question without options.
        RescoreCancelled: ``progress`` returned False.
    """
    for batch in verdict_stream(db, run_ids, progress=progress):
        for verdict in batch:
            yield AttemptVerdict(*verdict)


def iter_verdict_batches(
    db: AuditDB, run_ids: Sequence[str] | None = None, *, progress: Progress | None = None
) -> Iterator[list[VerdictTuple]]:
    """Verdicts as lists of plain tuples (:data:`VerdictTuple`), one list per batch read
    (:func:`~.stream.verdict_stream`)."""
    return verdict_stream(db, run_ids, progress=progress)


def rescore(
    db: AuditDB,
    run_ids: Sequence[str] | None = None,
    *,
    on_attempt: Callable[[AttemptVerdict], None] | None = None,
    progress: Progress | None = None,
    exclude_questions: Collection[str] | None = None,
    workers: int | None = None,
    record_check: bool = False,
) -> RescoreResult:
    """Re-derive and score every run (or ``run_ids``); runs ordered as cli.md says.

    Without ``on_attempt``, ``progress`` and ``exclude_questions`` the attempts may be
    scored by ``workers`` processes (None: two for a large file, see
    :func:`~.workers.default_workers`; 1: this one); the result is the same.
    ``record_check``: a passed value check is recorded in the cache, so that the next
    open of the same bytes does not check again (``ai4hse-desk rescore``).

    ``on_attempt`` is given every verdict scored, in attempt_id order;
    ``exclude_questions`` leaves those questions' attempts out of every run (an
    exploration, never the official score).

    Raises:
        AuditError: see :func:`iter_verdicts`; also a value that breaks the schema.
        RescoreCancelled: ``progress`` returned False.
    """
    alone = on_attempt is None and progress is None and exclude_questions is None
    split = rescore_in_processes(db, run_ids, workers, record_check) if alone else None
    if split is not None:
        return split
    scoring = official(db, selected_runs(db, run_ids), exclude_questions or ())
    stream = verdict_stream(db, run_ids, progress=progress, record=record_check)
    if on_attempt is not None:
        stream = _each(stream, on_attempt, scoring.left_out)
    with collector_paused():  # (see .collector)
        score_batches(stream, [scoring])
    return run_results(db, scoring.scorers)


def _each(
    batches: Iterator[list[VerdictTuple]],
    on_attempt: Callable[[AttemptVerdict], None],
    left_out: frozenset[str],
) -> Iterator[list[VerdictTuple]]:
    """``batches``, each scored verdict handed to ``on_attempt`` first."""
    for batch in batches:
        for verdict in batch:
            if verdict[2] not in left_out:
                on_attempt(AttemptVerdict(*verdict))
        yield batch


__all__ = [
    "MEMO_MAX_ENTRIES",
    "MEMO_MAX_TEXT",
    "AttemptVerdict",
    "Progress",
    "RescoreCancelled",
    "RescoreResult",
    "VerdictTuple",
    "iter_verdict_batches",
    "iter_verdicts",
    "rescore",
    "run_objects",
    "run_results",
    "selected_runs",
]
