"""Shared definitions of protocol.md section 2: tokens, bracketed spans, answer lists.

Terms, as the protocol defines them:

* **token**: an item that, after trimming whitespace, equals ``true`` or ``false``
  ignoring letter case. Quotes are not stripped (``"TRUE"`` is no token).
  Case is compared in ASCII only, so look-alikes such as ``ſ`` (long s) or the
  Kelvin sign never make a token.
* **strict token**: exactly ``TRUE`` or ``FALSE``.
* **bracketed span**: an innermost ``[`` … ``]`` (no bracket inside); its items
  are its content split on ``,``; ``[]`` has no items.
* **answer list**: a bracketed span with at least one item that is a token.
* **reading a list against n**: a non-token item → ``malformed``; else a count
  other than ``n`` → ``wrong_length``; else ``valid``.

"Whitespace" is what :meth:`str.isspace` accepts, the same set that
:meth:`str.strip` removes and that ``\\s`` matches in ``re``. Every regular
expression here is linear in the length of the text (possessive quantifiers
and a closing-bracket lookahead), so 1 MB of brackets or commas stays cheap.
"""

from __future__ import annotations

import re

from ai4hse_desk.protocol.outcome import Extraction, Selection, Span, Status

#: Every character :meth:`str.isspace` accepts (checked by a test), so that
#: ``str.strip(WHITESPACE + MARKS)`` trims whitespace and marks in one C call.
WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004"
    "\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)

_TOKEN = r"(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee])"

#: An innermost bracketed span.
BRACKETED_SPAN = re.compile(r"\[[^\[\]]*+\]")

#: An innermost bracketed span holding at least one token item. The lookahead
#: makes sure the span closes before any item is tried, which keeps the search
#: linear; an item is a token when it stands between ``[``/``,`` and ``,``/``]``
#: with only whitespace around it.
ANSWER_LIST = re.compile(r"\[(?=[^\[\]]*+\])(?:[^\[\]]*,)?\s*+" + _TOKEN + r"\s*+(?:,[^\[\]]*+)?\]")

#: Strict tokens and their values.
STRICT_TOKENS: dict[str, bool] = {"TRUE": True, "FALSE": False}
_TOKENS: dict[str, bool] = {"true": True, "false": False}
_SHOWN_MAX = 30
_VALID_SUFFIX = " has one TRUE/FALSE value per option"

#: Selections of list contents made only of strict tokens, by content (e.g.
#: ``"TRUE, FALSE, TRUE, FALSE"``): the same few contents recur across a run.
STRICT_CONTENTS: dict[str, Selection] = {}
_MEMO_MAX_CONTENT = 200
_MEMO_MAX_ENTRIES = 4096


def token_value(item: str) -> bool | None:
    """The Boolean an item stands for if it is a token, else ``None``."""
    item = item.strip()
    value = STRICT_TOKENS.get(item)
    if value is None and len(item) in (4, 5) and item.isascii():
        value = _TOKENS.get(item.lower())
    return value


def is_strict_token(item: str) -> bool:
    """True iff the item, trimmed, is exactly ``TRUE`` or ``FALSE``."""
    return item.strip() in STRICT_TOKENS


def strict_selection(content: str) -> Selection | None:
    """The selection of a list's content if every item is a strict token, else ``None``.

    Memoised in :data:`STRICT_CONTENTS`; hot paths look there first.
    """
    selection = STRICT_CONTENTS.get(content)
    if selection is None:
        try:
            selection = tuple(map(STRICT_TOKENS.__getitem__, map(str.strip, content.split(","))))
        except KeyError:
            return None
        if len(content) <= _MEMO_MAX_CONTENT:
            if len(STRICT_CONTENTS) >= _MEMO_MAX_ENTRIES:
                STRICT_CONTENTS.clear()
            STRICT_CONTENTS[content] = selection
    return selection


def strip_bounds(text: str) -> tuple[int, int]:
    """Half-open range of ``text`` left after trimming surrounding whitespace.

    An all-whitespace text gives an empty range at its end.
    """
    stripped = text.lstrip()
    start = len(text) - len(stripped)
    return start, start + len(stripped.rstrip())


def bracketed_spans(text: str, start: int = 0, end: int | None = None) -> list[Span]:
    """All innermost bracketed spans of ``text[start:end]``, brackets included."""
    stop = len(text) if end is None else end
    return [m.span() for m in BRACKETED_SPAN.finditer(text, start, stop)]


