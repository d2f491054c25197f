"""Shared pieces of the demo's response generators (one module per track).

A *behaviour* is one way a model answers under a track's contract: the clean
answer, a common formatting slip, a cut-off generation and so on. Each has a
weight (how often it happens for a model of average format discipline), a
kind that says how the weight scales per run, and a pure ``render`` function:
the same selection, options and variant always give the same text, so the
demo can cache responses and their verdicts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum

Selection = tuple[bool, ...]

#: How many textual variants every behaviour offers.
VARIANTS = 3


class Kind(Enum):
    """How a behaviour's weight scales with the run."""

    CLEAN = "clean"  # follows the contract; fixed weight
    NOISE = "noise"  # a format slip; scaled by the model's format noise
    CUT_OFF = "cut_off"  # generation cut off; scaled by how tight the token cap is


@dataclass(frozen=True, slots=True)
class Rendered:
    """One generated response.

    Attributes:
        text: the raw response as the provider would return it.
        cut_off: True when the generation stopped at the token cap, so the
            attempt gets the provider's cut-off ``finish_reason``.
    """

    text: str
    cut_off: bool = False


Render = Callable[[Selection, Sequence[str], int], Rendered]


@dataclass(frozen=True, slots=True)
class Behaviour:
    """One weighted way of answering.

    Attributes:
        name: short identifier, e.g. ``"trailing_comma"``.
        weight: relative frequency for an average model.
        kind: how the weight scales (see :class:`Kind`).
        render: ``(selection, option_texts, variant) -> Rendered``.
        per_question: True when the text depends on the question (not only on
            its number of options), which decides how responses are cached.
    """

    name: str
    weight: float
    kind: Kind
    render: Render
    per_question: bool = False


def tokens(selection: Selection, style: int = 0) -> list[str]:
    """Boolean tokens in a style: 0 ``TRUE``, 1 ``True``, 2 ``true``, 3 mixed."""
    out = []
    for i, value in enumerate(selection):
        word = "TRUE" if value else "FALSE"
        if style == 1 or (style == 3 and i % 2 == 0):
            word = word.capitalize()
        elif style == 2:
            word = word.lower()
        out.append(word)
    return out


def bracket(items: Sequence[str], sep: str = ", ") -> str:
    """``[a, b, c]`` from items."""
    return "[" + sep.join(items) + "]"


def strict_list(selection: Selection) -> str:
    """The canonical answer list, e.g. ``[TRUE, FALSE, TRUE, FALSE]``."""
    return bracket(tokens(selection))


def flipped(selection: Selection, position: int) -> Selection:
    """The selection with one position inverted (a plausible earlier answer)."""
    i = position % len(selection)
    return (*selection[:i], not selection[i], *selection[i + 1 :])


def resized(selection: Selection, variant: int) -> Selection:
    """A selection of the wrong length: one item dropped, or one added."""
    if variant % 2 == 0 and len(selection) > 1:
        return selection[:-1]
    return (*selection, variant % 3 == 1)


def truncate(text: str, fraction: float) -> str:
    """The first ``fraction`` of ``text`` (at least one character), cut mid-word."""
    return text[: max(1, int(len(text) * fraction))]


def lower_first(text: str) -> str:
    """``text`` to follow other words: its first letter lower-cased, unless it opens with
    an acronym ("PPE is …" stays, it read "pPE is …")."""
    if text[1:2].isupper() or (text[:1] == "I" and not text[1:2].isalpha()):  # (and "I'll")
        return text
    return text[:1].lower() + text[1:]


def short(text: str, limit: int = 56) -> str:
    """The option text shortened at a word for an explanation line, its first letter
    lower-cased (an acronym keeps its capitals)."""
    text = text.rstrip(".")
    if len(text) > limit:
        text = text[:limit].rsplit(" ", 1)[0].rstrip(",;:")
    return lower_first(text)


_AGREE = ("is correct", "applies", "is right", "holds")
_DISAGREE = ("is not correct", "does not apply", "is wrong", "does not hold")
_OPENERS = (
    "Let me check each option against good HSE practice.",
    "Working through the options one at a time:",
    "Considering the hierarchy of controls and the usual regulatory guidance:",
)


def explanation(selection: Selection, options: Sequence[str], variant: int) -> str:
    """A brief, plausible explanation of a selection, one line per option."""
    lines = [_OPENERS[variant % len(_OPENERS)]]
    for i, (value, text) in enumerate(zip(selection, options, strict=True)):
        verdict = (_AGREE if value else _DISAGREE)[(i + variant) % 4]
        lines.append(f"- Option {i + 1} ({short(text)}) {verdict}.")
    return "\n".join(lines)
