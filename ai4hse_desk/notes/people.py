"""One person, one name: how reviewer and adjudicator names are checked and compared.

cli.md, "Reviewer identity": names are compared after NFKC normalisation, case
folding and removal of invisible characters, so ``ann``, ``Ann``, ``ＡＮＮ`` and
``ann`` with a combining grapheme joiner are one person. A name holding a control,
bidi or zero-width character (any Unicode *format* character, ``Cf``) is refused
outright: such a name cannot be read back as written.

A person keeps the spelling the store first knew them by (:func:`resolve_person`):
a later ``Ann`` is recorded as the plan's ``ann``, so every table names one person
one way and no history is rewritten.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING, Final

from ai4hse_desk.notes.errors import ReviewError

if TYPE_CHECKING:
    from collections.abc import Iterable

MAX_REVIEWER: Final = 200
#: Invisible characters that are not format characters (those are refused): the
#: Unicode default-ignorable code points of other categories (combining grapheme
#: joiner, Hangul fillers, Mongolian variation selectors, variation selectors).
_INVISIBLE: Final = re.compile(
    "[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0\U000e0100-\U000e01ef]"
)
_SPACES: Final = re.compile(r"\s+")


def _refused(char: str) -> bool:
    """Control (C0, C1), format (bidi, zero-width …), separator of lines, surrogate,
    private-use or unassigned: nothing a person's name may hold."""
    return unicodedata.category(char) in {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def clean_reviewer(name: object) -> str:
    """A reviewer's or adjudicator's name, trimmed, as it will be recorded.

    Raises:
        ReviewError: not text, blank, longer than :data:`MAX_REVIEWER`, or holding a
            control, bidi, zero-width or other character a name cannot show.
    """
    if not isinstance(name, str) or not name.strip():
        raise ReviewError("a reviewer name is required")
    name = name.strip()
    bad = next((char for char in name if _refused(char)), None)
    if bad is not None:
        raise ReviewError(
            f"not a usable reviewer name: it holds U+{ord(bad):04X} (a control, bidi or "
            "zero-width character)"
        )
    if len(name) > MAX_REVIEWER:
        raise ReviewError(f"a reviewer name is limited to {MAX_REVIEWER} characters")
    if not person_key(name):
        raise ReviewError(f"not a usable reviewer name: {name[:40]!r}")
    return name


def person_key(name: str) -> str:
    """What two names are compared by: NFKC, invisible characters removed, case folded,
    white space runs as one space."""
    text = _INVISIBLE.sub("", unicodedata.normalize("NFKC", name))
    folded = unicodedata.normalize("NFKC", text.casefold())
    return _SPACES.sub(" ", folded).strip()


def same_person(first: str, second: str) -> bool:
    """True when the two names are one person's."""
    return person_key(first) == person_key(second)


def resolve_person(name: object, known: Iterable[str]) -> str:
    """``name`` cleaned, as ``known`` spells that person (the first spelling among
    ``known`` with the same key), else as given."""
    cleaned = clean_reviewer(name)
    key = person_key(cleaned)
    return next((spelled for spelled in known if person_key(spelled) == key), cleaned)


def distinct_people(names: Iterable[object]) -> list[str]:
    """``names`` cleaned, in order; two names of one person are refused.

    Raises:
        ReviewError: a bad name, or two names that compare equal.
    """
    seen: dict[str, str] = {}
    cleaned = []
    for name in names:
        who = clean_reviewer(name)
        key = person_key(who)
        if key in seen:
            raise ReviewError(
                f"{seen[key]!r} and {who!r} are one person's name (names are compared "
                "without case, width or invisible characters); each reviewer may be named once"
            )
        seen[key] = who
        cleaned.append(who)
    return cleaned
