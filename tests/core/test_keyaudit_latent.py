"""The key audit's latent-class fits on votes built by hand: a planted wrong key is found,
good runs are told from bad ones, and with no votes the prior stands."""

from __future__ import annotations

import numpy as np

from ai4hse_desk.keyaudit.latent import fit_boolean, fit_letters

RNG = np.random.default_rng(7)


def _boolean_votes(truth: np.ndarray, skill: list[float]) -> np.ndarray:
    votes = np.empty((len(truth), len(skill)), dtype=np.int64)
    for run, p in enumerate(skill):
        right = RNG.random(len(truth)) < p
        votes[:, run] = np.where(right, truth, ~truth).astype(np.int64)
    return votes


def test_a_flipped_boolean_key_is_found_and_runs_are_told_apart() -> None:
    truth = RNG.random(400) < 0.5
    key = truth.copy()
    key[17] = not key[17]  # one recorded key is wrong
    skill = [0.95, 0.9, 0.9, 0.85, 0.6, 0.55]
    fit = fit_boolean(_boolean_votes(truth, skill), key, np.full(400, 0.98))
    assert fit.right[17] < 0.1  # P(that key right) is low
    assert np.median(np.delete(fit.right, 17)) > 0.95
    assert fit.sensitivity[0] > fit.sensitivity[-1]
    assert fit.specificity[0] > fit.specificity[-1]


def test_without_votes_the_prior_stands() -> None:
    votes = np.full((5, 3), -1, dtype=np.int64)
    key = np.array([True, False, True, False, True])
    fit = fit_boolean(votes, key, np.full(5, 0.9))
    assert np.allclose(fit.right, 0.9)


def test_a_wrong_letter_key_is_found_when_strong_runs_agree() -> None:
    n, options = 300, np.full(300, 4, dtype=np.int64)
    truth = RNG.integers(0, 4, n)
    key = truth.copy()
    key[5] = (key[5] + 1) % 4
    votes = np.empty((n, 5), dtype=np.int64)
    for run, p in enumerate([0.95, 0.9, 0.85, 0.8, 0.4]):
        right = RNG.random(n) < p
        votes[:, run] = np.where(right, truth, (truth + RNG.integers(1, 4, n)) % 4)
    fit = fit_letters(votes, key, options, np.full(n, 0.95))
    assert fit.posterior[5, key[5]] < 0.1
    assert fit.posterior[5, truth[5]] > 0.9
    assert np.allclose(fit.posterior.sum(1), 1.0)
    assert fit.accuracy[0] > fit.accuracy[-1]
