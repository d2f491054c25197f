"""Stage 1 by two processes: the upper part of the attempts derived by a worker process.

Deriving the verdicts is single-threaded Python: 6-8 s of a 1M-attempt file's build,
beside the 12 indexes and ``ANALYZE`` that SQLite makes afterwards (about 5 s, as for
the SQL-only floor). On a large file with a core idle (the rule of the two-process
rescore, :mod:`~ai4hse_desk.verdicts.parallel`), the build splits the attempt ids: this
process derives and inserts the lower part into the index file being built, while a
worker process derives the upper part (:data:`WORKER_SHARE`) into a part file of its
own. The worker is a new interpreter running :mod:`.build_worker` by name: not a fork
(the window builds on a worker thread, where forking is unsafe), nor a
``multiprocessing`` spawn, which imports the parent's ``__main__`` again (a script
without a ``__main__`` guard would start over in the worker, and wait on its own
window). Each checks its own rows' values inside its scan
(:mod:`~ai4hse_desk.verdicts.checked_scan`: values, and the runs, questions and
repetitions they refer to); the uniqueness checks run on a thread beside this
process's scan,
and once both parts are derived this process appends the worker's rows (one
``INSERT … SELECT``, the records copied as they are: each reason sentence's id is a
function of the sentence, the same in both processes; renumbered only should two
sentences' ids collide) and checks that the file is unchanged. The index is the one the
one-process build writes, row for row.
Measured on the realistic 1M file (issue 16, three interleaved pairs): 11.9-13.8 s
against 14.5-15.4 s for one process.

Progress counts both parts (the worker reports its count after every batch);
cancelling ends the worker. A problem the worker meets is raised here as the data's
:class:`AuditError`, after any problem of the lower part, as one pass would meet them;
should the worker not start or crash, this process derives its part too (slower, never
a failed build). A frozen bundle, which cannot run ``python -m``, builds in one process.
The part file is a temporary file of the guarded writer beside the index, never
published.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ai4hse_desk
from ai4hse_desk.audit.errors import AuditError
from ai4hse_desk.filewrite import StagedFile
from ai4hse_desk.index.build_rows import insert_rows
from ai4hse_desk.verdicts import machine
from ai4hse_desk.verdicts.parallel import IDLE_CORES_NEEDED, Beside, attempt_id_is_rowid

if TYPE_CHECKING:
    import sqlite3
    from typing import IO

    from ai4hse_desk.audit import AuditDB
    from ai4hse_desk.index.build_rows import ReasonIds
    from ai4hse_desk.progress import Progress

#: Smallest file (span of attempt ids) whose build is split when the machine decides.
SPLIT_MIN_ATTEMPTS = 300_000
#: The worker's share of the attempt ids (the upper part). It starts 0.16 s later (a new
#: interpreter, the audit file opened again). It derived more slowly while it ran with
#: the cyclic garbage collector on (6.1 s against this process's 5.0 s for 500,000
#: realistic attempts, both at once on the 2-CPU machine: 0.45 then); with the collector
#: paused in both, as :mod:`~ai4hse_desk.verdicts.collector` does, 450,000 attempts took
#: it 3.0 s and this process 550,000 3.9 s (it ended 0.9 s before this one): half each.
WORKER_SHARE = 0.5
#: How often (seconds) this process looks at its worker while it waits for it.
_POLL_SECONDS = 0.1
#: The worker's rows as they are, when its reason ids are this process's (SQLite copies
#: the records without decoding them: 0.14 s for 450,000 realistic rows, against 0.27 s
#: for the renumbering below).
_APPEND_AS_IS = "INSERT INTO main.rows SELECT * FROM part.rows"
#: The worker's rows with its reason ids renumbered (a collision of two sentences' ids).
_APPEND = """
INSERT INTO main.rows SELECT p.attempt_id, p.ordinal, p.question_id, p.run_id, p.model,
    p.track, p.repetition, p.state, p.status, p.correct, p.strict, p.disagrees,
    p.recorded_status, p.selection,
    (SELECT m.new FROM temp.reason_map AS m WHERE m.old = p.reason_id)
