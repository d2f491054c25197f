"""Split one rescore over a few processes by attempt id, when more really help.

Rescoring is CPU-bound Python beside SQLite's own work (the scan, and the value
check). Worker processes only pay off when a core is idle for the second one, and
they take CPU time from other work on a busy machine. So :func:`default_workers`
asks for two workers only when the database is large
(:data:`PARALLEL_MIN_ATTEMPTS`) and the CPUs busy now leave
:data:`IDLE_CORES_NEEDED` cores idle; otherwise the rescore runs in one process.

When the platform can ``fork`` and the process runs a single thread (the
headless command, never the window), each worker inherits the open, read-only
audit database, drops the inherited connection pool and scores one slice of
attempt ids (:mod:`.worker_share`). It sends back the run objects of the runs
that lie wholly in its slice and the counts of the others, which the parent
merges. For every run (no run filter) on a file whose ``attempt_id`` is its
rowid, each worker also checks its own rows' values (and the runs and questions
they refer to) inside its scan, and the parent runs only the uniqueness checks;
otherwise the parent checks
every attempt while its workers score. The result equals the serial one exactly
(integer counts, added in the same order).

:class:`Beside` runs one more job (the file's sha256) on a thread next to the
scan, started after any fork; hashlib and ``os.pread`` release the GIL.
"""

from __future__ import annotations

import multiprocessing
import threading
from typing import TYPE_CHECKING

from ai4hse_desk.audit.errors import AuditError
from ai4hse_desk.verdicts import machine

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from multiprocessing.connection import Connection

    from ai4hse_desk.audit.queries import AuditDB
    from ai4hse_desk.protocol.metrics import RunInfo, RunScorer
    from ai4hse_desk.verdicts.run_scores import RescoreResult

#: Smallest database split over workers. Measured on the 2-core machine (issue 16):
#: with both CPUs idle, two workers took 0.56x the time of one process on 320,000
#: single-choice attempts and 0.62-0.68x on 1,000,000.
PARALLEL_MIN_ATTEMPTS = 300_000
#: Idle cores (CPUs this process may use minus those busy now) two workers need: one
#: for the second worker. When the parent still read the whole table again for the
#: value check (three busy threads), two workers under a load of 2.5-4 took 1.16-1.24x
#: the time of one process. Since the workers check their own rows and finish their
#: runs (:mod:`.worker_share`), with one core kept busy by another program two
#: workers took 0.74x the time of one on the realistic 1M file; with both kept busy
#: also 0.74x (320,000 single-choice attempts), but then the second worker's time is
#: taken from the other work, so one process is used.
IDLE_CORES_NEEDED = 1.0


