"""The sensitivity exploration's work, on the ``"sensitivity"`` lane (no Qt here).

Every run scored again without some questions and, for the review's decisions,
against the adjudicators' corrected keys — from the review index's stored
verdicts when it is ready (the attempts are not derived again), else by a rescore.
The same figures as the review report's sensitivity table
(:func:`~ai4hse_desk.review.report_evidence.sensitivity_table`); never official.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.verdicts.collector import collector_paused
from ai4hse_desk.verdicts.rescore import RescoreResult, rescore
from ai4hse_desk.verdicts.scoring import (
    Scoring,
    official,
    run_results,
    score_batches,
    selected_runs,
    with_progress,
)
from ai4hse_desk.verdicts.stream import verdict_stream

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ai4hse_desk.audit import AuditDB
    from ai4hse_desk.index import ReviewIndex
    from ai4hse_desk.progress import Progress


def explore(
    db: AuditDB,
    index: ReviewIndex | None,
    excluded: set[str],
    progress: Progress | None,
    corrected: Mapping[str, Sequence[bool]] | None = None,
) -> RescoreResult:
    """Every run's metrics without the ``excluded`` questions' attempts, scored against
    the ``corrected`` keys where given (the official key elsewhere)."""
    if index is None and not corrected:
        return rescore(db, progress=progress, exclude_questions=excluded)
    if index is not None:
        stored = index.verdict_batches(exclude_questions=excluded)
        batches = with_progress(stored, index.total(), progress)
    else:
        batches = verdict_stream(db, progress=progress)
    rekeys = {qid: tuple(key) for qid, key in (corrected or {}).items()}
    scorers = official(db, selected_runs(db, None)).scorers
    keys = {**db.answer_keys(), **rekeys}
    scoring = Scoring(scorers, keys, frozenset(excluded), rekeyed=bool(rekeys))
    with collector_paused():  # (see verdicts.collector)
        score_batches(batches, [scoring])
    return run_results(db, scoring.scorers)


__all__ = ["explore"]
