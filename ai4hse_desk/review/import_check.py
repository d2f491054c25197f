"""Checking the review lists of a notes export (version 2) before anything is imported.

:class:`ReviewChecker` checks ``review_plans``, ``review_verdicts`` and
``review_decisions`` as the CLI checks its input (cli.md, "Review"): each question
exists in *this* audit database and every list has one value per option; verdicts,
decisions, confidences, states, plan orders are known names; reviewer names,
UUIDs and times are as the desk writes them (times real and not in the future);
``key_wrong`` has a proposed key and ``key_corrected`` a key; a plan gives each of
its questions exactly K distinct reviewers of its own, balanced. The parts of each
item must agree as the store writes them: one ``create`` revision dated
``created_at``, none before it, **every revision with the blind answer (or "not
blind") and time the verdict was first recorded with**, ``changes`` that lead to the
revision's values, and the item's summary equal to its latest revision. The first
problem is one :class:`~ai4hse_desk.notes.errors.ReviewError` naming its JSON path;
what the store already holds is checked in the merge (:mod:`.merge`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ai4hse_desk.notes import import_fields as f
from ai4hse_desk.review import import_items as vals
from ai4hse_desk.review.export_json import decision_fields_json, verdict_fields_json
from ai4hse_desk.review.history import (
    LIST_FIELDS,
    VERDICT_ACTIONS,
    DecisionRecord,
    DecisionRevision,
    ReviewData,
    VerdictRecord,
    VerdictRevision,
)
from ai4hse_desk.review.import_items import ItemChecks
from ai4hse_desk.review.import_plans import check_plan
from ai4hse_desk.review.records import BLIND, NOT_BLIND, VERDICT_FIELDS
from ai4hse_desk.review.values import (
    CONFIDENCES,
    DECISIONS,
    KEY_CORRECTED,
    KEY_WRONG,
    MAX_SOURCE,
    SUBMITTED,
    VERDICT_STATES,
    VERDICTS,
)

if TYPE_CHECKING:
    from collections.abc import Mapping
    from datetime import datetime

    from ai4hse_desk.notes.store import NotesStore

#: The review lists of an export (version 2).
REVIEW_LISTS: Final = ("review_plans", "review_verdicts", "review_decisions")
#: The fields a verdict item repeats from its latest revision.
_VERDICT_STATE: Final = ("state", "verdict", "blind", "blind_answer", "blind_at",
                         "proposed_key", "confidence", "source", "note")  # fmt: skip
_VERDICT: Final = frozenset(
    {"verdict_id", "question_id", "reviewer", "created_at", "updated_at", "audit_sha256",
     "revisions", *_VERDICT_STATE}
)  # fmt: skip
_VERDICT_REVISION: Final = frozenset(
    {"revision_id", "verdict_id", "at", "action", "changes", *_VERDICT_STATE}
)
#: The fields a decision item repeats from its latest revision.
_DECISION_STATE: Final = ("decision", "key", "adjudicator", "note", "at")
_DECISION: Final = frozenset(
    {"decision_id", "question_id", "created_at", "audit_sha256", "revisions", *_DECISION_STATE}
)
_DECISION_REVISION: Final = frozenset({"revision_id", "decision_id", *_DECISION_STATE})


class ReviewChecker:
    """Checks the review lists of one export against one store's audit database."""

    def __init__(self, store: NotesStore, now: datetime) -> None:
        self.items = ItemChecks(store, now)

    def review(self, doc: Mapping[str, Any], private: bool) -> ReviewData:
        """The three review lists of ``doc``, checked."""
        extra = vals.PRIVATE if private else frozenset()
        plans = [
            check_plan(self.items, raw, f.child("review_plans", i))
            for i, raw in enumerate(vals.item_list(doc, "review_plans"))
        ]
        verdicts = [
            self.verdict(raw, f.child("review_verdicts", i), extra)
            for i, raw in enumerate(vals.item_list(doc, "review_verdicts"))
        ]
        decisions = [
            self.decision(raw, f.child("review_decisions", i), extra)
            for i, raw in enumerate(vals.item_list(doc, "review_decisions"))
        ]
        pairs: dict[tuple[str, str], str] = {}
        for verdict in verdicts:
            pair = (verdict.question_id, verdict.reviewer)
            if pair in pairs:
                f.fail(
                    f.child(verdict.where, "reviewer"),
                    f"a second verdict of {verdict.reviewer} on {verdict.question_id} "
                    f"(also at {pairs[pair]}); one verdict per reviewer and question",
                )
            pairs[pair] = verdict.where
        return ReviewData(tuple(plans), tuple(verdicts), tuple(decisions))

    # -- verdicts ----------------------------------------------------------------------

    def verdict(self, raw: object, where: str, extra: frozenset[str]) -> VerdictRecord:
        """One verdict with its revisions."""
        obj = f.exact_object(raw, where, _VERDICT | extra)
        verdict_id = self.items.item_id(obj, "verdict_id", where, "verdict")
        question_id, options = self.items.question(
            obj["question_id"], f.child(where, "question_id")
        )
        self.items.private_texts(obj, where)
        created_at = self.items.time(obj["created_at"], f.child(where, "created_at"))
        raw_revisions = vals.history(obj["revisions"], where, "verdict")
        at = f.child(where, "revisions")
        revisions = [
            self.verdict_revision(rev, verdict_id, options, f.child(at, i))
            for i, rev in enumerate(raw_revisions)
        ]
        ordered = sorted(revisions, key=lambda r: (r.at, r.revision_id))
        creates = [rev for rev in revisions if rev.action == "create"]
        if len(creates) != 1:
            f.fail(at, f"needs exactly one create revision, not {len(creates)}")
        if ordered[0] is not creates[0] or creates[0].at != created_at:
            f.fail(f.child(creates[0].where, "at"), "differs from the verdict's created_at")
        first = creates[0]
        for rev in revisions:
            if rev.blind_triple() != first.blind_triple():
                f.fail(
                    f.child(rev.where, "blind_answer"),
                    "differs from the blind answer the verdict was first recorded with; a "
                    "blind answer is fixed once the key was shown",
                )
        latest = ordered[-1]
        summary = {**verdict_fields_json(latest), "updated_at": latest.at}
        for name, value in summary.items():
            if not vals.same(obj[name], value):
                f.fail(f.child(where, name), "differs from the verdict's latest revision")
        return VerdictRecord(
            verdict_id=verdict_id,
            question_id=question_id,
            reviewer=f.reviewer(obj["reviewer"], f.child(where, "reviewer")),
            created_at=created_at,
            audit_sha256=self.items.sha(obj["audit_sha256"], f.child(where, "audit_sha256")),
            revisions=tuple(ordered),
            where=where,
        )

    def _verdict_fields(self, obj: Mapping[str, Any], options: int, where: str) -> dict[str, Any]:
        """The verdict fields of a revision, checked, as the store keeps them."""
        blind = f.flag(obj["blind"], f.child(where, "blind"))
        answer = vals.answer(
            obj["blind_answer"], options, f.child(where, "blind_answer"), unsure=True
        )
        if blind != (answer is not None):
            f.fail(f.child(where, "blind_answer"), "a blind verdict has a blind answer; no other")
        verdict = vals.choice(obj["verdict"], VERDICTS, f.child(where, "verdict"), null=True)
        key = vals.answer(
            obj["proposed_key"], options, f.child(where, "proposed_key"), unsure=False
        )
        if verdict == KEY_WRONG and key is None:
            f.fail(f.child(where, "proposed_key"), "key_wrong needs a proposed key")
        state = vals.choice(obj["state"], VERDICT_STATES, f.child(where, "state"))
        if state == SUBMITTED and verdict is None:
            f.fail(f.child(where, "verdict"), "a submitted verdict needs a verdict")
        return {
            "blind": BLIND if blind else NOT_BLIND,
            "blind_answer": answer,
            "blind_at": self.items.time(obj["blind_at"], f.child(where, "blind_at")),
            "verdict": verdict,
            "proposed_key": key,
            "confidence": vals.choice(
                obj["confidence"], CONFIDENCES, f.child(where, "confidence"), null=True
            ),
            "source": vals.note(obj["source"], f.child(where, "source"), MAX_SOURCE),
            "note": vals.note(obj["note"], f.child(where, "note")),
            "state": state,
        }

    def verdict_revision(
        self, raw: object, verdict_id: str, options: int, where: str
    ) -> VerdictRevision:
        """One revision of the verdict ``verdict_id``."""
        obj = f.exact_object(raw, where, _VERDICT_REVISION, f.WRITER_CLOCK)
        revision_id = self.items.item_id(obj, "revision_id", where, "verdict revision")
        if obj["verdict_id"] != verdict_id:
            f.fail(f.child(where, "verdict_id"), "belongs to another verdict")
        action = vals.choice(obj["action"], VERDICT_ACTIONS, f.child(where, "action"))
        values = self._verdict_fields(obj, options, where)
        if action == "submit" and values["state"] != SUBMITTED:
            f.fail(f.child(where, "action"), "a submit revision leaves the verdict submitted")
        changes = self._changes(obj["changes"], values, options, action, f.child(where, "changes"))
        return VerdictRevision(
            revision_id=revision_id,
            verdict_id=verdict_id,
            at=self.items.time(obj["at"], f.child(where, "at")),
            action=action,
            changes=changes,
            writer_clock=self.items.optional_time(obj, "writer_clock", where),
            where=where,
            **values,
        )

    def _change_value(self, name: str, raw: object, options: int, where: str) -> object:
        """One side of a change, as the store keeps the field (``None`` allowed)."""
        if raw is None:
            return None
        if name == "blind":
            return BLIND if f.flag(raw, where) else NOT_BLIND
        if name in LIST_FIELDS:
            return vals.answer(raw, options, where, unsure=name == "blind_answer")
        if name == "blind_at":
            return self.items.time(raw, where)
        if name in ("source", "note"):
            return vals.note(raw, where, MAX_SOURCE if name == "source" else None)
        allowed = {"verdict": VERDICTS, "confidence": CONFIDENCES, "state": VERDICT_STATES}
        return vals.choice(raw, allowed[name], where)

    def _changes(
        self, raw: object, values: Mapping[str, Any], options: int, action: str, where: str
    ) -> dict[str, tuple[object, object]]:
        if not isinstance(raw, dict):
            f.fail(where, f"must be an object, not {f.json_kind(raw)}")
        out: dict[str, tuple[object, object]] = {}
        for name, pair in raw.items():
            at = f.child(where, name)
            if name not in VERDICT_FIELDS:
                f.fail(at, "is not a field of a verdict")
            if not isinstance(pair, list) or len(pair) != 2:
                f.fail(at, f"a change must be [old, new], not {f.json_kind(pair)}")
            old, new = (
                self._change_value(name, v, options, f.child(at, i)) for i, v in enumerate(pair)
            )
            if new != values[name]:
                f.fail(f.child(at, 1), "differs from the revision's values")
            if old == new:
                f.fail(at, "a change must change its field")
            out[name] = (old, new)
        if action == "create":
            expected = {name: (None, value) for name, value in values.items() if value is not None}
            if out != expected:
                f.fail(where, "a create revision sets every field that has a value, each from null")
        elif not out:
            f.fail(where, f"an {action} revision must change something")
        return out

    # -- decisions ---------------------------------------------------------------------

    def decision(self, raw: object, where: str, extra: frozenset[str]) -> DecisionRecord:
        """One question's decision with its revisions."""
        obj = f.exact_object(raw, where, _DECISION | extra)
        decision_id = self.items.item_id(obj, "decision_id", where, "decision")
        question_at = f.child(where, "question_id")
        question_id, options = self.items.question(obj["question_id"], question_at)
        self.items.once("decided question", question_id, question_at)
        self.items.private_texts(obj, where)
        created_at = self.items.time(obj["created_at"], f.child(where, "created_at"))
        at = f.child(where, "revisions")
        revisions = [
            self.decision_revision(rev, decision_id, options, f.child(at, i))
            for i, rev in enumerate(vals.history(obj["revisions"], where, "decision"))
        ]
        ordered = sorted(revisions, key=lambda r: (r.at, r.revision_id))
        firsts = [rev for rev in revisions if rev.at == created_at]
        if len(firsts) != 1:
            f.fail(at, f"needs exactly one revision dated created_at, not {len(firsts)}")
        if ordered[0] is not firsts[0]:
            f.fail(f.child(ordered[0].where, "at"), "is before the decision was created")
        summary = decision_fields_json(ordered[-1])
        for name, value in summary.items():
            if not vals.same(obj[name], value):
                f.fail(f.child(where, name), "differs from the decision's latest revision")
        return DecisionRecord(
            decision_id=decision_id,
            question_id=question_id,
            created_at=created_at,
            audit_sha256=self.items.sha(obj["audit_sha256"], f.child(where, "audit_sha256")),
            revisions=tuple(ordered),
            where=where,
        )

    def decision_revision(
        self, raw: object, decision_id: str, options: int, where: str
    ) -> DecisionRevision:
        """One revision of the decision ``decision_id``."""
        obj = f.exact_object(raw, where, _DECISION_REVISION, f.WRITER_CLOCK)
        revision_id = self.items.item_id(obj, "revision_id", where, "decision revision")
        if obj["decision_id"] != decision_id:
            f.fail(f.child(where, "decision_id"), "belongs to another decision")
        decision = vals.choice(obj["decision"], DECISIONS, f.child(where, "decision"))
        key = vals.key(obj["key"], options, f.child(where, "key"))
        if (decision == KEY_CORRECTED) != (key is not None):
            f.fail(f.child(where, "key"), "key_corrected has the corrected key; no other decision")
        return DecisionRevision(
            revision_id=revision_id,
            decision_id=decision_id,
            adjudicator=f.reviewer(obj["adjudicator"], f.child(where, "adjudicator")),
            at=self.items.time(obj["at"], f.child(where, "at")),
            decision=decision,
            corrected_key=key,
            note=vals.note(obj["note"], f.child(where, "note")),
            writer_clock=self.items.optional_time(obj, "writer_clock", where),
            where=where,
        )
