"""A large file's rescore over worker processes, each scoring one range of attempt ids.

Deriving every attempt is CPU-bound Python. For a file of at least
:data:`PARALLEL_MIN_ATTEMPTS` attempts (by its attempt-id span) ``rescore`` uses two
processes on a machine with two usable CPUs or more; ``ai4hse-desk rescore --workers
N`` sets the number (1: one process). Nothing else decides: not the machine's load.

One :class:`concurrent.futures.ProcessPoolExecutor` (``fork``: the workers inherit the
open, read-only audit database and drop its connections) scores the id ranges, each
with the one verdict stream (:func:`~.stream.verdict_stream`) and the one scoring
(:mod:`.scoring`); this process checks the file's values meanwhile and adds the
workers' counts (integers: the result equals one process's). Only a process that runs
a single thread forks (the headless command, never the window); elsewhere, and where
the platform cannot fork, the rescore stays in one process.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING

from ai4hse_desk.audit.errors import AuditError
from ai4hse_desk.verdicts.collector import collector_paused
from ai4hse_desk.verdicts.scoring import official, score_batches, selected_runs
from ai4hse_desk.verdicts.stream import verdict_stream

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ai4hse_desk.audit.queries import AuditDB
    from ai4hse_desk.protocol.metrics import RunScorer

#: Smallest attempt-id span split over two processes by default.
PARALLEL_MIN_ATTEMPTS = 300_000

#: The database the forked workers read (set only while a pool is made).
_shared: list[AuditDB] = []


def usable_cpus() -> int:
    """CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def default_workers(span: int) -> int:
    """Processes for a file whose attempt ids span ``span``: 2 for a large file on a
    machine with two usable CPUs or more, else 1."""
    return 2 if span >= PARALLEL_MIN_ATTEMPTS and usable_cpus() >= 2 else 1


def _drop_connections() -> None:
    """In a new worker: never touch the parent's connections (new ones are opened)."""
    _shared[0].pool.dispose(close=False)


def _score_range(
    run_ids: Sequence[str] | None, id_range: tuple[int, int]
) -> tuple[str, dict[str, RunScorer] | str]:
    """One worker's share: ("ok", the filled scorers) or ("error", the data's problem)."""
    db = _shared[0]
    try:
        scoring = official(db, selected_runs(db, run_ids))
        with collector_paused():  # (see .collector)
            score_batches(verdict_stream(db, run_ids, id_range=id_range), [scoring])
    except AuditError as exc:
        return "error", str(exc)
    return "ok", {run_id: scorer for run_id, scorer in scoring.scorers.items() if scorer.attempts}


def score_in_processes(
    db: AuditDB,
    scorers: dict[str, RunScorer],
    run_ids: Sequence[str] | None,
    workers: int | None,
    record_check: bool = False,
) -> bool:
    """Fill ``scorers`` from worker processes; False (nothing done) when one process it is.

    ``workers`` None chooses by the file's size (:func:`default_workers`);
    ``record_check``: record the passed value check in the cache.

    Raises:
        AuditError: a value breaks the schema (this process's check), or a worker met a
            problem in the data (as one process would).
    """
    bounds = db.attempt_id_bounds()
    if bounds is None:
        return False
    low, high = bounds
    count = default_workers(high - low + 1) if workers is None else workers
    if count < 2 or threading.active_count() > 1:
        return False
    import multiprocessing  # (not at the window's start)
    from concurrent.futures import ProcessPoolExecutor

    if "fork" not in multiprocessing.get_all_start_methods():
        return False
    step = (high - low + count) // count
    ranges = [(start, min(high, start + step - 1)) for start in range(low, high + 1, step)]
    db.answer_keys()  # read once, inherited by the workers
    db.labels()
    _shared[:] = [db]
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(
            len(ranges), mp_context=context, initializer=_drop_connections
        ) as pool:
            shares = [pool.submit(_score_range, run_ids, id_range) for id_range in ranges]
            try:
                db.check_attempts()  # the whole file, while the workers score
                results = [share.result() for share in shares]
            except BaseException:
                for share in shares:
                    share.cancel()
                raise
    except AuditError:
        raise
    except Exception:
        db.check_attempts()  # a value that breaks the schema explains a worker's failure
        raise
    finally:
        _shared.clear()
    for kind, payload in results:
        if isinstance(payload, str):
            raise AuditError(payload, db.path)
        assert kind == "ok"
        for run_id, part in payload.items():
            scorers[run_id].merge(part)
    db.verify_unchanged()
    if record_check:
        db.record_attempts_check()
    return True


__all__ = ["PARALLEL_MIN_ATTEMPTS", "default_workers", "score_in_processes", "usable_cpus"]
