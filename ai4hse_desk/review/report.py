"""The review report (cli.md ``review report``): status, verdicts, agreement, decisions,
the questions concerned and the sensitivity table, as one JSON-ready object.

The sensitivity figures come from one pass over the attempts
(:func:`~ai4hse_desk.verdicts.key_sensitivity.review_sensitivity`): the official
exact accuracy beside the same without the ``question_excluded`` questions and
rescored with the ``key_corrected`` keys. They are labelled not official; the
audit file, the official scores and ``rescore`` never change. Question and
option texts appear only with ``include_private``.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from ai4hse_desk.review.agreement import Rated, review_agreement
from ai4hse_desk.review.queue import needs_adjudication, submitted_by_question
from ai4hse_desk.review.values import KEY_CORRECTED, QUESTION_EXCLUDED, VERDICTS, key_of
from ai4hse_desk.verdicts.key_sensitivity import review_sensitivity

if TYPE_CHECKING:
    import os
    from pathlib import Path

    from ai4hse_desk.audit import AuditDB
    from ai4hse_desk.notes.store import NotesStore
    from ai4hse_desk.progress import Progress
    from ai4hse_desk.review.book import ReviewBook
    from ai4hse_desk.review.records import Decision, ReviewVerdict


def _private(audit: AuditDB, question_id: str) -> dict[str, object]:
    question = audit.question(question_id)
    return {"question_text": question.text, "options": [o.text for o in question.options]}


def corrections(decisions: list[Decision]) -> tuple[dict[str, tuple[bool, ...]], set[str]]:
    """The corrected keys and the excluded questions that the decisions record."""
    corrected = {
        d.question_id: key_of(d.corrected_key)
        for d in decisions
        if d.decision == KEY_CORRECTED and d.corrected_key is not None
    }
    excluded = {d.question_id for d in decisions if d.decision == QUESTION_EXCLUDED}
    return corrected, excluded


def _concerned(
    verdicts: list[ReviewVerdict], order: list[str], decided: set[str]
) -> list[dict[str, object]]:
    grouped = submitted_by_question(verdicts)
    rows = []
    for qid in order:
        submitted = grouped.get(qid, [])
        if not any(v.concern for v in submitted):
            continue
        counts = Counter(v.verdict for v in submitted)
        rows.append({
            "question_id": qid,
            "verdicts": {name: counts[name] for name in VERDICTS if counts[name]},
            "in_adjudication": needs_adjudication(submitted),
            "decided": qid in decided,
        })  # fmt: skip
    return rows


def review_report(
    audit: AuditDB,
    book: ReviewBook,
    *,
    include_private: bool = False,
    progress: Progress | None = None,
) -> dict[str, object]:
    """cli.md's ``review report`` object (plus ``agreement.category``, ``definition``,
    ``questions_concerned`` and each sensitivity row's ``model`` and ``repetitions``).

    Raises:
        RescoreCancelled: ``progress`` returned False during the sensitivity pass.
    """
    snapshot = book.snapshot()  # status, counts and agreement from one reading
    _plan, verdicts, decisions = snapshot
    status = book.status(snapshot)
    order = book.corpus_order()
    rank = {qid: n for n, qid in enumerate(order)}
    submitted = [v for v in verdicts if v.submitted and v.verdict is not None]
    counts = Counter(v.verdict for v in submitted)
    keys = audit.answer_keys()
    rated = [Rated(v.question_id, v.reviewer, str(v.verdict), v.blind_answer) for v in submitted]
    corrected, excluded = corrections(decisions)
    decision_rows = []
    for decision in sorted(decisions, key=lambda d: rank.get(d.question_id, len(rank))):
        row = decision.to_json()
        if include_private:
            row.update(_private(audit, decision.question_id))
        decision_rows.append(row)
    concerned = _concerned(verdicts, order, {d.question_id for d in decisions})
    if include_private:
        for row in concerned:
            row.update(_private(audit, str(row["question_id"])))
    return {
        "audit": status["audit"],
        "status": {k: v for k, v in status.items() if k != "audit"},
        "verdicts": {name: counts[name] for name in VERDICTS},
        "agreement": review_agreement(rated, keys),
        "decisions": decision_rows,
        "questions_concerned": concerned,
        "sensitivity": review_sensitivity(audit, corrected, excluded, progress=progress),
        "private": include_private,
    }


def write_review_report(
    store: NotesStore,
    target: str | os.PathLike[str],
    fmt: str,
    *,
    include_private: bool = False,
    progress: Progress | None = None,
) -> Path:
    """Build ``store``'s review report and write it to ``target`` as ``fmt`` (``json`` or
    ``html``) through the guarded writer; the file written.

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
        store.audit, ReviewBook(store), include_private=include_private, progress=progress
    )
    if fmt == "json":
        text = json.dumps(report, indent=2, ensure_ascii=True, allow_nan=False) + "\n"
    else:
        text = render_review_html(report)
    return write_text(target, text)
