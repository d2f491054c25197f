"""Split one rescore over a few processes by attempt id (the CLI's fast path).

Rescoring is CPU-bound Python; the machine the desk targets has two cores. When
the platform can ``fork`` and the process runs a single thread (the headless
command, never the window), each worker inherits the open, read-only audit
database, drops the inherited connection pool, scores one slice of attempt ids
and sends its per-run counts back; the parent merges them. The merged result
equals the serial one exactly (integer counts only).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
from typing import TYPE_CHECKING

from ai4hse_desk.audit.errors import AuditError

if TYPE_CHECKING:
    from collections.abc import Sequence
    from multiprocessing.connection import Connection

    from ai4hse_desk.audit.queries import AuditDB
    from ai4hse_desk.protocol.metrics import RunInfo, RunScorer

#: Below this many attempts one process is faster than starting workers.
PARALLEL_MIN_ATTEMPTS = 200_000


def _worker(
    db: AuditDB,
    runs: dict[str, RunInfo],
    run_ids: Sequence[str] | None,
    id_range: tuple[int, int],
    pipe: Connection,
) -> None:
    from ai4hse_desk.verdicts.rescore import score_range

    db.pool.dispose(close=False)  # never touch the parent's connections
    try:
        pipe.send(("ok", score_range(db, runs, run_ids, id_range)))
    except AuditError as exc:
        pipe.send(("error", str(exc)))
    except Exception as exc:  # noqa: BLE001 - any crash goes to the parent, never a worker traceback
        pipe.send(("crash", f"{type(exc).__name__}: {exc}"))
    finally:
        pipe.close()


def _default_workers() -> int:
    return min(2, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)


def score_in_parallel(
    db: AuditDB,
    runs: dict[str, RunInfo],
    run_ids: Sequence[str] | None,
    scorers: dict[str, RunScorer],
    workers: int | None = None,
    min_attempts: int = PARALLEL_MIN_ATTEMPTS,
) -> bool:
    """Fill ``scorers`` using worker processes; False (nothing done) when not worth it.

    Raises:
        AuditError: a value breaks the schema (checked here while the workers
            score), or a worker met a problem in the data (as the serial path would).
    """
    count = _default_workers() if workers is None else workers
    bounds = db.attempt_id_bounds()
    if (
        count < 2
        or bounds is None
        or "fork" not in multiprocessing.get_all_start_methods()
        or threading.active_count() > 1
        or bounds[1] - bounds[0] + 1 < min_attempts
    ):
        return False
    low, high = bounds
    step = (high - low + count) // count
    ranges = [(start, min(high, start + step - 1)) for start in range(low, high + 1, step)]
    db.answer_keys()  # load the questions once, before forking, so workers inherit them
    context = multiprocessing.get_context("fork")
    jobs = []
    for id_range in ranges:
        receive, send = context.Pipe(duplex=False)
        process = context.Process(target=_worker, args=(db, runs, run_ids, id_range, send))
        process.start()
        send.close()
        jobs.append((process, receive))
    results: list[tuple[str, object]] = []
    try:
        db.check_attempts()  # the parent checks the values while its workers score
        for process, receive in jobs:
            try:
                results.append(receive.recv())
            except EOFError:
                results.append(("crash", f"rescore worker {process.pid} stopped unexpectedly"))
    finally:
        for process, receive in jobs:
            receive.close()
            if process.is_alive() and len(results) < len(jobs):
                process.terminate()  # the check failed: their results are not wanted
            process.join()
    for kind, payload in results:
        if kind == "error":
            raise AuditError(str(payload))
        if kind != "ok":
            raise RuntimeError(str(payload))
        assert isinstance(payload, dict)
        for run_id, part in payload.items():
            scorers[run_id].merge(part)
    return True
