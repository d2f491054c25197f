"""A large file's rescore over worker processes, each scoring one range of attempt ids.

Deriving every attempt is CPU-bound Python. For a file of at least
:data:`PARALLEL_MIN_ATTEMPTS` attempts (by its attempt-id span) ``rescore`` uses two
processes on a machine with two usable CPUs or more; ``ai4hse-desk rescore --workers
N`` sets the number (1: one process). Nothing else decides: not the machine's load.

One :class:`concurrent.futures.ProcessPoolExecutor` (``fork``: the workers inherit the
open, read-only audit database and drop its connections) scores the id ranges, each
with the one verdict stream (:func:`~.stream.verdict_stream`) and the one scoring
(:mod:`.scoring`); this process checks the file's values meanwhile. A worker turns
the runs that lie wholly in its range into their run objects itself (the runs' id
spans are read first, from the index ``UNIQUE (run_id, …)`` gives the table), and
hands back the counts of the others, which this process adds (integers: the result
equals one process's). Only a process that runs a single thread forks (the headless
command, never the window); elsewhere, and where the platform cannot fork, the
rescore stays in one process.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING

from ai4hse_desk.audit.errors import AuditError, file_problems_as_audit_errors
from ai4hse_desk.protocol.metrics import order_runs
from ai4hse_desk.verdicts.collector import collector_paused
from ai4hse_desk.verdicts.scoring import (
    RescoreResult,
    official,
    run_objects,
    score_batches,
    selected_runs,
)
from ai4hse_desk.verdicts.stream import verdict_stream

if TYPE_CHECKING:
    from collections.abc import Collection, Sequence

    from ai4hse_desk.audit.queries import AuditDB
    from ai4hse_desk.protocol.metrics import RunScorer

#: Smallest attempt-id span split over two processes by default.
PARALLEL_MIN_ATTEMPTS = 300_000

#: The database the forked workers read (set only while a pool is made).
_shared: list[AuditDB] = []
#: Each run's smallest and largest attempt id (a walk of the run_id index).
_SPANS = "SELECT run_id, min(attempt_id), max(attempt_id) FROM attempts GROUP BY run_id"
#: What a worker hands back: the run objects of the runs wholly in its range, and the
#: counts of the others.
Share = tuple[list[dict[str, object]], dict[str, "RunScorer"]]


def usable_cpus() -> int:
    """CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def default_workers(span: int) -> int:
    """Processes for a file whose attempt ids span ``span``: 2 for a large file on a
    machine with two usable CPUs or more, else 1."""
    return 2 if span >= PARALLEL_MIN_ATTEMPTS and usable_cpus() >= 2 else 1


def id_ranges(low: int, high: int, count: int) -> list[tuple[int, int]]:
    """``low``..``high`` (inclusive) cut into at most ``count`` ranges of equal span, in order."""
    step = (high - low + count) // count
    return [(start, min(high, start + step - 1)) for start in range(low, high + 1, step)]


def _drop_connections() -> None:
    """In a new worker: never touch the parent's connections (new ones are opened)."""
    _shared[0].pool.dispose(close=False)


def _score_range(
    run_ids: Sequence[str] | None, id_range: tuple[int, int], inside: Collection[str]
) -> tuple[str, Share | str]:
    """One worker's share: ("ok", its :data:`Share`) or ("error", the data's problem);
    ``inside``: the runs that lie wholly in ``id_range``."""
    db = _shared[0]
    try:
        scoring = official(db, selected_runs(db, run_ids))
        with collector_paused():  # (see .collector)
            score_batches(verdict_stream(db, run_ids, id_range=id_range), [scoring])
        seen = {run_id: scorer for run_id, scorer in scoring.scorers.items() if scorer.attempts}
        done = run_objects(db, {run_id: seen[run_id] for run_id in seen if run_id in inside})
    except AuditError as exc:
        return "error", str(exc)
    return "ok", (done, {run_id: seen[run_id] for run_id in seen if run_id not in inside})


def rescore_in_processes(
    db: AuditDB, run_ids: Sequence[str] | None, workers: int | None, record_check: bool = False
) -> RescoreResult | None:
    """The rescore of ``run_ids`` (None: every run) by worker processes; None (nothing
    done) when one process it is.

    ``workers`` None chooses by the file's size (:func:`default_workers`);
    ``record_check``: record the passed value check in the cache.

    Raises:
        AuditError: a value breaks the schema (this process's check), or a worker met a
            problem in the data (as one process would).
    """
    bounds = db.attempt_id_bounds()
    if bounds is None:
        return None
    low, high = bounds
    count = default_workers(high - low + 1) if workers is None else workers
    if count < 2 or threading.active_count() > 1:
        return None
    import multiprocessing  # (not at the window's start)
    from concurrent.futures import ProcessPoolExecutor

    if "fork" not in multiprocessing.get_all_start_methods():
        return None
    ranges = id_ranges(low, high, count)
    scorers = official(db, selected_runs(db, run_ids)).scorers  # (its keys: the workers')
    db.labels()  # read once, inherited by the workers
    with file_problems_as_audit_errors(db.path), db.raw_connection() as conn:
        spans = conn.execute(_SPANS).fetchall()
    inside = [
        {str(run) for run, first, last in spans if start <= first and last <= end}
        for start, end in ranges
    ]
    _shared[:] = [db]
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(
            len(ranges), mp_context=context, initializer=_drop_connections
        ) as pool:
            shares = [
                pool.submit(_score_range, run_ids, id_range, runs)
                for id_range, runs in zip(ranges, inside, strict=True)
            ]
            try:
                # The whole file, while the workers score; waited for before any result,
                # so a bad value is named rather than a worker's failure it caused.
                db.check_attempts()
                results = [share.result() for share in shares]
            except BaseException:
                for pending in shares:
                    pending.cancel()
                raise
    finally:
        _shared.clear()
    finished: list[dict[str, object]] = []
    for _, given in results:
        if isinstance(given, str):
            raise AuditError(given, db.path)
        done, rest = given
        finished.extend(done)
        for run_id, part in rest.items():
            scorers[run_id].merge(part)
    db.verify_unchanged()
    if record_check:
        db.record_attempts_check()
    ended = {str(run["run_id"]) for run in finished}
    objects = [*finished, *run_objects(db, {r: s for r, s in scorers.items() if r not in ended})]
    return RescoreResult(order_runs(objects), sum(_attempts(run) for run in objects))


def _attempts(run: dict[str, object]) -> int:
    attempts = run["attempts"]
    assert isinstance(attempts, int)
    return attempts


__all__ = [
    "PARALLEL_MIN_ATTEMPTS",
    "default_workers",
    "id_ranges",
    "rescore_in_processes",
    "usable_cpus",
]
