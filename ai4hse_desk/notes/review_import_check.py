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
what the store already holds is checked in the merge (:mod:`.review_exchange`).
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any, Final

from ai4hse_desk.notes import import_fields as f
from ai4hse_desk.notes.model import check_time, clean_note
from ai4hse_desk.notes.review_history import (
    LIST_FIELDS,
    VERDICT_ACTIONS,
    DecisionRecord,
    DecisionRevision,
    PlanRecord,
    ReviewData,
    VerdictRecord,
    VerdictRevision,
)
from ai4hse_desk.notes.review_json import decision_fields_json, verdict_fields_json
from ai4hse_desk.notes.review_plan import ORDERS
from ai4hse_desk.notes.review_records import BLIND, NOT_BLIND, VERDICT_FIELDS
from ai4hse_desk.notes.review_values import (
    CONFIDENCES,
    DECISIONS,
    FALSE,
    KEY_CORRECTED,
    KEY_WRONG,
    MAX_SOURCE,
    SUBMITTED,
    TRUE,
    UNSURE,
    VERDICT_STATES,
    VERDICTS,
)

if TYPE_CHECKING:
    from collections.abc import Mapping
    from datetime import datetime

    from ai4hse_desk.notes.review_values import Answer
    from ai4hse_desk.notes.store import NotesStore

#: The review lists of an export (version 2).
REVIEW_LISTS: Final = ("review_plans", "review_verdicts", "review_decisions")
_PLAN: Final = frozenset(
    {"plan_id", "created_at", "created_by", "per_question", "order", "seed", "reviewers",
     "questions", "audit_sha256", "assignments"}
)  # fmt: skip
_ASSIGNMENT: Final = frozenset({"question_id", "position", "reviewers"})
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
#: Texts read from the audit file, in a private export only: checked, never stored.
_PRIVATE: Final = frozenset({"question_text", "options", "answer_key"})


def _same(raw: object, value: object) -> bool:
    """``raw`` is exactly ``value`` as JSON (``true`` is not ``1``, ``1.0`` is not ``1``)."""
    return json.dumps(raw, sort_keys=True) == json.dumps(value, sort_keys=True)


def _choice(raw: object, allowed: tuple[str, ...], where: str, *, null: bool = False) -> Any:
    if raw is None and null:
        return None
    if not isinstance(raw, str) or raw not in allowed:
        f.fail(where, f"unknown value {f.shown(raw)} (one of {', '.join(allowed)})")
    return raw


def _answer(raw: object, options: int, where: str, *, unsure: bool) -> Answer | None:
    """A list of one TRUE/FALSE (/UNSURE) per option, or null."""
    if raw is None:
        return None
    if not isinstance(raw, list):
        f.fail(where, f"must be a list of TRUE/FALSE values, not {f.json_kind(raw)}")
    allowed = (TRUE, FALSE, UNSURE) if unsure else (TRUE, FALSE)
    for index, item in enumerate(raw):
        _choice(item, allowed, f.child(where, index))
    if len(raw) != options:
        f.fail(where, f"has {len(raw)} values, but the question has {options} options")
    return tuple(raw)


def _key(raw: object, options: int, where: str) -> Answer | None:
    """A key given as Booleans (the review report's form), or null."""
    if raw is None:
        return None
    if not isinstance(raw, list) or not all(isinstance(item, bool) for item in raw):
        f.fail(where, f"must be a list of true/false, not {f.json_kind(raw)}")
    if len(raw) != options:
        f.fail(where, f"has {len(raw)} values, but the question has {options} options")
    return tuple(TRUE if item else FALSE for item in raw)


def _note(raw: object, where: str, limit: int | None = None) -> str:
    text = f.text(raw, where)
    with f.located(where):
        clean_note(text, required=False)
    if limit is not None and len(text) > limit:
        f.fail(where, f"is limited to {limit} characters, this one has {len(text)}")
    return text


def _list(doc: Mapping[str, Any], key: str) -> list[Any]:
    raw = doc[key]
    if not isinstance(raw, list):
        f.fail(key, f"must be a list, not {f.json_kind(raw)}")
    return raw


def _history(revisions: object, where: str, what: str) -> list[Any]:
    at = f.child(where, "revisions")
    if not isinstance(revisions, list) or not revisions:
        f.fail(at, f"must be the {what}'s non-empty list of revisions")
    return revisions


