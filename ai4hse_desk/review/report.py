"""The review report (cli.md ``review report``) as one JSON-ready object a panel can publish.

Header: ``generated_at`` (UTC), ``desk_version``, ``protocol_version`` (the protocol
the desk rescores with), the audit file and the plan with its creator, order and
seed. Then the ``method`` in words (K, the blind rule, the adjudication rule, the
final states, the agreement, effort and key-audit definitions), the results (status,
verdicts, agreement, ``final_states``, decisions, ``questions_concerned``), the
``evidence`` per question (:mod:`.report_evidence`), reviewer ``effort``
(:mod:`.effort`), the ``key_audit_check`` and the not-official ``sensitivity``
table: the official exact accuracy beside the same without the excluded
questions, with the corrected keys only, and with both. The audit file, the
official scores and ``rescore`` never change. Question and option texts appear only
with ``include_private``.
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Final

from ai4hse_desk import __version__
from ai4hse_desk.protocol.outcome import CURRENT_PROTOCOL_VERSION
from ai4hse_desk.review import writes as review_writes
from ai4hse_desk.review.agreement import Rated, review_agreement
from ai4hse_desk.review.effort import DEFINITION as EFFORT_DEFINITION
from ai4hse_desk.review.effort import read_activity, review_effort, verdict_times
from ai4hse_desk.review.final_state import FINAL_STATES, counts, exploration, final_states
from ai4hse_desk.review.queue import REASONS, needs_adjudication, submitted_by_question
from ai4hse_desk.review.report_evidence import (
    KEY_AUDIT_CHECK,
    SENSITIVITY_FIGURES,
    evidence,
    key_audit_check,
    sensitivity_table,
)
from ai4hse_desk.review.values import VERDICTS

if TYPE_CHECKING:
    import os
    from collections.abc import Sequence
    from pathlib import Path

    from sqlalchemy.engine import Connection

    from ai4hse_desk.audit import AuditDB
    from ai4hse_desk.notes.store import NotesStore
    from ai4hse_desk.progress import Progress
    from ai4hse_desk.review.book import ReviewBook
    from ai4hse_desk.review.effort import Activity
    from ai4hse_desk.review.records import Decision, ReviewVerdict, StoredPlan

BLIND_RULE: Final = (
    "each reviewer answers a question blind first (TRUE, FALSE or UNSURE per option) before "
    "the key, the runs' answers or anyone else's verdict is shown; the store refuses another "
    "reviewer's verdict to a reviewer who has not submitted their own, and never records a "
    "blind answer after the key was shown (a reviewer may skip it: recorded as not blind)"
)
ADJUDICATION_RULE: Final = (
    "a question enters adjudication when its submitted verdicts differ in concern vs "
    "key_ok, in the verdict or in the proposed key, or when any says key_wrong; someone who "
    "did not review it decides key_confirmed, key_corrected (with the key), "
    "question_excluded or unresolved (it stays in the queue). A question whose K verdicts "
    "agree needs no decision: its key stands"
)
AGREEMENT: Final = {
    "units": "questions with two or more submitted verdicts",
    "concern": "each verdict rated 1 (a concern) or 0 (key_ok): Cohen's kappa with two "
    "reviewers, Krippendorff's alpha (nominal, missing allowed) with more",
    "category": "the verdict itself (nominal), the same statistic",
    "blind_options": "each question x option rated by its blind answer (TRUE/FALSE; UNSURE "
    "and not-blind missing): Krippendorff's alpha (nominal)",
    "blind_vs_key": "every submitted blind answer against the official key: options "
    "answered (UNSURE left out), and whole answers without UNSURE; 95 % Wilson intervals",
}


def _private(audit: AuditDB, question_id: str) -> dict[str, object]:
    question = audit.question(question_id)
    return {"question_text": question.text, "options": [o.text for o in question.options]}


def _concerned(
    verdicts: list[ReviewVerdict], order: list[str], decided: set[str]
) -> list[dict[str, object]]:
    grouped = submitted_by_question(verdicts)
    rows = []
    for qid in order:
        submitted = grouped.get(qid, [])
        if not any(v.concern for v in submitted):
            continue
        tally = Counter(v.verdict for v in submitted)
        rows.append({
            "question_id": qid,
            "verdicts": {name: tally[name] for name in VERDICTS if tally[name]},
            "in_adjudication": needs_adjudication(submitted),
            "decided": qid in decided,
        })  # fmt: skip
    return rows


def _plan(plan: StoredPlan | None) -> dict[str, object] | None:
    if plan is None:
        return None
    return {
        "plan_id": plan.plan_id,
        "created_by": plan.created_by,
        "created_at": plan.created_at,
        **plan.to_json(),
        "reviewers": list(plan.plan.reviewers),
    }


def _method(plan: StoredPlan | None) -> dict[str, object]:
    return {
        "per_question": None if plan is None else plan.plan.per_question,
        "blind_rule": BLIND_RULE,
        "adjudication_rule": ADJUDICATION_RULE,
        "adjudication_reasons": dict(REASONS),
        "final_states": dict(FINAL_STATES),
        "agreement": dict(AGREEMENT),
        "effort": EFFORT_DEFINITION,
        "key_audit_check": KEY_AUDIT_CHECK,
        "sensitivity": dict(SENSITIVITY_FIGURES),
    }


Snapshot = tuple["StoredPlan | None", list["ReviewVerdict"], list["Decision"], "Activity"]


def _read(conn: Connection) -> Snapshot:
    return (
        review_writes.read_plan(conn),
        review_writes.read_verdicts(conn),
        review_writes.read_decisions(conn),
        read_activity(conn),
    )


def generated_at() -> str:
    """Now, in UTC, to the second (``2026-12-06T05:42:36Z``)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def _ranking(audit: AuditDB, progress: Progress | None) -> list[str]:
    """Every question id, most suspect first (the key audit's ranking)."""
    from ai4hse_desk.keyaudit import compute_key_audit

    return [item.question_id for item in compute_key_audit(audit, progress=progress).questions]


