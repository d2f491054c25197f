"""Answer-only track (protocol.md section 3).

Protocol v10 and later take the **last** answer list and read it against ``n``;
explanations and earlier lists are ignored, and a malformed or wrong-length
last list is never replaced by an earlier valid one. Versions before 10 (a desk
rule) demand that the trimmed response be exactly one bracketed span.

strict_format, for every version: the trimmed response is one bracketed span of
``n`` strict tokens and the status is ``valid``.

Spans: the chosen list (brackets included), then for ``malformed`` the offending
item; for a pre-10 response with other text, the first answer list then the text
before and after it.
"""

from __future__ import annotations

from ai4hse_desk.protocol.outcome import Extraction, Span, Status
from tests.core.reference_rules.lists import (
    ANSWER_LIST,
    STRICT_CONTENTS,
    read_items,
    strict_selection,
    strip_bounds,
)

#: First protocol version with the lenient "last answer list wins" rule.
LAST_LIST_VERSION = 10

_STRICT = "the response is exactly one answer list of strict TRUE/FALSE tokens"
_NO_LIST = Extraction(
    Status.MISSING,
    None,
    False,
    (),
    "no answer list (a [...] holding TRUE or FALSE) in the response",
)


def _alone(text: str, start: int, end: int) -> bool:
    """True iff only whitespace stands around ``text[start:end]``."""
    return (start == 0 or (text[start - 1].isspace() and text[:start].isspace())) and (
        end == len(text) or (text[end].isspace() and text[end:].isspace())
    )


def extract_answer_only(text: str, n: int, protocol_version: int = LAST_LIST_VERSION) -> Extraction:
    """Apply the answer-only rule of ``protocol_version`` to one response.

    Args:
        text: the raw response.
        n: number of options of the question (``n >= 1``).
        protocol_version: the run's recorded protocol version.

    Returns:
        ``valid``, ``missing``, ``malformed`` or ``wrong_length``.
    """
    if protocol_version < LAST_LIST_VERSION:
        return extract_answer_only_pre10(text, n, protocol_version)
    return extract_answer_only_v10(text, n)


def extract_answer_only_v10(text: str, n: int) -> Extraction:
    """Protocol v10+: the last answer list is the answer."""
    if text[:1] == "[" and text[-1:] == "]":
        # Fast path for the common reply: exactly one list of strict tokens.
        content = text[1:-1]
        selection = STRICT_CONTENTS.get(content)
        if selection is None and "[" not in content and "]" not in content:
            selection = strict_selection(content)
        if selection is not None and len(selection) == n:
            return Extraction(Status.VALID, selection, True, ((0, len(text)),), _STRICT)
    return _last_list(text, n)


def _last_list(text: str, n: int) -> Extraction:
    """The v10 rule in full (no fast path)."""
    last = None
    for last in ANSWER_LIST.finditer(text):  # noqa: B007 - only the last one matters
        pass
    if last is None:
        return _NO_LIST
    start, end = last.span()
    return read_items(
        text, start + 1, end - 1, n, (start, end), "last answer list", (), _alone(text, start, end)
    )


def extract_answer_only_pre10(text: str, n: int, protocol_version: int) -> Extraction:
    """Protocol before v10 (desk rule): the trimmed response is exactly one list.

    No answer list anywhere → ``missing``; an answer list with any other text
    around or besides it (including enclosing brackets, as in ``[[TRUE]]``) →
    ``malformed``; else the one list is read against ``n``.
    """
    found = ANSWER_LIST.search(text)
    if found is None:
        return _NO_LIST
    start, end = found.span()
    first, last = strip_bounds(text)
    if start == first and end == last:
        return read_items(
            text,
            start + 1,
            end - 1,
            n,
            list_span=(start, end),
            what="answer list",
            strict_candidate=True,
        )
    spans: list[Span] = [(start, end)]
    if first < start:
        spans.append((first, start))
    if end < last:
        spans.append((end, last))
    return Extraction(
        Status.MALFORMED,
        None,
        False,
        tuple(spans),
        f"protocol v{protocol_version} requires the response to be exactly one answer list, "
        "with no other text",
    )
