"""What the review tables hold, as plain records, and their rows.

A :class:`ReviewVerdict` is one reviewer's verdict on one question as its latest
revision leaves it; a :class:`Decision` is the adjudicator's latest decision on a
question; a :class:`StoredPlan` is a :class:`~.plan.Plan` as the store
keeps it. Lists (answers, keys, reviewers) are JSON text in the tables.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Protocol

from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.review.values import Answer, is_concern, key_of

if TYPE_CHECKING:
    from ai4hse_desk.review.plan import Plan

#: How the blind answer was recorded: given before the reveal, or skipped.
BLIND: Final = "blind"
NOT_BLIND: Final = "not_blind"
BLIND_MODES: Final = (BLIND, NOT_BLIND)
#: The fields of a verdict revision, in the order exports list them.
VERDICT_FIELDS: Final = (
    "blind",
    "blind_answer",
    "blind_at",
    "verdict",
    "proposed_key",
    "confidence",
    "source",
    "note",
    "state",
)


@dataclass(frozen=True, slots=True)
class ReviewVerdict:
    """One reviewer's verdict on one question, as it stands now.

    Attributes:
        verdict_id: the verdict's id (a UUID), the same in every store it is merged into.
        blind: :data:`BLIND` (``blind_answer`` given before the key was shown) or
            :data:`NOT_BLIND` (skipped; recorded as such).
        blind_at: when the blind answer (or the skip) was recorded.
        verdict: one of ``VERDICTS``; ``None`` for a draft saved before choosing.
        state: ``draft`` or ``submitted``.
        updated_at: the latest revision's time.
    """

    verdict_id: str
    question_id: str
    reviewer: str
    created_at: str
    blind: str
    blind_answer: Answer | None
    blind_at: str | None
    verdict: str | None
    proposed_key: Answer | None
    confidence: str | None
    source: str
    note: str
    state: str
    updated_at: str

    @property
    def submitted(self) -> bool:
        """True once the reviewer submitted it."""
        return self.state == "submitted"

    @property
    def concern(self) -> bool:
        """True for a submitted verdict other than ``key_ok``."""
        return self.submitted and self.verdict is not None and is_concern(self.verdict)

    def to_json(self) -> dict[str, object]:
        """The verdict as cli.md's one-line JSON object."""
        return {
            "verdict_id": self.verdict_id,
            "question_id": self.question_id,
            "reviewer": self.reviewer,
            "state": self.state,
            "verdict": self.verdict,
            "blind": self.blind == BLIND,
            "blind_answer": None if self.blind_answer is None else list(self.blind_answer),
            "blind_at": self.blind_at,
            "proposed_key": None if self.proposed_key is None else list(self.proposed_key),
            "confidence": self.confidence,
            "source": self.source,
            "note": self.note,
            "created_at": self.created_at,
            "updated_at": self.updated_at,
        }


@dataclass(frozen=True, slots=True)
class Decision:
    """An adjudicator's decision on one question, as its latest revision leaves it."""

    decision_id: str
    question_id: str
    adjudicator: str
    decision: str
    corrected_key: Answer | None
    note: str
    at: str

    def to_json(self) -> dict[str, object]:
        """The decision as cli.md's JSON object (``key`` as Booleans)."""
        key = None if self.corrected_key is None else list(key_of(self.corrected_key))
        return {
            "decision_id": self.decision_id,
            "question_id": self.question_id,
            "decision": self.decision,
            "key": key,
            "adjudicator": self.adjudicator,
            "note": self.note,
            "at": self.at,
        }


@dataclass(frozen=True, slots=True)
class PlanHeader:
    """The plan in force without its assignments: what every verdict needs to know
    (its reviewers), read in one row however large the plan is."""

    plan_id: str
    created_at: str
    created_by: str
    per_question: int
    order: str
    seed: int | None
    reviewers: tuple[str, ...]
    questions: int


