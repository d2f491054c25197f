"""What the review report adds to the figures: the evidence, the key audit's check, and
the not-official sensitivity table with each figure named for what it does.

* :func:`evidence` — one object per question with a submitted concern or a decision:
  the adjudication queue object (:class:`~.queue.QueueItem`) plus ``key_audit_rank``
  and its final state (:mod:`.final_state`);
* :func:`key_audit_check` — of the key audit's top 10 % (of every question, by rank),
  how many the review settled and how many of those it corrected, against the same
  share among the other settled questions, each with a 95 % Wilson interval;
* :func:`sensitivity_table` — cli.md's ``sensitivity`` rows, with two more figures
  named plainly (``corrected_keys_only``, ``without_excluded_with_corrected_keys``)
  and, for a run without an official figure, ``unscored_reason``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final

from ai4hse_desk.protocol.wilson import wilson_interval
from ai4hse_desk.review.final_state import CORRECTED, EXCLUDED, state_of
from ai4hse_desk.review.queue import queue_item, submitted_by_question
from ai4hse_desk.verdicts.key_sensitivity import review_sensitivity

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ai4hse_desk.audit import AuditDB
    from ai4hse_desk.progress import Progress
    from ai4hse_desk.review.final_state import Exploration, FinalState
    from ai4hse_desk.review.records import Decision, ReviewVerdict

#: The key audit's share of questions the check looks at.
TOP_SHARE: Final = 0.10
KEY_AUDIT_CHECK: Final = (
    "the key audit ranks every question; its top 10 % (rounded up) are the questions it "
    "suspects most. Of those the review settled (key confirmed, corrected or question "
    "excluded), the share whose key the adjudicator corrected, beside the same share among "
    "the other settled questions; 95 % Wilson intervals."
)
#: The sensitivity figures, in the order the report shows them, with what each does.
SENSITIVITY_FIGURES: Final = {
    "official": "official: rescore's exact accuracy, every question, the official keys",
    "without_excluded": "leaves out the questions decided question_excluded; official keys",
    "corrected_keys_only": "every question, scored against the corrected keys "
    "(key_corrected decisions); nothing left out",
    "without_excluded_with_corrected_keys": "leaves out the excluded questions and scores "
    "the rest against the corrected keys (cli.md's with_corrected_keys is the same figure)",
}


def _share(agree: int, of: int) -> dict[str, object]:
    interval = wilson_interval(agree, of)
    return {
        "settled": of,
        "corrected": agree,
        "share": round(agree / of, 4) if of else None,
        "wilson_low": round(interval[0], 4) if interval else None,
        "wilson_high": round(interval[1], 4) if interval else None,
    }


def key_audit_check(ranking: Sequence[str], states: Mapping[str, FinalState]) -> dict[str, object]:
    """The report's ``key_audit_check`` (module docstring).

    Args:
        ranking: every question id, most suspect first (the key audit's order).
        states: the final states (:func:`~.final_state.final_states`).
    """
    top_count = math.ceil(TOP_SHARE * len(ranking))
    top = ranking[:top_count]
    rest = ranking[top_count:]

    def tally(questions: Sequence[str]) -> tuple[int, int, int]:
        settled = [state_of(states, qid) for qid in questions]
        settled = [s for s in settled if s.settled]
        corrected = sum(s.state == CORRECTED for s in settled)
        excluded = sum(s.state == EXCLUDED for s in settled)
        return corrected, len(settled), excluded

    corrected, settled, excluded = tally(top)
    others = tally(rest)
    return {
        "definition": KEY_AUDIT_CHECK,
        "top_share": TOP_SHARE,
        "ranked": len(ranking),
        "top": top_count,
        **_share(corrected, settled),
        "excluded": excluded,
        "others": {**_share(others[0], others[1]), "excluded": others[2]},
    }


def evidence(
    verdicts: Sequence[ReviewVerdict],
    decisions: Sequence[Decision],
    states: Mapping[str, FinalState],
    keys: Mapping[str, Sequence[bool]],
    order: Sequence[str],
    ranks: Mapping[str, int],
) -> list[dict[str, object]]:
    """One object per question with a submitted concern or a decision, by ordinal: the
    queue object, ``key_audit_rank`` (1 = most suspect; ``null``: not ranked) and
    ``final_state`` (``state``, ``text``)."""
    grouped = submitted_by_question(verdicts)
    decided = {d.question_id: d for d in decisions}
    rows = []
    for qid in order:
        submitted = grouped.get(qid, [])
        if qid not in decided and not any(v.concern for v in submitted):
            continue
        item = queue_item(qid, submitted, keys[qid], decided.get(qid)).to_json()
        state = state_of(states, qid)
        item["key_audit_rank"] = ranks.get(qid)
        item["final_state"] = {"state": state.state, "text": state.text}
        rows.append(item)
    return rows


def _unscored_reasons(audit: AuditDB) -> dict[str, str]:
    """Why ``rescore`` gives a run no aggregate score (protocol.md section 6): the
    runner's status, or its pending attempts."""
    from ai4hse_desk.audit.errors import file_problems_as_audit_errors

    reasons = {}
    complete = []
    for run in audit.runs():
        if run.status != "complete":
            reasons[run.run_id] = f"unfinished: the runner marked the run {run.status!r}"
        else:
            complete.append(run.run_id)
    if complete:
        query = "SELECT run_id, COUNT(*) FROM attempts WHERE state = 'pending' GROUP BY run_id"
        with file_problems_as_audit_errors(audit.path), audit.raw_connection() as conn:
            pending = {str(run_id): int(n) for run_id, n in conn.execute(query)}
        for run_id in complete:
            if pending.get(run_id):
                count = pending[run_id]
                reasons[run_id] = f"{count} attempt{'s' if count != 1 else ''} pending"
    return reasons


def sensitivity_table(
    audit: AuditDB, explored: Exploration, *, progress: Progress | None = None
) -> list[dict[str, object]]:
    """cli.md's ``sensitivity`` rows plus ``corrected_keys_only``,
    ``without_excluded_with_corrected_keys`` and ``unscored_reason`` (module docstring).

    One pass over the attempts; a second only when the review both excluded questions
    and corrected keys (then "corrected keys only" differs from both other figures).
    """
    corrected, excluded = explored.corrected_keys, explored.excluded
    rows = review_sensitivity(audit, corrected, excluded, progress=progress)
    alone: dict[str, Mapping[str, object]] = {}
    if corrected and excluded:
        alone = {
            str(row["run_id"]): row
            for row in review_sensitivity(audit, corrected, (), progress=progress)
        }
    reasons = _unscored_reasons(audit) if any(r["official"] is None for r in rows) else {}
    out = []
    for row in rows:
        run_id = str(row["run_id"])
        reps = dict(row.get("repetitions") or {})  # type: ignore[call-overload]
        if not corrected:
            only, only_reps = row["official"], reps.get("official")
        elif not excluded:
            only, only_reps = row["with_corrected_keys"], reps.get("with_corrected_keys")
        else:
            other = alone[run_id]
            only = other["with_corrected_keys"]
            only_reps = dict(other.get("repetitions") or {}).get("with_corrected_keys")  # type: ignore[call-overload]
        reps["corrected_keys_only"] = only_reps
        reps["without_excluded_with_corrected_keys"] = reps.get("with_corrected_keys")
        reason = None
        if row["official"] is None:
            reason = reasons.get(run_id, "no attempts to score")
        out.append({
            **row,
            "corrected_keys_only": only,
            "without_excluded_with_corrected_keys": row["with_corrected_keys"],
            "unscored_reason": reason,
            "repetitions": reps,
        })  # fmt: skip
    return out


__all__ = [
    "SENSITIVITY_FIGURES",
    "evidence",
    "key_audit_check",
    "sensitivity_table",
]
