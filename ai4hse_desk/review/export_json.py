"""The review in a notes export's JSON (export version 2), and the entries it is made of.

Three lists, each item with its full history: ``review_plans`` (each plan with its
assignments), ``review_verdicts`` (one per question × reviewer: the current state, the
fields of cli.md's verdict line, and ``revisions``) and ``review_decisions`` (the
current decision, as in the review report, and ``revisions``). Lists stay lists in
option order, as the CLI takes them; ``blind`` is ``true`` for a blind answer given
before the key was shown. The CSV and XLSX forms are :mod:`.export_frames`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ai4hse_desk.display.format import option_letter
from ai4hse_desk.notes.changes import as_json
from ai4hse_desk.review.history import LIST_FIELDS
from ai4hse_desk.review.records import BLIND
from ai4hse_desk.review.values import key_of

if TYPE_CHECKING:
    from ai4hse_desk.audit import Question
    from ai4hse_desk.review.history import (
        DecisionRecord,
        DecisionRevision,
        PlanRecord,
        VerdictRecord,
        VerdictRevision,
    )
    from ai4hse_desk.review.values import Answer


@dataclass(frozen=True, slots=True)
class VerdictEntry:
    """A verdict with its history (and its question, when private texts are asked for)."""

    record: VerdictRecord
    question: Question | None

    @property
    def latest(self) -> VerdictRevision:
        """The revision that holds the verdict's current state."""
        return self.record.revisions[-1]


@dataclass(frozen=True, slots=True)
class DecisionEntry:
    """A decision with its history (and its question, when private texts are asked for)."""

    record: DecisionRecord
    question: Question | None

    @property
    def latest(self) -> DecisionRevision:
        """The revision that holds the decision's current state."""
        return self.record.revisions[-1]


def lettered(answer: Answer | None) -> str | None:
    """``("TRUE", "FALSE")`` → ``"A TRUE, B FALSE"`` (the window's option letters)."""
    if answer is None:
        return None
    return ", ".join(f"{option_letter(i)} {value}" for i, value in enumerate(answer))


def json_value(name: str, value: object) -> object:
    """A verdict field's value in JSON (``blind`` a Boolean, lists as lists)."""
    if name == "blind" and isinstance(value, str):
        return value == BLIND
    if name in LIST_FIELDS and isinstance(value, tuple):
        return list(value)
    return value


def _clock_json(writer_clock: str | None) -> dict[str, object]:
    """``writer_clock`` only on a revision whose writer's clock was overruled."""
    return {} if writer_clock is None else {"writer_clock": writer_clock}


def verdict_revision_json(rev: VerdictRevision) -> dict[str, object]:
    """One verdict revision as a JSON object."""
    return {
        "revision_id": rev.revision_id,
        "verdict_id": rev.verdict_id,
        "at": rev.at,
        "action": rev.action,
        **verdict_fields_json(rev),
        "changes": as_json(rev.changes, json_value),
        **_clock_json(rev.writer_clock),
    }


def verdict_fields_json(rev: VerdictRevision) -> dict[str, object]:
    """The verdict fields a revision leaves (cli.md's verdict line has the same)."""
    return {
        "state": rev.state,
        "verdict": rev.verdict,
        "blind": rev.blind == BLIND,
        "blind_answer": None if rev.blind_answer is None else list(rev.blind_answer),
        "blind_at": rev.blind_at,
        "proposed_key": None if rev.proposed_key is None else list(rev.proposed_key),
        "confidence": rev.confidence,
        "source": rev.source,
        "note": rev.note,
    }


def _private_json(question: Question | None) -> dict[str, object]:
    if question is None:
        return {}
    return {
        "question_text": question.text,
        "options": [option.text for option in question.options],
        "answer_key": ["TRUE" if option.key else "FALSE" for option in question.options],
    }


def verdict_json(entry: VerdictEntry) -> dict[str, object]:
    """A verdict as a JSON item: its current state, identity, history (and private texts)."""
    record = entry.record
    return {
        "verdict_id": record.verdict_id,
        "question_id": record.question_id,
        "reviewer": record.reviewer,
        **verdict_fields_json(entry.latest),
        "created_at": record.created_at,
        "updated_at": entry.latest.at,
        "audit_sha256": record.audit_sha256,
        **_private_json(entry.question),
        "revisions": [verdict_revision_json(rev) for rev in record.revisions],
    }


def key_json(key: Answer | None) -> list[bool] | None:
    """A corrected key as the review report gives it: Booleans."""
    return None if key is None else list(key_of(key))


def decision_revision_json(rev: DecisionRevision) -> dict[str, object]:
    """One decision revision as a JSON object."""
    return {
        "revision_id": rev.revision_id,
        "decision_id": rev.decision_id,
        **decision_fields_json(rev),
        **_clock_json(rev.writer_clock),
    }


def decision_fields_json(rev: DecisionRevision) -> dict[str, object]:
    """The decision fields a revision leaves (the review report's ``decisions`` have them)."""
    return {
        "decision": rev.decision,
        "key": key_json(rev.corrected_key),
        "adjudicator": rev.adjudicator,
        "note": rev.note,
        "at": rev.at,
    }


def decision_json(entry: DecisionEntry) -> dict[str, object]:
    """A decision as a JSON item (the review report's fields, identity and history)."""
    record = entry.record
    return {
        "decision_id": record.decision_id,
        "question_id": record.question_id,
        **decision_fields_json(entry.latest),
        "created_at": record.created_at,
        "audit_sha256": record.audit_sha256,
        **_private_json(entry.question),
        "revisions": [decision_revision_json(rev) for rev in record.revisions],
    }


def plan_json(plan: PlanRecord) -> dict[str, object]:
    """A plan as a JSON item, its assignments in plan order."""
    return {
        "plan_id": plan.plan_id,
        "created_at": plan.created_at,
        "created_by": plan.created_by,
        "per_question": plan.per_question,
        "order": plan.order,
        "seed": plan.seed,
        "reviewers": list(plan.reviewers),
        "questions": plan.questions,
        "audit_sha256": plan.audit_sha256,
        "assignments": [
            {"question_id": qid, "position": position, "reviewers": list(who)}
            for qid, position, who in plan.assignments
        ],
    }
