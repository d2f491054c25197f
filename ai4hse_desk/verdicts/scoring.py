"""Scoring a verdict stream: each run's figures from the desk's verdicts on its attempts.

:func:`score_batches` is the one scoring of verdicts. ``rescore`` scores the stream
as :func:`~.stream.verdict_stream` derives it; the window scores the verdicts its
review index stored from that same stream (:func:`score_verdicts`, so its figures
are exactly ``rescore``'s without a second derivation); the review report's
sensitivity scores one stream three times, with the official keys, without the
excluded questions and with the corrected keys (:mod:`.key_sensitivity`).

Each verdict is counted into its run's :class:`~.tally.RunTally` (one tuple
appended), and the tallies are counted into their
:class:`~ai4hse_desk.protocol.metrics.RunScorer` once per batch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from ai4hse_desk.audit.errors import AuditError
from ai4hse_desk.protocol.metrics import RunInfo, RunScorer, order_runs
from ai4hse_desk.protocol.outcome import Status
from ai4hse_desk.verdicts.stream import RescoreCancelled
from ai4hse_desk.verdicts.tally import RunTally

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence

    from ai4hse_desk.audit.queries import AuditDB
    from ai4hse_desk.progress import Progress
    from ai4hse_desk.protocol.outcome import Selection
    from ai4hse_desk.verdicts.attempt_verdict import VerdictTuple


@dataclass(frozen=True, slots=True)
class RescoreResult:
    """Ordered run objects (cli.md) of one rescore.

    Attributes:
        runs: the run objects, in cli.md's order.
        attempts: attempts scored.
    """

    runs: list[dict[str, object]]
    attempts: int


def selected_runs(db: AuditDB, run_ids: Sequence[str] | None) -> dict[str, RunInfo]:
    """Every run (or ``run_ids``, each once) as :class:`RunInfo`; ``AuditError`` if unknown."""
    runs = {run.run_id: run for run in db.runs()}
    wanted = list(runs) if run_ids is None else list(dict.fromkeys(run_ids))
    for run_id in wanted:
        if run_id not in runs:
            raise AuditError(f"unknown run: {run_id}")
    return {
        run_id: RunInfo(
            run_id=run_id,
            model=runs[run_id].model,
            track=runs[run_id].track,
            protocol_version=runs[run_id].protocol_version,
            status=runs[run_id].status,
        )
        for run_id in wanted
    }


class Scoring(NamedTuple):
    """One scoring of a verdict stream (see :func:`score_batches`).

    Attributes:
        scorers: run id -> its scorer (a verdict of another run is skipped).
        keys: every question's answer key as this scoring counts it.
        left_out: questions whose attempts are skipped.
        rekeyed: ``keys`` are not the official ones: a valid selection is judged
            against them (the stream judged it against the official key).
    """

    scorers: dict[str, RunScorer]
    keys: Mapping[str, Selection]
    left_out: frozenset[str] = frozenset()
    rekeyed: bool = False


def official(db: AuditDB, runs: Mapping[str, RunInfo], left_out: Iterable[str] = ()) -> Scoring:
    """A scoring of ``runs`` with the official keys, leaving ``left_out`` questions out."""
    scorers = {run_id: RunScorer(info) for run_id, info in runs.items()}
    return Scoring(scorers, db.answer_keys(), frozenset(left_out))


def score_batches(batches: Iterable[list[VerdictTuple]], scorings: Sequence[Scoring]) -> None:
    """Count every verdict of ``batches`` (the verdict stream, or the verdicts stored
    from it) into each of ``scorings``."""
    valid = Status.VALID
    sets = [
        ({run_id: RunTally(scorer) for run_id, scorer in scoring.scorers.items()}, scoring)
        for scoring in scorings
    ]
    for batch in batches:
        for tallies, (_, keys, left_out, rekeyed) in sets:
            last_run: str | None = None
            tally: RunTally | None = None
            for _, run_id, question_id, repetition, outcome, correct, _, agrees in batch:
                if run_id != last_run:
                    tally, last_run = tallies.get(run_id), run_id
                if tally is None or (left_out and question_id in left_out):
                    continue
                status = outcome.status
                if status is valid:
                    if rekeyed:
                        correct = outcome.selection == keys[question_id]
                    if not correct:
                        tally.append_wrong((question_id, outcome.selection))
                tally.append((question_id, repetition, status, outcome.strict_format,
                              correct, not agrees))  # fmt: skip
            for pending in tallies.values():
                pending.flush(keys)


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
    db: AuditDB, batches: Iterable[list[VerdictTuple]], run_ids: Sequence[str] | None = None
) -> RescoreResult:
    """Score the verdicts in ``batches`` (every run of ``db``, or ``run_ids``).

    Attempts of runs not selected are skipped; the result is ordered as
    ``rescore``'s (cli.md).

    Raises:
        AuditError: an unknown run in ``run_ids``.
    """
    scoring = official(db, selected_runs(db, run_ids))
    score_batches(batches, [scoring])
    return run_results(db, scoring.scorers)


def run_objects(db: AuditDB, scorers: Mapping[str, RunScorer]) -> list[dict[str, object]]:
    """cli.md's run object of each filled scorer, unordered (labels and facet from ``db``)."""
    labels = db.labels()
    facet = db.meta.get("consistency_facet", "topic")
    return [scorer.result(labels, consistency_facet=facet) for scorer in scorers.values()]


def run_results(db: AuditDB, scorers: Mapping[str, RunScorer]) -> RescoreResult:
    """The filled ``scorers`` as cli.md's ordered run objects (labels and facet from ``db``)."""
    return RescoreResult(
        runs=order_runs(run_objects(db, scorers)),
        attempts=sum(scorer.attempts for scorer in scorers.values()),
    )


__all__ = [
    "RescoreResult",
    "Scoring",
    "official",
    "run_objects",
    "run_results",
    "score_batches",
    "score_verdicts",
    "selected_runs",
    "with_progress",
]
