"""One question assessed: the option the evidence points at, the reasons in words, the
suspicion score that ranks it and, where honest, its probability.

The ranking follows the suspicion score (:mod:`.suspicion`); ``score`` is its
calibration map and ``probability`` that number where :mod:`.calibration` allows.
The reasons are plain sentences (:mod:`.evidence`): what the runs answered, the
strongest runs named, and the data-hygiene findings.

Without a fitted model (``posterior=None``, kept for the benchmarks' "previous"
column) the score is the earlier weighted one:
score = 0.45·C + 0.20·D + 0.15·P + 0.05·I + 0.15·H, each part in [0, 1] (C consensus
— max over options of :attr:`OptionVotes.evidence`; D discrimination —
(0.2 − r) / 1.2 clipped, times df / (df + 2); P difficulty — accuracy-weighted wrong
share; I instability; H hygiene — :attr:`Hygiene.severity`); its parts stay in
``signals.components``.

The option is the letter most runs choose instead of the key (single-choice), else the
model's most doubtful option when runs contest the key, else the consensus option, else
an option named by hygiene, else none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.display.format import option_letter
from ai4hse_desk.keyaudit import calibration
from ai4hse_desk.keyaudit.evidence import discrimination_sentence, vote_sentences
from ai4hse_desk.keyaudit.result import QuestionSuspicion
from ai4hse_desk.keyaudit.signals import (
    Counts,
    Discrimination,
    OptionVotes,
    consensus,
    counts,
    discrimination,
    letter_mode,
    rnd,
)
from ai4hse_desk.keyaudit.suspicion import VoteSummary, features, summarise

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ai4hse_desk.audit.records import Question
    from ai4hse_desk.keyaudit.calibration import CorpusCalibration
    from ai4hse_desk.keyaudit.hygiene import Hygiene
    from ai4hse_desk.keyaudit.posterior import Posterior
    from ai4hse_desk.keyaudit.tally import Cell, RunTally

WEIGHTS: dict[str, float] = {
    "consensus": 0.45,
    "discrimination": 0.20,
    "difficulty": 0.15,
    "instability": 0.05,
    "hygiene": 0.15,
}
FORMULA = (
    "score = 0.45*consensus + 0.20*discrimination + 0.15*difficulty"
    " + 0.05*instability + 0.15*hygiene (each in [0, 1]; README 'Key audit')"
)
_ISSUES = {
    "replacement_character": "U+FFFD replacement characters",
    "mojibake": "mojibake",
    "byte_order_mark": "a stray byte-order mark",
    "control_character": "C1 control characters",
}


def name(position: int) -> str:
    """``option C``: the letter a reader sees (the JSON's ``option`` keeps the position)."""
    return f"option {option_letter(position)}"


def _hygiene_reasons(hygiene: Hygiene) -> list[str]:
    reasons: list[str] = hygiene.finding.reasons()
    for first, second in hygiene.identical:
        reasons.append(f"{name(first)} and {name(second)} are identical")
    reasons.extend(f"{name(position)} is empty" for position in hygiene.empty)
    for damage in hygiene.damage:
        where = "the question text" if damage.position is None else name(damage.position)
        issue = _ISSUES.get(damage.issue, damage.issue)
        sample = f" ({damage.match!r})" if damage.issue == "mojibake" else ""
        reasons.append(f"encoding damage in {where}: {issue}{sample}")
    return reasons


def _hygiene_option(hygiene: Hygiene) -> int | None:
    for _, second in hygiene.identical:
        return second
    for damage in hygiene.damage:
        if damage.position is not None:
            return damage.position
    return hygiene.empty[0] if hygiene.empty else None


def _other_reasons(disc: Discrimination, pooled: Counts, summary: VoteSummary) -> list[str]:
    """Discrimination, difficulty (when the runs do not converge on one other answer:
    else the vote sentences say it) and instability in words."""
    found = discrimination_sentence(disc.r)
    scattered = 2 * summary.contest < summary.voters
    if scattered and pooled.valid and not pooled.never_correct and pooled.difficulty >= 0.8:
        found.append(
            "the stronger runs get it wrong too: most of their repetitions disagree with the key"
        )
    eligible = pooled.stable_runs + pooled.unstable_runs
    if pooled.unstable_runs >= 2 and 2 * pooled.unstable_runs >= eligible:
        found.append(
            f"{pooled.unstable_runs:,} of {eligible:,} runs answer differently across repetitions"
        )
    return found


def _consensus_json(votes: list[OptionVotes], top: OptionVotes | None) -> dict[str, object]:
    alternative = top.alternatives.most_common(1)[0] if top and top.alternatives else None
    return {
        "option": None if top is None else top.position,
        "runs": top.runs if top else 0,
        "against": top.against if top else 0,
        "share": rnd(top.against / top.runs) if top and top.runs else None,
        "weighted_share": rnd(top.weighted_share) if top and top.runs else None,
        "concentration": rnd(top.concentration) if top and top.against else None,
        "alternative": None if alternative is None else list(alternative[0]),
        "concentrated": bool(top and alternative and 2 * alternative[1] > top.runs),
        "options": [option.to_json() for option in votes],
    }


def assess(
    question: Question,
    cells: Mapping[str, Cell],
    runs: Mapping[str, RunTally],
    hygiene: Hygiene,
    posterior: Posterior | None = None,
    calibrated: CorpusCalibration | None = None,
) -> QuestionSuspicion:
    """Assess one question from its cells (run id → :class:`Cell`), hygiene and its
    fitted :class:`~.posterior.Posterior`: the suspicion score
    (:mod:`.suspicion`) ranks it, ``score`` is its calibration map, ``probability``
    that number where ``calibrated`` (the corpus rule) and the question rule allow
    (:mod:`.calibration`). Without a posterior: the legacy weighted score of
    :data:`FORMULA`, no probability."""
    votes = consensus(question, cells, runs)
    disc = discrimination(question, cells, runs)
    pooled, per_track = counts(cells, runs)
    top = max(votes, key=lambda v: (v.evidence, -v.position)) if votes else None
    if top is not None and top.against == 0:
        top = None
    parts = {
        "consensus": top.evidence if top else 0.0,
        "discrimination": disc.suspicion,
        "difficulty": pooled.difficulty,
        "instability": pooled.instability,
        "hygiene": hygiene.severity,
    }
    score = round(sum(WEIGHTS[k] * v for k, v in parts.items()), 4)
    option = top.position if top and top.weighted_share >= 0.5 else None
    summary = summarise(question, cells)
    letters = bool(cells) and all(letter_mode(runs[r].track, question.key) for r in cells)
    if letters and summary.alternative is not None and sum(summary.alternative) == 1:
        option = summary.alternative.index(True)
    if posterior is not None and posterior.option is not None and summary.alternative is not None:
        option = posterior.option
    if option is None:
        option = _hygiene_option(hygiene)
    reasons = [
        *vote_sentences(question, summary, runs, letters, option),
        *_other_reasons(disc, pooled, summary),
        *_hygiene_reasons(hygiene),
    ]
    signals = {
        "consensus": _consensus_json(votes, top),
        "discrimination": disc.to_json(),
        "difficulty": {**pooled.difficulty_json(), "by_track": {
            t.value: c.difficulty_json() for t, c in per_track.items()}},
        "instability": {**pooled.instability_json(), "by_track": {
            t.value: c.instability_json() for t, c in per_track.items()}},
        "hygiene": hygiene.to_json(),
        "components": {k: rnd(v) for k, v in parts.items()},
    }  # fmt: skip
    probability, suspicion = None, score
    withheld: str | None = "no model fitted (the earlier score)"
    if posterior is not None:
        found = features(question, summary, posterior.probability)
        suspicion = found.score()
        score = round(calibration.probability(suspicion), 4)
        withheld = _withheld(question, summary, runs, calibrated)
        probability = score if withheld is None else None
        signals["model"] = _model_json(posterior)
        signals["suspicion"] = {**found.to_json(), "score": round(suspicion, 6),
                                "voters": summary.voters}  # fmt: skip
    return QuestionSuspicion(
        question_id=question.question_id,
        ordinal=question.ordinal,
        option=option,
        score=score,
        signals=signals,
        reasons=tuple(reasons),
        probability=probability,
        suspicion=round(suspicion, 6),
        withheld=withheld,
    )


def _withheld(
    question: Question,
    summary: VoteSummary,
    runs: Mapping[str, RunTally],
    corpus: CorpusCalibration | None,
) -> str | None:
    """Why no probability is shown for this question (``None``: it is shown)."""
    if corpus is None or not corpus.applies:
        return corpus.reason if corpus is not None else "no calibration for this corpus"
    if calibration.question_calibrated(question, summary, runs):
        return None
    lo, hi = calibration.MIN_RUNS, calibration.MAX_RUNS
    if sum(question.key) != 1 or question.n_options != calibration.OPTIONS:
        return (f"the calibration was measured on single-answer questions with "
                f"{calibration.OPTIONS} options")  # fmt: skip
    if not lo <= summary.voters <= hi:
        return f"{summary.voters} runs answer it; the calibration holds for {lo} to {hi}"
    return "runs of other tracks answer it; the calibration holds for single-choice runs"


def _model_json(posterior: Posterior) -> dict[str, object]:
    return {
        "prior_key_right": posterior.prior,
        "by_track": {
            t.track: {
                "p_key_wrong": rnd(t.wrong),
                "option": t.option,
                "p_option_wrong": rnd(t.option_wrong),
                "drivers": [d.run_id for d in t.drivers[:5]],
            }
            for t in posterior.tracks
        },
    }


__all__ = ["FORMULA", "WEIGHTS", "assess", "name"]
