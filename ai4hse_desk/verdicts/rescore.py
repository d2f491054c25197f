"""Re-derive every attempt of an audit database with the protocol and score each run.

This is the hot path of ``ai4hse-desk rescore`` and of the window's verdict
cache. The per-attempt loop (the memo, the comparison with the recorded
verdict, the tallies) is :mod:`.verdict_loop`; this module selects the runs,
wraps the loop (a failure the data explains is reported as the data's error),
may split a large file over processes (:mod:`.parallel`) and turns the filled
scorers into cli.md's run objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ai4hse_desk.audit.errors import AuditError
from ai4hse_desk.progress import Progress
from ai4hse_desk.protocol.metrics import RunInfo, RunScorer, order_runs
from ai4hse_desk.verdicts.attempt_verdict import AttemptVerdict, VerdictTuple
from ai4hse_desk.verdicts.verdict_loop import (
    MEMO_MAX_ENTRIES,
    MEMO_MAX_TEXT,
    RescoreCancelled,
    verdict_loop,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Collection, Iterator, Sequence

    from ai4hse_desk.audit.queries import AuditDB


@dataclass(frozen=True, slots=True)
class RescoreResult:
    """Ordered run objects (cli.md) of one rescore.

    Attributes:
        runs: the run objects, in cli.md's order.
        attempts: attempts scored.
        workers: the worker processes that scored them (0: this process did);
            not compared, since the figures are the same either way.
    """

    runs: list[dict[str, object]]
    attempts: int
    workers: int = field(default=0, compare=False)


def selected_runs(db: AuditDB, run_ids: Sequence[str] | None) -> dict[str, RunInfo]:
    """Every run (or ``run_ids``, each once) as :class:`RunInfo`; ``AuditError`` if unknown."""
    runs = {run.run_id: run for run in db.runs()}
    wanted = list(runs) if run_ids is None else list(dict.fromkeys(run_ids))
    for run_id in wanted:
        if run_id not in runs:
            raise AuditError(f"unknown run: {run_id}")
    return {
        run_id: RunInfo(
            run_id=run_id,
            model=runs[run_id].model,
            track=runs[run_id].track,
            protocol_version=runs[run_id].protocol_version,
            status=runs[run_id].status,
        )
        for run_id in wanted
    }


def _verdict_batches(
    db: AuditDB,
    runs: dict[str, RunInfo],
    run_ids: Sequence[str] | None,
    scorers: dict[str, RunScorer] | None,
    collect: bool,
    progress: Progress | None,
    id_range: tuple[int, int] | None = None,
    exclude_questions: Collection[str] | None = None,
    check: bool = True,
) -> Iterator[list[VerdictTuple]]:
    """The rescore loop: one list of verdict tuples per batch of attempts read.

    With ``collect`` False the lists stay empty and only ``scorers`` are fed:
    that is the benchmarked fast path of ``rescore``. Attempts of the questions
    in ``exclude_questions`` are skipped (neither scored nor collected). With
    ``check`` the attempts' values are checked beside the scan (see
    :meth:`AuditDB.iter_rescore_batches`) or, for the whole file on a loaded
    machine, inside it (:mod:`.checked_scan`); a failure the data explains is
    reported as the data's :class:`AuditError`.
    """
    try:
        yield from verdict_loop(
            db, runs, run_ids, scorers, collect, progress, id_range, exclude_questions, check
        )
    except (AuditError, RescoreCancelled):
        raise
    except Exception:
        if check:
            db.check_attempts()
        raise


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
    for batch in _verdict_batches(db, runs, run_ids, scorers, True, progress):
        for verdict in batch:
            yield AttemptVerdict(*verdict)


def iter_verdict_batches(
    db: AuditDB, run_ids: Sequence[str] | None = None, *, progress: Progress | None = None
) -> Iterator[list[VerdictTuple]]:
    """Verdicts as lists of plain tuples (:data:`VerdictTuple`), one list per batch read."""
    return _verdict_batches(db, selected_runs(db, run_ids), run_ids, None, True, progress)


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
        batches = _verdict_batches(
            db, runs, run_ids, scorers, collect, progress, exclude_questions=exclude_questions
        )
        for batch in batches:
            if on_attempt is not None:
                for verdict in batch:
                    on_attempt(AttemptVerdict(*verdict))
    except BaseException:
        side.join(quiet=True)
        raise
    side.join()
    return run_results(db, scorers)


def score_range(
    db: AuditDB,
    runs: dict[str, RunInfo],
    run_ids: Sequence[str] | None,
    id_range: tuple[int, int],
    *,
    check: bool = False,
) -> dict[str, RunScorer]:
    """Score only the attempts whose id lies in ``id_range`` (one worker's share).

    Without ``check`` the values are not checked here: the parent process checks
    them while its workers score (see :mod:`.parallel`). With it (every run only)
    the share's own rows are checked inside its scan, and the checks beyond single
    rows are the caller's (:func:`~.checked_scan.check_links`).
    """
    scorers = {run_id: RunScorer(info) for run_id, info in runs.items()}
    for _ in _verdict_batches(db, runs, run_ids, scorers, False, None, id_range, check=check):
        pass
    return scorers


def run_objects(db: AuditDB, scorers: dict[str, RunScorer]) -> list[dict[str, object]]:
    """cli.md's run object of each filled scorer, unordered (labels and facet from ``db``)."""
    labels = db.labels()
    facet = db.meta.get("consistency_facet", "topic")
    return [scorer.result(labels, consistency_facet=facet) for scorer in scorers.values()]


def run_results(db: AuditDB, scorers: dict[str, RunScorer]) -> RescoreResult:
    """The filled ``scorers`` as cli.md's ordered run objects (labels and facet from ``db``)."""
    return RescoreResult(
        runs=order_runs(run_objects(db, scorers)),
        attempts=sum(scorer.attempts for scorer in scorers.values()),
    )


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
