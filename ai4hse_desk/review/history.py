"""The review tables' rows as records: plans with assignments, verdicts and decisions
with every revision — what ``notes export`` writes and ``notes import`` merges.

A verdict revision's ``changes`` column is JSON text whose list fields (blind
answer, proposed key) are themselves JSON text; here they are tuples, as every
other list of a record is (:mod:`ai4hse_desk.notes.changes` writes and reads the
column for every history). :mod:`.read` reads the records and :mod:`.merge` merges
them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from ai4hse_desk.notes import changes as revision_changes
from ai4hse_desk.review.records import (
    VERDICT_FIELDS,
    decision_fields,
    dump_list,
    load_list,
    opt_text,
    verdict_fields,
    verdict_values,
)

if TYPE_CHECKING:
    from ai4hse_desk.review.values import Answer

#: The list-valued fields of a verdict revision (JSON text in the tables).
LIST_FIELDS: Final = frozenset({"blind_answer", "proposed_key"})
#: What a verdict revision's action is: the first one, a change, the change submitting it,
#: a change taking back the reviewer's previous one, a change putting it back again.
VERDICT_ACTIONS: Final = ("create", "edit", "submit", "undo", "redo")

#: A verdict revision's ``changes``: field → (old, new), list fields as tuples.
Changes = dict[str, tuple[object, object]]


@dataclass(frozen=True, slots=True)
class PlanRecord:
    """One stored plan with its assignments: question → (position, reviewers by name)."""

    plan_id: str
    created_at: str
    created_by: str
    per_question: int
    order: str
    seed: int | None
    reviewers: tuple[str, ...]
    questions: int
    audit_sha256: str | None
    assignments: tuple[tuple[str, int, tuple[str, ...]], ...]
    where: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class VerdictRevision:
    """One row of ``review_verdict_revisions`` (lists as tuples, ``changes`` decoded)."""

    revision_id: str
    verdict_id: str
    at: str
    action: str
    blind: str
    blind_answer: Answer | None
    blind_at: str | None
    verdict: str | None
    proposed_key: Answer | None
    confidence: str | None
    source: str
    note: str
    state: str
    changes: Changes = field(hash=False)
    writer_clock: str | None = None
    where: str = field(default="", compare=False)

    def blind_triple(self) -> tuple[object, ...]:
        """What the blind rule fixes: the mode, the answer and its time."""
        return (self.blind, self.blind_answer, self.blind_at)


@dataclass(frozen=True, slots=True)
class VerdictRecord:
    """One verdict's identity with every revision, oldest first."""

    verdict_id: str
    question_id: str
    reviewer: str
    created_at: str
    audit_sha256: str | None
    revisions: tuple[VerdictRevision, ...]
    where: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class DecisionRevision:
    """One row of ``review_decision_revisions``."""

    revision_id: str
    decision_id: str
    adjudicator: str
    at: str
    decision: str
    corrected_key: Answer | None
    note: str
    writer_clock: str | None = None
    where: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class DecisionRecord:
    """One question's decision with every revision, oldest first."""

    decision_id: str
    question_id: str
    created_at: str
    audit_sha256: str | None
    revisions: tuple[DecisionRevision, ...]
    where: str = field(default="", compare=False)


@dataclass(frozen=True, slots=True)
class ReviewData:
    """Every plan, verdict and decision of a store (or of an export)."""

    plans: tuple[PlanRecord, ...] = ()
    verdicts: tuple[VerdictRecord, ...] = ()
    decisions: tuple[DecisionRecord, ...] = ()
    #: What a damaged store holds without its history (a verdict or decision row
    #: whose revisions were deleted behind the desk's back), described; left out.
    orphans: tuple[str, ...] = ()


def _stored(name: str, value: object) -> object:
    """A verdict field's value as its column holds it (a list as its JSON text)."""
    if name in LIST_FIELDS and isinstance(value, tuple):
        return dump_list(value)
    return value


def _loaded(name: str, value: object) -> object:
    return load_list(value, name) if name in LIST_FIELDS else value


def decode_changes(text: object, revision_id: str) -> Changes:
    """A stored ``changes`` column, list fields back as tuples."""
    damaged = f"the notes store holds a damaged verdict revision: {revision_id}"
    return revision_changes.read_column(text, damaged, known=VERDICT_FIELDS, value=_loaded)


def verdict_revision(row: Any) -> VerdictRevision:
    return VerdictRevision(
        revision_id=str(row.revision_id),
        verdict_id=str(row.verdict_id),
        at=str(row.at),
        action=str(row.action),
        changes=decode_changes(row.changes, str(row.revision_id)),
        writer_clock=opt_text(row.writer_clock),
        **verdict_fields(row),
    )


def verdict_revision_row(rev: VerdictRevision) -> dict[str, object]:
    return {
        "revision_id": rev.revision_id,
        "verdict_id": rev.verdict_id,
        "at": rev.at,
        "action": rev.action,
        **verdict_values(rev),
        "changes": revision_changes.column_text(rev.changes, _stored),
        "writer_clock": rev.writer_clock,
    }


def decision_revision(row: Any) -> DecisionRevision:
    return DecisionRevision(
        revision_id=str(row.revision_id),
        decision_id=str(row.decision_id),
        writer_clock=opt_text(row.writer_clock),
        **decision_fields(row),
    )


def decision_revision_row(rev: DecisionRevision) -> dict[str, object]:
    return {
        "revision_id": rev.revision_id,
        "decision_id": rev.decision_id,
        "adjudicator": rev.adjudicator,
        "at": rev.at,
        "decision": rev.decision,
        "corrected_key": dump_list(rev.corrected_key),
        "note": rev.note,
        "writer_clock": rev.writer_clock,
    }
