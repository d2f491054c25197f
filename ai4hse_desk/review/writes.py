"""The review tables' queries and writes, inside :mod:`.backend` transactions.

Rows are only inserted, never updated or deleted. A verdict's row is created
once per (question, reviewer) — the unique constraint and a per-pair lock make
two clients that create it at once meet on one row — and each change appends a
revision stamped after the verdict's latest (:func:`~.model.after`). A plan
replaces the previous one by being newer; the old plan and its assignments stay.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import func, insert, select

from ai4hse_desk.notes import backend
from ai4hse_desk.notes.changes import column_text, diff
from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.model import after, new_id
from ai4hse_desk.notes.schema import REVIEW_TABLES
from ai4hse_desk.review.plan import Plan
from ai4hse_desk.review.records import (
    VERDICT_FIELDS,
    Decision,
    PlanHeader,
    ReviewVerdict,
    StoredPlan,
    decision_from_row,
    dump_list,
    load_list,
    verdict_from_row,
    verdict_values,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from sqlalchemy import ColumnElement, Select
    from sqlalchemy.engine import Connection

_V, _VR, _D, _DR, _P, _A = REVIEW_TABLES


def verdicts_query(*where: ColumnElement[bool]) -> Select[Any]:
    """Verdicts (``where`` on ``review_verdicts``) joined to their latest revision."""
    rank = func.row_number().over(
        partition_by=_VR.c.verdict_id, order_by=(_VR.c.at.desc(), _VR.c.revision_id.desc())
    )
    inner = (
        select(*_V.c, *(getattr(_VR.c, name) for name in VERDICT_FIELDS), _VR.c.at, rank.label("r"))
        .join(_VR, _VR.c.verdict_id == _V.c.verdict_id)
        .where(*where)
        .subquery("current")
    )
    return select(inner).where(inner.c.r == 1).order_by(inner.c.created_at, inner.c.verdict_id)


def decisions_query(*where: ColumnElement[bool]) -> Select[Any]:
    """Decisions (``where`` on ``review_decisions``) joined to their latest revision."""
    rank = func.row_number().over(
        partition_by=_DR.c.decision_id, order_by=(_DR.c.at.desc(), _DR.c.revision_id.desc())
    )
    inner = (
        select(
            *_D.c,
            _DR.c.adjudicator,
            _DR.c.decision,
            _DR.c.corrected_key,
            _DR.c.note,
            _DR.c.at,
            rank.label("r"),
        )
        .join(_DR, _DR.c.decision_id == _D.c.decision_id)
        .where(*where)
        .subquery("current")
    )
    return select(inner).where(inner.c.r == 1).order_by(inner.c.created_at)


def read_verdicts(conn: Connection, *where: ColumnElement[bool]) -> list[ReviewVerdict]:
    """The verdicts matching ``where``, as they stand now."""
    return [verdict_from_row(row) for row in conn.execute(verdicts_query(*where))]


def read_states(conn: Connection, reviewer: str) -> dict[str, str]:
    """Question → the state (``draft``/``submitted``) of ``reviewer``'s verdict on it:
    the Review view's progress, without reading the verdicts themselves."""
    current = verdicts_query(_V.c.reviewer == reviewer).subquery()
    rows = conn.execute(select(current.c.question_id, current.c.state))
    return {str(qid): str(state) for qid, state in rows}


def decision_of(question_id: str) -> ColumnElement[bool]:
    """The ``where`` of :func:`read_decisions` for one question's decision."""
    return _D.c.question_id == question_id


def read_decisions(conn: Connection, *where: ColumnElement[bool]) -> list[Decision]:
    """The decisions matching ``where``, as they stand now."""
    return [decision_from_row(row) for row in conn.execute(decisions_query(*where))]


def _header(row: Any) -> PlanHeader:
    return PlanHeader(
        plan_id=str(row.plan_id),
        created_at=str(row.created_at),
        created_by=str(row.created_by),
        per_question=int(row.per_question),
        order=str(row.plan_order),
        seed=None if row.seed is None else int(row.seed),
        reviewers=load_list(row.reviewers, "plan's reviewers") or (),
        questions=int(row.questions),
    )