@dataclass(frozen=True, slots=True)
class StoredPlan:
    """The plan in force: the pure :class:`Plan` with who made it and when."""

    plan_id: str
    created_at: str
    created_by: str
    plan: Plan

    def to_json(self) -> dict[str, object]:
        """cli.md's ``plan`` object of ``review status``."""
        return {
            "per_question": self.plan.per_question,
            "questions": len(self.plan.questions),
            "order": self.plan.order,
            "seed": self.plan.seed,
        }


def opt_text(value: object) -> str | None:
    """A nullable text column's value: ``None`` stays ``None``, anything else as text."""
    return None if value is None else str(value)


def dump_list(values: Answer | tuple[str, ...] | None) -> str | None:
    """A list column's text (compact JSON), ``None`` for no list."""
    return None if values is None else json.dumps(list(values), separators=(",", ":"))


def load_list(text: object, what: str) -> tuple[str, ...] | None:
    """A list column back as a tuple of strings; a damaged value is a :class:`ReviewError`."""
    if text is None:
        return None
    try:
        values = json.loads(str(text))
    except ValueError:
        values = None
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise ReviewError(f"the notes store holds a damaged {what}: {str(text)[:40]!r}")
    return tuple(values)


def verdict_fields(row: Any) -> dict[str, Any]:
    """The :data:`VERDICT_FIELDS` of a verdict revision row, as records hold them (lists
    as tuples): one reading for the current verdict and for its history."""
    return {
        "blind": str(row.blind),
        "blind_answer": load_list(row.blind_answer, "blind answer"),
        "blind_at": opt_text(row.blind_at),
        "verdict": opt_text(row.verdict),
        "proposed_key": load_list(row.proposed_key, "proposed key"),
        "confidence": opt_text(row.confidence),
        "source": str(row.source),
        "note": str(row.note),
        "state": str(row.state),
    }


def decision_fields(row: Any) -> dict[str, Any]:
    """The fields of a decision revision row, as records hold them (one reading for the
    current decision and for its history)."""
    return {
        "adjudicator": str(row.adjudicator),
        "at": str(row.at),
        "decision": str(row.decision),
        "corrected_key": load_list(row.corrected_key, "corrected key"),
        "note": str(row.note),
    }


def verdict_from_row(row: Any) -> ReviewVerdict:
    """A joined verdict + latest revision row as a :class:`ReviewVerdict`."""
    return ReviewVerdict(
        verdict_id=str(row.verdict_id),
        question_id=str(row.question_id),
        reviewer=str(row.reviewer),
        created_at=str(row.created_at),
        updated_at=str(row.at),
        **verdict_fields(row),
    )


def decision_from_row(row: Any) -> Decision:
    """A joined decision + latest revision row as a :class:`Decision`."""
    return Decision(
        decision_id=str(row.decision_id), question_id=str(row.question_id), **decision_fields(row)
    )


class VerdictFields(Protocol):
    """What carries a verdict's :data:`VERDICT_FIELDS`: a :class:`ReviewVerdict`, or one of
    its revisions (:class:`~.history.VerdictRevision`)."""

    @property
    def blind(self) -> str: ...
    @property
    def blind_answer(self) -> Answer | None: ...
    @property
    def blind_at(self) -> str | None: ...
    @property
    def verdict(self) -> str | None: ...
    @property
    def proposed_key(self) -> Answer | None: ...
    @property
    def confidence(self) -> str | None: ...
    @property
    def source(self) -> str: ...
    @property
    def note(self) -> str: ...
    @property
    def state(self) -> str: ...


def verdict_values(verdict: VerdictFields) -> dict[str, object]:
    """A verdict's (or a verdict revision's) :data:`VERDICT_FIELDS` as column values."""
    return {
        "blind": verdict.blind,
        "blind_answer": dump_list(verdict.blind_answer),
        "blind_at": verdict.blind_at,
        "verdict": verdict.verdict,
        "proposed_key": dump_list(verdict.proposed_key),
        "confidence": verdict.confidence,
        "source": verdict.source,
        "note": verdict.note,
        "state": verdict.state,
    }
