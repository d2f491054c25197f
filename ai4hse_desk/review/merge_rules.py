"""The rules of ``notes import`` that look beyond one record: who a verdict or decision
may be by, how problems are gathered, and the revisions as history steps.

* a new verdict's reviewer is a reviewer of some plan of the review (when there is
  one), never one of the question's adjudicators; a decision is never by one of the
  question's reviewers — anyone with a verdict on it, or assigned it by any plan —
  names compared as one person's (:func:`~ai4hse_desk.notes.people.person_key`);
* a verdict recorded as not blind is not imported over a planned reviewer's blind
  answer still to be given here: it would take that answer for good;
* every record is checked and the first problems are named together
  (:class:`Problems`); nothing is written if there is any.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Final

from sqlalchemy import select

from ai4hse_desk.notes.chain import Step
from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.people import person_key
from ai4hse_desk.notes.schema import REVIEW_TABLES
from ai4hse_desk.review import writes as review_writes
from ai4hse_desk.review.read import rows_in
from ai4hse_desk.review.records import BLIND, VERDICT_FIELDS, load_list

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from sqlalchemy.engine import Connection

    from ai4hse_desk.review.history import DecisionRevision, ReviewData, VerdictRevision
    from ai4hse_desk.review.records import PlanHeader

_V, _VR, _D, _DR, _P, _A = REVIEW_TABLES


def refuse(where: str, problem: str) -> ReviewError:
    """``problem`` at ``where`` (a JSON path of the import file) as one error."""
    return ReviewError(f"{where}: {problem}" if where else problem)


#: How many problems a refused import names.
_NAMED: Final = 5


class Problems:
    """The problems met while checking a merge: every record is checked, the first
    few are named, and nothing is written if there is any."""

    def __init__(self) -> None:
        self.found: list[str] = []

    @contextmanager
    def collect(self) -> Iterator[None]:
        """Record a :class:`ReviewError` raised inside instead of stopping."""
        try:
            yield
        except ReviewError as exc:
            self.found.append(str(exc))

    def add(self, where: str, problem: str) -> None:
        self.found.append(str(refuse(where, problem)))

    def raise_any(self) -> None:
        """Raise one :class:`ReviewError` naming the first problems, if there are any."""
        if not self.found:
            return
        if len(self.found) == 1:
            raise ReviewError(self.found[0])
        shown = "; ".join(self.found[:_NAMED])
        more = len(self.found) - _NAMED
        tail = f"; and {more} more" if more > 0 else ""
        raise ReviewError(f"{len(self.found)} problems, nothing imported: {shown}{tail}")


def steps(revisions: Iterable[VerdictRevision]) -> list[Step]:
    return [
        Step(rev.where, rev.at, rev.revision_id,
             {name: getattr(rev, name) for name in VERDICT_FIELDS}, rev.changes)
        for rev in revisions
    ]  # fmt: skip


def decision_steps(revisions: Iterable[DecisionRevision]) -> list[Step]:
    return [Step(rev.where, rev.at, rev.revision_id, {}, None) for rev in revisions]


def reviewers_of(conn: Connection, question_id: str) -> set[str]:
    """Who reviews ``question_id``, as person keys: whoever has a verdict on it (the
    file's are merged first), and its assignees in any plan, at any time."""
    query = select(_V.c.reviewer).where(_V.c.question_id == question_id)
    who = {str(name) for name in conn.execute(query).scalars()}
    query = select(_A.c.reviewer).where(_A.c.question_id == question_id).distinct()
    who |= {str(name) for name in conn.execute(query).scalars()}
    return {person_key(name) for name in who}


def _adjudicators_of(conn: Connection, question_ids: Iterable[str]) -> dict[str, set[str]]:
    """Question → the person keys of everyone with a stored decision revision on it."""
    query = select(_D.c.question_id, _DR.c.adjudicator).join(
        _D, _D.c.decision_id == _DR.c.decision_id
    )
    found: dict[str, set[str]] = {}
    wanted = set(question_ids)
    for qid, who in conn.execute(query):
        if str(qid) in wanted:
            found.setdefault(str(qid), set()).add(person_key(str(who)))
    return found


def verdict_people_problems(
    conn: Connection, data: ReviewData, problems: Problems, before: PlanHeader | None
) -> None:
    """Rules on who a new verdict is by (after the plans are merged): a reviewer of some
    plan (when there is one); never a question's adjudicator (stored or in the file); and
    never a not-blind verdict over a planned reviewer's blind answer still to be given."""
    plans = conn.execute(select(_P.c.reviewers)).scalars().all()
    planned = {person_key(n) for text in plans for n in load_list(text, "plan's reviewers") or ()}
    held = {
        str(v) for v in rows_in(conn, _V, _V.c.verdict_id, [v.verdict_id for v in data.verdicts])
    }
    decided = _adjudicators_of(conn, {v.question_id for v in data.verdicts})
    for decision in data.decisions:
        for rev in decision.revisions:
            decided.setdefault(decision.question_id, set()).add(person_key(rev.adjudicator))
    header = before
    for verdict in data.verdicts:
        me = person_key(verdict.reviewer)
        at = f"{verdict.where}.reviewer"
        if plans and me not in planned:
            problems.add(at, f"{verdict.reviewer} is not a reviewer of any plan of this review")
        if me in decided.get(verdict.question_id, set()):
            problems.add(at, f"{verdict.reviewer} adjudicated {verdict.question_id}; an "
                         "adjudicator does not also review it")  # fmt: skip
        first = verdict.revisions[0] if verdict.revisions else None
        if header is None or first is None or first.blind == BLIND or verdict.verdict_id in held:
            continue
        assigned = review_writes.assigned_reviewers(conn, header.plan_id, verdict.question_id)
        if me in {person_key(name) for name in assigned} and not _has_verdict(
            conn, verdict.question_id, me
        ):
            problems.add(
                f"{verdict.where}.blind",
                f"a verdict recorded as not blind would take {verdict.reviewer}'s blind answer "
                f"on {verdict.question_id}, still to be given, for good; it is recorded in "
                "this store, not imported",
            )


def _has_verdict(conn: Connection, question_id: str, person: str) -> bool:
    query = select(_V.c.reviewer).where(_V.c.question_id == question_id)
    return person in {person_key(str(name)) for name in conn.execute(query).scalars()}
