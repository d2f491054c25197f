"""Field checks of a notes export, each naming the JSON path of what it refuses.

Every function takes the raw JSON value and its path (``flags[3].revisions[1].at``)
and returns the value, or raises :class:`ReviewError` as ``PATH: problem``. No
check converts anything: a value of the wrong JSON type is refused, never coerced
(``"1"`` is not a number, ``true`` is not ``1``, ``1.0`` is not a position).
"""

from __future__ import annotations

import re
import uuid
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final, NoReturn

from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.model import (
    CATEGORIES,
    SEVERITIES,
    STATES,
    Value,
    check_choice,
    clean_note,
    usable_text,
)
from ai4hse_desk.notes.people import clean_reviewer
from ai4hse_desk.notes.records import fields_of

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

#: The range of an SQLite (and PostgreSQL ``bigint``) integer.
MIN_INT: Final = -(2**63)
MAX_INT: Final = 2**63 - 1
_SHA256_RE: Final = re.compile(r"[0-9a-f]{64}")
_CHOICES: Final = {"category": CATEGORIES, "severity": SEVERITIES, "state": STATES}


def fail(where: str, problem: str) -> NoReturn:
    """Raise ``where: problem`` (just ``problem`` at the top of the document)."""
    raise ReviewError(f"{where}: {problem}" if where else problem)


@contextmanager
def located(where: str) -> Iterator[None]:
    """Prefix any :class:`ReviewError` raised inside with ``where``."""
    try:
        yield
    except ReviewError as exc:
        raise ReviewError(f"{where}: {exc}") from None


def child(where: str, key: str | int) -> str:
    """The path of ``key`` (a field name or a list index) inside ``where``."""
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else key


def shown(raw: object) -> str:
    """``raw`` for a message: its repr, cut short."""
    text = repr(raw)
    return text if len(text) <= 60 else text[:57] + "..."


def json_kind(raw: object) -> str:
    """What a JSON value is, in words."""
    if raw is None:
        return "null"
    if isinstance(raw, bool):
        return "true/false"
    if isinstance(raw, int | float):
        return f"the number {shown(raw)}"
    if isinstance(raw, str):
        return f"the text {shown(raw)}"
    return "a list" if isinstance(raw, list) else "an object"


def exact_object(
    raw: object, where: str, keys: frozenset[str], optional: frozenset[str] = frozenset()
) -> Mapping[str, Any]:
    """``raw`` if it is an object with exactly the fields ``keys`` (and any of ``optional``)."""
    if not isinstance(raw, dict):
        fail(where, f"must be an object, not {json_kind(raw)}")
    missing = sorted(keys - raw.keys())
    if missing:
        fail(where, f"the field {missing[0]!r} is missing")
    extra = sorted(raw.keys() - keys - optional)
    if extra:
        fail(child(where, extra[0]), "is not a field of a notes export")
    return raw


#: The optional field of every revision: the writer's clock when the order overruled it.
WRITER_CLOCK: Final = frozenset({"writer_clock"})


def text(raw: object, where: str) -> str:
    """``raw`` if it is text every store can hold (valid Unicode, no NUL)."""
    if not isinstance(raw, str):
        fail(where, f"must be text, not {json_kind(raw)}")
    if not usable_text(raw):
        fail(where, "must be valid text without NUL characters")
    return raw


def optional_text(raw: object, where: str) -> str | None:
    """``None`` or :func:`text`."""
    return None if raw is None else text(raw, where)


def integer(raw: object, where: str, low: int = MIN_INT, high: int = MAX_INT) -> int:
    """``raw`` if it is a whole JSON number from ``low`` to ``high``."""
    if type(raw) is not int:
        fail(where, f"must be a whole number, not {json_kind(raw)}")
    if not low <= raw <= high:
        fail(where, f"{raw} is out of range ({low} to {high})")
    return raw


def flag(raw: object, where: str) -> bool:
    """``raw`` if it is ``true`` or ``false``."""
    if not isinstance(raw, bool):
        fail(where, f"must be true or false, not {json_kind(raw)}")
    return raw


def canonical_uuid(raw: object, where: str) -> str:
    """``raw`` if it is a UUID written as the desk writes them (lower-case, hyphens)."""
    if isinstance(raw, str):
        try:
            if str(uuid.UUID(raw)) == raw:
                return raw
        except ValueError:
            pass
    fail(where, f"not a UUID in canonical form: {shown(raw)}")


def sha256(raw: object, where: str) -> str:
    """``raw`` if it is 64 lower-case hex digits."""
    if not isinstance(raw, str) or not _SHA256_RE.fullmatch(raw):
        fail(where, f"not a SHA-256 (64 lower-case hex digits): {shown(raw)}")
    return raw


def reviewer(raw: object, where: str) -> str:
    """``raw`` if it is a usable reviewer name exactly as the desk stores one."""
    given = text(raw, where)
    with located(where):
        name = clean_reviewer(given)
    if name != given:
        fail(where, "a reviewer name has no spaces around it")
    return name


def field_value(name: str, raw: object, where: str, kind: str) -> Value:
    """A revisable field's value: ``option`` a position or null, ``note`` text (not
    blank on an attempt note), ``category``/``severity``/``state`` one of their names."""
    if name == "option":
        return None if raw is None else integer(raw, where, 0, 2**31 - 1)
    if name == "note":
        note = text(raw, where)
        with located(where):
            return clean_note(note, required=kind == "attempt_note")
    with located(where):
        return check_choice(raw, _CHOICES[name], name)


def field_values(raw: object, where: str, kind: str) -> dict[str, Value]:
    """A revision's ``values``: exactly the fields of ``kind``, each valid."""
    names = fields_of(kind)
    obj = exact_object(raw, where, frozenset(names))
    return {name: field_value(name, obj[name], child(where, name), kind) for name in names}


def field_changes(
    raw: object, where: str, kind: str, values: Mapping[str, Value]
) -> dict[str, tuple[Value, Value]]:
    """A revision's ``changes``: field → ``[old, new]``, each null or valid, and every
    ``new`` equal to the revision's ``values``."""
    if not isinstance(raw, dict):
        fail(where, f"must be an object, not {json_kind(raw)}")
    out: dict[str, tuple[Value, Value]] = {}
    for name, pair in raw.items():
        at = child(where, name)
        if name not in fields_of(kind):
            fail(at, f"is not a field of a {kind.replace('_', ' ')}")
        if not isinstance(pair, list) or len(pair) != 2:
            fail(at, f"a change must be [old, new], not {json_kind(pair)}")
        old, new = (
            None if value is None else field_value(name, value, child(at, i), kind)
            for i, value in enumerate(pair)
        )
        if new != values[name]:
            fail(child(at, 1), "differs from the revision's values")
        out[name] = (old, new)
    return out