class ReviewChecker:
    """Checks the review lists of one export against one store's audit database."""

    def __init__(self, store: NotesStore, now: datetime) -> None:
        self.store = store
        self.now = now
        self._options: dict[str, int] = {}
        self._seen: dict[str, dict[str, str]] = {}

    # -- shared checks -----------------------------------------------------------------

    def _question(self, raw: object, where: str) -> tuple[str, int]:
        """A question id of this audit database and its number of options."""
        question_id = f.text(raw, where)
        if question_id not in self._options:
            with f.located(where):
                self.store.check_question(question_id)
            self._options[question_id] = self.store.audit.question(question_id).n_options
        return question_id, self._options[question_id]

    def _once(self, table: str, key: str, where: str) -> None:
        seen = self._seen.setdefault(table, {})
        if key in seen:
            f.fail(where, f"occurs twice in the file (also at {seen[key]})")
        seen[key] = where

    def _id(self, obj: Mapping[str, Any], name: str, where: str, table: str) -> str:
        at = f.child(where, name)
        value = f.canonical_uuid(obj[name], at)
        self._once(table, value, at)
        return value

    def _time(self, raw: object, where: str) -> str:
        return check_time(raw, where, now=self.now)

    def _sha(self, raw: object, where: str) -> str | None:
        return None if raw is None else f.sha256(raw, where)

    def _private(self, obj: Mapping[str, Any], where: str) -> None:
        """Private texts of a private export: checked as text, then ignored."""
        for name in sorted(_PRIVATE & obj.keys()):
            raw, at = obj[name], f.child(where, name)
            if name == "question_text":
                f.text(raw, at)
            elif not isinstance(raw, list):
                f.fail(at, f"must be a list, not {f.json_kind(raw)}")
            else:
                for index, item in enumerate(raw):
                    f.text(item, f.child(at, index))

    def review(self, doc: Mapping[str, Any], private: bool) -> ReviewData:
        """The three review lists of ``doc``, checked."""
        extra = _PRIVATE if private else frozenset()
        plans = [
            self.plan(raw, f.child("review_plans", i))
            for i, raw in enumerate(_list(doc, "review_plans"))
        ]
        verdicts = [
            self.verdict(raw, f.child("review_verdicts", i), extra)
            for i, raw in enumerate(_list(doc, "review_verdicts"))
        ]
        decisions = [
            self.decision(raw, f.child("review_decisions", i), extra)
            for i, raw in enumerate(_list(doc, "review_decisions"))
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

    # -- plans -------------------------------------------------------------------------

    def plan(self, raw: object, where: str) -> PlanRecord:
        """One plan with its assignments."""
        obj = f.exact_object(raw, where, _PLAN)
        plan_id = self._id(obj, "plan_id", where, "plan")
        reviewers_at = f.child(where, "reviewers")
        names = obj["reviewers"]
        if not isinstance(names, list) or not names:
            f.fail(reviewers_at, "must be the plan's non-empty list of reviewers")
        reviewers = tuple(f.reviewer(n, f.child(reviewers_at, i)) for i, n in enumerate(names))
        if len(set(reviewers)) != len(reviewers):
            f.fail(reviewers_at, "each reviewer may be named once in a plan")
        per_question = f.integer(
            obj["per_question"], f.child(where, "per_question"), 1, len(reviewers)
        )
        order = _choice(obj["order"], ORDERS, f.child(where, "order"))
        seed = obj["seed"]
        if seed is not None:
            seed = f.integer(seed, f.child(where, "seed"))
        if (order == "random") != (seed is not None):
            f.fail(f.child(where, "seed"), "a random order has a seed; no other order has one")
        assignments = self._assignments(obj["assignments"], where, reviewers, per_question)
        questions = f.integer(obj["questions"], f.child(where, "questions"), 1)
        if questions != len(assignments):
            f.fail(f.child(where, "questions"), f"the plan assigns {len(assignments)} questions")
        return PlanRecord(
            plan_id=plan_id,
            created_at=self._time(obj["created_at"], f.child(where, "created_at")),
            created_by=f.reviewer(obj["created_by"], f.child(where, "created_by")),
            per_question=per_question,
            order=order,
            seed=seed,
            reviewers=reviewers,
            questions=questions,
            audit_sha256=self._sha(obj["audit_sha256"], f.child(where, "audit_sha256")),
            assignments=assignments,
            where=where,
        )

    def _assignments(
        self, raw: object, where: str, reviewers: tuple[str, ...], per_question: int
    ) -> tuple[tuple[str, int, tuple[str, ...]], ...]:
        at = f.child(where, "assignments")
        if not isinstance(raw, list) or not raw:
            f.fail(at, "must be the plan's non-empty list of assignments")
        out: list[tuple[str, int, tuple[str, ...]]] = []
        seen: set[str] = set()
        counts: Counter[str] = Counter()
        for index, item in enumerate(raw):
            here = f.child(at, index)
            obj = f.exact_object(item, here, _ASSIGNMENT)
            question_id, _options = self._question(obj["question_id"], f.child(here, "question_id"))
            if question_id in seen:
                f.fail(f.child(here, "question_id"), "is assigned twice in this plan")
            seen.add(question_id)
            position = f.integer(obj["position"], f.child(here, "position"), 0, len(raw) - 1)
            if position != index:
                f.fail(f.child(here, "position"), f"must be {index} (assignments in plan order)")
            names = obj["reviewers"]
            who_at = f.child(here, "reviewers")
            if not isinstance(names, list):
                f.fail(who_at, f"must be a list of reviewers, not {f.json_kind(names)}")
            who = tuple(f.reviewer(n, f.child(who_at, i)) for i, n in enumerate(names))
            if len(set(who)) != per_question or len(who) != per_question:
                f.fail(who_at, f"must name exactly {per_question} distinct reviewers (K)")
            if list(who) != sorted(who):
                f.fail(who_at, "must be in name order")
            unknown = [name for name in who if name not in reviewers]
            if unknown:
                f.fail(who_at, f"unknown reviewer {unknown[0]!r} (not one of the plan's reviewers)")
            counts.update(who)
            out.append((question_id, position, who))
        loads = [counts[name] for name in reviewers]
        if max(loads) - min(loads) > 1:
            f.fail(at, "is not balanced (each reviewer's count within one of the others')")
        return tuple(out)

    # -- verdicts ----------------------------------------------------------------------

    def verdict(self, raw: object, where: str, extra: frozenset[str]) -> VerdictRecord:
        """One verdict with its revisions."""
        obj = f.exact_object(raw, where, _VERDICT | extra)
        verdict_id = self._id(obj, "verdict_id", where, "verdict")
        question_id, options = self._question(obj["question_id"], f.child(where, "question_id"))
        self._private(obj, where)
        created_at = self._time(obj["created_at"], f.child(where, "created_at"))
        raw_revisions = _history(obj["revisions"], where, "verdict")
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
            if not _same(obj[name], value):
                f.fail(f.child(where, name), "differs from the verdict's latest revision")
        return VerdictRecord(
            verdict_id=verdict_id,
            question_id=question_id,
            reviewer=f.reviewer(obj["reviewer"], f.child(where, "reviewer")),
            created_at=created_at,
            audit_sha256=self._sha(obj["audit_sha256"], f.child(where, "audit_sha256")),
            revisions=tuple(ordered),
            where=where,
        )

    def _verdict_fields(self, obj: Mapping[str, Any], options: int, where: str) -> dict[str, Any]:
        """The verdict fields of a revision, checked, as the store keeps them."""
        blind = f.flag(obj["blind"], f.child(where, "blind"))
        answer = _answer(obj["blind_answer"], options, f.child(where, "blind_answer"), unsure=True)
        if blind != (answer is not None):
            f.fail(f.child(where, "blind_answer"), "a blind verdict has a blind answer; no other")
        verdict = _choice(obj["verdict"], VERDICTS, f.child(where, "verdict"), null=True)
        key = _answer(obj["proposed_key"], options, f.child(where, "proposed_key"), unsure=False)
        if verdict == KEY_WRONG and key is None:
            f.fail(f.child(where, "proposed_key"), "key_wrong needs a proposed key")
        state = _choice(obj["state"], VERDICT_STATES, f.child(where, "state"))
        if state == SUBMITTED and verdict is None:
            f.fail(f.child(where, "verdict"), "a submitted verdict needs a verdict")
        return {
            "blind": BLIND if blind else NOT_BLIND,
            "blind_answer": answer,
            "blind_at": self._time(obj["blind_at"], f.child(where, "blind_at")),
            "verdict": verdict,
            "proposed_key": key,
            "confidence": _choice(
                obj["confidence"], CONFIDENCES, f.child(where, "confidence"), null=True
            ),
            "source": _note(obj["source"], f.child(where, "source"), MAX_SOURCE),
            "note": _note(obj["note"], f.child(where, "note")),
            "state": state,
        }

    def verdict_revision(
        self, raw: object, verdict_id: str, options: int, where: str
    ) -> VerdictRevision:
        """One revision of the verdict ``verdict_id``."""
        obj = f.exact_object(raw, where, _VERDICT_REVISION)
        revision_id = self._id(obj, "revision_id", where, "verdict revision")
        if obj["verdict_id"] != verdict_id:
            f.fail(f.child(where, "verdict_id"), "belongs to another verdict")
        action = _choice(obj["action"], VERDICT_ACTIONS, f.child(where, "action"))
        values = self._verdict_fields(obj, options, where)
        if action == "submit" and values["state"] != SUBMITTED:
            f.fail(f.child(where, "action"), "a submit revision leaves the verdict submitted")
        changes = self._changes(obj["changes"], values, options, action, f.child(where, "changes"))
        return VerdictRevision(
            revision_id=revision_id,
            verdict_id=verdict_id,
            at=self._time(obj["at"], f.child(where, "at")),
            action=action,
            changes=changes,
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
            return _answer(raw, options, where, unsure=name == "blind_answer")
        if name == "blind_at":
            return self._time(raw, where)
        if name in ("source", "note"):
            return _note(raw, where, MAX_SOURCE if name == "source" else None)
        allowed = {"verdict": VERDICTS, "confidence": CONFIDENCES, "state": VERDICT_STATES}
        return _choice(raw, allowed[name], where)

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
        decision_id = self._id(obj, "decision_id", where, "decision")
        question_at = f.child(where, "question_id")
        question_id, options = self._question(obj["question_id"], question_at)
        self._once("decided question", question_id, question_at)
        self._private(obj, where)
        created_at = self._time(obj["created_at"], f.child(where, "created_at"))
        at = f.child(where, "revisions")
        revisions = [
            self.decision_revision(rev, decision_id, options, f.child(at, i))
            for i, rev in enumerate(_history(obj["revisions"], where, "decision"))
        ]
        ordered = sorted(revisions, key=lambda r: (r.at, r.revision_id))
        firsts = [rev for rev in revisions if rev.at == created_at]
        if len(firsts) != 1:
            f.fail(at, f"needs exactly one revision dated created_at, not {len(firsts)}")
        if ordered[0] is not firsts[0]:
            f.fail(f.child(ordered[0].where, "at"), "is before the decision was created")
        summary = decision_fields_json(ordered[-1])
        for name, value in summary.items():
            if not _same(obj[name], value):
                f.fail(f.child(where, name), "differs from the decision's latest revision")
        return DecisionRecord(
            decision_id=decision_id,
            question_id=question_id,
            created_at=created_at,
            audit_sha256=self._sha(obj["audit_sha256"], f.child(where, "audit_sha256")),
            revisions=tuple(ordered),
            where=where,
        )

    def decision_revision(
        self, raw: object, decision_id: str, options: int, where: str
    ) -> DecisionRevision:
        """One revision of the decision ``decision_id``."""
        obj = f.exact_object(raw, where, _DECISION_REVISION)
        revision_id = self._id(obj, "revision_id", where, "decision revision")
        if obj["decision_id"] != decision_id:
            f.fail(f.child(where, "decision_id"), "belongs to another decision")
        decision = _choice(obj["decision"], DECISIONS, f.child(where, "decision"))
        key = _key(obj["key"], options, f.child(where, "key"))
        if (decision == KEY_CORRECTED) != (key is not None):
            f.fail(f.child(where, "key"), "key_corrected has the corrected key; no other decision")
        return DecisionRevision(
            revision_id=revision_id,
            decision_id=decision_id,
            adjudicator=f.reviewer(obj["adjudicator"], f.child(where, "adjudicator")),
            at=self._time(obj["at"], f.child(where, "at")),
            decision=decision,
            corrected_key=key,
            note=_note(obj["note"], f.child(where, "note")),
            where=where,
        )
