"""Fit :mod:`.latent` on a corpus's tallies: per question P(key wrong), per run reliability.

Each track is fitted apart: its Boolean items (every option of every question a
run of the track answered, unless the question is a letter question) in one
:func:`~.latent_fit.fit_items` with two categories per item, its letter questions
(``single_choice`` with a one-hot key) in another, with the letters as categories.
:func:`question_prior` is the only place hygiene enters: as a lower prior, never as a
weight.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ai4hse_desk.keyaudit.latent import HYGIENE_PRIOR, PRIOR, Driver, TrackPosterior, combine
from ai4hse_desk.keyaudit.latent_fit import ItemFit, fit_items, vote_weight
from ai4hse_desk.keyaudit.signals import letter_mode
from ai4hse_desk.protocol.outcome import TRACK_ORDER

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ai4hse_desk.audit.records import Question
    from ai4hse_desk.keyaudit.hygiene import Hygiene
    from ai4hse_desk.keyaudit.latent_params import Floats
    from ai4hse_desk.keyaudit.tally import Cell, RunTally


def question_prior(hygiene: Hygiene | None) -> float:
    """P(key right) before the votes: :data:`PRIOR`, or :data:`HYGIENE_PRIOR` when the
    question has identical options, encoding damage or a duplicate with another key."""
    if hygiene is None:
        return PRIOR
    if hygiene.identical or hygiene.damage or hygiene.finding.different_key:
        return HYGIENE_PRIOR
    return PRIOR


@dataclass(slots=True)
class Posterior:
    """The combined verdict on one question."""

    probability: float
    prior: float
    option: int | None
    tracks: list[TrackPosterior] = field(default_factory=list)

    def strongest(self) -> TrackPosterior | None:
        return max(self.tracks, key=lambda t: t.wrong) if self.tracks else None


@dataclass(slots=True)
class CorpusFit:
    posteriors: dict[str, Posterior]
    reliabilities: list[dict[str, object]]


def _vote(cell: Cell, size: int) -> tuple[bool, ...] | None:
    answer = cell.majority() if cell.valid else None
    return answer if answer is not None and len(answer) == size else None


def _store_reliability(
    fit: ItemFit, run_ids: list[str], kind: str, reliabilities: dict[str, dict[str, object]]
) -> None:
    """A run's fitted parameters as its reliability; a Boolean option's misconception is
    a lower accuracy (``misconception_accuracy``), a letter's a pull (share of the
    run's wrong answers that go to it)."""
    ordinary, hard, lured = fit.accuracy(), fit.accuracy(hard=True), fit.lured_accuracy()
    p = fit.params
    for j, run_id in enumerate(run_ids):
        entry: dict[str, float] = {
            "accuracy": round(float(ordinary[j]), 4),
            "hard_accuracy": round(float(hard[j]), 4),
            "copy_rate": round(float(p.copy[j]), 4),
        }
        if kind == "options":
            entry["misconception_accuracy"] = round(float(lured[j]), 4)
        else:
            entry["misconception_pull"] = round(float(p.lure[j]), 4)
        reliabilities[run_id][kind] = entry


#: Decimals a posterior is compared at when one option or track is named: options the
#: votes cannot tell apart have equal posteriors only up to rounding, and the first of
#: them is named whatever the last bits say.
SETTLED = 9


def _first_best(values: Floats, lowest: bool = False) -> int:
    """The first index of the largest (or smallest) of ``values`` at :data:`SETTLED` decimals."""
    settled = np.round(values, SETTLED)
    return int(np.argmin(settled) if lowest else np.argmax(settled))


def _drivers(accuracy: Floats, votes: list[int], alternative: int, categories: int,
             run_ids: list[str]) -> list[Driver]:  # fmt: skip
    """The runs that voted ``alternative``, strongest evidence first (``accuracy``: the
    fit's per run, :meth:`~.latent_fit.ItemFit.accuracy`)."""
    found = [
        Driver(run_ids[j], float(accuracy[j]), vote_weight(float(accuracy[j]), categories))
        for j, v in enumerate(votes)
        if v == alternative
    ]
    found.sort(key=lambda d: -d.log_ratio)
    return found


