"""Single-choice track (protocol.md section 5b, a desk rule for imported sets).

* Strict: the trimmed response is one option letter, optionally in parentheses
  and/or followed by a period (``B``, ``(B)``, ``B.``, ``(b).``), either case.
* Otherwise the last match of ``answer is`` (ASCII case-insensitive), then any
  run of spaces, ``*`` and ``(``, then one letter not followed by another
  letter: ``The answer is (C).``, ``the answer is **C**``,
  ``The answer is C because``. strict_format is false.
* No letter → ``missing``; a letter past the question's options →
  ``wrong_length``; else ``valid`` with a one-hot selection.

Desk readings where the text is silent:

* "The last match" is the last match of the whole pattern, so a later
  ``answer is`` that names no letter (``... the answer is not obvious``) does
  not hide an earlier ``the answer is C``.
* Option letters are ASCII ``A``–``Z``; "not followed by another letter" uses
  Unicode letters (``answer is Cé`` names nothing).
* After ``answer is`` only an upper-case letter names an option, so an English
  article does not: ``the answer is a tricky one`` names nothing (``missing``).
  The strict bare-letter form takes either case, as protocol.md says.
* "Optional spaces" are space characters only (no tabs or newlines).

Spans: the chosen letter; for the ``answer is`` form, first the whole phrase
from ``answer`` to the letter, then the letter.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ai4hse_desk.protocol.outcome import CURRENT_PROTOCOL_VERSION, Extraction, Span, Status
from tests.core.reference_rules.lists import strip_bounds

_STRICT = re.compile(r"\(([A-Za-z])\)\.?|([A-Za-z])\.?")
_ANSWER_IS = re.compile(r"[Aa][Nn][Ss][Ww][Ee][Rr] [Ii][Ss][ *(]*+([A-Z])(?![^\W\d_])")
_NO_LETTER = Extraction(
    Status.MISSING, None, False, (), "no option letter (alone or after 'answer is')"
)


def _letter_range(n: int) -> str:
    return "A" if n == 1 else f"A–{chr(ord('A') + min(n, 26) - 1)}"


def extract_single_choice(
    text: str,
    n: int,
    protocol_version: int = CURRENT_PROTOCOL_VERSION,  # noqa: ARG001 - one signature for every track rule
) -> Extraction:
    """Apply the single-choice rule to one response.

    Args:
        text: the raw response.
        n: number of options of the question (``n >= 1``).
        protocol_version: accepted so that every track rule has one signature;
            this rule is the same in every version.

    Returns:
        ``valid``, ``missing`` or ``wrong_length``.
    """
    if text[:1].isspace() or text[-1:].isspace():
        start, end = strip_bounds(text)
    else:
        start, end = 0, len(text)
    strict = _STRICT.fullmatch(text, start, end) if end - start <= 4 else None
    if strict is not None:
        group = 1 if strict.start(1) >= 0 else 2
        letter_span = strict.span(group)
        spans: tuple[Span, ...] = (letter_span,)
        how = "the response is the letter"
    else:
        last = None
        for last in _ANSWER_IS.finditer(text):  # noqa: B007 - only the last one matters
            pass
        if last is None:
            return _NO_LETTER
        letter_span = last.span(1)
        spans = ((last.start(), letter_span[1]), letter_span)
        how = "the last 'answer is' names"
    letter = text[letter_span[0]].upper()
    index = ord(letter) - ord("A")
    if index >= n:
        return Extraction(
            Status.WRONG_LENGTH,
            None,
            False,
            spans,
            f"{how} {letter}, beyond the {n} options ({_letter_range(n)})",
        )
    return Extraction(
        Status.VALID, _one_hot(n, index), strict is not None, spans, f"{how} {letter}"
    )


@lru_cache(maxsize=1024)
def _one_hot(n: int, index: int) -> tuple[bool, ...]:
    """TRUE at ``index``, FALSE at the other of ``n`` positions (shared tuples)."""
    return tuple(position == index for position in range(n))
