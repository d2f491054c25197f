"""The key-audit model's run parameters, their priors, and the M-step's Newton steps on
the abilities (:mod:`.latent_fit` fits them; the model in words: :mod:`.latent`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

#: Normal prior of the runs' mean ability (logit of P(right) on an ordinary item): mean, sd.
ABILITY_PRIOR = (1.5, 1.5)
#: The sd of a run's ability about the runs' mean (a hierarchical prior: the mean is fitted).
ABILITY_SPREAD = 0.5
#: Beta pseudo-counts (copies, not copies) of a run's copy rate.
COPY_PRIOR = (0.5, 20.0)
#: Beta pseudo-counts of a run's attraction to an item's misconception.
LURE_PRIOR = (1.0, 1.0)
#: Normal prior of a run's lure shift (logits a Boolean item's misconception takes off its
#: ability): mean, sd.
LURE_SHIFT_PRIOR = (1.0, 1.5)


@dataclass(frozen=True, slots=True)
class Parameters:
    """Run parameters (per run) and corpus parameters."""

    ability: Floats
    copy: Floats
    lure: Floats
    lure_shift: Floats  # Boolean items: logits a misconception takes off the run's ability
    shift: float  # logits an item of the hard class takes off every run's ability
    hard_share: float
    lure_share: float


def sigmoid(x: Floats) -> Floats:
    return np.asarray(1.0 / (1.0 + np.exp(-x)), dtype=np.float64)


def copy_gain(votes: int) -> float:
    """The log-likelihood gain that keeps a run as a copier: BIC's price of the copy
    rate, one more free parameter fitted from the run's ``votes``: half their log
    (3.2 nats for 600 votes). EM from a copier start always finds some gain (a copy
    rate and an ability trade off along a ridge); a flat 1 nat let two runs alike be
    read as a copier and a weak run."""
    return 0.5 * float(np.log(max(votes, 2)))


def mean_ability(ability: Floats, weight: Floats) -> float:
    """The runs' mean ability: the posterior mean under :data:`ABILITY_PRIOR`, each run
    weighed by its honest share (a copier's ability is known least)."""
    m0, s0 = ABILITY_PRIOR
    precision = weight.sum() / ABILITY_SPREAD**2 + 1 / s0**2
    return float(((weight * ability).sum() / ABILITY_SPREAD**2 + m0 / s0**2) / precision)


def abilities(right: Floats, wrong: Floats, p: Parameters) -> tuple[Floats, Floats, float]:
    """Newton steps on the abilities (normal prior about the runs' mean, as it was at the
    E-step), the lure shifts (normal prior, >= 0) and the shared hard-class shift (>= 0);
    ``right``/``wrong``: (R, lure shift applies, class)."""
    h = np.array([0.0, 1.0])[None, None, :]
    lured = np.array([0.0, 1.0])[None, :, None]
    l_mean, l_sd = LURE_SHIFT_PRIOR
    a, mu, shift = p.ability.copy(), p.lure_shift.copy(), p.shift
    mean, sd = mean_ability(a, 1.0 - p.copy), ABILITY_SPREAD

    def prob() -> Floats:
        return sigmoid(a[:, None, None] - mu[:, None, None] * lured - shift * h)

    for _ in range(4):
        q = prob()
        grad = (right * (1 - q) - wrong * q).sum((1, 2)) - (a - mean) / sd**2
        hess = -((right + wrong) * q * (1 - q)).sum((1, 2)) - 1 / sd**2
        a = np.clip(a - grad / hess, -6.0, 9.0)
        q = prob()
        g_mu = -((right * (1 - q) - wrong * q) * lured).sum((1, 2)) - (mu - l_mean) / l_sd**2
        h_mu = -((right + wrong) * q * (1 - q) * lured).sum((1, 2)) - 1 / l_sd**2
        mu = np.clip(mu - g_mu / h_mu, 0.0, 8.0)
        q = prob()
        g_shift = -((right * (1 - q) - wrong * q) * h).sum()
        h_shift = -((right + wrong) * q * (1 - q) * h).sum() - 1e-3
        shift = float(np.clip(shift - g_shift / h_shift, 0.0, 8.0))
    return a, mu, shift


__all__ = [
    "ABILITY_PRIOR",
    "ABILITY_SPREAD",
    "COPY_PRIOR",
    "LURE_PRIOR",
    "LURE_SHIFT_PRIOR",
    "Bools",
    "Floats",
    "Ints",
    "Parameters",
    "abilities",
    "copy_gain",
    "mean_ability",
    "sigmoid",
]
