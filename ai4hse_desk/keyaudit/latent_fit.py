"""EM for the key audit's latent model (the model in words: :mod:`.latent`).

One engine for both kinds of item: an item has ``K`` categories (2 for a Boolean
option, the option letters for a single-answer question), a recorded key and, per
run, one vote or none. An item's hidden state is ``(t, l, h)``: its true category
``t``; its misconception ``l`` (a wrong category that draws weak runs, or none);
its difficulty class ``h`` (ordinary or hard). Given the state, run ``j`` votes

* the recorded key, with probability ``copy[j]``, whatever the truth;
* else ``t`` with probability ``sigmoid(ability[j] - shift * h)``, or, on a
  Boolean item with a misconception, ``sigmoid(ability[j] - lure_shift[j] - shift * h)``
  (the misconception takes the run's own number of logits off: as odds, it
  multiplies every run's odds of erring by a per-run factor, so a run that
  seldom errs is still seldom drawn, and a wrong key, which strong runs contest,
  cannot pass for one);
* else a wrong category: on a letter item the misconception with probability
  ``lure[j]``, or one of the ``K - 1`` wrong categories at random; on a Boolean
  item, the other value.

Votes are grouped per item and category, so an E-step costs one product of the
one-hot votes with a small per-run table plus ``O(K^2)`` vector operations per
item, not a pass per state over every vote. The item is the last axis of every
array the steps work on, so each of those operations reads contiguous memory.

A run's ability has a normal prior about the runs' mean ability (fitted, each run
weighed by its honest share, itself under :data:`ABILITY_PRIOR`), sd
:data:`ABILITY_SPREAD`: hundreds of votes outweigh it; a copier's few honest votes
do not, so its accuracy is not read as the best of all.

EM finds a local maximum of the marginal likelihood. A run that copies the key
looks, to EM started from "nobody copies", like the best run of all (on the many
items whose key is right the two explanations agree), so :func:`fit_items` then
tries, run by run, the "copies" start for the runs that agree with the key most
where the other runs contest it, and keeps it only when the likelihood rises by
more than BIC's price of the copy rate (:func:`copy_gain`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from ai4hse_desk.keyaudit.latent_params import (
    ABILITY_PRIOR,
    COPY_PRIOR,
    LURE_PRIOR,
    LURE_SHIFT_PRIOR,
    Bools,
    Floats,
    Ints,
    Parameters,
    abilities,
    copy_gain,
    sigmoid,
)

#: The copy rate a run is started at when tried as a copier.
COPY_START = 0.9
#: Runs tried as copiers (at most); the gain that keeps one: :func:`copy_gain`.
COPY_TRIES = 8
#: EM stops when an iteration adds less than TOLERANCE (relative) to the log evidence; the
#: cap is a guard only: a long ridge (one track of the 1,000-question demo) takes about 600.
MAX_ITERATIONS = 1000
TOLERANCE = 1e-6
#: A category's role in a state: truth (no misconception), misconception, other wrong
#: (with / without a misconception), truth of an item with a misconception.
_ROLES = 5


@dataclass(frozen=True, slots=True)
class ItemFit:
    """The fit: posterior P(true category) per item, the parameters, the evidence."""

    truth: Floats  # (items, width)
    hard: Floats  # (items,) P(hard class)
    params: Parameters
    log_evidence: float
    iterations: int
    copiers_tried: int

    def accuracy(self, hard: bool = False) -> Floats:
        """Per run, P(right) on an ordinary (or a hard) item when not copying."""
        shift = self.params.shift if hard else 0.0
        return sigmoid(self.params.ability - shift)

    def lured_accuracy(self) -> Floats:
        """Per run, P(right) on an ordinary Boolean item with a misconception."""
        return sigmoid(self.params.ability - self.params.lure_shift)


@dataclass(frozen=True, slots=True)
class _Data:
    key: Ints
    cats: Ints
    width: int
    is_key_cat: Bools  # (n, width): category is the key
    key_cat_t: Bools  # (width, n): the same, item last
    voted: Bools  # (n, R)
    votes: Ints
    others: Floats  # distinct wrong-category counts (K - 1)
    groups: list[_ItemGroup]  # the items with each count


@dataclass(frozen=True, slots=True)
class _ItemGroup:
    """The items with one number of categories, their votes laid out for matrix products."""

    rows: Ints
    flat_t: Floats  # (R, width * len(rows)) one-hot votes per (category, item)
    keyed: Bools  # (width * len(rows),) the category is the item's key
    plain: Floats  # flat_t.T[~keyed]
    key: Floats  # flat_t.T[keyed]


def _vote_table(p: Parameters, others: Floats) -> Floats:
    """P(vote | role, class, is-key) per wrong-category count and run:
    (len(others), R, 2 is-key, ROLES, 2 class)."""
    right = sigmoid(p.ability[:, None] - p.shift * np.array([0.0, 1.0])[None, :])[None]
    wrong = 1 - right  # (1, R, 2)
    o = others[:, None, None]
    lure = p.lure[None, :, None]
    shape = (len(others), *right.shape[1:])
    # a Boolean item's misconception: the run is right less often (its lure shift)
    lured = sigmoid(p.ability[:, None] - p.lure_shift[:, None] - p.shift * np.array([0.0, 1.0]))
    boolean = o == 1
    right_lured = np.where(boolean, lured[None], right)
    base = np.stack(
        [
            np.broadcast_to(right, shape),
            np.where(boolean, 1 - right_lured, wrong * (lure + (1 - lure) / o)),
            wrong * (1 - lure) / o,
            np.broadcast_to(wrong / o, shape),
            right_lured,
        ],
        axis=2,
    )
    c = p.copy[None, :, None, None]
    honest = (1 - c) * base
    return np.stack([honest, c + honest], axis=2)


def _states(width: int) -> list[tuple[int, int]]:
    return [(t, m) for t in range(width) for m in range(-1, width) if m != t]


def _e_step(
    data: _Data, p: Parameters, table: Floats, prior_right: Floats
) -> tuple[Floats, Floats]:
    """Log posterior per state (S, 2, n) and log evidence per item, ``table`` being
    :func:`_vote_table` of ``p``."""
    n, width = len(data.key), data.width
    others = np.maximum(data.cats - 1, 1).astype(np.float64)
    table = np.log(table)  # (groups, R, 2, ROLES, 2)
    shape = (2, _ROLES, 2, width)  # is-key, role, class, category
    if len(data.groups) == 1:  # one number of categories: every item, in order
        flat = (table[0].reshape(table.shape[1], -1).T @ data.groups[0].flat_t).reshape(*shape, n)
    else:
        flat = np.zeros((*shape, n))
        for g, group in enumerate(data.groups):
            product = table[g].reshape(table.shape[1], -1).T @ group.flat_t
            flat[..., group.rows] = product.reshape(*shape, len(group.rows))
    # sums[role, h, m, i]: log P of the votes for category m, were m in that role
    sums = np.where(data.key_cat_t, flat[1], flat[0])
    total_other = sums[2:].sum(2)  # (2, 2, n): every category as "other wrong"
    log_t_key, log_t_other = np.log(prior_right), np.log((1 - prior_right) / others)
    log_no_lure = np.log1p(-p.lure_share)
    log_lure = np.log(p.lure_share / others)
    log_h = np.log(np.array([1 - p.hard_share, p.hard_share]))
    states = _states(width)
    out = np.full((len(states), 2, n), -np.inf)
    for s, (t, m) in enumerate(states):
        valid = (t < data.cats) & (m < data.cats)
        prior = np.where(data.key == t, log_t_key, log_t_other)
        role = 3 if m < 0 else 2
        truth_role = 0 if m < 0 else 4
        like = sums[truth_role, :, t] + total_other[role - 2] - sums[role, :, t]
        if m >= 0:
            like = like + sums[1, :, m] - sums[role, :, m]
            prior = prior + log_lure
        else:
            prior = prior + log_no_lure
        out[s] = np.where(valid[None, :], like + prior[None, :] + log_h[:, None], -np.inf)
    top = out.max(axis=(0, 1))
    evidence = np.log(np.exp(out - top).sum(axis=(0, 1))) + top
    return out - evidence, evidence


def _roles(data: _Data, post: Floats) -> Floats:
    """Q[role, h, m, i]: posterior mass of the states in which category m has that role."""
    n, width = len(data.key), data.width
    q = np.zeros((_ROLES, 2, width, n))
    totals = np.zeros((_ROLES, 2, n))
    for s, (t, m) in enumerate(_states(width)):
        mass = post[s]
        role = 3 if m < 0 else 2
        totals[role] += mass
        q[0 if m < 0 else 4, :, t] += mass
        q[role, :, t] -= mass
        if m >= 0:
            q[1, :, m] += mass
            q[role, :, m] -= mass
    return q + totals[:, :, None, :]


@dataclass(frozen=True, slots=True)
class _RunSums:
    """Per run, the honest votes' posterior mass, right and wrong, per (lure shift applies,
    class): (R, 2, 2) each; the copied mass; of the votes for letter misconceptions, the
    part their pull explains, and the wrong mass where there is one."""

    right: Floats
    wrong: Floats
    copied: Floats
    pulled: Floats
    lure_den: Floats


def _run_sums(data: _Data, q: Floats, p: Parameters, table: Floats) -> _RunSums:
    """One matrix product per group of items with as many options and per is-key."""
    runs = len(p.ability)
    right, wrong = np.zeros((runs, 2, 2)), np.zeros((runs, 2, 2))
    copied, pulled, lure_den = np.zeros(runs), np.zeros(runs), np.zeros(runs)
    for g, (o, group) in enumerate(zip(data.others, data.groups, strict=True)):
        part_q = q if len(data.groups) == 1 else q[..., group.rows]
        mass = part_q.reshape(_ROLES * 2, -1)  # (role and class, category and item)
        plain = (mass[:, ~group.keyed] @ group.plain).T.reshape(runs, _ROLES, 2)
        on_key = (mass[:, group.keyed] @ group.key).T.reshape(runs, _ROLES, 2)
        share = table[g, :, 0] / table[g, :, 1]  # of a key vote, the part not copied
        part = plain + on_key * share
        copied += (on_key * (1 - share)).sum(axis=(1, 2))
        if o == 1:  # Boolean: a misconception shifts the run's ability
            right[:, 0] += part[:, 0]
            wrong[:, 0] += part[:, 2] + part[:, 3]
            right[:, 1] += part[:, 4]
            wrong[:, 1] += part[:, 1]
        else:
            right[:, 0] += part[:, 0] + part[:, 4]
            wrong[:, 0] += part[:, 1:4].sum(1)
            pulled += part[:, 1].sum(1) * p.lure / (p.lure + (1 - p.lure) / o)
            lure_den += (part[:, 1] + part[:, 2]).sum(1)
    return _RunSums(right, wrong, copied, pulled, lure_den)


def _m_step(data: _Data, post: Floats, p: Parameters, table: Floats) -> Parameters:
    sums = _run_sums(data, _roles(data, post), p, table)
    ability, lure_shift, shift = abilities(sums.right, sums.wrong, p)
    votes = data.voted.sum(0)
    lured = sum(post[s].sum(0) for s, (_t, m) in enumerate(_states(data.width)) if m >= 0)
    return Parameters(
        ability=ability,
        copy=np.clip((sums.copied + COPY_PRIOR[0]) / (votes + sum(COPY_PRIOR)), 1e-4, 0.97),
        lure=np.clip((sums.pulled + LURE_PRIOR[0]) / (sums.lure_den + sum(LURE_PRIOR)), 0.01, 0.99),
        lure_shift=lure_shift,
        shift=shift,
        hard_share=float((post[:, 1].sum() + 1) / (len(data.key) + 2)),
        lure_share=float((np.sum(lured) + 1) / (len(data.key) + 2)),
    )


def _run_em(
    data: _Data, prior_right: Floats, start: Parameters
) -> tuple[Floats, float, Parameters, int]:
    params, last, iterations = start, -np.inf, 0
    post = np.zeros(0)
    for iterations in range(1, MAX_ITERATIONS + 1):  # noqa: B007
        table = _vote_table(params, data.others)  # once per iteration: E- and M-step
        log_post, evidence = _e_step(data, params, table, prior_right)
        total = float(evidence.sum())
        post = np.exp(log_post)
        if len(data.key) == 0 or total - last < TOLERANCE * max(abs(total), 1.0):
            last = max(total, last)
            break
        last = total
        params = _m_step(data, post, params, table)
    return post, last, params, iterations


def _contested_agreement(data: _Data) -> Floats:
    """Per run, its agreement with the key on the fifth of its items where the other
    runs agree with the key least (a copier's signature)."""
    on_key = data.is_key_cat[np.arange(len(data.key))[:, None], np.maximum(data.votes, 0)]
    on_key &= data.voted
    share = (on_key.sum(1, keepdims=True) - on_key) / np.maximum(
        data.voted.sum(1, keepdims=True) - data.voted, 1
    )
    stat = np.zeros(data.voted.shape[1])
    for j in range(len(stat)):
        rows = data.voted[:, j]
        if rows.any():
            hard = rows & (share[:, j] <= np.quantile(share[rows, j], 0.2))
            stat[j] = float(on_key[hard, j].mean())
    return stat


def fit_items(votes: Ints, key: Ints, cats: Ints, prior_right: Floats) -> ItemFit:
    """Fit the model, on one BLAS thread (its matrix products are small: threads cost more
    than they give, several times more on a busy machine).

    Args:
        votes: (items, runs): the category a run voted (0-based), -1 no vote.
        key: (items,) the recorded category.
        cats: (items,) categories per item (>= 2).
        prior_right: (items,) P(the key is right) before the votes.
    """
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        return _fit(votes, key, cats, prior_right)


def _fit(votes: Ints, key: Ints, cats: Ints, prior_right: Floats) -> ItemFit:
    n, runs = votes.shape
    width = int(cats.max()) if n else 2
    onehot = (votes[:, None, :] == np.arange(width)[None, :, None]).astype(np.float64)
    is_key_cat = np.arange(width)[None, :] == key[:, None]
    others, group = np.unique(np.maximum(cats - 1, 1).astype(np.float64), return_inverse=True)
    groups = []
    for g in range(len(others)):
        rows = np.nonzero(group == g)[0]
        flat = onehot[rows].transpose(1, 0, 2).reshape(width * len(rows), runs)
        keyed = is_key_cat[rows].T.reshape(-1)
        groups.append(_ItemGroup(rows, flat.T.copy(), keyed, flat[~keyed], flat[keyed]))
    key_cat_t = np.ascontiguousarray(is_key_cat.T)
    data = _Data(key, cats, width, is_key_cat, key_cat_t, votes >= 0, votes, others, groups)
    start = Parameters(
        np.full(runs, ABILITY_PRIOR[0]),
        np.full(runs, 0.01),
        np.full(runs, 0.5),
        np.full(runs, LURE_SHIFT_PRIOR[0]),
        1.5,
        0.2,
        0.2,
    )
    post, evidence, params, iterations = _run_em(data, prior_right, start)
    tried = 0
    for j in np.argsort(-_contested_agreement(data))[: min(COPY_TRIES, runs)]:
        if params.copy[j] >= COPY_START:
            continue
        copy = params.copy.copy()
        copy[j] = COPY_START
        tried += 1
        trial = _run_em(data, prior_right, replace(params, copy=copy))
        if trial[1] <= evidence + copy_gain(int(data.voted[:, j].sum())):
            break
        post, evidence, params, more = trial
        iterations += more
    truth = post.sum(1)  # (S, n)
    width_truth = np.zeros((n, width))
    for s, (t, _m) in enumerate(_states(width)):
        width_truth[:, t] += truth[s]
    return ItemFit(width_truth, post[:, 1].sum(0), params, evidence, iterations, tried)


def vote_weight(right: float, categories: int) -> float:
    """Natural-log odds one vote for an alternative moves against the key, from a run of
    accuracy ``right`` (:meth:`ItemFit.accuracy`; an ordinary item, no misconception): a
    copier's vote weighs what its honest part does."""
    return float(np.log(right * (categories - 1) / max(1 - right, 1e-9)))


__all__ = ["ItemFit", "fit_items", "vote_weight"]
