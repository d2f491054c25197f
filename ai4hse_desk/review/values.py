"""The values of an independent expert review: verdicts, blind answers, keys, decisions.

cli.md, "Review": a **verdict** is one reviewer's judgement of one question. Its
**blind answer** is the reviewer's own answer given before the key was shown
(one ``TRUE`` / ``FALSE`` / ``UNSURE`` per option), or recorded as "not blind". A
**proposed key** (required for ``key_wrong``) and an adjudicator's corrected key
hold one ``TRUE``/``FALSE`` per option. Every verdict but ``key_ok`` is a
**concern**.
"""

from __future__ import annotations

import re
from typing import Final

from ai4hse_desk.notes.errors import ReviewError

#: The verdicts, in the order forms and reports list them (MMLU-Redux-like taxonomy).
VERDICTS: Final = (
    "key_ok",
    "key_wrong",
    "multiple_defensible",
    "no_correct_option",
    "unclear_question",
    "unclear_options",
    "outdated_or_jurisdiction",
    "typo_or_format",
    "other",
)
KEY_OK: Final = "key_ok"
KEY_WRONG: Final = "key_wrong"
#: Every verdict but ``key_ok``.
CONCERNS: Final = VERDICTS[1:]
#: An adjudicator's decisions on a question.
DECISIONS: Final = ("key_confirmed", "key_corrected", "question_excluded", "unresolved")
KEY_CORRECTED: Final = "key_corrected"
QUESTION_EXCLUDED: Final = "question_excluded"
CONFIDENCES: Final = ("low", "medium", "high")
#: A verdict is a ``draft`` until the reviewer submits it.
VERDICT_STATES: Final = ("draft", "submitted")
DRAFT: Final = "draft"
SUBMITTED: Final = "submitted"
#: The answers a blind answer may give an option.
TRUE, FALSE, UNSURE = "TRUE", "FALSE", "UNSURE"
#: Longest "source checked" text (a regulation, a standard, a URL).
MAX_SOURCE: Final = 2_000

#: A blind answer or key: one value per option, in option order.
Answer = tuple[str, ...]

_LIST = re.compile(r"\s*\[(.*)\]\s*", re.DOTALL)


def parse_list(text: str, *, unsure: bool, what: str) -> Answer:
    """``"[TRUE, false, Unsure]"`` → ``("TRUE", "FALSE", "UNSURE")`` (any case).

    Args:
        unsure: allow ``UNSURE`` items (blind answers only).
        what: what the list is, for messages ("the blind answer", "the proposed key").

    Raises:
        ReviewError: not a bracketed list of such items.
    """
    match = _LIST.fullmatch(text)
    if match is None:
        raise ReviewError(f"{what} must be a list like [TRUE, FALSE, ...], not {text[:40]!r}")
    items = [item.strip().upper() for item in match.group(1).split(",")]
    allowed = (TRUE, FALSE, UNSURE) if unsure else (TRUE, FALSE)
    for number, item in enumerate(items, start=1):
        if item not in allowed:
            raise ReviewError(
                f"{what}: item {number} is {item[:20]!r} (one of {', '.join(allowed)})"
            )
    return tuple(items)


def check_answer(values: object, options: int, *, unsure: bool, what: str) -> Answer:
    """``values`` as an :data:`Answer` of exactly ``options`` items, else :class:`ReviewError`."""
    if isinstance(values, str):
        return check_answer(parse_list(values, unsure=unsure, what=what), options,
                            unsure=unsure, what=what)  # fmt: skip
    if not isinstance(values, (list, tuple)):
        raise ReviewError(f"{what} must be a list of TRUE/FALSE values")
    allowed = (TRUE, FALSE, UNSURE) if unsure else (TRUE, FALSE)
    answer = tuple(values)
    if not all(isinstance(item, str) and item in allowed for item in answer):
        raise ReviewError(f"{what} holds a value other than {', '.join(allowed)}")
    if len(answer) != options:
        raise ReviewError(
            f"{what} has {len(answer)} values, but the question has {options} options"
        )
    return answer


#: The flag category each concern counts as where flags are shown (⚑ marks, filters).
CONCERN_CATEGORY: Final = {
    "key_wrong": "key_incorrect",
    "no_correct_option": "key_incorrect",
    "multiple_defensible": "multiple_defensible",
    "unclear_question": "ambiguous_wording",
    "unclear_options": "option_overlap",
    "outdated_or_jurisdiction": "outdated_or_jurisdiction",
    "typo_or_format": "typo_or_format",
    "other": "other",
}


#: The smallest and largest plan seed (a 32-bit signed integer in every store).
SEED_RANGE: Final = (-(2**31), 2**31 - 1)


def check_seed(seed: object) -> int | None:
    """``seed`` if it is ``None`` or a whole number every store holds; else :class:`ReviewError`."""
    if seed is None:
        return None
    low, high = SEED_RANGE
    if isinstance(seed, bool) or not isinstance(seed, int) or not low <= seed <= high:
        raise ReviewError(f"--seed must be a whole number from {low} to {high}, not {seed!r}")
    return seed


def clean_source(text: object) -> str:
    """A verdict's "source checked" text, at most :data:`MAX_SOURCE` characters.

    Raises:
        ReviewError: not usable text, or longer than :data:`MAX_SOURCE` (never cut).
    """
    from ai4hse_desk.notes.model import clean_note

    source = clean_note(text, required=False)
    if len(source) > MAX_SOURCE:
        raise ReviewError(
            f"a source is limited to {MAX_SOURCE} characters, this one has {len(source)}"
        )
    return source


def key_of(answer: Answer) -> tuple[bool, ...]:
    """A TRUE/FALSE :data:`Answer` as Booleans (a key)."""
    return tuple(item == TRUE for item in answer)


def answer_of(key: tuple[bool, ...]) -> Answer:
    """A key (Booleans) as an :data:`Answer`."""
    return tuple(TRUE if value else FALSE for value in key)


#: Why a ``key_wrong`` verdict cannot propose the official key (the store's and the
#: review server's words; the verdict form says the same).
PROPOSED_IS_OFFICIAL: Final = (
    "key_wrong: the proposed key is the official key; propose the key you think is right"
)


def proposes_the_official_key(
    verdict: str | None, proposed: Answer | None, key: tuple[bool, ...]
) -> bool:
    """True for a ``key_wrong`` verdict whose proposed key is the official ``key``: a
    verdict that contradicts itself, refused wherever a verdict is recorded."""
    return verdict == KEY_WRONG and proposed == answer_of(key)


#: Why a ``key_corrected`` decision cannot give the official key (the store's words;
#: the decision form says the same).
CORRECTED_IS_OFFICIAL: Final = (
    "key_corrected: the corrected key is the official key; change the options the key has "
    "wrong, or decide key_confirmed"
)


def corrects_to_the_official_key(
    decision: str | None, corrected: Answer | None, key: tuple[bool, ...]
) -> bool:
    """True for a ``key_corrected`` decision whose corrected key is the official ``key``:
    a correction that changes nothing, refused wherever a decision is recorded."""
    return decision == KEY_CORRECTED and corrected == answer_of(key)


def is_concern(verdict: str) -> bool:
    """True for every verdict but ``key_ok``."""
    return verdict != KEY_OK


def choice(value: str | None, allowed: tuple[str, ...], what: str) -> str | None:
    """``value`` if it is ``None`` or one of ``allowed``, else :class:`ReviewError`."""
    if value is None or value in allowed:
        return value
    raise ReviewError(f"unknown {what} {str(value)[:40]!r} (one of {', '.join(allowed)})")
