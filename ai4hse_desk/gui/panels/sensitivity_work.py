"""The sensitivity exploration's work, on the ``"sensitivity"`` lane (no Qt here).

Every run scored again without some questions and, for the review's decisions,
against the adjudicators' corrected keys — from the review index's stored
verdicts when it is ready (the attempts are not derived again), else by a rescore.
The same figures as the review report's sensitivity table
(:func:`~ai4hse_desk.review.report_evidence.sensitivity_table`); never official.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.verdicts.rescore import RescoreResult, iter_verdict_batches, rescore
from ai4hse_desk.verdicts.scoring import score_verdicts, with_progress

if TYPE_CHECKING:
    from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence

    from ai4hse_desk.audit import AuditDB
    from ai4hse_desk.index import ReviewIndex
    from ai4hse_desk.progress import Progress
    from ai4hse_desk.verdicts.rescore import VerdictTuple


def _without(
    batches: Iterable[list[VerdictTuple]], excluded: Collection[str]
) -> Iterator[list[VerdictTuple]]:
    for batch in batches:
        yield [verdict for verdict in batch if verdict[2] not in excluded]


def explore(
    db: AuditDB,
    index: ReviewIndex | None,
    excluded: set[str],
    progress: Progress | None,
    corrected: Mapping[str, Sequence[bool]] | None = None,
) -> RescoreResult:
    """Every run's metrics without the ``excluded`` questions' attempts, scored against
    the ``corrected`` keys where given (the official key elsewhere)."""
    if index is not None:
        stored = index.verdict_batches(exclude_questions=excluded)
        batches = with_progress(stored, index.total(), progress)
    elif not corrected:
        return rescore(db, progress=progress, exclude_questions=excluded)
    else:
        batches = _without(iter_verdict_batches(db, progress=progress), excluded)
    keys = {qid: tuple(key) for qid, key in (corrected or {}).items()}
    return score_verdicts(db, batches, keys=keys)


__all__ = ["explore"]
