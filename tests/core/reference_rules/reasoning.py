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

from ai4hse_desk.protocol.outcome import (
    CURRENT_PROTOCOL_VERSION,
    Extraction,
    Selection,
    Span,
    Status,
)
from tests.core.reference_rules.lists import (
    ANSWER_LIST,
    BRACKETED_SPAN,
    STRICT_TOKENS,
    WHITESPACE,
    read_items,
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
#: Selections of strict final-line contents, by content (they recur across a run).
_LINE_CONTENTS: dict[str, Selection] = {}
_MEMO_MAX_CONTENT = 200
_MEMO_MAX_ENTRIES = 4096
_STRICT = "the last line is FINAL_ANSWER: with one strict TRUE/FALSE value per option"
_MISSING = Extraction(Status.MISSING, None, False, (), "no FINAL_ANSWER: field in the response")


def _line_selection(content: str) -> Selection | None:
    """Selection of a strict final line's list content, else ``None`` (memoised)."""
    if _STRICT_CONTENT.fullmatch(content) is None:
        return None
    selection = tuple(map(STRICT_TOKENS.__getitem__, map(str.strip, content.split(","))))
    if len(content) <= _MEMO_MAX_CONTENT:
        if len(_LINE_CONTENTS) >= _MEMO_MAX_ENTRIES:
            _LINE_CONTENTS.clear()
        _LINE_CONTENTS[content] = selection
    return selection


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
    if count == 1:
        # Fast path for the common reply: the last line is a strict final answer.
        body = text.rstrip()
        line_start = body.rfind("\n") + 1
        if not body.startswith(_STRICT_HEAD, line_start):
            line_start = len(body) - len(body[line_start:].lstrip())
        if body.startswith(_STRICT_HEAD, line_start) and body[-1] == "]":
            content = body[line_start + _HEAD_LEN : -1]
            selection = _LINE_CONTENTS.get(content) or _line_selection(content)
            if selection is not None and len(selection) == n:
                field = (line_start, line_start + _FIELD_LEN)
                return Extraction(
                    Status.VALID, selection, True, (field, (field[1] + 1, len(body))), _STRICT
                )
    return _general(text, n, count)


def _general(text: str, n: int, count: int) -> Extraction:
    """The rule in full, for a text holding ``count`` fields."""
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
    return _after_field(text, n, field, line_start, line_end)


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
