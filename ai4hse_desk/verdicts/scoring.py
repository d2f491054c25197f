"""Scoring a verdict stream: each run's figures from the desk's verdicts on its attempts.

:func:`score_batches` is the one scoring of verdicts. ``rescore`` scores the stream
as :func:`~.stream.verdict_stream` derives it; the window scores the verdicts its
review index stored from that same stream (:func:`score_verdicts`, so its figures
are exactly ``rescore``'s without a second derivation); the review report's
sensitivity scores one stream three times, with the official keys, without the
excluded questions and with the corrected keys (:mod:`.key_sensitivity`).

A batch is counted column by column: ``zip`` turns its verdicts into columns, the
attempts of one run (which come together) are one slice of each, and
:meth:`~ai4hse_desk.protocol.metrics.RunScorer.add_counts` counts a run's slices into
its :class:`collections.Counter` objects. Every step over the attempts runs in C
(``map``, ``compress``, ``groupby``, ``Counter.update``); the scorer ends with exactly
the counts one ``RunScorer.add`` per attempt would give (a test compares them).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress, groupby, repeat
from operator import and_, attrgetter, eq, is_, not_
from typing import TYPE_CHECKING, NamedTuple

from ai4hse_desk.audit.errors import AuditError
from ai4hse_desk.protocol.metrics import RunInfo, RunScorer, order_runs
from ai4hse_desk.protocol.outcome import Status
from ai4hse_desk.verdicts.stream import RescoreCancelled

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence

    from ai4hse_desk.audit.queries import AuditDB
    from ai4hse_desk.progress import Progress
    from ai4hse_desk.protocol.outcome import Extraction, Selection
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


_STATUS = attrgetter("status")
_SELECTION = attrgetter("selection")
_STRICT = attrgetter("strict_format")


class _Columns(NamedTuple):
    """One batch of verdicts, column by column."""

    run_ids: tuple[str, ...]
    question_ids: tuple[str, ...]
    repetitions: tuple[int, ...]
    outcomes: tuple[Extraction, ...]
    corrects: tuple[bool, ...]
    agrees: tuple[bool, ...]
    valid: tuple[bool, ...]


def _columns(batch: Sequence[VerdictTuple]) -> _Columns | None:
    if not batch:
        return None
    _, run_ids, question_ids, repetitions, outcomes, corrects, _, agrees = zip(*batch, strict=True)
    valid = tuple(map(is_, map(_STATUS, outcomes), repeat(Status.VALID)))
    return _Columns(run_ids, question_ids, repetitions, outcomes, corrects, agrees, valid)


def score_batches(batches: Iterable[list[VerdictTuple]], scorings: Sequence[Scoring]) -> None:
    """Count every verdict of ``batches`` (the verdict stream, or the verdicts stored
    from it) into each of ``scorings``."""
    for batch in batches:
        whole: _Columns | None = None
        for scoring in scorings:
            if scoring.left_out:
                kept = [verdict for verdict in batch if verdict[2] not in scoring.left_out]
                _count(scoring, _columns(kept))
            else:
                whole = whole or _columns(batch)
                _count(scoring, whole)


def _count(scoring: Scoring, columns: _Columns | None) -> None:
    """Count one batch's columns into ``scoring``'s scorers, a run's slice at a time."""
    if columns is None:
        return
    scorers, keys = scoring.scorers, scoring.keys
    run_ids, question_ids, repetitions, outcomes, corrects, agrees, valid = columns
    if scoring.rekeyed:  # judged against these keys, not the official ones the stream used
        chosen = map(_SELECTION, outcomes)
        corrects = tuple(map(and_, valid, map(eq, chosen, map(keys.__getitem__, question_ids))))
    start = 0
    for run_id, attempts in groupby(run_ids):  # a run's attempts come together
        end = start + len(list(attempts))
        scorer = scorers.get(run_id)
        if scorer is not None:
            part = slice(start, end)
            wrong = map(and_, valid[part], map(not_, corrects[part]))
            chosen = map(_SELECTION, outcomes[part])
            scorer.add_counts(
                statuses=map(_STATUS, outcomes[part]),
                question_ids=question_ids[part],
                repetitions=repetitions[part],
                corrects=corrects[part],
                keys=keys,
                strict=sum(map(_STRICT, outcomes[part])),
                disagreements=end - start - sum(agrees[part]),
                wrong=compress(zip(question_ids[part], chosen, strict=True), wrong),
            )
        start = end


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
