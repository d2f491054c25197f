"""Re-derive every attempt of an audit database with the protocol and score each run.

This is the hot path of ``ai4hse-desk rescore`` and of the window's verdict
cache: it streams attempts through the driver-level cursor (never the ORM,
never all rows at once), applies :func:`ai4hse_desk.protocol.extract.derive`,
compares with the runner's recorded verdict and feeds one
:class:`~ai4hse_desk.protocol.metrics.RunScorer` per run.

Identical responses are common (answer-only runs mostly return the same few
strict lists), so verdicts are memoised per ``(track, protocol, n, state,
cut-off, response)`` in a bounded dictionary.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from ai4hse_desk.audit.errors import AuditError
from ai4hse_desk.audit.filters import AttemptFilter
from ai4hse_desk.audit.queries import AuditDB
from ai4hse_desk.protocol.compare import disagrees
from ai4hse_desk.protocol.extract import derive
from ai4hse_desk.protocol.metrics import RunInfo, RunScorer, order_runs
from ai4hse_desk.protocol.outcome import CUT_OFF_REASONS, Extraction, Status

_CACHE_LIMIT = 200_000
_CACHEABLE_LENGTH = 4096
_VALID = Status.VALID

#: Called every few thousand attempts with (attempts done, attempts in total);
#: returning False cancels the rescore.
Progress = Callable[[int, int], bool]


class RescoreCancelled(Exception):
    """The progress callback asked to stop."""


@dataclass(frozen=True, slots=True)
class AttemptVerdict:
    """The desk's verdict on one attempt next to what the runner recorded."""

    attempt_id: int
    run_id: str
    question_id: str
    repetition: int
    outcome: Extraction
    correct: bool
    recorded_status: str | None
    agrees: bool

    def to_json(self) -> dict[str, object]:
        """The per-attempt object of cli.md's ``rescore --per-attempt``."""
        selection = self.outcome.selection
        return {
            "attempt_id": self.attempt_id,
            "run_id": self.run_id,
            "question_id": self.question_id,
            "repetition": self.repetition,
            "status": self.outcome.status.value,
            "selection": None if selection is None else list(selection),
            "strict_format": self.outcome.strict_format,
            "correct": self.correct,
            "recorded_status": self.recorded_status,
            "agrees": self.agrees,
        }


@dataclass(frozen=True, slots=True)
class RescoreResult:
    """Ordered run objects (cli.md) of one rescore."""

    runs: list[dict[str, object]]
    attempts: int


def _selected_runs(db: AuditDB, run_ids: Sequence[str] | None) -> dict[str, RunInfo]:
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


def iter_verdicts(
    db: AuditDB,
    run_ids: Sequence[str] | None = None,
    *,
    progress: Progress | None = None,
    scorers: dict[str, RunScorer] | None = None,
) -> Iterator[AttemptVerdict]:
    """Yield the desk's verdict on every attempt (of ``run_ids``) in attempt_id order.

    When ``scorers`` is given, each attempt is also added to its run's scorer.

    Raises:
        AuditError: an unknown run, or an attempt whose question or run is not
            in the database, or a question without options.
        RescoreCancelled: ``progress`` returned False.
    """
    runs = _selected_runs(db, run_ids)
    keys = db.keys()
    total = db.count_attempts(AttemptFilter(run_ids=tuple(runs))) if progress is not None else 0
    tracks = {run_id: (info.track, info.protocol_version) for run_id, info in runs.items()}
    cache: dict[tuple[str, int, int, str, bool, str | None], Extraction] = {}
    done = 0
    for row in db.iter_rescore_rows(None if run_ids is None else list(runs)):
        (attempt_id, run_id, question_id, repetition, state, raw, finish,
         rec_status, rec_extracted, rec_strict, rec_correct) = row  # fmt: skip
        key = keys.get(question_id)
        if not key:
            raise AuditError(
                f"attempt {attempt_id} refers to question {question_id!r}, "
                "which is missing or has no options"
            )
        track_pv = tracks.get(run_id)
        if track_pv is None:
            raise AuditError(f"attempt {attempt_id} refers to unknown run {run_id!r}")
        track, pv = track_pv
        cut = finish in CUT_OFF_REASONS
        n = len(key)
        ck = (track, pv, n, state, cut, raw)
        outcome = cache.get(ck)
        if outcome is None:
            outcome = derive(
                track, raw, n, protocol_version=pv, state=state,
                finish_reason=finish if cut else None,
            )  # fmt: skip
            if raw is None or len(raw) <= _CACHEABLE_LENGTH:
                if len(cache) >= _CACHE_LIMIT:
                    cache.clear()
                cache[ck] = outcome
        correct = outcome.status is _VALID and outcome.selection == key
        differs = disagrees(
            outcome.status, outcome.selection, outcome.strict_format, correct,
            rec_status, rec_extracted, rec_strict, rec_correct,
        )  # fmt: skip
        if scorers is not None:
            scorers[run_id].add(
                question_id, repetition, outcome.status, outcome.selection,
                outcome.strict_format, key, differs,
            )  # fmt: skip
        yield AttemptVerdict(
            attempt_id, run_id, question_id, repetition, outcome, correct, rec_status, not differs
        )
        done += 1
        if progress is not None and done % 5000 == 0 and not progress(done, total):
            raise RescoreCancelled
    if progress is not None:
        progress(done, total)


def rescore(
    db: AuditDB,
    run_ids: Sequence[str] | None = None,
    *,
    on_attempt: Callable[[AttemptVerdict], None] | None = None,
    progress: Progress | None = None,
) -> RescoreResult:
    """Re-derive and score every run (or ``run_ids``); runs ordered as cli.md says."""
    runs = _selected_runs(db, run_ids)
    scorers = {run_id: RunScorer(info) for run_id, info in runs.items()}
    count = 0
    for verdict in iter_verdicts(db, run_ids, progress=progress, scorers=scorers):
        count += 1
        if on_attempt is not None:
            on_attempt(verdict)
    labels = db.labels()
    return RescoreResult(
        runs=order_runs(scorer.result(labels) for scorer in scorers.values()), attempts=count
    )


__all__ = [
    "AttemptVerdict",
    "Progress",
    "RescoreCancelled",
    "RescoreResult",
    "iter_verdicts",
    "rescore",
]