def read_plan_header(conn: Connection) -> PlanHeader | None:
    """The plan in force without its assignments (one row), or ``None`` before any plan."""
    row = conn.execute(select(_P).order_by(_P.c.created_at.desc()).limit(1)).first()
    return None if row is None else _header(row)


def assigned_reviewers(conn: Connection, plan_id: str, question_id: str) -> tuple[str, ...]:
    """The reviewers ``plan_id`` assigns ``question_id`` to (its primary key's prefix)."""
    query = select(_A.c.reviewer).where(_A.c.plan_id == plan_id, _A.c.question_id == question_id)
    return tuple(sorted(str(who) for who in conn.execute(query).scalars()))


def plan_questions(conn: Connection, plan_id: str) -> list[str]:
    """Every question of ``plan_id``, in plan order."""
    query = (
        select(_A.c.question_id, func.min(_A.c.position).label("first"))
        .where(_A.c.plan_id == plan_id)
        .group_by(_A.c.question_id)
        .order_by("first")
    )
    return [str(row.question_id) for row in conn.execute(query)]


def queue_of(conn: Connection, plan_id: str, reviewer: str) -> list[str]:
    """``reviewer``'s questions in ``plan_id``, in plan order (the reviewer index)."""
    query = (
        select(_A.c.question_id)
        .where(_A.c.plan_id == plan_id, _A.c.reviewer == reviewer)
        .order_by(_A.c.position)
    )
    return [str(qid) for qid in conn.execute(query).scalars()]


def known_people(conn: Connection) -> list[str]:
    """Every name the review tables hold — the plan's reviewers first, then verdicts'
    reviewers and adjudicators — for :func:`~ai4hse_desk.notes.people.resolve_person`."""
    header = read_plan_header(conn)
    names = list(header.reviewers) if header is not None else []
    for column in (_V.c.reviewer, _DR.c.adjudicator):
        names += [str(name) for name in conn.execute(select(column).distinct()).scalars()]
    return list(dict.fromkeys(names))


#: Plans already read, by id: a stored plan never changes (a new plan gets a new id),
#: so only the newest plan's id is read again. A few are kept (a handful of stores).
_PLANS: dict[str, StoredPlan] = {}
_PLANS_KEPT = 8


def read_plan(conn: Connection) -> StoredPlan | None:
    """The plan in force (the newest), or ``None`` before any plan."""
    header = read_plan_header(conn)
    if header is None:
        return None
    known = _PLANS.get(header.plan_id)
    if known is not None:
        return known
    query = select(_A).where(_A.c.plan_id == header.plan_id).order_by(_A.c.position, _A.c.reviewer)
    assigned: dict[str, list[str]] = {}
    for item in conn.execute(query):
        assigned.setdefault(str(item.question_id), []).append(str(item.reviewer))
    plan = Plan(
        per_question=header.per_question,
        order=header.order,
        seed=header.seed,
        reviewers=header.reviewers,
        questions=tuple(assigned),
        assignments={qid: tuple(who) for qid, who in assigned.items()},
    )
    stored = StoredPlan(header.plan_id, header.created_at, header.created_by, plan)
    if len(_PLANS) >= _PLANS_KEPT:
        _PLANS.clear()
    _PLANS[stored.plan_id] = stored
    return stored


def write_plan(
    conn: Connection, plan: Plan, created_by: str, audit_sha256: str, *, replace: bool
) -> StoredPlan | None:
    """Store ``plan`` as the plan in force; ``None`` (nothing written) if one exists and
    ``replace`` is False. Assignments keep the plan's question order as ``position``."""
    backend.lock(conn, "review_plan")
    if not replace and conn.execute(select(_P.c.plan_id).limit(1)).first() is not None:
        return None
    previous = conn.execute(select(func.max(_P.c.created_at))).scalar()
    plan_id = new_id()
    at, _ = after(None if previous is None else str(previous), backend.clock(conn), "the plan")
    conn.execute(
        insert(_P),
        [
            {
                "plan_id": plan_id,
                "created_at": at,
                "created_by": created_by,
                "per_question": plan.per_question,
                "plan_order": plan.order,
                "seed": plan.seed,
                "reviewers": dump_list(plan.reviewers),
                "questions": len(plan.questions),
                "audit_sha256": audit_sha256,
            }
        ],
    )
    rows = [
        {"plan_id": plan_id, "question_id": qid, "reviewer": who, "position": position}
        for position, qid in enumerate(plan.questions)
        for who in plan.assignments[qid]
    ]
    for start in range(0, len(rows), 5_000):
        conn.execute(insert(_A), rows[start : start + 5_000])
    return StoredPlan(plan_id, at, created_by, plan)


