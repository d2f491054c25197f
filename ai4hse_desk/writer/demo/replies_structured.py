"""Structured-output responses: ``{"answers": [true, false, ...]}`` and nothing else.

Besides compact and pretty-printed JSON the generators produce what
structured runs really return when the schema is not enforced server-side:
Markdown code fences, prose before the JSON, duplicated keys (top level and
nested), string Booleans, an extra field, a wrong length, a bare array,
numbers instead of Booleans, Python-style literals, and truncated JSON.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from ai4hse_desk.writer.demo.replies import (
    Behaviour,
    Kind,
    Rendered,
    Selection,
    flipped,
    resized,
    truncate,
)

if TYPE_CHECKING:
    from collections.abc import Sequence


def _array(sel: Selection) -> str:
    return json.dumps(list(sel))


def _compact(sel: Selection) -> str:
    return json.dumps({"answers": list(sel)})


def _clean(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    text = _compact(sel)
    return Rendered((text, text.replace(" ", ""), text + "\n")[v])


def _pretty(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    return Rendered(json.dumps({"answers": list(sel)}, indent=(2, 4, 2)[v]) + "\n" * (v == 2))


def _fenced(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    body = _compact(sel) if v else json.dumps({"answers": list(sel)}, indent=2)
    return Rendered(f"```{'json' if v < 2 else ''}\n{body}\n```")


def _prose(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    lead = ("Here is the JSON:", "Sure!", "Answer:")[v]
    return Rendered(f"{lead}\n{_compact(sel)}")


def _duplicate(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    first = _array(flipped(sel, v)) if v != 1 else _array(sel)
    return Rendered(f'{{"answers": {first}, "answers": {_array(sel)}}}')


def _nested_duplicate(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    meta = (
        '{"confidence": 0.8, "confidence": 0.9}',
        '{"id": 1, "id": 1}',
        '{"a": {"b": 1, "b": 2}}',
    )
    return Rendered(f'{{"answers": {_array(sel)}, "meta": {meta[v]}}}')


def _strings(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    words = [("true" if value else "false") for value in sel]
    if v == 1:
        words = [word.upper() for word in words]
    items = ", ".join(f'"{word}"' for word in words)
    if v == 2:  # only one item slipped into a string
        items = _array(sel)[1:-1].replace("true", '"true"', 1).replace("false", '"false"', 1)
    return Rendered(f'{{"answers": [{items}]}}')


def _extra_field(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    extra = (
        {"confidence": 0.82},
        {"reasoning": "Options were checked against ISO 45001 guidance."},
        {"question_id": "current"},
    )[v]
    return Rendered(json.dumps({"answers": list(sel), **extra}))


def _wrong_length(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    return Rendered(_compact(resized(sel, v)))


def _bare_array(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    return Rendered((_array(sel), json.dumps({"answer": list(sel)}), '{"answers": null}')[v])


def _numbers(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    items = ", ".join(str(int(value)) for value in sel)
    return Rendered(f'{{"answers": [{items}]}}' if v < 2 else f'{{"answers": "{items}"}}')


def _python_literal(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    text = str({"answers": list(sel)})
    return Rendered((text, text.replace("'", '"'), text.replace("True", "true"))[v])


def _truncated_stop(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    return Rendered(truncate(_compact(sel), (0.5, 0.8, 0.95)[v]))


def _cut(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    if v == 2:  # complete JSON, but the provider still reported the cap
        return Rendered(_compact(sel), cut_off=True)
    return Rendered(truncate(json.dumps({"answers": list(sel)}, indent=2), 0.4 + 0.3 * v), True)


BEHAVIOURS: tuple[Behaviour, ...] = (
    Behaviour("clean", 66.0, Kind.CLEAN, _clean),
    Behaviour("pretty", 8.0, Kind.CLEAN, _pretty),
    Behaviour("fenced", 2.5, Kind.NOISE, _fenced),
    Behaviour("prose", 1.2, Kind.NOISE, _prose),
    Behaviour("duplicate_key", 0.8, Kind.NOISE, _duplicate),
    Behaviour("nested_duplicate", 0.4, Kind.NOISE, _nested_duplicate),
    Behaviour("string_booleans", 1.0, Kind.NOISE, _strings),
    Behaviour("extra_field", 1.2, Kind.NOISE, _extra_field),
    Behaviour("wrong_length", 1.5, Kind.NOISE, _wrong_length),
    Behaviour("not_answers_array", 0.7, Kind.NOISE, _bare_array),
    Behaviour("numbers", 0.5, Kind.NOISE, _numbers),
    Behaviour("python_literal", 0.4, Kind.NOISE, _python_literal),
    Behaviour("truncated_stop", 0.5, Kind.NOISE, _truncated_stop),
    Behaviour("cut_off", 1.2, Kind.CUT_OFF, _cut),
)
"""Structured-output behaviours and their weights for an average model."""

#: String Booleans, which a "repairing" runner would wrongly accept.
string_booleans = _strings
clean_json = _clean
