"""Scoring verdicts that were already derived: the window's scores from its review index.

``rescore`` derives every attempt and scores it in one streaming pass (the
headless command's fast path). The window has already derived every attempt once,
into the review index; :func:`score_verdicts` scores those stored verdicts with the
same :class:`~ai4hse_desk.protocol.metrics.RunScorer`, so its figures are exactly
``rescore``'s without a second derivation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.protocol.metrics import RunScorer
from ai4hse_desk.protocol.outcome import Status
from ai4hse_desk.verdicts.rescore import (
    RescoreCancelled,
    RescoreResult,
    VerdictTuple,
    run_results,
    selected_runs,
)
from ai4hse_desk.verdicts.tally import RunTally

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence

    from ai4hse_desk.audit.queries import AuditDB
    from ai4hse_desk.progress import Progress
    from ai4hse_desk.protocol.outcome import Selection


def with_progress(
    batches: Iterable[list[VerdictTuple]], total: int, progress: Progress | None
) -> Iterator[list[VerdictTuple]]:
    """``batches``, reporting (attempts so far, ``total``) after each; cancellable.

    Raises:
        RescoreCancelled: ``progress`` returned False.
    """
    done = 0
    for batch in batches:
        yield batch
        done += len(batch)
        if progress is not None and not progress(min(done, total), total):
            raise RescoreCancelled


def score_verdicts(
    db: AuditDB,
    batches: Iterable[list[VerdictTuple]],
    run_ids: Sequence[str] | None = None,
    *,
    keys: Mapping[str, Selection] | None = None,
) -> RescoreResult:
    """Score the verdicts in ``batches`` (every run of ``db``, or ``run_ids``).

    Attempts of runs not selected are skipped; the result is ordered as
    ``rescore``'s (cli.md). ``keys`` replaces some questions' answer keys (the
    review's corrected keys, for the not-official sensitivity exploration only).

    Raises:
        AuditError: an unknown run in ``run_ids``.
    """
    runs = selected_runs(db, run_ids)
    keys = {**db.answer_keys(), **(keys or {})}
    scorers = {run_id: RunScorer(info) for run_id, info in runs.items()}
    tallies = {run_id: RunTally(scorer) for run_id, scorer in scorers.items()}
    valid = Status.VALID
    for batch in batches:
        for _, run_id, question_id, repetition, outcome, _, _, agrees in batch:
            tally = tallies.get(run_id)
            if tally is not None:
                status, selection = outcome.status, outcome.selection
                correct = status is valid and selection == keys[question_id]
                if status is valid and not correct:
                    tally.append_wrong((question_id, selection))
                tally.append((question_id, repetition, status, outcome.strict_format, correct,
                              not agrees))  # fmt: skip
        for tally in tallies.values():
            tally.flush(keys)
    return run_results(db, scorers)


__all__ = ["score_verdicts", "with_progress"]
