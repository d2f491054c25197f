"""Reasoning-assisted track (protocol.md section 4).

The response must end with exactly one line ``FINAL_ANSWER: [TRUE, FALSE, ...]``.
The checks run in the order the protocol lists them:

1. count the literal ``FINAL_ANSWER:`` (case-sensitive): 0 → ``missing``,
   more than 1 → ``multiple``;
2. its line must be the last non-blank line → else ``non_final``;
3. before the field on that line only whitespace and the Markdown emphasis
   marks ``*`` ``_`` `````` ``#`` ``>`` → else ``malformed``;
4. after the field, skipping whitespace and the same marks:

   * two or more answer lists → ``ambiguous``;
   * a bracketed span right there → read it against ``n``; anything but
     whitespace or marks after it → ``malformed``;
   * no bracket at all → an unbracketed comma-separated list, read against
     ``n`` (``valid`` possible, strict_format false);
   * otherwise → ``malformed``.

Desk readings where the text is silent:

* Lines end at ``\\n`` only; a ``\\r`` before it is whitespace, so CRLF works.
* "Exactly one bracketed span" means the rest of the line *starts* with a
  bracketed span (after the skipped whitespace and marks) and only whitespace
  or marks follow it. ``FINAL_ANSWER: [1] [TRUE, FALSE]`` holds one answer list
  but two bracketed spans, so it is neither ambiguous nor a single span:
  ``malformed`` (the ``[TRUE, FALSE]`` is text after the span ``[1]``). Text
  between the field and the span (``FINAL_ANSWER: so [TRUE]``) and nested
  brackets (``FINAL_ANSWER: [[TRUE]]``) are ``malformed`` for the same reason.
* A lone span that is no answer list is still read: ``FINAL_ANSWER: [A, C]`` →
  ``malformed`` (item ``'A'``); ``FINAL_ANSWER: []`` has no items →
  ``wrong_length``.
* An unbracketed list is trimmed of whitespace and marks on both sides
  (``FINAL_ANSWER: **TRUE, FALSE**``); nothing after the field → ``malformed``.

strict_format: the last non-blank line, trimmed, is exactly ``FINAL_ANSWER: [``
strict tokens ``]`` (any whitespace after commas, none elsewhere) and the
status is ``valid``.

Spans: the ``FINAL_ANSWER:`` field first (every occurrence for ``multiple``),
then what the verdict rests on: the list, the offending item, the text after
the field's line (``non_final``), the text before the field (``malformed``).
"""

from __future__ import annotations

import re

from ai4hse_desk.protocol.lists import (
    ANSWER_LIST,
    BRACKETED_SPAN,
    STRICT_TOKENS,
    WHITESPACE,
    read_items,
)
from ai4hse_desk.protocol.outcome import (
    CURRENT_PROTOCOL_VERSION,
    Extraction,
    Span,
    Status,
)

FIELD = "FINAL_ANSWER:"
#: Markdown emphasis marks allowed around the field and the list (desk rule).
MARKS = "*_`#>"

_FIELD_LEN = len(FIELD)
_SKIP = WHITESPACE + MARKS
_NON_SPACE = re.compile(r"\S")
_STRICT_LINE = re.compile(r"FINAL_ANSWER: \[(?:TRUE|FALSE)(?:,\s*+(?:TRUE|FALSE))*+\]")
_STRICT_CONTENT = re.compile(r"(?:TRUE|FALSE)(?:,\s*+(?:TRUE|FALSE))*+")
_STRICT_HEAD = "FINAL_ANSWER: ["
_HEAD_LEN = len(_STRICT_HEAD)
#: Strict final-line contents (they recur across a run), each with its number of
#: values and its verdict without spans, shared: ``(n, verdict)``.
_LINE_VERDICTS: dict[str, tuple[int, Extraction]] = {}
#: Verdicts without spans of final lines that are not strict, by (line, n).
_FINAL_LINES: dict[tuple[str, int], Extraction] = {}
_MEMO_MAX_CONTENT = 200
_MEMO_MAX_ENTRIES = 4096
_STRICT = "the last line is FINAL_ANSWER: with one strict TRUE/FALSE value per option"
_MISSING = Extraction(Status.MISSING, None, False, (), "no FINAL_ANSWER: field in the response")


