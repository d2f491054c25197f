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
such an index sends every run back as counts.

The run object is the one the serial rescore makes: the same counts, added in the
same attempt order.

With ``fold`` the worker checks its own rows' values inside its scan
(:mod:`.checked_scan`). Then the parent does not read the whole table a second time
for the check: it only runs the checks beyond single rows. On the realistic file the
separate check took 2.7–2.9 s of CPU, against 1.2–1.3 s added to the scans.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.protocol.metrics import RunScorer

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Iterable, Sequence

    from ai4hse_desk.audit.queries import AuditDB
    from ai4hse_desk.protocol.metrics import RunInfo

#: An index of ``attempts`` (not partial) whose first column is ``run_id``.
_RUN_INDEX = (
    "SELECT 1 FROM pragma_index_list('attempts') AS l, pragma_index_info(l.name) AS i "
    "WHERE l.partial = 0 AND i.seqno = 0 AND lower(i.name) = 'run_id' LIMIT 1"
)
#: True if the run has an attempt outside the slice. The ``+`` keeps the ids out of
#: the plan, so the run's index entries are walked, not the rows outside the slice.
_OUTSIDE = (
    "SELECT EXISTS (SELECT 1 FROM attempts WHERE run_id = ? "
    "AND (+attempt_id < ? OR +attempt_id > ?))"
)

#: What a worker sends back: finished run objects, and counts of runs not finished.
Share = tuple[list[dict[str, object]], dict[str, RunScorer]]


def runs_within(
    conn: sqlite3.Connection, run_ids: Iterable[str], id_range: tuple[int, int]
) -> set[str]:
    """The runs among ``run_ids`` with no attempt outside ``id_range`` (inclusive).

    Empty when no index starts with ``run_id``: without one, each look-up would read
    the whole table.
    """
    low, high = id_range
    inside: set[str] = set()
    if conn.execute(_RUN_INDEX).fetchone() is None:
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
    from ai4hse_desk.verdicts.rescore import run_objects, score_range

    scorers = score_range(db, runs, run_ids, id_range, check=fold)
    seen = [run_id for run_id, scorer in scorers.items() if scorer.attempts]
    with db.raw_connection() as conn:
        finished = runs_within(conn, seen, id_range)
    done = run_objects(db, {run_id: scorers[run_id] for run_id in seen if run_id in finished})
    rest = {run_id: scorers[run_id] for run_id in seen if run_id not in finished}
    return done, rest
