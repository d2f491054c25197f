"""The review tables, for ``notes import``: a checked export merged into them.

:func:`merge_review` adds the plans, verdicts, decisions and revisions of a checked
export (:mod:`.import_check`) whose ids the store does not hold yet, inside
the import's one write transaction; nothing is ever updated or deleted. Reading the
tables whole, for ``notes export``, is :mod:`.read`'s. The merge
rules (any break refuses the whole import, and nothing is written):

* an id already here must name the same thing: a plan with the same fields and
  assignments, a verdict or decision on the same question (by the same reviewer),
  a revision with the same values;
* a new plan may become the plan in force only if the file also holds the store's
  plan in force (it continues that plan's history, as a ``--replace`` made
  elsewhere does); a file's own unrelated plan never replaces it by accident;
* one reviewer has one verdict per question and a question one decision: a file
  verdict on a (question, reviewer) pair, or a decision on a question, that this
  store holds under another id is refused — its revisions are never re-attached,
  since the two would be independent histories with their own blind answers;
* the blind rule: every revision of a verdict keeps the blind answer (or "not
  blind") and its time that the verdict was first recorded with, so an import can
  neither change a recorded blind answer nor add one to a not-blind verdict;
* one ``create`` revision per verdict: revisions added to a verdict already here
  never include another one;
* every revision added extends its history exactly (:mod:`~ai4hse_desk.notes.chain`):
  later than the store's latest, its changes leading from the values before it;
* who a verdict or decision may be by, and a not-blind verdict never taking a
  planned reviewer's blind answer still to be given: :mod:`.merge_rules`.

Every record is checked; the first problems are named together and nothing is written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import insert, select

from ai4hse_desk.notes import backend
from ai4hse_desk.notes.chain import chain_problem
from ai4hse_desk.notes.people import person_key
from ai4hse_desk.notes.schema import REVIEW_TABLES
from ai4hse_desk.review import writes as review_writes
from ai4hse_desk.review.history import (
    DecisionRecord,
    DecisionRevision,
    PlanRecord,
    ReviewData,
    VerdictRecord,
    VerdictRevision,
    decision_revision,
    decision_revision_row,
    verdict_revision,
    verdict_revision_row,
)
from ai4hse_desk.review.merge_rules import (
    Problems,
    decision_steps,
    refuse,
    reviewers_of,
    steps,
    verdict_people_problems,
)
from ai4hse_desk.review.read import by_parent, plans_of, rows_in
from ai4hse_desk.review.records import BLIND, dump_list, opt_text

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from sqlalchemy.engine import Connection

_V, _VR, _D, _DR, _P, _A = REVIEW_TABLES


@dataclass(frozen=True, slots=True)
class MergeCounts:
    """What :func:`merge_review` added."""

    plans: int = 0
    verdicts: int = 0
    verdict_revisions: int = 0
    decisions: int = 0
    decision_revisions: int = 0


def _merge_plans(conn: Connection, plans: Sequence[PlanRecord]) -> int:
    if not plans:
        return 0
    backend.lock(conn, "review_plan")
    rows = rows_in(conn, _P, _P.c.plan_id, [p.plan_id for p in plans])
    known = {p.plan_id: p for p in plans_of(conn, rows)}
    new = []
    for plan in plans:
        if plan.plan_id not in known:
            new.append(plan)
        elif known[plan.plan_id] != plan:
            raise refuse(plan.where, "this store holds another plan with this id")
    newest = max(new, key=lambda p: (p.created_at, p.plan_id), default=None)
    query = select(_P.c.plan_id, _P.c.created_at).order_by(_P.c.created_at.desc()).limit(1)
    in_force = conn.execute(query).first()
    ids = {plan.plan_id for plan in plans}
    if (
        newest is not None
        and in_force is not None
        and newest.created_at > str(in_force.created_at)
        and str(in_force.plan_id) not in ids
    ):
        raise refuse(
            f"{newest.where}.plan_id",
            f"would replace this store's plan in force (made {in_force.created_at}), which "
            "the file does not hold; only `review plan --replace` replaces a plan",
        )
    for plan in new:
        row = {
            "plan_id": plan.plan_id,
            "created_at": plan.created_at,
            "created_by": plan.created_by,
            "per_question": plan.per_question,
            "plan_order": plan.order,
            "seed": plan.seed,
            "reviewers": dump_list(plan.reviewers),
            "questions": plan.questions,
            "audit_sha256": plan.audit_sha256,
        }
        conn.execute(insert(_P), [row])
        assignments = [
            {"plan_id": plan.plan_id, "question_id": qid, "reviewer": who, "position": position}
            for qid, position, reviewers in plan.assignments
            for who in reviewers
        ]
        for start in range(0, len(assignments), 5_000):
            conn.execute(insert(_A), assignments[start : start + 5_000])
    return len(new)


def _identity(row: Any) -> tuple[object, ...]:
    return (str(row.question_id), str(row.created_at), opt_text(row.audit_sha256))


def _stored_by_id(
    conn: Connection, table: Any, id_column: str, records: Sequence[Any], key: str
) -> tuple[dict[str, Any], dict[Any, Any]]:
    """The stored rows of ``table`` with the records' ids, and those on the records'
    questions by ``key`` (question, or question and reviewer)."""
    on_questions = rows_in(conn, table, table.c.question_id, [r.question_id for r in records])
    by_key = {tuple(str(getattr(row, k)) for k in key.split(",")): row for row in on_questions}
    by_id = {str(getattr(row, id_column)): row for row in on_questions}
    ids = [getattr(r, id_column) for r in records]
    for row in rows_in(conn, table, getattr(table.c, id_column), ids):
        by_id[str(getattr(row, id_column))] = row
    return by_id, by_key


def _present(conn: Connection, table: Any, revision_ids: Iterable[str]) -> dict[str, Any]:
    """The stored revisions of ``table`` with these ids, by id."""
    return {str(r.revision_id): r for r in rows_in(conn, table, table.c.revision_id, revision_ids)}


def _merge_verdicts(
    conn: Connection, verdicts: Sequence[VerdictRecord], problems: Problems
) -> tuple[int, int]:
    pairs = {f"verdict:{len(v.question_id)}:{v.question_id}:{v.reviewer}" for v in verdicts}
    for key in sorted(pairs):
        backend.lock(conn, key)
    by_id, by_pair = _stored_by_id(conn, _V, "verdict_id", verdicts, "question_id,reviewer")
    present = _present(conn, _VR, (rev.revision_id for v in verdicts for rev in v.revisions))
    held = [v.verdict_id for v in verdicts if v.verdict_id in by_id]
    history = by_parent(
        map(verdict_revision, rows_in(conn, _VR, _VR.c.verdict_id, held)), "verdict_id"
    )
    new_verdicts: list[VerdictRecord] = []
    new_revisions: list[VerdictRevision] = []
    for verdict in verdicts:
        with problems.collect():
            row = by_id.get(verdict.verdict_id)
            added = _verdict_added(verdict, row, by_pair, present, history)
            new_revisions.extend(added)
            if row is None:
                new_verdicts.append(verdict)
    if problems.found:
        return 0, 0
    if new_verdicts:
        conn.execute(
            insert(_V),
            [
                {
                    "verdict_id": v.verdict_id,
                    "question_id": v.question_id,
                    "reviewer": v.reviewer,
                    "created_at": v.created_at,
                    "audit_sha256": v.audit_sha256,
                }
                for v in new_verdicts
            ],
        )
    if new_revisions:
        conn.execute(insert(_VR), [verdict_revision_row(r) for r in new_revisions])
    return len(new_verdicts), len(new_revisions)


def _verdict_added(
    verdict: VerdictRecord,
    row: Any,
    by_pair: dict[Any, Any],
    present: dict[str, Any],
    history: dict[str, list[VerdictRevision]],
) -> list[VerdictRevision]:
    """The revisions of ``verdict`` to add; a :class:`ReviewError` for the first rule
    it breaks (module docstring)."""
    pair = by_pair.get((verdict.question_id, verdict.reviewer))
    ours = (verdict.question_id, verdict.created_at, verdict.audit_sha256)
    if row is not None and (_identity(row), str(row.reviewer)) != (ours, verdict.reviewer):
        raise refuse(verdict.where, "this store holds another verdict with this id")
    if pair is not None and str(pair.verdict_id) != verdict.verdict_id:
        raise refuse(
            f"{verdict.where}.verdict_id",
            f"this store holds another verdict of {verdict.reviewer} on "
            f"{verdict.question_id} (one verdict per reviewer and question; merge each "
            "reviewer's work from one store)",
        )
    stored = history.get(verdict.verdict_id, [])
    added = [
        rev
        for rev in verdict.revisions
        if _new_verdict_revision(rev, present.get(rev.revision_id), stored)
    ]
    broken = chain_problem(steps(stored), steps(added))
    if broken is not None:
        raise refuse(*broken)
    return added


def _new_verdict_revision(
    rev: VerdictRevision, row: Any, stored: Sequence[VerdictRevision]
) -> bool:
    """True if ``rev`` is to be added to its verdict's ``stored`` revisions; False if it
    is there already; a :class:`ReviewError` if it may not join them (module docstring)."""
    if row is not None:
        if str(row.verdict_id) != rev.verdict_id:
            raise refuse(rev.where, "this store holds this revision under another verdict")
        if verdict_revision(row) != rev:
            raise refuse(rev.where, "this store holds another revision with this id")
        return False
    if stored and stored[0].blind_triple() != rev.blind_triple():
        first = stored[0]
        if first.blind == rev.blind:
            problem = "would change the blind answer this store recorded"
        elif rev.blind == BLIND:
            problem = "would add a blind answer to a verdict this store recorded as not blind"
        else:
            problem = "would drop the blind answer this store recorded"
        raise refuse(
            f"{rev.where}.blind_answer",
            f"{problem} (at {first.blind_at}); a blind answer is fixed once the key was shown",
        )
    if stored and rev.action == "create":
        raise refuse(f"{rev.where}.action", "this store holds this verdict's create revision")
    return True


def _new_decision_revisions(
    decision: DecisionRecord, held: bool, present: dict[str, Any]
) -> list[DecisionRevision]:
    """The revisions of ``decision`` to add (``held``: the store has the decision)."""
    new = []
    for rev in decision.revisions:
        row = present.get(rev.revision_id)
        if row is None:
            if held and rev.at == decision.created_at:
                raise refuse(f"{rev.where}.at", "this store holds this decision's first revision")
            new.append(rev)
        elif str(row.decision_id) != rev.decision_id or decision_revision(row) != rev:
            raise refuse(rev.where, "this store holds another revision with this id")
    return new


def _merge_decisions(
    conn: Connection, decisions: Sequence[DecisionRecord], problems: Problems
) -> tuple[int, int]:
    for key in sorted({f"decision:{d.question_id}" for d in decisions}):
        backend.lock(conn, key)
    by_id, by_question = _stored_by_id(conn, _D, "decision_id", decisions, "question_id")
    present = _present(conn, _DR, (rev.revision_id for d in decisions for rev in d.revisions))
    new_decisions: list[DecisionRecord] = []
    new_revisions: list[tuple[DecisionRecord, DecisionRevision]] = []
    stored = by_parent(
        map(decision_revision, rows_in(conn, _DR, _DR.c.decision_id, list(by_id))), "decision_id"
    )
    for decision in decisions:
        with problems.collect():
            row = by_id.get(decision.decision_id)
            other = by_question.get((decision.question_id,))
            ours = (decision.question_id, decision.created_at, decision.audit_sha256)
            if row is not None and _identity(row) != ours:
                raise refuse(decision.where, "this store holds another decision with this id")
            if other is not None and str(other.decision_id) != decision.decision_id:
                raise refuse(
                    f"{decision.where}.decision_id",
                    f"this store holds another decision on {decision.question_id} "
                    "(one decision per question)",
                )
            added = _new_decision_revisions(decision, row is not None, present)
            held = stored.get(decision.decision_id, [])
            broken = chain_problem(decision_steps(held), decision_steps(added))
            if broken is not None:
                raise refuse(*broken)
            new_revisions.extend((decision, rev) for rev in added)
            if row is None:
                new_decisions.append(decision)
    for decision, rev in new_revisions:
        if person_key(rev.adjudicator) in reviewers_of(conn, decision.question_id):
            problems.add(
                f"{rev.where}.adjudicator",
                f"{rev.adjudicator} is one of {decision.question_id}'s reviewers; another "
                "person adjudicates it",
            )
    if problems.found:
        return 0, 0
    if new_decisions:
        conn.execute(
            insert(_D),
            [
                {
                    "decision_id": d.decision_id,
                    "question_id": d.question_id,
                    "created_at": d.created_at,
                    "audit_sha256": d.audit_sha256,
                }
                for d in new_decisions
            ],
        )
    if new_revisions:
        conn.execute(insert(_DR), [decision_revision_row(rev) for _d, rev in new_revisions])
    return len(new_decisions), len(new_revisions)


def merge_review(conn: Connection, data: ReviewData) -> MergeCounts:
    """Add what of ``data`` this store does not hold yet (module docstring), inside
    ``conn``'s write transaction; verdicts after plans, decisions after both (the
    adjudicator check reads them).

    Raises:
        ReviewError: a merge rule is broken (named by the JSON path of what breaks it);
            the caller's transaction then rolls back.
    """
    problems = Problems()
    before = review_writes.read_plan_header(conn)
    plans = _merge_plans(conn, data.plans)
    verdict_people_problems(conn, data, problems, before)
    verdicts, verdict_revisions = _merge_verdicts(conn, data.verdicts, problems)
    decisions, decision_revisions = _merge_decisions(conn, data.decisions, problems)
    problems.raise_any()
    return MergeCounts(plans, verdicts, verdict_revisions, decisions, decision_revisions)