def _line_verdict(content: str) -> tuple[int, Extraction] | None:
    """``(n, verdict)`` of a strict final line's list content for questions of ``n``
    options, else ``None`` (memoised)."""
    found = _LINE_VERDICTS.get(content)
    if found is not None:
        return found
    if _STRICT_CONTENT.fullmatch(content) is None:
        return None
    selection = tuple(map(STRICT_TOKENS.__getitem__, map(str.strip, content.split(","))))
    found = (len(selection), Extraction(Status.VALID, selection, True, (), _STRICT))
    if len(content) <= _MEMO_MAX_CONTENT:
        if len(_LINE_VERDICTS) >= _MEMO_MAX_ENTRIES:
            _LINE_VERDICTS.clear()
        _LINE_VERDICTS[content] = found
    return found


def _strict_final(text: str, n: int) -> tuple[int, int, Extraction] | None:
    """For a text holding one field: when its last non-blank line (or that line after
    leading whitespace) is a strict final answer for ``n`` options, ``(where that line
    starts, where its last non-blank character ends, the shared verdict without
    spans)``; else ``None``."""
    body = text.rstrip()  # the same string when nothing trails it (the common case)
    line_start = body.rfind("\n") + 1
    if not body.startswith(_STRICT_HEAD, line_start):
        line_start = len(body) - len(body[line_start:].lstrip())
    if not (body.startswith(_STRICT_HEAD, line_start) and body[-1] == "]"):
        return None
    found = _line_verdict(body[line_start + _HEAD_LEN : -1])
    if found is None or found[0] != n:
        return None
    return line_start, len(body), found[1]


def _extraction(status: Status, spans: tuple[Span, ...], reason: str) -> Extraction:
    return Extraction(status, None, False, spans, reason)


def extract_reasoning(
    text: str,
    n: int,
    protocol_version: int = CURRENT_PROTOCOL_VERSION,  # noqa: ARG001 - one signature for every track rule
) -> Extraction:
    """Apply the reasoning-assisted rule to one response.

    Args:
        text: the raw response.
        n: number of options of the question (``n >= 1``).
        protocol_version: accepted so that every track rule has one signature;
            this rule is the same in every version.

    Returns:
        ``valid``, ``missing``, ``multiple``, ``non_final``, ``malformed``,
        ``ambiguous`` or ``wrong_length``.
    """
    count = text.count(FIELD)
    # Fast path for the common reply: the last line is a strict final answer.
    if count == 1 and (strict := _strict_final(text, n)) is not None:
        line_start, end, verdict = strict
        field = (line_start, line_start + _FIELD_LEN)
        spans = (field, (field[1] + 1, end))
        return Extraction(Status.VALID, verdict.selection, True, spans, _STRICT)
    return _general(text, n, count)


def reasoning_verdict(
    text: str,
    n: int,
    protocol_version: int = CURRENT_PROTOCOL_VERSION,  # noqa: ARG001 - one signature for every track rule
) -> Extraction:
    """:func:`extract_reasoning` without the character spans of a strict final line,
    for loops that keep none (the rescore, the review index; the window's detail
    derives them again).

    A final line's verdict depends only on that line (and ``n``): each strict line's
    list content, and each other final line that step 4 reads, has one shared
    :class:`Extraction` with no spans (about 1 µs less per strict reply, and 5–8 µs
    less per other reply, than building the spans and the verdict each time). The
    other verdicts (``missing``, ``multiple``, ``non_final``, text before the field)
    keep their spans.
    """
    count = text.count(FIELD)
    if count == 1 and (strict := _strict_final(text, n)) is not None:
        return strict[2]
    return _general(text, n, count, lean=True)


