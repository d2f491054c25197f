"""One attempt's verdict as the rescore hands it out: a plain tuple in the hot loop,
an :class:`AttemptVerdict` for callers that want names.

Kept apart from the verdict stream so that the window, which reads stored verdicts
from the review index, does not import the stream to name them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ai4hse_desk.protocol.outcome import Extraction

#: One verdict as a plain tuple (the hot loop builds no objects):
#: (attempt_id, run_id, question_id, repetition, outcome, correct, recorded_status, agrees)
VerdictTuple = tuple[int, str, str, int, Extraction, bool, "str | None", bool]


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


__all__ = ["AttemptVerdict", "VerdictTuple"]