def answer_lists(text: str, start: int = 0, end: int | None = None) -> list[Span]:
    """All answer lists of ``text[start:end]``, brackets included, in order."""
    stop = len(text) if end is None else end
    return [m.span() for m in ANSWER_LIST.finditer(text, start, stop)]


def is_answer_list(span_text: str) -> bool:
    """True iff ``span_text`` is one bracketed span with a token item."""
    return (
        len(span_text) >= 2
        and span_text[0] == "["
        and span_text[-1] == "]"
        and "[" not in span_text[1:-1]
        and "]" not in span_text[1:-1]
        and any(token_value(item) is not None for item in span_text[1:-1].split(","))
    )


def last_answer_list(text: str) -> Span | None:
    """The last answer list of ``text`` (brackets included), or ``None``."""
    last: re.Match[str] | None = None
    for last in ANSWER_LIST.finditer(text):  # noqa: B007 - only the last one matters
        pass
    return None if last is None else last.span()


def shown(item: str) -> str:
    """An item quoted for a reason string, shortened when long."""
    item = item.strip()
    if len(item) > _SHOWN_MAX:
        item = item[: _SHOWN_MAX - 1] + "…"
    return repr(item)


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def read_items(
    text: str,
    start: int,
    end: int,
    n: int,
    list_span: Span,
    what: str,
    lead: tuple[Span, ...] = (),
    strict_candidate: bool = False,
) -> Extraction:
    """Read the items of ``text[start:end]`` (the content of a list) against ``n``.

    Args:
        text: the original response.
        start: offset of the first character of the list's content.
        end: offset just past its last character.
        n: number of options of the question.
        list_span: span reported for the whole list (brackets included).
        what: how reasons name the list, e.g. ``"last answer list"``.
        lead: spans reported before the list's (e.g. the ``FINAL_ANSWER:`` field).
        strict_candidate: whether the surroundings already meet the track's
            strict format; strict_format is then true iff additionally every
            item is a strict token and the status is ``valid``.

    Returns:
        ``valid`` (selection of ``n`` Booleans), ``wrong_length`` (spans: lead
        and list) or ``malformed`` (spans: lead, list and the offending item).
        An empty content has no items, so ``[]`` reads as ``wrong_length``.
    """
    if start == end:
        return Extraction(
            Status.WRONG_LENGTH,
            None,
            False,
            (*lead, list_span),
            f"{what} is empty; the question has {_plural(n, 'option')}",
        )
    content = text[start:end]
    strict = strict_candidate
    selection = STRICT_CONTENTS.get(content) or strict_selection(content)
    if selection is None:
        strict = False
        items = content.split(",")
        lenient: list[bool] = []
        for index, raw in enumerate(items):
            value = token_value(raw)
            if value is None:
                return _malformed_item(start, items, index, list_span, what, lead)
            lenient.append(value)
        selection = tuple(lenient)
    if len(selection) != n:
        return Extraction(
            Status.WRONG_LENGTH,
            None,
            False,
            (*lead, list_span),
            f"{what} has {_plural(len(selection), 'item')}; "
            f"the question has {_plural(n, 'option')}",
        )
    return Extraction(
        Status.VALID,
        selection,
        strict,
        (*lead, list_span),
        what + _VALID_SUFFIX,
    )


def _malformed_item(
    start: int,
    items: list[str],
    index: int,
    list_span: Span,
    what: str,
    lead: tuple[Span, ...],
) -> Extraction:
    """``malformed`` pointing at item ``index`` (an empty item points at its comma)."""
    item_start = start + sum(len(items[j]) + 1 for j in range(index))
    raw = items[index]
    body = raw.strip()
    if body:
        offset = item_start + (len(raw) - len(raw.lstrip()))
        item_span = (offset, offset + len(body))
        reason = f"item {index + 1} {shown(body)} of the {what} is not TRUE/FALSE"
    else:
        # An empty item always has a comma next to it: the list has a token item too.
        comma = item_start - 1 if index > 0 else item_start + len(raw)
        item_span = (comma, comma + 1)
        if index == len(items) - 1:
            where = "trailing comma"
        elif index == 0:
            where = "leading comma"
        else:
            where = "two commas in a row"
        reason = f"item {index + 1} of the {what} is empty ({where})"
    return Extraction(Status.MALFORMED, None, False, (*lead, list_span, item_span), reason)
