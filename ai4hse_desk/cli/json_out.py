"""Printing JSON for scripts and people at once: fast, one item per line, ASCII only.

``json.dumps(..., indent=2)`` runs Python's pure-Python encoder and builds the
whole text in memory, which for a key audit of 100,000 questions is most of the
command's time and memory. :func:`write_json` prints the document's small parts
indented, and a long list (``stream``) one compact item per line with the C
encoder, without building the whole text. Output is ASCII (``\\uXXXX`` escapes),
so no control, bidi or invisible character read from a file reaches a terminal
raw; the JSON a script parses is the same.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import IO

_ENCODE = json.JSONEncoder(ensure_ascii=True, allow_nan=False).encode


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
            text = json.dumps(value, indent=2, ensure_ascii=True, allow_nan=False)
            out.write(text.replace("\n", "\n  "))
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
