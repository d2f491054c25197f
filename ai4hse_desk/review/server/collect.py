"""``review collect``: the whole review on a server as the notes export (JSON version 2).

The coordinator reads the whole review (``review_export``: every plan with its
assignments, every verdict and decision with every revision, as the server recorded
them with its own clock and the logins as authors) and writes it as the JSON export
that ``notes import`` merges into the store beside the audit file
(:mod:`~ai4hse_desk.review.exports`, :mod:`~ai4hse_desk.review.export_json`): the same
records, written by the same functions, as a local store's export. A verdict
revision's ``changes`` are derived from the revision before it, as the local store
derives them when it writes; the file holds no private text (no question, option or
key). Importing it twice adds nothing.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ai4hse_desk.notes.changes import diff
from ai4hse_desk.notes.model import utc_now
from ai4hse_desk.review.export_json import (
    DecisionEntry,
    VerdictEntry,
    decision_json,
    plan_json,
    verdict_json,
)
from ai4hse_desk.review.exports import EXPORT_FORMAT, EXPORT_VERSION
from ai4hse_desk.review.history import (
    DecisionRecord,
    DecisionRevision,
    PlanRecord,
    ReviewData,
    VerdictRecord,
    VerdictRevision,
)
from ai4hse_desk.review.records import VERDICT_FIELDS, Decision, ReviewVerdict

if TYPE_CHECKING:
    import os
    from collections.abc import Mapping, Sequence
    from pathlib import Path

    from ai4hse_desk.review.server.client import ReviewServer

Item = dict[str, Any]


def _listed(value: object) -> tuple[str, ...] | None:
    if value is None:
        return None
    assert isinstance(value, list)
    return tuple(str(v) for v in value)


def _plan(item: Item) -> PlanRecord:
    return PlanRecord(
        plan_id=str(item["plan_id"]),
        created_at=str(item["created_at"]),
        created_by=str(item["created_by"]),
        per_question=int(item["per_question"]),
        order=str(item["order"]),
        seed=item["seed"],
        reviewers=tuple(item["reviewers"]),
        questions=int(item["questions"]),
        audit_sha256=item["audit_sha256"],
        assignments=tuple(
            (str(a["question_id"]), int(a["position"]), tuple(a["reviewers"]))
            for a in item["assignments"] or ()
        ),
    )


def _revision(verdict_id: str, rev: Item, before: VerdictRevision | None) -> VerdictRevision:
    """One revision of the server's export, with the ``changes`` the local store would
    have written: every field from the revision before it (none for the first)."""
    fields: dict[str, Any] = {
        "blind": str(rev["blind"]),
        "blind_answer": _listed(rev["blind_answer"]),
        "blind_at": rev["blind_at"],
        "verdict": rev["verdict"],
        "proposed_key": _listed(rev["proposed_key"]),
        "confidence": rev["confidence"],
        "source": str(rev["source"]),
        "note": str(rev["note"]),
        "state": str(rev["state"]),
    }
    old = {} if before is None else {name: getattr(before, name) for name in VERDICT_FIELDS}
    return VerdictRevision(
        revision_id=str(rev["revision_id"]),
        verdict_id=verdict_id,
        at=str(rev["at"]),
        action=str(rev["action"]),
        changes=diff(old, fields),
        **fields,
    )


def _verdict(item: Item) -> VerdictRecord:
    verdict_id = str(item["verdict_id"])
    revisions: list[VerdictRevision] = []
    for rev in item["revisions"]:
        revisions.append(_revision(verdict_id, rev, revisions[-1] if revisions else None))
    return VerdictRecord(
        verdict_id,
        str(item["question_id"]),
        str(item["reviewer"]),
        str(item["created_at"]),
        item["audit_sha256"],
        tuple(revisions),
    )


def _decision(item: Item) -> DecisionRecord:
    decision_id = str(item["decision_id"])
    revisions = tuple(
        DecisionRevision(
            revision_id=str(rev["revision_id"]),
            decision_id=decision_id,
            adjudicator=str(rev["adjudicator"]),
            at=str(rev["at"]),
            decision=str(rev["decision"]),
            corrected_key=_listed(rev["corrected_key"]),
            note=str(rev["note"]),
        )
        for rev in item["revisions"]
    )
    return DecisionRecord(
        decision_id,
        str(item["question_id"]),
        str(item["created_at"]),
        item["audit_sha256"],
        revisions,
    )


def review_data(export: Mapping[str, Any]) -> ReviewData:
    """The server's whole review (``review_export``) as the desk's records."""
    return ReviewData(
        tuple(_plan(item) for item in export["plans"]),
        tuple(_verdict(item) for item in export["verdicts"]),
        tuple(_decision(item) for item in export["decisions"]),
    )


def current_verdicts(data: ReviewData) -> list[ReviewVerdict]:
    """Every verdict as its latest revision leaves it."""
    out = []
    for record in data.verdicts:
        last = record.revisions[-1]
        out.append(
            ReviewVerdict(
                verdict_id=record.verdict_id,
                question_id=record.question_id,
                reviewer=record.reviewer,
                created_at=record.created_at,
                blind=last.blind,
                blind_answer=last.blind_answer,
                blind_at=last.blind_at,
                verdict=last.verdict,
                proposed_key=last.proposed_key,
                confidence=last.confidence,
                source=last.source,
                note=last.note,
                state=last.state,
                updated_at=last.at,
            )
        )
    return out


def current_decisions(data: ReviewData) -> list[Decision]:
    """Every decision as its latest revision leaves it."""
    out = []
    for record in data.decisions:
        last = record.revisions[-1]
        out.append(
            Decision(
                record.decision_id,
                record.question_id,
                last.adjudicator,
                last.decision,
                last.corrected_key,
                last.note,
                last.at,
            )
        )
    return out


def export_document(export: Mapping[str, Any]) -> dict[str, Any]:
    """The notes export (JSON version 2) of the server's whole review."""
    data = review_data(export)
    audit = export.get("audit") or {}
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": utc_now(),
        "audit": {"sha256": audit.get("sha256"), "name": audit.get("name")},
        "include_private": False,
        "flags": [],
        "attempt_notes": [],
        "review_plans": [plan_json(plan) for plan in data.plans],
        "review_verdicts": [verdict_json(VerdictEntry(v, None)) for v in data.verdicts],
        "review_decisions": [decision_json(DecisionEntry(d, None)) for d in data.decisions],
    }


def collect(server: ReviewServer, out: str | os.PathLike[str]) -> dict[str, object]:
    """Write the server's whole review to ``out`` (module docstring); a summary.

    Raises:
        ReviewError: the target is refused (:func:`~ai4hse_desk.filewrite.check_target`).
        ServerError: the login may not read the whole review.
    """
    from ai4hse_desk.filewrite import WriteRefused, check_target, write_bytes
    from ai4hse_desk.notes.errors import ReviewError

    try:
        check_target(out)
    except WriteRefused as exc:
        raise ReviewError(str(exc)) from None
    document = export_document(server.export())
    data = (json.dumps(document, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
    try:
        path: Path = write_bytes(out, data)
    except WriteRefused as exc:
        raise ReviewError(str(exc)) from None
    return {
        "written": str(path),
        "server": server.shown,
        "audit": document["audit"],
        "plans": len(document["review_plans"]),
        "verdicts": len(document["review_verdicts"]),
        "decisions": len(document["review_decisions"]),
    }


def by_ordinal(export: Mapping[str, Any]) -> Sequence[str]:
    """The published questions' ids in corpus (ordinal) order."""
    return [str(q["question_id"]) for q in export["questions"]]
