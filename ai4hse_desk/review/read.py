"""The review tables whole, for ``notes export``: read.

:func:`read_review` reads every plan (with its assignments), every verdict and
decision with every revision, on the connection of the caller's one read
transaction. The merge of ``notes
import`` (:mod:`.merge`) reads the rows it checks with the same helpers:
:func:`rows_in` (rows by key, in slices), :func:`plans_of` (plan rows as records)
and :func:`by_parent` (revisions by their verdict or decision, oldest first).
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import select

from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.schema import REVIEW_TABLES
from ai4hse_desk.review.history import (
    DecisionRecord,
    PlanRecord,
    ReviewData,
    VerdictRecord,
    decision_revision,
    verdict_revision,
)
from ai4hse_desk.review.records import load_list, opt_text

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from sqlalchemy import Column
    from sqlalchemy.engine import Connection

_V, _VR, _D, _DR, _P, _A = REVIEW_TABLES
_CHUNK: Final = 500


def _chunks(values: Sequence[str]) -> Iterable[Sequence[str]]:
    return (values[start : start + _CHUNK] for start in range(0, len(values), _CHUNK))


def rows_in(conn: Connection, table: Any, column: Column[Any], keys: Iterable[str]) -> list[Any]:
    """The rows of ``table`` whose ``column`` is one of ``keys`` (in slices)."""
    wanted = sorted(set(keys))
    return [
        row
        for part in _chunks(wanted)
        for row in conn.execute(select(table).where(column.in_(part)))
    ]


def plans_of(conn: Connection, rows: Sequence[Any]) -> list[PlanRecord]:
    """The plans of these ``review_plans`` rows (in their order), with the assignments.

    Raises:
        ReviewError: a plan gives one question two positions (a damaged store).
    """
    assigned: dict[str, dict[str, tuple[int, list[str]]]] = defaultdict(dict)
    for row in rows_in(conn, _A, _A.c.plan_id, [str(r.plan_id) for r in rows]):
        position, who = assigned[str(row.plan_id)].setdefault(
            str(row.question_id), (int(row.position), [])
        )
        if position != int(row.position):
            raise ReviewError(f"the notes store holds a damaged plan: {row.plan_id}")
        who.append(str(row.reviewer))
    plans = []
    for row in rows:
        questions = assigned.get(str(row.plan_id), {})
        found = [(qid, pos, tuple(sorted(who))) for qid, (pos, who) in questions.items()]
        assignments = tuple(sorted(found, key=lambda a: (a[1], a[0])))
        plans.append(
            PlanRecord(
                plan_id=str(row.plan_id),
                created_at=str(row.created_at),
                created_by=str(row.created_by),
                per_question=int(row.per_question),
                order=str(row.plan_order),
                seed=None if row.seed is None else int(row.seed),
                reviewers=load_list(row.reviewers, "plan's reviewers") or (),
                questions=int(row.questions),
                audit_sha256=opt_text(row.audit_sha256),
                assignments=assignments,
            )
        )
    return plans


def by_parent(revisions: Iterable[Any], key: str) -> dict[str, list[Any]]:
    """The ``revisions`` grouped by their attribute ``key`` (the verdict's or
    decision's id), each group oldest first (by time, then revision id)."""
    grouped: dict[str, list[Any]] = defaultdict(list)
    for rev in sorted(revisions, key=lambda r: (r.at, r.revision_id)):
        grouped[getattr(rev, key)].append(rev)
    return grouped


def read_review(conn: Connection) -> ReviewData:
    """Every plan, verdict and decision with every revision (oldest first); a verdict or
    decision without any revision (a damaged store) is left out and named in ``orphans``."""
    plans = plans_of(conn, conn.execute(select(_P).order_by(_P.c.created_at, _P.c.plan_id)).all())
    revisions = by_parent((verdict_revision(r) for r in conn.execute(select(_VR))), "verdict_id")
    verdicts = [
        VerdictRecord(
            str(row.verdict_id),
            str(row.question_id),
            str(row.reviewer),
            str(row.created_at),
            opt_text(row.audit_sha256),
            tuple(revisions.get(str(row.verdict_id), ())),
        )
        for row in conn.execute(select(_V).order_by(_V.c.created_at, _V.c.verdict_id))
    ]
    steps = by_parent((decision_revision(r) for r in conn.execute(select(_DR))), "decision_id")
    decisions = [
        DecisionRecord(
            str(row.decision_id),
            str(row.question_id),
            str(row.created_at),
            opt_text(row.audit_sha256),
            tuple(steps.get(str(row.decision_id), ())),
        )
        for row in conn.execute(select(_D).order_by(_D.c.created_at, _D.c.decision_id))
    ]
    orphans = [
        f"the verdict of {v.reviewer} on {v.question_id} ({v.verdict_id})"
        for v in verdicts
        if not v.revisions
    ] + [f"the decision on {d.question_id} ({d.decision_id})" for d in decisions if not d.revisions]
    return ReviewData(
        tuple(plans),
        tuple(v for v in verdicts if v.revisions),
        tuple(d for d in decisions if d.revisions),
        tuple(orphans),
    )
