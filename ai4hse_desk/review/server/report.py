"""``review report --server``: the review report read on the server, without the audit file.

Read by the coordinator or by an adjudicator who reviews no question (the database
refuses anyone else the whole review). The status is the server's own (``review
status``); the verdict counts, the agreement, the decisions and the questions concerned
are computed from the server's records by the same functions as a local report
(:mod:`~ai4hse_desk.review.agreement`, :mod:`~ai4hse_desk.review.status`). Two parts need
the audit file and are left to the report beside it (after ``review collect`` and
``notes import``): the sensitivity table (every run's official score over the whole
corpus) and the key audit's ranks; here ``sensitivity`` is empty and
``sensitivity_note`` says why. Question and option texts only with ``include_private``.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any, Final

from ai4hse_desk import __version__
from ai4hse_desk.notes.model import utc_now
from ai4hse_desk.review.agreement import Rated, review_agreement
from ai4hse_desk.review.queue import needs_adjudication, submitted_by_question
from ai4hse_desk.review.server import shapes
from ai4hse_desk.review.server.collect import current_decisions, current_verdicts, review_data
from ai4hse_desk.review.values import VERDICTS

if TYPE_CHECKING:
    import os
    from pathlib import Path

    from ai4hse_desk.review.records import ReviewVerdict
    from ai4hse_desk.review.server.client import ReviewServer

SENSITIVITY_NOTE: Final = (
    "computed beside the audit file: review collect, notes import, then review report there"
)


def _concerned(
    verdicts: list[ReviewVerdict], order: list[str], decided: set[str]
) -> list[dict[str, object]]:
    grouped = submitted_by_question(verdicts)
    rows: list[dict[str, object]] = []
    for qid in order:
        submitted = grouped.get(qid, [])
        if not any(v.concern for v in submitted):
            continue
        counts = Counter(v.verdict for v in submitted)
        rows.append(
            {
                "question_id": qid,
                "verdicts": {name: counts[name] for name in VERDICTS if counts[name]},
                "in_adjudication": needs_adjudication(submitted),
                "decided": qid in decided,
            }
        )
    return rows


def server_report(server: ReviewServer, *, include_private: bool = False) -> dict[str, Any]:
    """The report object (module docstring).

    Raises:
        ServerError: the login may not read the whole review.
    """
    export = server.export()
    data = review_data(export)
    status = shapes.status(server.status())
    verdicts = current_verdicts(data)
    decisions = current_decisions(data)
    questions = {str(q["question_id"]): q for q in export["questions"]}
    order = list(questions)
    rank = {qid: n for n, qid in enumerate(order)}
    keys = {qid: tuple(bool(v) for v in q["key"]) for qid, q in questions.items()}
    submitted = [v for v in verdicts if v.submitted and v.verdict is not None]
    counts = Counter(v.verdict for v in submitted)
    rated = [Rated(v.question_id, v.reviewer, str(v.verdict), v.blind_answer) for v in submitted]

    def private(qid: str) -> dict[str, object]:
        if not include_private:
            return {}
        return {"question_text": questions[qid]["text"], "options": questions[qid]["options"]}

    decision_rows = [
        {**d.to_json(), **private(d.question_id)}
        for d in sorted(decisions, key=lambda d: rank.get(d.question_id, len(rank)))
    ]
    concerned = _concerned(verdicts, order, {d.question_id for d in decisions})
    for row in concerned:
        row.update(private(str(row["question_id"])))
    latest_plan = data.plans[-1] if data.plans else None
    return {
        "audit": status["audit"],
        "status": {k: v for k, v in status.items() if k != "audit"},
        "generated_at": utc_now(),
        "desk_version": __version__,
        "server": server.shown,
        "plan": None
        if latest_plan is None
        else {
            "per_question": latest_plan.per_question,
            "questions": latest_plan.questions,
            "order": latest_plan.order,
            "seed": latest_plan.seed,
            "created_by": latest_plan.created_by,
            "created_at": latest_plan.created_at,
        },
        "verdicts": {name: counts[name] for name in VERDICTS},
        "agreement": review_agreement(rated, keys),
        "decisions": decision_rows,
        "questions_concerned": concerned,
        "sensitivity": [],
        "sensitivity_note": SENSITIVITY_NOTE,
        "private": include_private,
    }


def write_server_report(
    server: ReviewServer, target: str | os.PathLike[str], fmt: str, *, include_private: bool
) -> Path:
    """Build the report and write it to ``target`` as ``fmt`` (json or html) through the
    guarded writer; the file written.

    Raises:
        WriteRefused: the target is refused (checked before anything is read).
    """
    from ai4hse_desk.filewrite import check_target, write_text
    from ai4hse_desk.review.report_html import render_review_html

    check_target(target)
    report = server_report(server, include_private=include_private)
    if fmt == "json":
        text = json.dumps(report, indent=2, ensure_ascii=True, allow_nan=False) + "\n"
    else:
        text = render_review_html(report)
    return write_text(target, text)
