"""One suspicion score per question, the option it points at, and the reasons.

score = 0.45·C + 0.20·D + 0.15·P + 0.05·I + 0.15·H, each part in [0, 1]:

* C consensus — max over options of :attr:`OptionVotes.evidence`: the
  accuracy-weighted share of runs whose majority disagrees with the key there,
  shrunk by one pseudo-run that agrees (n / (n + 1)), times
  0.75 + 0.25 × concentration (disagreeing runs giving the same answer).
* D discrimination — (0.2 − r) / 1.2 clipped to [0, 1], times df / (df + 2).
* P difficulty — accuracy-weighted mean over runs of their wrong share of valid
  repetitions (strong runs failing weighs most).
* I instability — share of runs whose valid repetitions differ.
* H hygiene — :attr:`Hygiene.severity`.

The score is rounded to 4 decimals, so equal scores as shown are ties, broken
by ordinal. The option is the consensus option when an accuracy-weighted
majority of runs disagrees there; else an option named by hygiene; else none.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.display.format import option_letter
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
from ai4hse_desk.protocol.outcome import TRACK_ORDER, Selection

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ai4hse_desk.audit.records import Question
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
    """``option 2 (C)``."""
    return f"option {position} ({option_letter(position)})"


def _answer(selection: Selection) -> str:
    return "[" + ", ".join("TRUE" if value else "FALSE" for value in selection) + "]"


def _by_track(option: OptionVotes) -> str:
    if len(option.by_track) < 2:
        return ""
    ordered = sorted(option.by_track.items(), key=lambda item: TRACK_ORDER.index(item[0]))
    parts = [f"{t.value} {c[1]} of {c[0]}" for t, c in ordered]
    return " (" + ", ".join(parts) + ")"


def _consensus_reasons(question: Question, option: OptionVotes, letters: bool) -> list[str]:
    key = question.key
    weighted = f"accuracy-weighted share {option.weighted_share:.2f}"
    head = f"{option.against} of {option.runs} runs"
    if letters:
        keyed = key.index(True)
        text = f"{head} choose {name(option.position)}; the key says {name(keyed)}"
        return [f"{text}{_by_track(option)}; {weighted}"]
    chosen = "FALSE" if option.key else "TRUE"
    said = "TRUE" if option.key else "FALSE"
    text = f"{head} select {name(option.position)} as {chosen}; the key says {said}"
    reasons = [f"{text}{_by_track(option)}; {weighted}"]
    if option.against >= 2:
        answer, same = option.alternatives.most_common(1)[0]
        share = "all" if same == option.against else f"{same} of the"
        reasons.append(f"{share} {option.against} runs that disagree give the same answer: "
                       f"{_answer(answer)}")  # fmt: skip
    return reasons


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


def _other_reasons(disc: Discrimination, pooled: Counts) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {"discrimination": [], "difficulty": [], "instability": []}
    r = disc.r
    if r is not None and r < 0.1:
        over = f"r = {r:.2f} over {disc.runs} runs"
        found["discrimination"].append(
            f"runs that score better elsewhere get it wrong more often (discrimination {over})"
            if r <= -0.1
            else f"near-zero discrimination ({over}): strong runs do no better than weak ones"
        )
    if pooled.never_correct:
        found["difficulty"].append(
            f"no run answers it correctly (0 of {pooled.valid} valid attempts)"
        )
    elif pooled.valid and pooled.correct < 0.2 * pooled.valid:
        found["difficulty"].append(
            f"only {pooled.correct} of {pooled.valid} valid attempts are correct"
        )
    if pooled.valid and not pooled.never_correct and pooled.difficulty >= 0.8:
        found["difficulty"].append(
            "the stronger runs get it wrong too "
            f"(accuracy-weighted share wrong {pooled.difficulty:.2f})"
        )
    eligible = pooled.stable_runs + pooled.unstable_runs
    if pooled.unstable_runs >= 2 and 2 * pooled.unstable_runs >= eligible:
        found["instability"].append(
            f"{pooled.unstable_runs} of {eligible} runs answer differently across repetitions"
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


def _posterior_reason(posterior: Posterior) -> tuple[int | None, list[str]]:
    """ "P(key wrong) = 0.93 — option C: …" with the runs that drive it (none when no
    run's vote goes against the key)."""
    best = posterior.strongest()
    if best is None or best.option is None or not best.drivers:
        return None, []
    drivers = sorted(
        (d for t in posterior.tracks if t.option == best.option for d in t.drivers),
        key=lambda d: -d.log_ratio,
    )
    named = ", ".join(f"{d.run_id} ({d.reliability:.2f})" for d in drivers[:3])
    more = len(drivers) - 3
    rest = f" and {more} more" if more > 0 else ""
    text = (
        f"P(key wrong) = {posterior.probability:.2f} — option {option_letter(best.option)}: "
        f"driven by {named}{rest} (fitted run reliability in brackets)"
    )
    return best.option, [text]


def assess(
    question: Question,
    cells: Mapping[str, Cell],
    runs: Mapping[str, RunTally],
    hygiene: Hygiene,
    posterior: Posterior | None = None,
) -> QuestionSuspicion:
    """Assess one question from its cells (run id → :class:`Cell`), hygiene and its
    fitted :class:`~.posterior.Posterior`: ``score`` is P(key wrong) (without a
    posterior, the legacy weighted score of :data:`FORMULA`)."""
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
    model_option, model_reasons = (None, []) if posterior is None else _posterior_reason(posterior)
    reasons = _other_reasons(disc, pooled)
    reasons["consensus"] = []
    if option is not None and top is not None:
        letters = all(letter_mode(runs[r].track, question.key) for r in cells)
        reasons["consensus"] = _consensus_reasons(question, top, letters)
    reasons["hygiene"] = _hygiene_reasons(hygiene)
    if model_option is not None:
        option = model_option
    if option is None:
        option = _hygiene_option(hygiene)
    order = sorted(WEIGHTS, key=lambda k: -WEIGHTS[k] * parts[k])
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
    probability = None
    if posterior is not None:
        probability = round(posterior.probability, 4)
        score = probability
        signals["model"] = _model_json(posterior)
    return QuestionSuspicion(
        question_id=question.question_id,
        ordinal=question.ordinal,
        option=option,
        score=score,
        signals=signals,
        reasons=(*model_reasons, *(reason for k in order for reason in reasons[k])),
        probability=probability,
    )


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