def review_report(
    audit: AuditDB,
    book: ReviewBook,
    *,
    include_private: bool = False,
    progress: Progress | None = None,
    ranking: Sequence[str] | None = None,
) -> dict[str, object]:
    """cli.md's ``review report`` object (module docstring; plus ``agreement.category``,
    ``definition``, ``questions_concerned`` and each sensitivity row's ``model`` and
    ``repetitions``).

    ``ranking`` is the key audit's order of every question of ``audit`` when the caller
    already has it (the window's Key audit page); without it the key audit is computed,
    the larger part of the report's time.

    Raises:
        RescoreCancelled: ``progress`` returned False (during the key audit's or the
            sensitivity table's pass over the attempts).
    """
    plan, verdicts, decisions, activity = book.store.run(_read)  # one reading
    status = book.status((plan, verdicts, decisions))
    order = book.corpus_order()
    rank = {qid: n for n, qid in enumerate(order)}
    submitted = [v for v in verdicts if v.submitted and v.verdict is not None]
    tally = Counter(v.verdict for v in submitted)
    keys = audit.answer_keys()
    rated = [Rated(v.question_id, v.reviewer, str(v.verdict), v.blind_answer) for v in submitted]
    states = final_states(
        verdicts,
        decisions,
        per_question=None if plan is None else plan.plan.per_question,
        planned=() if plan is None else plan.plan.questions,
    )
    decision_rows = []
    for decision in sorted(decisions, key=lambda d: rank.get(d.question_id, len(rank))):
        row = decision.to_json()
        if include_private:
            row.update(_private(audit, decision.question_id))
        decision_rows.append(row)
    concerned = _concerned(verdicts, order, {d.question_id for d in decisions})
    ranking = list(ranking) if ranking is not None else _ranking(audit, progress)
    ranks = {qid: n for n, qid in enumerate(ranking, start=1)}
    shown = evidence(verdicts, decisions, states, keys, order, ranks)
    if include_private:
        for row in (*concerned, *shown):
            row.update(_private(audit, str(row["question_id"])))
    questions = list(plan.plan.questions) if plan is not None else order
    return {
        "generated_at": generated_at(),
        "desk_version": __version__,
        "protocol_version": CURRENT_PROTOCOL_VERSION,
        "audit": status["audit"],
        "plan": _plan(plan),
        "method": _method(plan),
        "status": {k: v for k, v in status.items() if k != "audit"},
        "verdicts": {name: tally[name] for name in VERDICTS},
        "agreement": review_agreement(rated, keys),
        "final_states": counts(states, questions),
        "decisions": decision_rows,
        "questions_concerned": concerned,
        "evidence": shown,
        "effort": review_effort(verdict_times(activity), decisions),
        "key_audit_check": key_audit_check(ranking, states),
        "sensitivity": sensitivity_table(audit, exploration(states), progress=progress),
        "private": include_private,
    }


def write_review_report(
    store: NotesStore,
    target: str | os.PathLike[str],
    fmt: str,
    *,
    include_private: bool = False,
    progress: Progress | None = None,
    ranking: Sequence[str] | None = None,
) -> Path:
    """Build ``store``'s review report and write it to ``target`` as ``fmt`` (``json`` or
    ``html``) through the guarded writer; the file written (``ranking``: see
    :func:`review_report`).

    The target is checked first, so a refused one costs no pass over the attempts.

    Raises:
        WriteRefused: the target is the audit file, the store, or otherwise refused.
        RescoreCancelled: ``progress`` returned False.
    """
    import json

    from ai4hse_desk.filewrite import check_target, write_text
    from ai4hse_desk.review.book import ReviewBook
    from ai4hse_desk.review.report_html import render_review_html

    check_target(target)
    report = review_report(
        store.audit,
        ReviewBook(store),
        include_private=include_private,
        progress=progress,
        ranking=ranking,
    )
    if fmt == "json":
        text = json.dumps(report, indent=2, ensure_ascii=True, allow_nan=False) + "\n"
    else:
        text = render_review_html(report)
    return write_text(target, text)
