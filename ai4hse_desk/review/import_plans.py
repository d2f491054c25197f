"""Checking a review plan of a notes export: its reviewers, order and assignments.

A plan gives each of its questions exactly K distinct reviewers of its own, in name
order, balanced (each reviewer's count within one of the others'), its assignments in
plan order; a random order has a seed and no other order has one.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from ai4hse_desk.notes import import_fields as f
from ai4hse_desk.review.history import PlanRecord
from ai4hse_desk.review.import_items import ItemChecks, choice
from ai4hse_desk.review.plan import ORDERS

PLAN: Final = frozenset(
    {"plan_id", "created_at", "created_by", "per_question", "order", "seed", "reviewers",
     "questions", "audit_sha256", "assignments"}
)  # fmt: skip
ASSIGNMENT: Final = frozenset({"question_id", "position", "reviewers"})


def check_plan(items: ItemChecks, raw: object, where: str) -> PlanRecord:
    """One plan with its assignments."""
    obj = f.exact_object(raw, where, PLAN)
    plan_id = items.item_id(obj, "plan_id", where, "plan")
    reviewers_at = f.child(where, "reviewers")
    names = obj["reviewers"]
    if not isinstance(names, list) or not names:
        f.fail(reviewers_at, "must be the plan's non-empty list of reviewers")
    reviewers = tuple(f.reviewer(n, f.child(reviewers_at, i)) for i, n in enumerate(names))
    if len(set(reviewers)) != len(reviewers):
        f.fail(reviewers_at, "each reviewer may be named once in a plan")
    per_question = f.integer(obj["per_question"], f.child(where, "per_question"), 1, len(reviewers))
    order = choice(obj["order"], ORDERS, f.child(where, "order"))
    seed = obj["seed"]
    if seed is not None:
        seed = f.integer(seed, f.child(where, "seed"))
    if (order == "random") != (seed is not None):
        f.fail(f.child(where, "seed"), "a random order has a seed; no other order has one")
    assignments = _assignments(items, obj["assignments"], where, reviewers, per_question)
    questions = f.integer(obj["questions"], f.child(where, "questions"), 1)
    if questions != len(assignments):
        f.fail(f.child(where, "questions"), f"the plan assigns {len(assignments)} questions")
    return PlanRecord(
        plan_id=plan_id,
        created_at=items.time(obj["created_at"], f.child(where, "created_at")),
        created_by=f.reviewer(obj["created_by"], f.child(where, "created_by")),
        per_question=per_question,
        order=order,
        seed=seed,
        reviewers=reviewers,
        questions=questions,
        audit_sha256=items.sha(obj["audit_sha256"], f.child(where, "audit_sha256")),
        assignments=assignments,
        where=where,
    )


def _assignments(
    items: ItemChecks, raw: object, where: str, reviewers: tuple[str, ...], per_question: int
) -> tuple[tuple[str, int, tuple[str, ...]], ...]:
    at = f.child(where, "assignments")
    if not isinstance(raw, list) or not raw:
        f.fail(at, "must be the plan's non-empty list of assignments")
    out: list[tuple[str, int, tuple[str, ...]]] = []
    seen: set[str] = set()
    counts: Counter[str] = Counter()
    for index, item in enumerate(raw):
        here = f.child(at, index)
        obj = f.exact_object(item, here, ASSIGNMENT)
        question_id, _options = items.question(obj["question_id"], f.child(here, "question_id"))
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


__all__ = ["ASSIGNMENT", "PLAN", "check_plan"]
