"""Candidate features beyond the vote counts, for the search of ``keyaudit_features.py``.

Each candidate is computed per question from what the desk has in an audit file and
nothing else: the question text, the option texts, the key, each run's letter (the
runs' replies in MMLU-Redux are only the first token, e.g. ``To``, so they carry
nothing but "no letter"), and the file's other questions. None reads a label. The
MMLU-Redux ``subject`` is the file's one category label (``subject`` in the audit
file), so the category features are what the desk could compute from any facet.

Candidates (``CANDIDATES``: name → (group, what it measures)):

* votes: ``nalt`` distinct answers other than the key; ``scatter`` share of runs on
  neither the key nor the plurality; ``dedup`` runs answering identically on >= 97 %
  of the file counted once (the shift of the plurality share it makes; with weight 1
  the plurality share is replaced by the merged one); ``strong`` how much stronger (by
  accuracy on the file's other questions, as a log-odds, centred over the runs) the
  runs choosing the plurality answer are than those choosing the key; ``declined``
  runs that gave no usable letter.
* text: ``jaccard`` word overlap of the key's text and the plurality option's text;
  ``contains`` one of the two texts inside the other (near-duplicates: two correct
  options); ``all_above_key`` the key is "all/both of the above/these";
  ``none_above`` the key or the plurality option is "none of the above" or "neither";
  ``digits`` share of options with a digit; ``numeric`` share of options that are a
  number with at most a short unit; ``negation`` the stem has NOT/EXCEPT/LEAST, or
  not/except anywhere; ``negation_strict`` NOT/EXCEPT/LEAST or a not/except/least in
  the stem's last clause; ``key_length`` log of the key's length over the mean option
  length; ``plurality_length`` the same for the plurality option; ``key_shortest`` /
  ``key_longest``; ``key_letter`` the key's letter (four indicators, one weight each);
  ``bracket`` an option starting with ``[`` (a fragment of the stem); ``key_odd_type``
  the key is a number among words or a word among numbers; ``true_false_pairs``
  options of the form "True, False"; ``stem_length`` log of the stem's length.
* category: ``category_agree`` and ``category_contest``: the mean share of runs
  agreeing with the key / on the plurality over the *other* questions of the same
  category (an unsupervised estimate of how contested the category's keys are).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from keyaudit_realdata import Corpus
    from keyaudit_redux import ReduxQuestion

DUPLICATE_AGREEMENT = 0.97
_AOTA = re.compile(
    r"\b(all|both) (of )?(the above|these|of these|the options)|^both\b|all of the (above|options)",
    re.IGNORECASE,
)
_NOTA = re.compile(r"none of (the above|these)|^neither\b", re.IGNORECASE)
_NUMBER = re.compile(r"^[\s\-+$]*[\d.,/]+\s*\S{0,6}$")
_TRUE_FALSE = re.compile(r"\s*(True|False)\s*,\s*(True|False)\s*")


@dataclass(frozen=True, slots=True)
class Context:
    """One file's questions (corpus order) and the runs' letters."""

    questions: list[ReduxQuestion]
    letters: np.ndarray  # (n, runs), -1: no letter
    keys: np.ndarray

    @property
    def counts(self) -> np.ndarray:
        return np.stack([(self.letters == c).sum(1) for c in range(4)], axis=1)

    @property
    def voters(self) -> np.ndarray:
        counts: np.ndarray = np.maximum((self.letters >= 0).sum(1), 1)
        return counts

    def plurality(self) -> tuple[np.ndarray, np.ndarray]:
        """Per question: the most chosen letter other than the key, and its count."""
        others = self.counts.copy()
        others[np.arange(len(self.keys)), self.keys] = -1
        return others.argmax(1), others.max(1).clip(0)

    def texts(self) -> tuple[list[str], list[str]]:
        """The key's option text and the plurality option's ("" when none)."""
        alt, contest = self.plurality()
        keys = [q.options[k] for q, k in zip(self.questions, self.keys, strict=True)]
        alts = [q.options[a] if c > 0 else "" for q, a, c in
                zip(self.questions, alt, contest, strict=True)]  # fmt: skip
        return keys, alts


def context(corpus: Corpus, questions: dict[str, ReduxQuestion]) -> Context:
    return Context([questions[q] for q in corpus.question_ids], corpus.letters, corpus.keys)


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def _jaccard(ctx: Context) -> np.ndarray:
    out = []
    for key, alt in zip(*ctx.texts(), strict=True):
        a, b = _words(key), _words(alt)
        out.append(len(a & b) / len(a | b) if a and b else 0.0)
    return np.array(out)


def _contains(ctx: Context) -> np.ndarray:
    out = []
    for key, alt in zip(*ctx.texts(), strict=True):
        x, y = key.strip().lower(), alt.strip().lower()
        out.append(float(bool(x) and bool(y) and (x in y or y in x)))
    return np.array(out)


def _lengths(ctx: Context) -> list[np.ndarray]:
    return [np.array([max(len(o.strip()), 1) for o in q.options], float) for q in ctx.questions]


def _length_ratio(ctx: Context, which: np.ndarray, present: np.ndarray) -> np.ndarray:
    return np.array([math.log(lens[w] / lens.mean()) if p else 0.0 for lens, w, p in
                     zip(_lengths(ctx), which, present, strict=True)])  # fmt: skip


def _odd_type(ctx: Context) -> np.ndarray:
    out = []
    for q, k in zip(ctx.questions, ctx.keys, strict=True):
        numeric = [bool(_NUMBER.match(o.strip())) for o in q.options]
        others = sum(numeric) - numeric[k]
        out.append(float(sum(numeric) in (1, len(numeric) - 1) and numeric[k] != (others >= 2)))
    return np.array(out)


def _rest_strength(ctx: Context) -> np.ndarray:
    """How much stronger the runs on the plurality are than the runs on the key."""
    letters, keys = ctx.letters, ctx.keys
    answered = letters >= 0
    right = letters == keys[:, None]
    rest = (right.sum(0)[None, :] - right) / np.maximum(answered.sum(0)[None, :] - answered, 1)
    rest = rest.clip(0.01, 0.99)
    strength = np.log(rest / (1 - rest))
    strength = strength - strength.mean(1, keepdims=True)
    alt, _ = ctx.plurality()

    def mean(mask: np.ndarray) -> np.ndarray:
        means: np.ndarray = np.where(
            mask.any(1), (strength * mask).sum(1) / np.maximum(mask.sum(1), 1), 0.0
        )
        return means

    gap: np.ndarray = mean(letters == alt[:, None]) - mean(right)
    return gap


def _dedup_shift(ctx: Context) -> np.ndarray:
    """Plurality share with near-identical runs counted once, minus the plain share."""
    letters = ctx.letters
    runs = letters.shape[1]
    group = list(range(runs))
    for i in range(runs):
        for j in range(i):
            both = (letters[:, i] >= 0) & (letters[:, j] >= 0)
            if both.any() and np.mean(letters[both, i] == letters[both, j]) > DUPLICATE_AGREEMENT:
                group[i] = group[j]
                break
    weight = np.array([1.0 / group.count(group[i]) for i in range(runs)])
    counts = np.stack([((letters == c) * weight).sum(1) for c in range(4)], axis=1)
    counts[np.arange(len(ctx.keys)), ctx.keys] = -1
    merged = counts.max(1).clip(0) / np.maximum(((letters >= 0) * weight).sum(1), 1e-9)
    return np.asarray(merged - ctx.plurality()[1] / ctx.voters)


def _category(ctx: Context, share: np.ndarray) -> np.ndarray:
    """Mean of ``share`` over the other questions of the same category."""
    labels = np.array([q.subject for q in ctx.questions])
    out = np.zeros(len(labels))
    for name in set(labels.tolist()):
        inside = labels == name
        out[inside] = (share[inside].sum() - share[inside]) / max(int(inside.sum()) - 1, 1)
    return out


def _negation(strict: bool) -> Callable[[Context], np.ndarray]:
    loud = re.compile(r"\b(NOT|EXCEPT|LEAST)\b")
    quiet = re.compile(r"\b(not|except|least)\b[^.?]*[?:]?\s*$" if strict else r"\b(not|except)\b")

    def found(ctx: Context) -> np.ndarray:
        return np.array([bool(loud.search(q.text)) or bool(
            quiet.search(q.text.strip()[-120:] if strict else q.text)) for q in ctx.questions],
            float)  # fmt: skip

    return found


def _per_option(test: Callable[[str], bool]) -> Callable[[Context], np.ndarray]:
    def share(ctx: Context) -> np.ndarray:
        return np.array([np.mean([test(o) for o in q.options]) for q in ctx.questions])

    return share


def _per_question(test: Callable[[ReduxQuestion], float]) -> Callable[[Context], np.ndarray]:
    def values(ctx: Context) -> np.ndarray:
        return np.array([float(test(q)) for q in ctx.questions])

    return values


def _key_letters(ctx: Context) -> list[np.ndarray]:
    return [(ctx.keys == j).astype(float) for j in range(4)]


def _one(f: Callable[[Context], np.ndarray]) -> Callable[[Context], list[np.ndarray]]:
    return lambda ctx: [f(ctx)]


def _agree_share(ctx: Context) -> np.ndarray:
    return np.asarray(ctx.counts[np.arange(len(ctx.keys)), ctx.keys] / ctx.voters)


def _contest_share(ctx: Context) -> np.ndarray:
    return np.asarray(ctx.plurality()[1] / ctx.voters)


def _other_answers(ctx: Context) -> np.ndarray:
    rows = zip(ctx.letters.tolist(), ctx.keys.tolist(), strict=True)
    return np.array([len({x for x in row if x >= 0 and x != k}) for row, k in rows], float)


def _scatter(ctx: Context) -> np.ndarray:
    scatter: np.ndarray = np.asarray(1.0 - _agree_share(ctx) - _contest_share(ctx)) * (
        (ctx.letters >= 0).sum(1) / ctx.voters
    )
    return scatter


def _declined(ctx: Context) -> np.ndarray:
    declined: np.ndarray = (ctx.letters < 0).sum(1).astype(float)
    return declined


def _key_all_above(ctx: Context) -> np.ndarray:
    return np.array([bool(_AOTA.search(t)) for t in ctx.texts()[0]], float)


def _none_above(ctx: Context) -> list[np.ndarray]:
    return [np.array([bool(_NOTA.search(t)) for t in texts], float) for texts in ctx.texts()]


def _key_length(ctx: Context) -> np.ndarray:
    return _length_ratio(ctx, ctx.keys, np.ones(len(ctx.keys)))


def _plurality_length(ctx: Context) -> np.ndarray:
    return _length_ratio(ctx, *ctx.plurality())


def _key_extreme(longest: bool) -> Callable[[Context], np.ndarray]:
    pick = np.max if longest else np.min

    def extreme(ctx: Context) -> np.ndarray:
        pairs = zip(_lengths(ctx), ctx.keys, strict=True)
        return np.array([float(lens[k] == pick(lens)) for lens, k in pairs])

    return extreme


def _category_agree(ctx: Context) -> np.ndarray:
    return _category(ctx, _agree_share(ctx))


def _category_contest(ctx: Context) -> np.ndarray:
    return _category(ctx, _contest_share(ctx))


Feature = Callable[[Context], list[np.ndarray]]
#: name -> (group, how it is computed: a list of columns, one weight each)
CANDIDATES: dict[str, tuple[str, Feature]] = {
    "nalt": ("votes", _one(_other_answers)),
    "scatter": ("votes", _one(_scatter)),
    "dedup": ("votes", _one(_dedup_shift)),
    "strong": ("votes", _one(_rest_strength)),
    "declined": ("votes", _one(_declined)),
    "jaccard": ("text", _one(_jaccard)),
    "contains": ("text", _one(_contains)),
    "all_above_key": ("text", _one(_key_all_above)),
    "none_above": ("text", _none_above),
    "digits": ("text", _one(_per_option(lambda o: bool(re.search(r"\d", o))))),
    "numeric": ("text", _one(_per_option(lambda o: bool(_NUMBER.match(o.strip()))))),
    "negation": ("text", _one(_negation(strict=False))),
    "negation_strict": ("text", _one(_negation(strict=True))),
    "key_length": ("text", _one(_key_length)),
    "plurality_length": ("text", _one(_plurality_length)),
    "key_shortest": ("text", _one(_key_extreme(longest=False))),
    "key_longest": ("text", _one(_key_extreme(longest=True))),
    "key_letter": ("text", _key_letters),
    "bracket": ("text", _one(_per_question(
        lambda q: any(o.strip().startswith("[") for o in q.options)))),
    "key_odd_type": ("text", _one(_odd_type)),
    "true_false_pairs": ("text", _one(_per_question(
        lambda q: all(_TRUE_FALSE.fullmatch(o) for o in q.options)))),
    "stem_length": ("text", _one(_per_question(lambda q: math.log(len(q.text) + 1)))),
    "category_agree": ("category", _one(_category_agree)),
    "category_contest": ("category", _one(_category_contest)),
}  # fmt: skip


def columns(ctx: Context, names: Sequence[str]) -> dict[str, list[np.ndarray]]:
    """The named candidates' columns for ``ctx``."""
    return {name: CANDIDATES[name][1](ctx) for name in names}


__all__ = ["CANDIDATES", "Context", "columns", "context"]
