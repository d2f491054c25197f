"""One streaming pass over the desk's re-derived verdicts, kept as small tallies.

The key audit needs, per run and question, only counts and the valid
selections of its repetitions; per run, its end-to-end accuracy. Everything
comes from :func:`ai4hse_desk.verdicts.rescore.iter_verdict_batches` (the desk's own
outcomes, never the runner's recorded ones); nothing is written anywhere.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ai4hse_desk.protocol.outcome import Selection, Status, Track
from ai4hse_desk.verdicts.rescore import VerdictTuple, iter_verdict_batches

if TYPE_CHECKING:
    from collections.abc import Iterable

    from ai4hse_desk.audit.queries import AuditDB
    from ai4hse_desk.progress import Progress

#: Floor of a run's weight, so that a run with no correct attempt still votes a little.
MIN_WEIGHT = 0.05


@dataclass(slots=True)
class Cell:
    """One run × one question over its repetitions (pending attempts left out)."""

    attempts: int = 0
    valid: int = 0
    correct: int = 0
    selections: Counter[Selection] = field(default_factory=Counter)

    def majority(self) -> Selection | None:
        """The run's one vote: the most frequent valid selection, ``None`` on a tie
        or without a valid repetition."""
        if not self.selections:
            return None
        ranked = self.selections.most_common(2)
        if len(ranked) == 2 and ranked[0][1] == ranked[1][1]:
            return None
        return ranked[0][0]

    @property
    def unstable(self) -> bool:
        """True when two or more valid repetitions differ."""
        return len(self.selections) > 1


@dataclass(slots=True)
class RunTally:
    """A run's identity and its end-to-end counts over every question."""

    run_id: str
    model: str
    track: Track
    attempts: int = 0
    correct: int = 0

    @property
    def accuracy(self) -> float | None:
        """Correct / attempts that ran (pending left out); ``None`` without any."""
        return self.correct / self.attempts if self.attempts else None

    @property
    def weight(self) -> float:
        """The run's vote weight: its accuracy, at least :data:`MIN_WEIGHT`."""
        return max(self.accuracy or 0.0, MIN_WEIGHT)

    def rest_accuracy(self, cell: Cell) -> float | None:
        """Accuracy on every *other* question (the corrected item-total score)."""
        attempts = self.attempts - cell.attempts
        return (self.correct - cell.correct) / attempts if attempts > 0 else None


@dataclass(slots=True)
class Tallies:
    """Everything the response-based signals read."""

    runs: dict[str, RunTally]
    #: question id → run id → cell
    cells: dict[str, dict[str, Cell]]
    attempts: int


def collect(
    db: AuditDB,
    progress: Progress | None = None,
    verdicts: Iterable[list[VerdictTuple]] | None = None,
) -> Tallies:
    """Stream every attempt's desk verdict into :class:`Tallies`.

    Args:
        verdicts: verdicts already derived (the review index's
            :meth:`~ai4hse_desk.index.ReviewIndex.verdict_batches`); without them
            every attempt is derived here (``iter_verdict_batches``).

    Raises:
        AuditError: as ``iter_verdict_batches`` (damaged or inconsistent file).
        RescoreCancelled: ``progress`` returned False.
    """
    runs = {run.run_id: RunTally(run.run_id, run.model, run.track) for run in db.runs()}
    cells: dict[str, dict[str, Cell]] = {}
    pending, valid = Status.PENDING, Status.VALID
    seen = 0
    last_key: tuple[str, str] | None = None
    cell = Cell()
    source = iter_verdict_batches(db, progress=progress) if verdicts is None else verdicts
    for batch in source:
        for _, run_id, question_id, _, outcome, correct, _, _ in batch:
            seen += 1
            status = outcome.status
            if status is pending:
                continue
            if (run_id, question_id) != last_key:
                by_run = cells.setdefault(question_id, {})
                found = by_run.get(run_id)
                if found is None:
                    found = by_run[run_id] = Cell()
                cell, last_key = found, (run_id, question_id)
            run = runs[run_id]
            run.attempts += 1
            cell.attempts += 1
            if correct:
                run.correct += 1
                cell.correct += 1
            if status is valid and outcome.selection is not None:
                cell.valid += 1
                cell.selections[outcome.selection] += 1
    return Tallies(runs=runs, cells=cells, attempts=seen)


__all__ = ["MIN_WEIGHT", "Cell", "RunTally", "Tallies", "collect"]