class Beside:
    """A job run on a thread next to the scan; :meth:`join` re-raises what it raised.

    A ``None`` job does nothing (no thread).
    """

    def __init__(self, job: Callable[[], object] | None) -> None:
        self._job = job
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    def start(self) -> None:
        """Begin the job on a daemon thread (once)."""
        if self._thread is None and self._job is not None:
            self._thread = threading.Thread(target=self._run, name="rescore-beside", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        try:
            if self._job is not None:
                self._job()
        except BaseException as exc:  # noqa: BLE001 - handed to the thread that joins
            self._error = exc

    def join(self, *, quiet: bool = False) -> None:
        """Wait for the job and raise its error; ``quiet`` (on the way out of a failure)
        waits but raises nothing, and never starts a job that did not start."""
        if self._thread is not None:
            self._thread.join()
        elif not quiet:
            self._run()
        self._job = self._thread = None
        error, self._error = self._error, None
        if error is not None and not quiet:
            raise error


def _worker(
    db: AuditDB,
    runs: dict[str, RunInfo],
    run_ids: Sequence[str] | None,
    id_range: tuple[int, int],
    fold: bool,
    pipe: Connection,
) -> None:
    from ai4hse_desk.verdicts.worker_share import score_share

    db.pool.dispose(close=False)  # never touch the parent's connections
    try:
        pipe.send(("ok", score_share(db, runs, run_ids, id_range, fold=fold)))
    except AuditError as exc:
        pipe.send(("error", str(exc)))
    except Exception as exc:  # noqa: BLE001 - any crash goes to the parent, never a worker traceback
        pipe.send(("crash", f"{type(exc).__name__}: {exc}"))
    finally:
        pipe.close()


def default_workers(attempts: int, watch: machine.CpuWatch | None = None) -> int:
    """2 for a large database on a machine with idle cores, else 1 (one process);
    ``watch``: the CPUs watched since then (:func:`~.machine.busy_now`)."""
    if attempts < PARALLEL_MIN_ATTEMPTS or machine.usable_cpus() < 2:
        return 1
    return 2 if machine.idle_cores(watch=watch) >= IDLE_CORES_NEEDED else 1


def rescore_in_parallel(
    db: AuditDB,
    runs: dict[str, RunInfo],
    run_ids: Sequence[str] | None,
    workers: int | None = None,
    min_attempts: int | None = None,
    beside: Beside | None = None,
) -> RescoreResult | None:
    """The rescore of ``runs`` by worker processes; None (nothing done) when not worth it.

    ``workers`` None chooses with :func:`default_workers`; with a number, any
    database of at least ``min_attempts`` (default :data:`PARALLEL_MIN_ATTEMPTS`)
    attempts is split. ``beside`` is started once the workers run (the caller
    joins it).

    Raises:
        AuditError: a value breaks the schema (checked by the workers in their
            scans, or by the parent while they score), or a worker met a problem
            in the data (as the serial path would).
    """
    from ai4hse_desk.protocol.metrics import RunScorer, order_runs
    from ai4hse_desk.verdicts.run_scores import RescoreResult, run_objects

    # The CPUs are watched while the answer keys and labels are read (the one-process
    # rescore reads them too; workers inherit them): no sleep through the sample.
    watch = machine.CpuWatch() if workers is None else None
    db.answer_keys()
    db.labels()  # (the run objects need them)
    plan = _plan(db, workers, min_attempts, watch)
    if plan is None:
        return None
    (low, high), count = plan
    step = (high - low + count) // count
    ranges = [(start, min(high, start + step - 1)) for start in range(low, high + 1, step)]
    fold = run_ids is None and attempt_id_is_rowid(db)
    context = multiprocessing.get_context("fork")
    jobs: list[tuple[multiprocessing.process.BaseProcess, Connection]] = []
    scorers = {run_id: RunScorer(info) for run_id, info in runs.items()}
    finished: list[dict[str, object]] = []
    received = 0
    try:
        for id_range in ranges:
            jobs.append(_start(context, (db, runs, run_ids, id_range, fold)))
        if beside is not None:
            beside.start()
        links = _parent_check(db, fold)
        for process, receive in jobs:
            try:
                result = receive.recv()
            except EOFError:
                result = ("crash", f"rescore worker {process.pid} stopped unexpectedly")
            received += 1
            # Counted in as it comes, while the later workers finish; a problem raises.
            _merge(result, scorers, finished)
        if links is not None:
            raise links
    finally:
        for process, receive in jobs:
            receive.close()
            if process.is_alive() and received < len(jobs):
                process.terminate()  # a check or a worker failed: their results are not wanted
            process.join()
    if fold:
        db.verify_unchanged()
        db.attempts_checked()  # every row in a worker's scan, the rest here
    done = {str(run["run_id"]) for run in finished}
    objects = [*finished, *run_objects(db, {r: s for r, s in scorers.items() if r not in done})]
    return RescoreResult(
        runs=order_runs(objects),
        attempts=sum(_count(run["attempts"]) for run in objects),
        workers=len(jobs),
    )


def _start(
    context: multiprocessing.context.ForkContext, args: tuple[object, ...]
) -> tuple[multiprocessing.process.BaseProcess, Connection]:
    """One started worker and the end of its pipe the parent reads."""
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_worker, args=(*args, send))
    try:
        process.start()
    except BaseException:
        receive.close()
        raise
    finally:
        send.close()
    return process, receive


def _parent_check(db: AuditDB, fold: bool) -> AuditError | None:
    """The parent's part of the value check, while its workers score: with ``fold`` only
    the uniqueness checks, whose problem is returned (a bad value a worker
    finds is named first, as in one process); else every attempt (raises)."""
    if not fold:
        db.check_attempts()
        return None
    from ai4hse_desk.verdicts.checked_scan import check_ids_unique

    try:
        check_ids_unique(db)
    except AuditError as exc:
        return exc
    return None


def _count(value: object) -> int:
    assert isinstance(value, int)
    return value


def attempt_id_is_rowid(db: AuditDB) -> bool:
    """True if ``attempt_id`` is the rowid (never NULL, always an integer): then the
    workers' slices of the id bounds hold every attempt."""
    from ai4hse_desk.audit.value_check import is_rowid_alias

    with db.raw_connection() as conn:
        return is_rowid_alias(conn, "attempts", "attempt_id")


def _plan(
    db: AuditDB, workers: int | None, min_attempts: int | None, watch: machine.CpuWatch | None
) -> tuple[tuple[int, int], int] | None:
    """(attempt id bounds, number of workers), or None to stay in one process."""
    bounds = db.attempt_id_bounds()
    if bounds is None:
        return None
    span = bounds[1] - bounds[0] + 1
    count = default_workers(span, watch) if workers is None else workers
    if (
        count < 2
        or "fork" not in multiprocessing.get_all_start_methods()
        or threading.active_count() > 1
        or span < (PARALLEL_MIN_ATTEMPTS if min_attempts is None else min_attempts)
    ):
        return None
    return bounds, count


def _merge(
    result: tuple[str, object], scorers: dict[str, RunScorer], finished: list[dict[str, object]]
) -> None:
    """Add one worker's share: its finished run objects to ``finished``, its other
    runs' counts into ``scorers``; raise the worker's problem."""
    kind, payload = result
    if kind == "error":
        raise AuditError(str(payload))
    if kind != "ok":
        raise RuntimeError(str(payload))
    assert isinstance(payload, tuple)
    done, rest = payload
    finished.extend(done)
    for run_id, part in rest.items():
        scorers[run_id].merge(part)
