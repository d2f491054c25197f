"""A revision's ``changes``, field → ``(old, new)``: one diff, one column, one JSON form.

Every history the notes store keeps — flags, attempt notes, review verdicts — records
with each revision what it changed. This module is the one place that says how: the
fields whose value differs (:func:`diff`), the ``changes`` column's text (compact JSON,
fields sorted, each an ``[old, new]`` pair; :func:`column_text`) and its reading back,
where anything but pairs is a damaged row (:func:`read_column`), and the JSON an
export or a workbook writes (:func:`as_json`, :func:`sheet_text`).

A history whose field values take another form in the column than in its records (a
verdict's blind answer is a tuple in its record and JSON text in its column) passes
the conversion as ``value(field, v)``; flags and notes store their values as they are.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, TypeVar

from ai4hse_desk.notes.errors import ReviewError

if TYPE_CHECKING:
    from collections.abc import Callable, Container, Mapping

    #: Converts one field's value between two forms: ``value(field, v)``.
    Convert = Callable[[str, Any], object]

V = TypeVar("V")


def _same(_name: str, value: object) -> object:
    return value


def diff(old: Mapping[str, V], new: Mapping[str, V]) -> dict[str, tuple[V | None, V]]:
    """Field → ``(old, new)`` for every field of ``new`` whose value differs from ``old``'s
    (a field ``old`` lacks counts as ``None``)."""
    return {name: (old.get(name), value) for name, value in new.items() if old.get(name) != value}


def as_json(changes: Mapping[str, tuple[Any, Any]], value: Convert = _same) -> dict[str, list[Any]]:
    """``changes`` as JSON data: field → ``[old, new]``, fields sorted."""
    return {
        name: [value(name, old), value(name, new)] for name, (old, new) in sorted(changes.items())
    }


def column_text(changes: Mapping[str, tuple[Any, Any]], value: Convert = _same) -> str:
    """The ``changes`` column's text of a revision."""
    return json.dumps(as_json(changes, value), ensure_ascii=False, separators=(",", ":"))


def sheet_text(changes: Mapping[str, tuple[Any, Any]], value: Convert = _same) -> str:
    """``changes`` as a workbook cell shows them (JSON with spaces, fields sorted)."""
    return json.dumps(as_json(changes, value), ensure_ascii=False)


def read_column(
    text: object,
    damaged: str,
    *,
    known: Container[str] | None = None,
    value: Convert = _same,
) -> dict[str, tuple[Any, Any]]:
    """A stored ``changes`` column back as field → ``(old, new)``.

    Raises:
        ReviewError: ``damaged`` — the text is not a JSON object of ``[old, new]`` pairs,
            or names a field outside ``known`` (when given).
    """
    try:
        data = json.loads(text) if isinstance(text, str) else None
    except (ValueError, RecursionError):
        raise ReviewError(damaged) from None
    if not isinstance(data, dict) or not all(
        isinstance(pair, list) and len(pair) == 2 and (known is None or name in known)
        for name, pair in data.items()
    ):
        raise ReviewError(damaged)
    return {name: (value(name, old), value(name, new)) for name, (old, new) in data.items()}
