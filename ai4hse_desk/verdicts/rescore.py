"""Re-derive every attempt of an audit database with the protocol and score each run.

This is the hot path of ``ai4hse-desk rescore`` and of the window's verdict
cache. The per-attempt loop (the memo, the comparison with the recorded
verdict, the tallies) is :mod:`.verdict_loop`; scoring runs in one process
(the runs asked for, the loop wrapped so that a failure the data explains is
reported as the data's error, cli.md's run objects) is :mod:`.run_scores`; this
module is the entry, and may split a large file over processes
(:mod:`.parallel`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.progress import Progress
from ai4hse_desk.protocol.metrics import RunScorer
from ai4hse_desk.verdicts.attempt_verdict import AttemptVerdict, VerdictTuple
from ai4hse_desk.verdicts.run_scores import (
    RescoreResult,
    run_objects,
    run_results,
    score_range,
    selected_runs,
    verdict_batches,
)
from ai4hse_desk.verdicts.verdict_loop import MEMO_MAX_ENTRIES, MEMO_MAX_TEXT, RescoreCancelled

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterator, Sequence

    from ai4hse_desk.audit.queries import AuditDB


def iter_verdicts(
    db: AuditDB,
    run_ids: Sequence[str] | None = None,
    *,
    progress: Progress | None = None,
    scorers: dict[str, RunScorer] | None = None,
) -> Iterator[AttemptVerdict]:
    """Yield the desk's verdict on every attempt (of ``run_ids``) in attempt_id order.

    When ``scorers`` is given, each attempt is also added to its run's scorer.

    Raises:
        AuditError: an unknown run, or an attempt whose question or run is not
            in the database, or a question without options.
        RescoreCancelled: ``progress`` returned False.
    """
    runs = selected_runs(db, run_ids)
    for batch in verdict_batches(db, runs, run_ids, scorers, True, progress):
        for verdict in batch:
            yield AttemptVerdict(*verdict)


def iter_verdict_batches(
    db: AuditDB, run_ids: Sequence[str] | None = None, *, progress: Progress | None = None
) -> Iterator[list[VerdictTuple]]:
    """Verdicts as lists of plain tuples (:data:`VerdictTuple`), one list per batch read."""
    return verdict_batches(db, selected_runs(db, run_ids), run_ids, None, True, progress)


def rescore(
    db: AuditDB,
    run_ids: Sequence[str] | None = None,
    *,
    on_attempt: Callable[[AttemptVerdict], None] | None = None,
    progress: Progress | None = None,
    workers: int | None = None,
    exclude_questions: Collection[str] | None = None,
    beside: Callable[[], object] | None = None,
) -> RescoreResult:
    """Re-derive and score every run (or ``run_ids``); runs ordered as cli.md says.

    Without ``on_attempt``, ``progress`` and ``exclude_questions``, a large
    database may be split by attempt id over ``workers`` processes (default:
    two only when the database is large and a core is idle for the second, see
    :mod:`.parallel`; else one process); the result is the same.
    ``exclude_questions`` leaves those questions' attempts out of every run (an
    exploration, never the official score). ``beside`` (e.g. the file's
    sha256) runs on a thread during the scan and is waited for before the
    result is returned; what it raises is raised here.
    """
    from ai4hse_desk.verdicts.collector import collector_paused
    from ai4hse_desk.verdicts.parallel import Beside, rescore_in_parallel

    runs = selected_runs(db, run_ids)
    side = Beside(beside)
    try:
        alone = on_attempt is None and progress is None and exclude_questions is None
        split = rescore_in_parallel(db, runs, run_ids, workers, beside=side) if alone else None
        if split is not None:
            side.join()
            return split
        scorers = {run_id: RunScorer(info) for run_id, info in runs.items()}
        side.start()
        collect = on_attempt is not None
        batches = verdict_batches(
            db, runs, run_ids, scorers, collect, progress, exclude_questions=exclude_questions
        )
        with collector_paused():
            for batch in batches:
                if on_attempt is not None:
                    for verdict in batch:
                        on_attempt(AttemptVerdict(*verdict))
    except BaseException:
        side.join(quiet=True)
        raise
    side.join()
    return run_results(db, scorers)


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
    "score_range",
    "selected_runs",
]
