"""Chain-of-thought replies for the single-choice demo, ending the way real runs end.

A reply reasons over the options (by letter, with HSE-style reasons and
numbers from :mod:`.realistic_text`), about 300–3,000 characters, log-normal
around :data:`MEDIAN_CHARS`, composed from the caller's random stream so that
no two replies repeat, and then states its letter in one of the forms public
single-answer runs use (:data:`ENDINGS`): ``The answer is (C).``, ``So the
answer is C.``, ``Therefore, the answer is (B).``, a bold letter, the letter
followed by a reason, the misses the rule reads as ``missing`` (``**Answer:
C**``, ``Answer: (C)``, ``The answer is: C``, a lower-case letter, no answer at
all), and a letter beyond the options (``wrong_length``). A few replies are a
bare letter (``C``, ``(C)``; strict), and some mention an earlier "answer is"
they then revise, so that only the last one counts.
"""

from __future__ import annotations

import math
from itertools import accumulate
from typing import TYPE_CHECKING

from ai4hse_desk.writer.demo.realistic_text import lead_in, sentence
from ai4hse_desk.writer.demo.replies import lower_first

if TYPE_CHECKING:
    import random
    from collections.abc import Sequence

MEDIAN_CHARS = 700
SIGMA = 0.55
MIN_CHARS = 300
MAX_CHARS = 3000
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

#: How a reply states its letter ``{x}`` (``{y}``: a letter beyond the options),
#: with its weight. ``None`` is the bare-letter reply (no reasoning).
ENDINGS: tuple[tuple[str | None, float], ...] = (
    ("The answer is ({x}).", 0.30),
    ("So the answer is {x}.", 0.10),
    ("Therefore, the answer is ({x}).", 0.13),
    ("Thus, the correct answer is **{x}**.", 0.06),
    ("The answer is **({x})**", 0.04),
    ("The answer is {x} because {reason}.", 0.05),
    ("the answer is ({x})", 0.05),
    ("**Answer: {x}**", 0.05),
    ("Answer: ({x})", 0.03),
    ("The answer is: {x}", 0.02),
    ("The answer is ({lower}).", 0.02),
    ("", 0.03),  # no answer at all
    ("The answer is ({y}).", 0.02),
    (None, 0.10),
)
#: Characters left for the final statement (the longest ending is under this).
_ENDING_ROOM = 200
_CUMULATIVE = tuple(accumulate(weight for _, weight in ENDINGS))

_OPENERS = (
    "Let's think step by step.",
    "Let me work through the options one by one.",
    "We need to pick the single best option here.",
    "To answer this, recall the relevant HSE guidance.",
    "Okay, let's analyse each choice.",
    "First, consider what the question is really asking.",
    "I'll evaluate every option and then decide.",
    "This is a question about occupational safety practice.",
)
_ON_OPTION = (
    "Option ({x}) says {t}. {v}",
    "({x}) {t}: {v}",
    "Looking at ({x}), {t}. {v}",
    "Choice {x} - {t}. {v}",
    "({x}) claims that {t}; {v}",
)
_GOOD = (
    "This matches accepted practice.", "That is consistent with the guidance.",
    "This looks right.", "That is the sound choice.", "This is correct as stated.",
)  # fmt: skip
_BAD = (
    "This is not correct.", "That contradicts the guidance.", "This can be ruled out.",
    "That is a common misconception.", "This does not apply here.",
)  # fmt: skip
_REVISE = (
    "At first glance the answer is ({w}), but that ignores the hierarchy of controls.",
    "One might think the answer is {w}; however, that misreads the duty.",
    "If the question were about PPE alone, the answer is ({w}) would be tempting.",
)
_NO_ANSWER = (
    "I cannot determine a single best option from the information given.",
    "More context would be needed to choose between these options.",
    "Both of the remaining options seem defensible, so I will not guess.",
)


def target_length(rng: random.Random) -> int:
    """A log-normal reply length, clipped to ``MIN_CHARS``..``MAX_CHARS``."""
    length = rng.lognormvariate(math.log(MEDIAN_CHARS), SIGMA)
    return int(min(MAX_CHARS, max(MIN_CHARS, length)))


def ending(rng: random.Random) -> int:
    """Index into :data:`ENDINGS` drawn by weight."""
    point = rng.random() * _CUMULATIVE[-1]
    return next(i for i, edge in enumerate(_CUMULATIVE) if point < edge)


def chain_of_thought(choice: int, options: Sequence[str], form: int, rng: random.Random) -> str:
    """A reply choosing option ``choice`` (0-based) in the ending form ``form``.

    Args:
        choice: the option the reply settles on.
        options: the question's option texts (A, B, ... in order).
        form: an index into :data:`ENDINGS`.
        rng: the random stream (every call draws from it).
    """
    template = ENDINGS[form][0]
    letter = LETTERS[choice]
    if template is None:
        return (letter, f"({letter})", f"{letter}.")[rng.randrange(3)]
    pick = rng.randrange
    target = target_length(rng)
    parts = [_OPENERS[pick(len(_OPENERS))]]
    size = len(parts[0])
    for i, text in enumerate(options):
        if i != choice and pick(4) == 0:
            continue  # real chains skip options they dismiss at once
        verdict = (_GOOD if i == choice else _BAD)[pick(5)]
        line = _ON_OPTION[pick(len(_ON_OPTION))].format(
            x=LETTERS[i], t=lead_in(text, 30 + pick(50)), v=verdict
        )
        parts.append(line)
        size += len(line) + 1
    if pick(12) == 0:
        other = LETTERS[(choice + 1 + pick(len(options) - 1)) % len(options)]
        revised = _REVISE[pick(len(_REVISE))].format(w=other)
        parts.insert(1 + pick(len(parts)), revised)
        size += len(revised) + 1
    while size < max(MIN_CHARS, target - _ENDING_ROOM):
        extra = sentence(rng)
        parts.insert(1 + pick(len(parts)), extra)
        size += len(extra) + 1
    body = _join(parts, rng)
    if not template:
        return f"{body}\n\n{_NO_ANSWER[pick(len(_NO_ANSWER))]}"
    final = template.format(
        x=letter,
        lower=letter.lower(),
        y=LETTERS[len(options) + pick(2)],
        reason=lower_first(sentence(rng)[:-1]),  # (its acronyms keep their capitals)
    )
    return f"{body}\n\n{final}" if pick(3) else f"{body} {final}"


def _join(parts: list[str], rng: random.Random) -> str:
    """Sentences joined into lines and paragraphs, as chat models lay them out."""
    out = [parts[0]]
    for part in parts[1:]:
        out.append(("\n", "\n\n", " ", " ")[rng.randrange(4)])
        out.append(part)
    return "".join(out)
