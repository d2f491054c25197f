"""Structured-output track (protocol.md section 5).

The response must be a JSON object with exactly one field, ``answers``, an
array of ``n`` JSON Booleans. No repair and no text fallback.

* Not parseable as strict JSON → ``invalid_json``: prose or a Markdown code
  fence around the document, trailing data, ``NaN``/``Infinity`` (not JSON),
  an integer too long for Python, or nesting too deep to parse. Surrounding
  whitespace (anything :meth:`str.isspace` accepts) is allowed.
* Not an object, a duplicated key at any depth (compared after unescaping, so
  ``"answ\\u0065rs"`` duplicates ``"answers"``), a field other than
  ``answers``, ``answers`` missing or not an array, an element that is not
  ``true``/``false`` → ``schema_violation``, reported in that order.
* Array length ≠ ``n`` → ``wrong_length``; else ``valid``.

strict_format = the status is ``valid``. Spans: the JSON document (trimmed
response); for ``invalid_json`` the character where parsing failed.
"""

from __future__ import annotations

import json
import re
from typing import Any

from ai4hse_desk.protocol.outcome import CURRENT_PROTOCOL_VERSION, Extraction, Span, Status
from tests.core.reference_rules.lists import strip_bounds

_WS = r"[ \t\n\r]*+"
_BOOL = r"(?:true|false)"
#: The canonical valid shape, decided without building a parse tree.
_FAST = re.compile(
    rf'\{{{_WS}"answers"{_WS}:{_WS}\[{_WS}({_BOOL}(?:{_WS},{_WS}{_BOOL})*+){_WS}\]{_WS}\}}'
)
_VALID = "the JSON answers array has one Boolean per option"
_SHOWN_MAX = 30
_BOOLEANS: dict[str, bool] = {"true": True, "false": False}
_EMPTY = Extraction(Status.INVALID_JSON, None, False, (), "the response is empty, not JSON")


class _DuplicateKeys(dict[str, Any]):
    """A JSON object that had a key more than once (kept so the tree can still be built)."""

    __slots__ = ("duplicate",)

    def __init__(self, pairs: list[tuple[str, Any]], duplicate: str) -> None:
        super().__init__(pairs)
        self.duplicate = duplicate


class _NotJsonConstant(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity``: accepted by Python, not by JSON."""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    result = dict(pairs)
    if len(result) == len(pairs):
        return result
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            return _DuplicateKeys(pairs, key)
        seen.add(key)
    raise AssertionError("unreachable: a shorter dict has a repeated key")  # pragma: no cover


def _constant(name: str) -> Any:
    raise _NotJsonConstant(name)


_DECODER = json.JSONDecoder(object_pairs_hook=_object, parse_constant=_constant)


def _find_duplicate(document: Any) -> str | None:
    """First duplicated key anywhere in the parsed tree (iterative: no recursion)."""
    stack = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, _DuplicateKeys):
            return node.duplicate
        if isinstance(node, dict):
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return None


def _describe(value: Any) -> str:
    """A JSON value named for a reason string."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        text = json.dumps(value)
        return "the string " + (text if len(text) <= _SHOWN_MAX else text[: _SHOWN_MAX - 1] + "…")
    if isinstance(value, int | float):
        text = repr(value)
        return "the number " + (text if len(text) <= _SHOWN_MAX else text[: _SHOWN_MAX - 1] + "…")
    return "an array" if isinstance(value, list) else "an object"


def _key(key: str) -> str:
    return repr(key if len(key) <= _SHOWN_MAX else key[: _SHOWN_MAX - 1] + "…")


def extract_structured(
    text: str,
    n: int,
    protocol_version: int = CURRENT_PROTOCOL_VERSION,  # noqa: ARG001 - one signature for every track rule
) -> Extraction:
    """Apply the structured-output rule to one response.

    Args:
        text: the raw response.
        n: number of options of the question (``n >= 1``).
        protocol_version: accepted so that every track rule has one signature;
            this rule is the same in every version.

    Returns:
        ``valid``, ``invalid_json``, ``schema_violation`` or ``wrong_length``.
    """
    if text[:1].isspace() or text[-1:].isspace():
        start, end = strip_bounds(text)
    else:
        start, end = 0, len(text)
    document: Span = (start, end)
    fast = _FAST.fullmatch(text, start, end)
    if fast is not None:
        selection = tuple(map(_BOOLEANS.__getitem__, map(str.strip, fast[1].split(","))))
        if len(selection) == n:
            return Extraction(Status.VALID, selection, True, (document,), _VALID)
        return _wrong_length(len(selection), n, document)
    if start == end:
        return _EMPTY
    body = text[start:end]
    try:
        parsed = _DECODER.decode(body)
    except _NotJsonConstant as exc:
        return _invalid(document, f"{exc} is not a JSON value")
    except json.JSONDecodeError as exc:
        where = start + exc.pos
        span = (where, where + 1) if where < end else document
        if body.startswith("```"):
            reason = "JSON inside a Markdown code fence is not accepted"
        elif exc.msg == "Extra data":
            reason = f"text follows the JSON value (char {exc.pos})"
        else:
            reason = f"not valid JSON: {exc.msg} (char {exc.pos})"
        return _invalid(span, reason)
    except ValueError as exc:  # e.g. an integer longer than Python's digit limit
        return _invalid(document, f"not valid JSON: {exc}")
    except RecursionError:
        return _invalid(document, "JSON nested too deeply to parse")
    return _check_schema(parsed, n, document)


def _invalid(span: Span, reason: str) -> Extraction:
    return Extraction(Status.INVALID_JSON, None, False, (span,), reason)


def _violation(document: Span, reason: str) -> Extraction:
    return Extraction(Status.SCHEMA_VIOLATION, None, False, (document,), reason)


def _wrong_length(count: int, n: int, document: Span) -> Extraction:
    options = "option" if n == 1 else "options"
    items = "item" if count == 1 else "items"
    return Extraction(
        Status.WRONG_LENGTH,
        None,
        False,
        (document,),
        f"answers has {count} {items}; the question has {n} {options}",
    )


def _check_schema(parsed: Any, n: int, document: Span) -> Extraction:
    """Schema checks on a parsed document, in protocol.md's order."""
    if not isinstance(parsed, dict):
        return _violation(document, f"the JSON document is {_describe(parsed)}, not an object")
    duplicate = _find_duplicate(parsed)
    if duplicate is not None:
        return _violation(document, f"duplicate key {_key(duplicate)} in JSON")
    extra = [key for key in parsed if key != "answers"]
    if extra:
        return _violation(document, f"field {_key(extra[0])} is not allowed (only 'answers')")
    if "answers" not in parsed:
        return _violation(document, "the JSON object has no 'answers' field")
    answers = parsed["answers"]
    if not isinstance(answers, list):
        return _violation(document, f"'answers' is {_describe(answers)}, not an array")
    for index, value in enumerate(answers):
        if type(value) is not bool:
            return _violation(
                document, f"answers item {index + 1} is {_describe(value)}, not true/false"
            )
    if len(answers) != n:
        return _wrong_length(len(answers), n, document)
    return Extraction(Status.VALID, tuple(answers), True, (document,), _VALID)