def _general(text: str, n: int, count: int, *, lean: bool = False) -> Extraction:
    """The rule in full, for a text holding ``count`` fields.

    With ``lean`` the verdict of a final line that step 4 reads is the shared one of
    that line's text (and ``n``), without spans (:func:`reasoning_verdict`): it
    depends on nothing else, and such lines recur.
    """
    if count == 0:
        return _MISSING
    pos = text.find(FIELD)
    field = (pos, pos + _FIELD_LEN)
    if count > 1:
        spans = [field]
        while len(spans) < count:
            nxt = text.find(FIELD, spans[-1][1])
            spans.append((nxt, nxt + _FIELD_LEN))
        return _extraction(Status.MULTIPLE, tuple(spans), f"FINAL_ANSWER: appears {count} times")

    line_start = text.rfind("\n", 0, pos) + 1
    line_end = text.find("\n", field[1])
    if line_end < 0:
        line_end = len(text)
    else:
        later = _NON_SPACE.search(text, line_end)
        if later is not None:
            later_end = text.find("\n", later.start())
            if later_end < 0:
                later_end = len(text)
            later_end = later.start() + len(text[later.start() : later_end].rstrip())
            return _extraction(
                Status.NON_FINAL,
                (field, (later.start(), later_end)),
                "the FINAL_ANSWER: line is not the last non-blank line",
            )

    before = text[line_start:pos]
    if before.strip(_SKIP):
        lead = len(before) - len(before.lstrip())
        return _extraction(
            Status.MALFORMED,
            (field, (line_start + lead, pos)),
            "text other than emphasis marks stands before FINAL_ANSWER: on its line",
        )
    if not lean:
        return _after_field(text, n, field, line_start, line_end)
    line = (text[line_start:line_end], n)
    found = _FINAL_LINES.get(line)
    if found is None:
        found = _after_field(text, n, field, line_start, line_end).without_spans()
        if len(line[0]) <= _MEMO_MAX_CONTENT:
            if len(_FINAL_LINES) >= _MEMO_MAX_ENTRIES:
                _FINAL_LINES.clear()
            _FINAL_LINES[line] = found
    return found


def _after_field(text: str, n: int, field: Span, line_start: int, line_end: int) -> Extraction:
    """Step 4: what follows the field on its (last non-blank) line."""
    rest = text[field[1] : line_end]
    body = rest.lstrip(_SKIP)
    start = line_end - len(body)
    first = ANSWER_LIST.search(body) if body.count("[") > 1 else None
    if first is not None and ANSWER_LIST.search(body, first.end()) is not None:
        spans = [(start + m.start(), start + m.end()) for m in ANSWER_LIST.finditer(body)]
        return _extraction(
            Status.AMBIGUOUS,
            (field, *spans),
            f"{len(spans)} answer lists follow FINAL_ANSWER:",
        )

    if body.startswith("["):
        span = BRACKETED_SPAN.match(body)
        if span is not None:
            list_span = (start, start + span.end())
            tail = body[span.end() :]
            if tail.strip(_SKIP):
                offset = len(tail) - len(tail.lstrip(_SKIP))
                tail_end = len(tail.rstrip(_SKIP))
                return _extraction(
                    Status.MALFORMED,
                    (field, list_span, (list_span[1] + offset, list_span[1] + tail_end)),
                    "text follows the bracketed list after FINAL_ANSWER:",
                )
            line = text[line_start:line_end].strip()
            strict = line.startswith(_STRICT_HEAD) and _STRICT_LINE.fullmatch(line) is not None
            return read_items(
                text,
                list_span[0] + 1,
                list_span[1] - 1,
                n,
                list_span=list_span,
                what="final answer list",
                lead=(field,),
                strict_candidate=strict,
            )

    if "[" in body or "]" in body:
        end = start + len(body.rstrip(_SKIP))
        return _extraction(
            Status.MALFORMED,
            (field, (start, end)),
            "what follows FINAL_ANSWER: is not one bracketed list",
        )

    items = body.rstrip(_SKIP)
    if not items:
        return _extraction(Status.MALFORMED, (field,), "nothing follows FINAL_ANSWER:")
    items_span = (start, start + len(items))
    return read_items(
        text,
        items_span[0],
        items_span[1],
        n,
        list_span=items_span,
        what="unbracketed final list",
        lead=(field,),
    )
