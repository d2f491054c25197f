"""What a key audit returns: ranked :class:`QuestionSuspicion` items and corpus signals.

These are suggestions for a reviewer. They never change a key, an attempt, a
status or a score (protocol.md section 7).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping


@dataclass(frozen=True, slots=True)
class QuestionSuspicion:
    """How much one question's answer key looks worth a review, and why.

    Attributes:
        question_id: the question.
        ordinal: its corpus order (breaks ties of ``score``).
        option: the 0-based position the evidence points at, or ``None``. On
            single-choice runs it is the letter the runs chose instead of the
            keyed one.
        score: the ranking number in [0, 1], rounded to 4 decimals: the calibration
            map (:func:`~ai4hse_desk.keyaudit.calibration.probability`) of the
            suspicion score, so it orders as :attr:`suspicion` does. It is a
            probability only where :attr:`probability` is not ``None``.
        probability: P(key wrong) where it is honest (the corpus and the question
            are like the calibration data, :mod:`~ai4hse_desk.keyaudit.calibration`);
            ``None`` elsewhere (then :attr:`withheld` says why).
        signals: every signal's numbers (JSON-ready), per track where it applies,
            plus ``components`` (the weighed parts of the earlier score) and
            ``suspicion`` (the inputs of the suspicion score).
        reasons: the evidence in plain words, strongest first (runs named by strength).
        suspicion: the suspicion score itself (:mod:`~ai4hse_desk.keyaudit.suspicion`);
            the ranking follows it.
        rank: 1-based place in the ranking (0 until ranked).
        withheld: why no probability is shown (``None`` when one is).
    """

    question_id: str
    ordinal: int
    option: int | None
    score: float
    signals: Mapping[str, Any] = field(hash=False)
    reasons: tuple[str, ...] = ()
    probability: float | None = None
    suspicion: float = 0.0
    rank: int = 0
    withheld: str | None = None

    def to_json(self) -> dict[str, object]:
        """The per-question object of ``keyaudit``'s JSON (cli.md's fields, plus
        ``ordinal``, ``rank``, ``probability`` and ``probability_withheld``)."""
        return {
            "question_id": self.question_id,
            "ordinal": self.ordinal,
            "rank": self.rank,
            "option": self.option,
            "score": self.score,
            "probability": self.probability,
            "probability_withheld": self.withheld,
            "signals": dict(self.signals),
            "reasons": list(self.reasons),
        }


def rank_key(item: QuestionSuspicion) -> tuple[bool, float, int, str]:
    """Sort key: questions with a stated reason first (a row that cannot say why never
    ranks above one that can), then highest score (the suspicion's monotone map, to 4
    decimals: equal as shown is a tie), ties by ordinal (then id)."""
    return (not item.reasons, -item.score, item.ordinal, item.question_id)


@dataclass(frozen=True, slots=True)
class KeyAuditResult:
    """Every question ranked (highest score first) and the corpus-level signals.

    Attributes:
        questions: every question of the database, ranked.
        corpus: corpus-level signals (``position_skew``, hygiene counts, the
            runs' vote weights, the score formula).
        audit: which file was read (path, sha256, benchmark, corpus_id).
    """

    questions: list[QuestionSuspicion]
    corpus: Mapping[str, Any]
    audit: Mapping[str, Any] = field(default_factory=dict)

    def top(self, count: int | None) -> list[QuestionSuspicion]:
        """The ``count`` highest-ranked questions (all when ``None``)."""
        return list(self.questions if count is None else self.questions[: max(0, count)])

    def tied_ranks(self, item: QuestionSuspicion) -> tuple[int, int]:
        """The first and last rank of the questions the ranking cannot tell from ``item``
        (the same score, with reasons or without alike, :func:`rank_key`): only their
        corpus order orders them. ``(rank, rank)`` when nothing ties with it."""
        same = [
            place
            for place, other in enumerate(self.questions, start=1)
            if other.score == item.score and bool(other.reasons) == bool(item.reasons)
        ]
        return (min(same), max(same)) if same else (item.rank, item.rank)

    def by_id(self) -> dict[str, QuestionSuspicion]:
        """Items by question id."""
        return {item.question_id: item for item in self.questions}

    def to_json(self, top: int | None = None) -> dict[str, object]:
        """``{"questions": [...], "corpus": {...}, "audit": {...}}`` (cli.md plus
        the two documented extra keys)."""
        return {
            "questions": [item.to_json() for item in self.top(top)],
            "corpus": dict(self.corpus),
            "audit": dict(self.audit),
        }


__all__ = ["KeyAuditResult", "QuestionSuspicion", "rank_key"]
