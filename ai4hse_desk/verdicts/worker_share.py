"""One worker's share of a two-process rescore: a slice of attempt ids, scored, checked,
and every run that lies wholly inside it finished there.

Measured on the realistic 1M file (1,000 runs, issue 16): the parent's work after its
workers ended was about 1.2 s, all of it serial. Pickling, sending and merging the
workers' counts took about 0.5 s, and turning 1,000 runs' counts into run objects
(:meth:`~ai4hse_desk.protocol.metrics.RunScorer.result`) about 0.4 s. So a worker
finishes every run whose attempts all lie in its slice and sends its run object,
a few hundred bytes. Whether a run lies wholly inside is one look-up per run on an
index that starts with ``run_id``; the schema's ``UNIQUE (run_id, question_id,
repetition)`` makes one. Only a run with attempts in two slices (attempts written
interleaved) goes back as counts, merged by the parent as before. A file without
such an index (as SQLite's plan for the look-up shows) sends every run back as counts.

The run object is the one the serial rescore makes: the same counts, added in the
same attempt order.

With ``fold`` the worker checks its own rows' values inside its scan
(:mod:`.checked_scan`). Then the parent does not read the whole table a second time
for the check: it only runs the uniqueness checks. On the realistic file the
separate check took 2.7–2.9 s of CPU, against 1.2–1.3 s added to the scans.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.audit.errors import file_problems_as_audit_errors
from ai4hse_desk.protocol.metrics import RunScorer

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterable, Sequence

    from ai4hse_desk.audit.queries import AuditDB
    from ai4hse_desk.protocol.metrics import RunInfo

#: True if the run has an attempt outside the slice (a NULL id counts as outside). The
#: ``+`` keeps the ids out of the plan, so the run's index entries are walked, not the
#: rows outside the slice.
_OUTSIDE = (
    "SELECT EXISTS (SELECT 1 FROM attempts WHERE run_id = ? "
    "AND NOT coalesce(+attempt_id BETWEEN ? AND ?, 0))"
)


def _searches_an_index(conn: sqlite3.Connection) -> bool:
    """True if SQLite answers :data:`_OUTSIDE` by searching an index on ``run_id``, not
    by scanning the table (no such index, or one of another collation)."""
    plan = conn.execute(f"EXPLAIN QUERY PLAN {_OUTSIDE}", ("", 0, 0)).fetchall()
    details = [str(row[-1]) for row in plan]
    searched = any(d.startswith("SEARCH attempts ") and "(run_id=?" in d for d in details)
    return searched and not any(d.startswith("SCAN attempts") for d in details)


#: What a worker sends back: finished run objects, and counts of runs not finished.
Share = tuple[list[dict[str, object]], dict[str, RunScorer]]


def runs_within(
    conn: sqlite3.Connection, run_ids: Iterable[str], id_range: tuple[int, int]
) -> set[str]:
    """The runs among ``run_ids`` with no attempt outside ``id_range`` (inclusive).

    Empty when SQLite would not search an index on ``run_id`` for it: without one,
    each look-up would read the whole table.
    """
    low, high = id_range
    inside: set[str] = set()
    if not _searches_an_index(conn):
        return inside
    for run_id in run_ids:
        (outside,) = conn.execute(_OUTSIDE, (run_id, low, high)).fetchone()
        if not outside:
            inside.add(run_id)
    return inside


def score_share(
    db: AuditDB,
    runs: dict[str, RunInfo],
    run_ids: Sequence[str] | None,
    id_range: tuple[int, int],
    *,
    fold: bool,
) -> Share:
    """Score the attempts in ``id_range``; finish the runs that lie wholly in it.

    Returns:
        The run objects of the finished runs, and the counts of the other runs
        that have attempts here.

    Raises:
        AuditError: a problem in the data; with ``fold``, also a value of this
            slice that breaks the schema (the check's message).
    """
    from ai4hse_desk.verdicts.run_scores import run_objects, score_range

    scorers = score_range(db, runs, run_ids, id_range, check=fold)
    seen = [run_id for run_id, scorer in scorers.items() if scorer.attempts]
    with file_problems_as_audit_errors(db.path), db.raw_connection() as conn:
        finished = runs_within(conn, seen, id_range)
    done = run_objects(db, {run_id: scorers[run_id] for run_id in seen if run_id in finished})
    rest = {run_id: scorers[run_id] for run_id in seen if run_id not in finished}
    return done, rest
