"""Progress, coverage and the adjudication list, from a plan and the verdicts (pure).

cli.md, "Review": ``reviewers`` is ordered by name; a question is fully reviewed
when it has K submitted verdicts (without a plan: two or more). A reviewer's
``submitted`` and ``drafts`` count their verdicts on the questions of their
queue; ``remaining`` is what of the queue is not yet submitted. A question
enters adjudication when its submitted verdicts differ in concern vs
``key_ok``, in the verdict or in the proposed key, or when any says
``key_wrong`` (:mod:`.queue`); it counts as decided once an adjudicator recorded a
decision other than ``unresolved`` — an unresolved question stays in the queue.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.review.queue import is_open, needs_adjudication, submitted_by_question

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from ai4hse_desk.review.records import Decision, ReviewVerdict, StoredPlan


def adjudication_list(verdicts: Iterable[ReviewVerdict], order: Sequence[str]) -> list[str]:
    """The questions that entered adjudication, in ``order`` (question ids, corpus order),
    decided or not."""
    grouped = submitted_by_question(verdicts)
    return [qid for qid in order if qid in grouped and needs_adjudication(grouped[qid])]


def _reviewer_rows(
    plan: StoredPlan | None, verdicts: Sequence[ReviewVerdict]
) -> list[dict[str, object]]:
    if plan is None:
        names = {v.reviewer for v in verdicts}
        queues: dict[str, set[str]] = {name: set() for name in names}
    else:
        queues = {name: set(plan.plan.queue(name)) for name in plan.plan.reviewers}
        names = set(queues) | {v.reviewer for v in verdicts}
    rows = []
    for name in sorted(names):
        queue = queues.get(name, set())
        own = [
            v for v in verdicts if v.reviewer == name and (plan is None or v.question_id in queue)
        ]
        submitted = sum(v.submitted for v in own)
        assigned = len(queue) if plan is not None else len(own)
        rows.append(
            {
                "reviewer": name,
                "assigned": assigned,
                "submitted": submitted,
                "drafts": sum(not v.submitted for v in own),
                "remaining": assigned - submitted,
            }
        )
    return rows


def review_status(
    plan: StoredPlan | None,
    verdicts: Sequence[ReviewVerdict],
    decisions: Sequence[Decision],
    all_questions: Sequence[str],
) -> dict[str, object]:
    """cli.md's ``review status`` object, without ``audit`` (the caller adds it).

    Args:
        all_questions: every question id of the audit file, corpus order (the
            questions covered when there is no plan).
    """
    questions = list(plan.plan.questions) if plan is not None else list(all_questions)
    needed = plan.plan.per_question if plan is not None else 2
    grouped = submitted_by_question(verdicts)
    counts = [len(grouped.get(qid, ())) for qid in questions]
    waiting = adjudication_list(verdicts, all_questions)
    decided = {d.question_id for d in decisions if not is_open(d)}
    return {
        "plan": None if plan is None else plan.to_json(),
        "reviewers": _reviewer_rows(plan, verdicts),
        "coverage": {
            "questions": len(questions),
            "fully_reviewed": sum(n >= needed for n in counts),
            "partly_reviewed": sum(0 < n < needed for n in counts),
            "unreviewed": sum(n == 0 for n in counts),
        },
        "adjudication": {
            "needed": len(waiting),
            "decided": sum(qid in decided for qid in waiting),
        },
    }