def _fit_track_boolean(
    track: str,
    questions: Sequence[Question],
    run_ids: list[str],
    cells: Mapping[str, Mapping[str, Cell]],
    priors: Mapping[str, float],
    out: dict[str, list[TrackPosterior]],
    reliabilities: dict[str, dict[str, object]],
) -> None:
    column = {r: j for j, r in enumerate(run_ids)}
    starts: list[int] = []
    votes_list: list[list[int]] = []
    keys: list[bool] = []
    prior: list[float] = []
    for question in questions:
        size = question.n_options
        line = [[-1] * len(run_ids) for _ in range(size)]
        for run_id, cell in cells.get(question.question_id, {}).items():
            j = column.get(run_id)
            answer = None if j is None else _vote(cell, size)
            if answer is None or j is None:
                continue
            for i, value in enumerate(answer):
                line[i][j] = 1 if value else 0
        starts.append(len(keys))
        votes_list.extend(line)
        keys.extend(question.key)
        prior.extend([priors[question.question_id] ** (1.0 / size)] * size)
    if not keys:
        return
    key = np.array(keys, dtype=np.int64)
    fit = fit_items(
        np.array(votes_list, dtype=np.int64), key, np.full(len(keys), 2), np.array(prior)
    )
    _store_reliability(fit, run_ids, "options", reliabilities)
    accuracy = fit.accuracy()
    right = fit.truth[np.arange(len(keys)), key]
    for qi, question in enumerate(questions):
        start, end = starts[qi], starts[qi] + question.n_options
        worst = start + _first_best(right[start:end], lowest=True)
        other = 1 - int(key[worst])
        drivers = _drivers(accuracy, votes_list[worst], other, 2, run_ids)
        out.setdefault(question.question_id, []).append(TrackPosterior(
            track, 1.0 - float(np.prod(right[start:end])), worst - start,
            1.0 - float(right[worst]), drivers))  # fmt: skip


def _fit_track_letters(
    track: str,
    questions: Sequence[Question],
    run_ids: list[str],
    cells: Mapping[str, Mapping[str, Cell]],
    priors: Mapping[str, float],
    out: dict[str, list[TrackPosterior]],
    reliabilities: dict[str, dict[str, object]],
) -> None:
    column = {r: j for j, r in enumerate(run_ids)}
    votes = np.full((len(questions), len(run_ids)), -1, dtype=np.int64)
    for qi, question in enumerate(questions):
        for run_id, cell in cells.get(question.question_id, {}).items():
            j = column.get(run_id)
            answer = None if j is None else _vote(cell, question.n_options)
            if j is not None and answer is not None and sum(answer) == 1:
                votes[qi, j] = answer.index(True)
    key = np.array([q.key.index(True) for q in questions], dtype=np.int64)
    options = np.array([q.n_options for q in questions], dtype=np.int64)
    prior = np.array([priors[q.question_id] for q in questions])
    fit = fit_items(votes, key, options, prior)
    _store_reliability(fit, run_ids, "letters", reliabilities)
    accuracy = fit.accuracy()
    for qi, question in enumerate(questions):
        post = fit.truth[qi].copy()
        k = int(key[qi])
        wrong = 1.0 - float(post[k])
        post[k] = -1.0
        chosen = _first_best(post)
        drivers = _drivers(accuracy, [int(v) for v in votes[qi]], chosen, int(options[qi]), run_ids)
        out.setdefault(question.question_id, []).append(
            TrackPosterior(track, wrong, chosen, float(post[chosen]), drivers)
        )


def fit_corpus(
    questions: Sequence[Question],
    cells: Mapping[str, Mapping[str, Cell]],
    runs: Mapping[str, RunTally],
    hygiene: Sequence[Hygiene] | None = None,
) -> CorpusFit:
    """Fit every track and combine them per question."""
    priors = {
        q.question_id: question_prior(None if hygiene is None else hygiene[i])
        for i, q in enumerate(questions)
    }
    by_track: dict[str, list[str]] = {}
    for run in runs.values():
        by_track.setdefault(run.track.value, []).append(run.run_id)
    reliabilities: dict[str, dict[str, object]] = {
        run.run_id: {"run_id": run.run_id, "track": run.track.value} for run in runs.values()
    }
    out: dict[str, list[TrackPosterior]] = {}
    for track in TRACK_ORDER:
        run_ids = sorted(by_track.get(track.value, []))
        if not run_ids:
            continue
        present = set(run_ids)
        answered = [q for q in questions if present.intersection(cells.get(q.question_id, {}))]
        letters = [q for q in answered if letter_mode(track, q.key)]
        booleans = [q for q in answered if not letter_mode(track, q.key)]
        args = (run_ids, cells, priors, out, reliabilities)
        if booleans:
            _fit_track_boolean(track.value, booleans, *args)
        if letters:
            _fit_track_letters(track.value, letters, *args)
    posteriors: dict[str, Posterior] = {}
    for question in questions:
        prior = priors[question.question_id]
        tracks = out.get(question.question_id, [])
        probability = combine(1.0 - prior, [t.wrong for t in tracks])
        best = max(tracks, key=lambda t: round(t.wrong, SETTLED)) if tracks else None
        posteriors[question.question_id] = Posterior(
            probability, prior, None if best is None else best.option, tracks
        )
    order = {t.value: i for i, t in enumerate(TRACK_ORDER)}
    listed = sorted(reliabilities.values(), key=lambda r: (order[str(r["track"])], r["run_id"]))
    return CorpusFit(posteriors, listed)


__all__ = ["CorpusFit", "Posterior", "fit_corpus", "question_prior"]
