"""The rules the store keeps on every client: the blind rule and independent adjudication.

* A reviewer sees the other reviewers' verdicts on a question only once their own
  is submitted, and (with a plan) only on questions of their queue
  (:func:`others_submitted`).
* A verdict's blind answer — or its "not blind" — is fixed when the verdict is
  first recorded: it is never changed, nor added afterwards (:func:`blind_fields`).
* Nobody adjudicates a question they were assigned or gave a verdict on
  (:func:`decide`).

Each function runs inside a :mod:`.backend` transaction, so the check and what it
guards read one snapshot.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.model import utc_now
from ai4hse_desk.notes.schema import review_verdicts
from ai4hse_desk.review import writes as review_writes
from ai4hse_desk.review.records import BLIND, NOT_BLIND, dump_list

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection

    from ai4hse_desk.review.records import Decision, ReviewVerdict
    from ai4hse_desk.review.values import Answer

_V = review_verdicts


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
            "blind_at": utc_now(),
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


def others_submitted(conn: Connection, question_id: str, who: str) -> list[ReviewVerdict]:
    """The other reviewers' submitted verdicts on ``question_id``, for ``who``.

    Raises:
        BlindRuleError: ``who`` has not submitted a verdict on it, or (with a plan)
            it is not in their queue.
    """
    plan = review_writes.read_plan(conn)
    if plan is not None and who not in plan.plan.assignments.get(question_id, ()):
        raise BlindRuleError(f"{question_id} is not in {who}'s review queue")
    rows = review_writes.read_verdicts(conn, _V.c.question_id == question_id)
    mine = next((v for v in rows if v.reviewer == who), None)
    if mine is None or not mine.submitted:
        raise BlindRuleError(
            f"{who} has not submitted a verdict on {question_id}; the other "
            "reviewers' verdicts stay hidden until then"
        )
    return [v for v in rows if v.reviewer != who and v.submitted]


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
    plan = review_writes.read_plan(conn)
    assigned = set() if plan is None else set(plan.plan.assignments.get(question_id, ()))
    rows = review_writes.read_verdicts(conn, _V.c.question_id == question_id)
    if who in assigned | {v.reviewer for v in rows}:
        raise ReviewError(
            f"{who} is one of {question_id}'s reviewers; another person adjudicates it"
        )
    return review_writes.record_decision(
        conn, question_id, who, decision, corrected, note, audit_sha256
    )