def change_verdict(
    conn: Connection,
    question_id: str,
    reviewer: str,
    audit_sha256: str,
    update: Callable[[ReviewVerdict | None], dict[str, object]],
    action: str | None = None,
) -> ReviewVerdict:
    """Create or revise ``reviewer``'s verdict on ``question_id``.

    ``update`` receives the verdict as it stands (``None`` if there is none) and
    returns the revision's full field values (:data:`~.records.VERDICT_FIELDS`);
    it raises :class:`~.errors.ReviewError` to refuse, and then nothing is written.
    No revision is appended when nothing changes. ``action`` names a revision of an
    existing verdict (``undo``, ``redo``); by default it is ``submit`` or ``edit``.
    """
    backend.lock(conn, f"verdict:{len(question_id)}:{question_id}:{reviewer}")
    where = (_V.c.question_id == question_id, _V.c.reviewer == reviewer)
    current = read_verdicts(conn, *where)
    old = current[0] if current else None
    if old is None and conn.execute(select(_V.c.verdict_id).where(*where)).first() is not None:
        raise ReviewError(
            f"the notes store holds {reviewer}'s verdict on {question_id} without any "
            "revision (its history was deleted outside the desk); nothing was written"
        )
    values = update(old)
    writer_clock: str | None = None
    if old is None:
        verdict_id, now = new_id(), backend.clock(conn)
        values = {**values, "blind_at": now}
        conn.execute(
            insert(_V),
            [
                {
                    "verdict_id": verdict_id,
                    "question_id": question_id,
                    "reviewer": reviewer,
                    "created_at": now,
                    "audit_sha256": audit_sha256,
                }
            ],
        )
        before: dict[str, object] = {}
        action, at = "create", now
    else:
        verdict_id = old.verdict_id
        before = verdict_values(old)
        if before == values:
            return old
        if action is None:
            action = "submit" if values["state"] == "submitted" != old.state else "edit"
        at, writer_clock = after(
            old.updated_at, backend.clock(conn), f"the verdict on {question_id}"
        )
    conn.execute(
        insert(_VR),
        [
            {
                "revision_id": new_id(),
                "verdict_id": verdict_id,
                "at": at,
                "action": action,
                "changes": column_text(diff(before, values)),
                "writer_clock": writer_clock,
                **values,
            }
        ],
    )
    return read_verdicts(conn, *where)[0]


def record_decision(
    conn: Connection,
    question_id: str,
    adjudicator: str,
    decision: str,
    corrected_key: tuple[str, ...] | None,
    note: str,
    audit_sha256: str,
) -> Decision:
    """Record (or revise, appending a revision) the decision on ``question_id``."""
    backend.lock(conn, f"decision:{question_id}")
    current = read_decisions(conn, _D.c.question_id == question_id)
    writer_clock: str | None = None
    if current:
        decision_id = current[0].decision_id
        at, writer_clock = after(
            current[0].at, backend.clock(conn), f"the decision on {question_id}"
        )
    elif conn.execute(select(_D.c.decision_id).where(decision_of(question_id))).first():
        raise ReviewError(
            f"the notes store holds the decision on {question_id} without any revision (its "
            "history was deleted outside the desk); nothing was written"
        )
    else:
        decision_id, at = new_id(), backend.clock(conn)
        conn.execute(
            insert(_D),
            [
                {
                    "decision_id": decision_id,
                    "question_id": question_id,
                    "created_at": at,
                    "audit_sha256": audit_sha256,
                }
            ],
        )
    conn.execute(
        insert(_DR),
        [
            {
                "revision_id": new_id(),
                "decision_id": decision_id,
                "adjudicator": adjudicator,
                "at": at,
                "decision": decision,
                "corrected_key": dump_list(corrected_key),
                "note": note,
                "writer_clock": writer_clock,
            }
        ],
    )
    return read_decisions(conn, _D.c.question_id == question_id)[0]
