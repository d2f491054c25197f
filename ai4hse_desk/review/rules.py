"""The rules the store keeps on every client: the blind rule and independent adjudication.

* A reviewer sees the other reviewers' verdicts on a question only once their own
  is submitted, and (with a plan) only on questions of their queue
  (:func:`others_submitted`).
* A verdict's blind answer — or its "not blind" — is fixed when the verdict is
  first recorded: it is never changed, nor added afterwards (:func:`blind_fields`).
* Nobody adjudicates a question they were assigned or gave a verdict on, and
  nobody gives a verdict on a question they decided (:func:`decide`,
  :func:`check_not_adjudicator`): independence holds in both orders. Names are
  compared as one person's (:func:`~ai4hse_desk.notes.people.person_key`).

Each function runs inside a :mod:`~ai4hse_desk.notes.backend` transaction, so the
check and what it guards read one snapshot; each reads only the rows of the one
question (and plan header) it concerns, so its cost does not grow with the plan.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import select

from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.people import person_key
from ai4hse_desk.notes.schema import REVIEW_TABLES
from ai4hse_desk.review import writes as review_writes
from ai4hse_desk.review.records import BLIND, NOT_BLIND, dump_list
from ai4hse_desk.review.values import DRAFT

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ai4hse_desk.review.records import Decision, ReviewVerdict
    from ai4hse_desk.review.values import Answer

_V, _VR, _D, _DR, _P, _A = REVIEW_TABLES


class BlindRuleError(ReviewError):
    """A read or write the blind rule forbids."""


def blind_fields(
    old: ReviewVerdict | None, blind: Answer | None, not_blind: bool, qid: str, who: str
) -> dict[str, object]:
    """The blind fields of a verdict's next revision.

    A new verdict takes ``blind`` (or "not blind" with ``not_blind``); an existing one
    keeps what it recorded, and a ``blind`` given again must equal it.

    Raises:
        ReviewError: a new verdict with neither.
        BlindRuleError: a blind answer added to a not-blind verdict, or changed.
    """
    if old is None:
        if blind is None and not not_blind:
            raise ReviewError("a first verdict needs --blind-answer LIST or --not-blind")
        return {
            "blind": NOT_BLIND if blind is None else BLIND,
            "blind_answer": dump_list(blind),
            "blind_at": None,  # the first revision's time (writes.change_verdict)
        }
    if blind is not None and old.blind == NOT_BLIND:
        raise BlindRuleError(
            f"{who}'s verdict on {qid} was recorded as not blind at {old.blind_at}; "
            "a blind answer cannot be added after the key was shown"
        )
    if blind is not None and blind != old.blind_answer:
        raise BlindRuleError(
            f"{who}'s blind answer on {qid} was recorded at {old.blind_at}; "
            "it cannot change after the key was shown"
        )
    return {
        "blind": old.blind,
        "blind_answer": dump_list(old.blind_answer),
        "blind_at": old.blind_at,
    }


def blind_draft(old: ReviewVerdict | None, blind: Answer | None, who: str) -> dict[str, object]:
    """A new verdict's first revision: the blind answer (``None``: not blind), a draft."""
    if old is not None:
        raise BlindRuleError(
            f"{who} already answered {old.question_id} (at {old.blind_at}); "
            "a blind answer cannot be recorded after the key was shown"
        )
    return {
        "blind": NOT_BLIND if blind is None else BLIND,
        "blind_answer": dump_list(blind),
        "blind_at": None,  # the first revision's time (writes.change_verdict)
        "verdict": None,
        "proposed_key": None,
        "confidence": None,
        "source": "",
        "note": "",
        "state": DRAFT,
    }


def question_reviewers(conn: Connection, question_id: str) -> set[str]:
    """The person keys of ``question_id``'s reviewers: assigned by the plan in force or
    with a verdict on it."""
    header = review_writes.read_plan_header(conn)
    assigned = () if header is None else review_writes.assigned_reviewers(
        conn, header.plan_id, question_id
    )  # fmt: skip
    given = conn.execute(select(_V.c.reviewer).where(_V.c.question_id == question_id)).scalars()
    return {person_key(name) for name in (*assigned, *map(str, given))}


def question_adjudicators(conn: Connection, question_id: str) -> set[str]:
    """The person keys of everyone who recorded a decision on ``question_id``."""
    query = (
        select(_DR.c.adjudicator)
        .join(_D, _D.c.decision_id == _DR.c.decision_id)
        .where(_D.c.question_id == question_id)
    )
    return {person_key(str(name)) for name in conn.execute(query).scalars()}


def check_not_adjudicator(conn: Connection, question_id: str, who: str) -> None:
    """Refuse a verdict by someone who adjudicated ``question_id``.

    Raises:
        ReviewError: ``who`` recorded a decision on it.
    """
    if person_key(who) in question_adjudicators(conn, question_id):
        raise ReviewError(
            f"{who} adjudicated {question_id}; an adjudicator does not also review it"
        )


def others_submitted(conn: Connection, question_id: str, who: str) -> list[ReviewVerdict]:
    """The other reviewers' submitted verdicts on ``question_id``, for ``who``.

    Raises:
        BlindRuleError: ``who`` has not submitted a verdict on it, or (with a plan)
            it is not in their queue.
    """
    me = person_key(who)
    header = review_writes.read_plan_header(conn)
    if header is not None:
        assigned = review_writes.assigned_reviewers(conn, header.plan_id, question_id)
        if me not in {person_key(name) for name in assigned}:
            raise BlindRuleError(f"{question_id} is not in {who}'s review queue")
    rows = review_writes.read_verdicts(conn, _V.c.question_id == question_id)
    mine = next((v for v in rows if person_key(v.reviewer) == me), None)
    if mine is None or not mine.submitted:
        raise BlindRuleError(
            f"{who} has not submitted a verdict on {question_id}; the other "
            "reviewers' verdicts stay hidden until then"
        )
    return [v for v in rows if person_key(v.reviewer) != me and v.submitted]


def decide(
    conn: Connection,
    question_id: str,
    who: str,
    decision: str,
    corrected: Answer | None,
    note: str,
    audit_sha256: str,
) -> Decision:
    """Record ``who``'s decision on ``question_id`` unless they are one of its reviewers.

    Raises:
        ReviewError: ``who`` was assigned the question or gave a verdict on it.
    """
    if person_key(who) in question_reviewers(conn, question_id):
        raise ReviewError(
            f"{who} is one of {question_id}'s reviewers; another person adjudicates it"
        )
    return review_writes.record_decision(
        conn, question_id, who, decision, corrected, note, audit_sha256
    )
