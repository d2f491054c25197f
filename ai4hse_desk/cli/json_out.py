"""Printing JSON for scripts and people at once: fast, indented, ASCII only.

``json.dumps(..., indent=2)`` runs Python's pure-Python encoder (Python 3.11's C
encoder cannot indent), which for a rescore of a thousand runs or a key audit of
100,000 questions is a good part of the command's time. :func:`dumps_indented`
prints the very same text (byte for byte) with the C encoder: each run of plain
values in a container is encoded in one C call whose item separator carries the
newline and indent, so Python works per container, not per value. :func:`write_json`
prints a long list (``stream``) one compact item per line, without building the
whole text. Output is ASCII (``\\u`` and four hex digits), so no control, bidi or
invisible character read from a file reaches a terminal raw.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Mapping
from typing import IO, cast

_ENCODE = json.JSONEncoder(ensure_ascii=True, allow_nan=False).encode
_STRING = json.encoder.encode_basestring_ascii
_REFUSE = json.JSONEncoder().default  # TypeError "Object of type X is not JSON serializable"
_STEP = "  "
_CONTAINERS = (dict, list, tuple)
#: Exact types of plain values, and of every value :func:`_runs_of_plain` can place.
_PLAIN = frozenset({str, int, float, bool, type(None)})
_KNOWN = _PLAIN | frozenset(_CONTAINERS)
#: Per depth: the C encoder of one container of plain values at that depth (its item
#: separator carries the newline and the indent of the next line).
_FLAT: list[Callable[[object], str]] = []


def _flat_encoder(depth: int) -> Callable[[object], str]:
    while len(_FLAT) <= depth:
        separator = ",\n" + _STEP * (len(_FLAT) + 1)
        make = getattr(json.encoder, "c_make_encoder", None)
        if make is None:  # no C accelerator: the same text from the pure encoder
            _FLAT.append(
                json.JSONEncoder(
                    ensure_ascii=True, allow_nan=False, separators=(separator, ": ")
                ).encode
            )
            continue
        encode = make(
            None, _REFUSE, _STRING, None, ": ", separator, False, False, False
        )  # markers, default, string encoder, indent, separators, sort_keys, skipkeys, allow_nan

        def flat(value: object, encode: Callable[[object, int], list[str]] = encode) -> str:
            return "".join(encode(value, 0))

        _FLAT.append(flat)
    return _FLAT[depth]


def _scalar(value: object) -> str:
    """One plain value (or an empty container), as the encoder writes it."""
    if isinstance(value, str):
        return _STRING(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float) and math.isfinite(value):
        return float.__repr__(value)
    return _ENCODE(value)  # the encoder's own answer (and its errors) for the rest


def _indented(value: object, depth: int) -> str:
    if not (isinstance(value, _CONTAINERS) and value):
        return _scalar(value)
    items: Iterable[object] = value.values() if isinstance(value, dict) else value
    kinds = set(map(type, items))  # one C pass: most containers hold plain values only
    if kinds <= _PLAIN or not any(isinstance(item, _CONTAINERS) and item for item in items):
        flat = _flat_encoder(depth)(value)
        return flat[0] + "\n" + _STEP * (depth + 1) + flat[1:-1] + "\n" + _STEP * depth + flat[-1]
    pad = ",\n" + _STEP * (depth + 1)
    if isinstance(value, dict) and not all(key.__class__ is str for key in value):
        return _pure(value, depth)
    if kinds <= _KNOWN:
        inner = pad.join(_runs_of_plain(value, depth))
    elif isinstance(value, dict):  # subclasses of the containers: each value on its own
        inner = pad.join(
            [_STRING(key) + ": " + _indented(item, depth + 1) for key, item in value.items()]
        )
    else:
        inner = pad.join([_indented(item, depth + 1) for item in value])
    opening, closing = ("{", "}") if isinstance(value, dict) else ("[", "]")
    return opening + pad[1:] + inner + "\n" + _STEP * depth + closing


def _runs_of_plain(
    value: dict[object, object] | list[object] | tuple[object, ...], depth: int
) -> list[str]:
    """The lines of a container holding plain values and containers (of exact types):
    each run of plain values in one C call, each non-empty container recursively."""
    flat = _flat_encoder(depth)
    parts: list[str] = []
    if isinstance(value, dict):
        plain: dict[object, object] = {}
        for key, item in value.items():
            if item.__class__ in _CONTAINERS and item:
                if plain:
                    parts.append(flat(plain)[1:-1])
                    plain = {}
                parts.append(_STRING(cast("str", key)) + ": " + _indented(item, depth + 1))
            else:
                plain[key] = item
        if plain:
            parts.append(flat(plain)[1:-1])
        return parts
    run: list[object] = []
    for item in value:
        if item.__class__ in _CONTAINERS and item:
            if run:
                parts.append(flat(run)[1:-1])
                run = []
            parts.append(_indented(item, depth + 1))
        else:
            run.append(item)
    if run:
        parts.append(flat(run)[1:-1])
    return parts


def _pure(value: object, depth: int) -> str:
    """Python's own indented encoding of ``value`` at ``depth`` (keys that are not str)."""
    text = json.dumps(value, indent=len(_STEP), ensure_ascii=True, allow_nan=False)
    return text.replace("\n", "\n" + _STEP * depth)


def dumps_indented(value: object) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=True, allow_nan=False)``, byte for byte,
    on the C encoder.

    Raises:
        ValueError: a NaN or infinity.
        TypeError: a value JSON cannot hold.
    """
    return _indented(value, 0)


def write_json(out: IO[str], document: Mapping[str, object], stream: str | None = None) -> None:
    """Write ``document`` to ``out`` (a trailing newline included).

    Args:
        stream: the key of a list in ``document`` to print one item per line (it
            may be any iterable); the other keys are printed indented, in order.
    """
    out.write("{")
    for number, (key, value) in enumerate(document.items()):
        out.write(("," if number else "") + "\n  " + _ENCODE(key) + ": ")
        if key == stream and isinstance(value, Iterable):
            _write_items(out, value)
        else:
            out.write(_indented(value, 1))
    out.write("\n}\n")


def _write_items(out: IO[str], items: Iterable[object]) -> None:
    out.write("[")
    first = True
    for item in items:
        out.write(("\n    " if first else ",\n    ") + _ENCODE(item))
        first = False
    out.write("]" if first else "\n  ]")


def write_line(out: IO[str], value: object) -> None:
    """One compact JSON document on one line (ASCII)."""
    out.write(_ENCODE(value) + "\n")