FROM part.rows AS p ORDER BY p.attempt_id
"""


def split_ranges(db: AuditDB, split: bool | None) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """The (lower, upper) halves of the attempt ids when the build is split, else ``None``.

    Args:
        split: ``None`` lets the machine decide (a large file and an idle core);
            True splits any file of two or more attempt ids, False never.
    """
    if split is False:
        return None
    bounds = db.attempt_id_bounds()
    if bounds is None or bounds[1] <= bounds[0]:
        return None
    low, high = bounds
    if split is None and (
        high - low + 1 < SPLIT_MIN_ATTEMPTS
        or machine.usable_cpus() < 2
        or machine.idle_cores() < IDLE_CORES_NEEDED
    ):
        return None
    if getattr(sys, "frozen", False) or not attempt_id_is_rowid(db):
        # (a frozen bundle runs no ``python -m``; without the rowid, slices of ids
        # might not hold every attempt)
        return None
    middle = high - int((high - low) * WORKER_SHARE)
    return (low, middle), (middle + 1, high)


class _Worker:
    """The worker process (:mod:`.build_worker`) and what it said so far.

    A thread reads its lines as they come: the attempts it has done, then its answer.
    """

    def __init__(self, source: Path, part: Path, id_range: tuple[int, int]) -> None:
        self.done = 0
        self._answer: tuple[str, Any] | None = None
        self._ended = threading.Event()
        package_root = str(Path(ai4hse_desk.__file__).resolve().parent.parent)
        path = os.environ.get("PYTHONPATH")
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (package_root, path)))}
        argv = [sys.executable, "-m", "ai4hse_desk.index.build_worker",
                str(source), str(part), *map(str, id_range)]  # fmt: skip
        self.process = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, env=env, text=True,
        )  # fmt: skip
        assert self.process.stdout is not None
        self._reader = threading.Thread(
            target=self._read, args=(self.process.stdout,), name="index-worker", daemon=True
        )
        self._reader.start()

    def _read(self, lines: IO[str]) -> None:
        try:
            for line in lines:
                kind, _, value = line.partition(" ")
                try:
                    payload = json.loads(value)
                except ValueError:
                    continue  # not a line of the worker's
                if kind == "done" and isinstance(payload, int):
                    self.done = payload
                elif kind in ("ok", "error", "crash"):
                    self._answer = (kind, payload)
        finally:
            self._ended.set()

    def result(self, waiting: Progress | None) -> tuple[str, Any]:
        """Wait for the worker's answer, calling ``waiting()`` meanwhile (False: stop)."""
        while not self._ended.wait(_POLL_SECONDS):
            if waiting is not None and not waiting(0, 0):
                return ("cancelled", "")
        if self._answer is None:
            code = self.process.wait()
            return ("crash", f"the index worker stopped without an answer (exit status {code})")
        return self._answer

    def end(self) -> None:
        """Stop the worker if it still runs, and wait for it (it writes only its part)."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(2.0)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._reader.join()
        if self.process.stdout is not None:
            self.process.stdout.close()


def insert_split(
    conn: sqlite3.Connection,
    db: AuditDB,
    target: Path,
    ranges: tuple[tuple[int, int], tuple[int, int]],
    ordinals: dict[str, int],
    reasons: ReasonIds,
    progress: Progress | None,
) -> tuple[int, int]:
    """Insert every attempt's ``rows`` in two processes (see the module docstring);
    return (rows, processes that derived them: 1 when the worker failed to run).

    Args:
        conn: the index file being built, in its transaction.
        target: the index file's final path (the part file is made beside it).
        ranges: the halves :func:`split_ranges` gave.

    Raises:
        RescoreCancelled: ``progress`` returned False.
        AuditError: a problem in the data, or the file changed while read.
    """
    from ai4hse_desk.index.location import audit_file
    from ai4hse_desk.verdicts.checked_scan import check_ids_unique
    from ai4hse_desk.verdicts.verdict_loop import RescoreCancelled

    lower, upper = ranges
    total = [0]  # every attempt of the file: the total this process's scans report

    def counted(before: int, worker: _Worker | None = None) -> Progress | None:
        """``progress`` of one part: ``before`` plus its count (and the worker's)."""
        if progress is None:
            return None

        def report(done: int, of: int) -> bool:
            total[0] = of or total[0]  # (the wait for the worker reports none)
            return progress(before + done + (worker.done if worker else 0), total[0])

        return report

    part = StagedFile(target, allow_sqlite=True)  # a temporary file, never published
    worker: _Worker | None = None
    try:
        try:
            worker = _Worker(audit_file(db), part.temp, upper)
        except OSError:
            worker = None  # no process to be had: this one derives both parts
        # The uniqueness checks (each part's scan checks its rows' values, runs,
        # questions and repetitions) run on a thread beside this part's scan; their
        # problem is raised after any of the rows', as one pass would meet them.
        links_check = Beside(lambda: check_ids_unique(db))
        links_check.start()
        try:
            count = insert_rows(conn, db, ordinals, reasons, counted(0, worker), lower)
        except BaseException:
            links_check.join(quiet=True)  # a problem of the rows, or a cancel, comes first
            raise
        links: AuditError | None = None
        try:
            links_check.join()
        except AuditError as exc:
            links = exc  # a bad value the worker finds is named first, as in one pass
        answer = (
            ("crash", "not started") if worker is None else worker.result(counted(count, worker))
        )
        kind, payload = answer
        if kind == "cancelled":
            raise RescoreCancelled
        if kind == "error":
            raise AuditError(str(payload))
        if links is not None:
            raise links
        if kind == "ok":
            count += _append(conn, part.temp, reasons)
            processes = 2
        else:  # the worker could not run (or crashed): its part is derived here
            count += insert_rows(conn, db, ordinals, reasons, counted(count), upper)
            processes = 1
        db.verify_unchanged()
        db.attempts_checked()  # every row checked in a scan, the uniqueness here
        return count, processes
    finally:
        if worker is not None:
            worker.end()
        part.discard()


def _append(conn: sqlite3.Connection, part: Path, reasons: ReasonIds) -> int:
    """Append the part file's rows, with its reason ids if ``reasons`` gives each of its
    sentences the same one (always, but on a collision of two sentences' ids), else
    renumbered by ``reasons``.

    SQLite attaches and detaches a file only between transactions: the build's is
    committed first (a new private file with no journal: nothing to sync) and begun
    again afterwards; a failure here discards the whole file, as anywhere else.
    """
    from ai4hse_desk.index.location import readonly_uri

    conn.execute("COMMIT")
    conn.execute("ATTACH DATABASE ? AS part", (readonly_uri(part),))
    conn.execute("BEGIN")
    theirs = conn.execute("SELECT reason_id, text FROM part.reasons ORDER BY 1").fetchall()
    if all(reasons.adopt(str(text), int(old)) for old, text in theirs):
        count = int(conn.execute(_APPEND_AS_IS).rowcount)
    else:
        mapping: list[tuple[int, int]] = []
        for old, text in theirs:
            new = reasons.get(str(text))
            mapping.append((int(old), reasons.add(str(text)) if new is None else new))
        conn.execute("CREATE TEMP TABLE reason_map (old INTEGER PRIMARY KEY, new INTEGER)")
        conn.executemany("INSERT INTO temp.reason_map VALUES (?, ?)", mapping)
        count = int(conn.execute(_APPEND).rowcount)
        conn.execute("DROP TABLE temp.reason_map")
    conn.execute("COMMIT")
    conn.execute("DETACH DATABASE part")
    conn.execute("BEGIN")
    return count


__all__ = ["SPLIT_MIN_ATTEMPTS", "insert_split", "split_ranges"]
