"""Scoring runs in one process: the runs asked for, the verdict loop feeding their
scorers (over the whole file or one slice of attempt ids), and cli.md's run objects.

:mod:`.rescore` (the public entry) and the two-process split (:mod:`.parallel`,
whose workers score their shares with :func:`score_range`) build on it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ai4hse_desk.audit.errors import AuditError
from ai4hse_desk.protocol.metrics import RunInfo, RunScorer, order_runs
from ai4hse_desk.verdicts.collector import collector_paused
from ai4hse_desk.verdicts.verdict_loop import RescoreCancelled, verdict_loop

if TYPE_CHECKING:
    from collections.abc import Collection, Iterator, Sequence

    from ai4hse_desk.audit.queries import AuditDB
    from ai4hse_desk.progress import Progress
    from ai4hse_desk.verdicts.attempt_verdict import VerdictTuple


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


def verdict_batches(
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
    the share's own rows are checked inside its scan, and the uniqueness checks are
    the caller's (:func:`~.checked_scan.check_ids_unique`).
    """
    scorers = {run_id: RunScorer(info) for run_id, info in runs.items()}
    with collector_paused():  # (see .collector)
        for _ in verdict_batches(db, runs, run_ids, scorers, False, None, id_range, check=check):
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
