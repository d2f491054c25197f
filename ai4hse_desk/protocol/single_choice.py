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

How it is found, at C speed: the strict form is one anchored match, tried only
where it can match (a text of at most four characters, or one that starts or
ends with whitespace); for the phrase, matches of the pattern cannot overlap (a
match ends at a letter that no letter follows, and ``answer`` starts with six),
so the last match is the one with the greatest start. Most replies end with
the phrase in lower case: the last exact ``answer is`` (one ``str.rfind``) is
tried with the pattern, and its match is the last one when no spelling of the
phrase follows it (nothing to look at when fewer than nine characters do).
Otherwise the rule looks for ``answer is`` in any case from the end of
the text, in a tail window first (widened only when the tail has no match):
the window is encoded to ASCII with ``?`` for every other character (one byte
per character, so offsets stay put) and lower-cased as bytes, which changes
ASCII letters only (no Kelvin sign or long s matches); each ``rfind`` hit is
then tried with the pattern. Text with many ``answer is`` that name no letter
falls back to one scan of the whole text with the pattern.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ai4hse_desk.protocol.outcome import CURRENT_PROTOCOL_VERSION, Extraction, Span, Status

#: The strict form with the whitespace around it (``\s`` is what :meth:`str.isspace` accepts).
_STRICT = re.compile(r"\s*+(?:\(([A-Za-z])\)\.?|([A-Za-z])\.?)\s*+")
_ANSWER_IS = re.compile(r"[Aa][Nn][Ss][Ww][Ee][Rr] [Ii][Ss][ *(]*+([A-Z])(?![^\W\d_])")
#: Longest strict form without its whitespace: ``(B).``.
_STRICT_CORE = 4
_ANY_PHRASE = re.compile(r"[Aa][Nn][Ss][Ww][Ee][Rr] [Ii][Ss]")
_PHRASE = b"answer is"
_REACH = len(_PHRASE) - 1
#: First tail window (characters); each further window is four times wider.
_TAIL = 256
#: ``answer is`` hits tried one by one before one scan of the whole text instead.
_MAX_TRIES = 16
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
    strict, last = _located(text)
    if strict is not None:
        group = 1 if strict.start(1) >= 0 else 2
        letter_span = strict.span(group)
        spans: tuple[Span, ...] = (letter_span,)
        how = "the response is the letter"
    elif last is not None:
        letter_span = last.span(1)
        spans = ((last.start(), letter_span[1]), letter_span)
        how = "the last 'answer is' names"
    else:
        return _NO_LETTER
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


def single_choice_verdict(
    text: str,
    n: int,
    protocol_version: int = CURRENT_PROTOCOL_VERSION,  # noqa: ARG001 - one signature for every track rule
) -> Extraction:
    """:func:`extract_single_choice` without the character spans, for loops that keep
    none (the rescore, the review index; the window's detail derives them again).

    Status, selection, strict flag and reason depend only on ``n``, the letter and its
    form (bare, or after ``answer is``), so each combination is one shared
    :class:`Extraction` with no spans, made once by :func:`extract_single_choice`:
    about 1.3 µs less per reply than building the spans and the verdict each time.
    """
    strict, last = _located(text)
    if strict is not None:
        at = strict.start(1) if strict.start(1) >= 0 else strict.start(2)
    elif last is not None:
        at = last.start(1)
    else:
        return _NO_LETTER
    key = (n, text[at].upper(), strict is not None)
    found = _VERDICTS.get(key)
    if found is None:
        found = extract_single_choice(text, n).without_spans()
        if len(_VERDICTS) >= _MAX_VERDICTS:
            _VERDICTS.clear()
        _VERDICTS[key] = found
    return found


#: Shared verdicts of :func:`single_choice_verdict` by (options, letter, bare form).
_VERDICTS: dict[tuple[int, str, bool], Extraction] = {}
_MAX_VERDICTS = 4096


def _located(text: str) -> tuple[re.Match[str] | None, re.Match[str] | None]:
    """(the strict form's match, else None; the last ``answer is`` match, else None)."""
    # The strict form is at most four characters between whitespace, so a longer text
    # can only take it if it starts or ends with whitespace.
    if len(text) <= _STRICT_CORE or text[0].isspace() or text[-1].isspace():
        strict = _STRICT.fullmatch(text)
        if strict is not None:
            return strict, None
    # The common case: the last exact "answer is" names a letter and no spelling of the
    # phrase follows the match (a later match could only start after its end).
    at = text.rfind("answer is")
    if at >= 0:
        last = _ANSWER_IS.match(text, at)
        if last is not None:
            end = last.end()
            if len(text) - end < len(_PHRASE) or _ANY_PHRASE.search(text, end) is None:
                return None, last
    # The first tail window inline; _last_answer_is for the rest.
    start = len(text) - _TAIL
    if start < 0:
        start = 0
    at = text[start:].encode("ascii", "replace").lower().rfind(_PHRASE)
    last = _ANSWER_IS.match(text, start + at) if at >= 0 else None
    return None, last if last is not None else _last_answer_is(text)


@lru_cache(maxsize=1024)
def _one_hot(n: int, index: int) -> tuple[bool, ...]:
    """TRUE at ``index``, FALSE at the other of ``n`` positions (shared tuples)."""
    return tuple(position == index for position in range(n))


def _last_answer_is(text: str) -> re.Match[str] | None:
    """The last match of the ``answer is`` pattern in ``text``, searched from the end."""
    end = len(text)  # every match starting at or after ``end`` has been ruled out
    window = _TAIL
    tries = 0
    while end > 0:
        start = end - window if end > window else 0
        tail = text[start : end + _REACH].encode("ascii", "replace").lower()
        at = tail.rfind(_PHRASE)
        while at >= 0:
            found = _ANSWER_IS.match(text, start + at)
            if found is not None:
                return found
            tries += 1
            if tries == _MAX_TRIES:
                return _last_by_scan(text)
            at = tail.rfind(_PHRASE, 0, at)  # the phrase cannot overlap itself
        end = start
        window *= 4
    return None


def _last_by_scan(text: str) -> re.Match[str] | None:
    """The last match found by one scan of the whole text (many hits named no letter)."""
    last = None
    for last in _ANSWER_IS.finditer(text):  # noqa: B007 - only the last one matters
        pass
    return last
