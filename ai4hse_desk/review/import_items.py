"""The checks every review item of a notes export shares (see :mod:`.import_check`).

Free functions check one value (a known name, one TRUE/FALSE per option, a key of
Booleans, a note, a list, a non-empty history); :class:`ItemChecks` holds what the
checks of one export share: the store's audit database (is a question there, and how
many options has it), the ids seen so far (an id occurs once in a file), the time
(``now``, nothing later) and the private texts a private export carries.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Final

from ai4hse_desk.notes import import_fields as f
from ai4hse_desk.notes.model import check_time, clean_note
from ai4hse_desk.review.values import FALSE, TRUE, UNSURE

if TYPE_CHECKING:
    from collections.abc import Mapping
    from datetime import datetime

    from ai4hse_desk.notes.store import NotesStore
    from ai4hse_desk.review.values import Answer

#: Texts read from the audit file, in a private export only: checked, never stored.
PRIVATE: Final = frozenset({"question_text", "options", "answer_key"})


def same(raw: object, value: object) -> bool:
    """``raw`` is exactly ``value`` as JSON (``true`` is not ``1``, ``1.0`` is not ``1``)."""
    return json.dumps(raw, sort_keys=True) == json.dumps(value, sort_keys=True)


def choice(raw: object, allowed: tuple[str, ...], where: str, *, null: bool = False) -> Any:
    if raw is None and null:
        return None
    if not isinstance(raw, str) or raw not in allowed:
        f.fail(where, f"unknown value {f.shown(raw)} (one of {', '.join(allowed)})")
    return raw


def answer(raw: object, options: int, where: str, *, unsure: bool) -> Answer | None:
    """A list of one TRUE/FALSE (/UNSURE) per option, or null."""
    if raw is None:
        return None
    if not isinstance(raw, list):
        f.fail(where, f"must be a list of TRUE/FALSE values, not {f.json_kind(raw)}")
    allowed = (TRUE, FALSE, UNSURE) if unsure else (TRUE, FALSE)
    for index, item in enumerate(raw):
        choice(item, allowed, f.child(where, index))
    if len(raw) != options:
        f.fail(where, f"has {len(raw)} values, but the question has {options} options")
    return tuple(raw)


def key(raw: object, options: int, where: str) -> Answer | None:
    """A key given as Booleans (the review report's form), or null."""
    if raw is None:
        return None
    if not isinstance(raw, list) or not all(isinstance(item, bool) for item in raw):
        f.fail(where, f"must be a list of true/false, not {f.json_kind(raw)}")
    if len(raw) != options:
        f.fail(where, f"has {len(raw)} values, but the question has {options} options")
    return tuple(TRUE if item else FALSE for item in raw)


def note(raw: object, where: str, limit: int | None = None) -> str:
    text = f.text(raw, where)
    with f.located(where):
        clean_note(text, required=False)
    if limit is not None and len(text) > limit:
        f.fail(where, f"is limited to {limit} characters, this one has {len(text)}")
    return text


def item_list(doc: Mapping[str, Any], key: str) -> list[Any]:
    raw = doc[key]
    if not isinstance(raw, list):
        f.fail(key, f"must be a list, not {f.json_kind(raw)}")
    return raw


def history(revisions: object, where: str, what: str) -> list[Any]:
    at = f.child(where, "revisions")
    if not isinstance(revisions, list) or not revisions:
        f.fail(at, f"must be the {what}'s non-empty list of revisions")
    return revisions


class ItemChecks:
    """What the checks of one export's review items share (module docstring)."""

    def __init__(self, store: NotesStore, now: datetime) -> None:
        self.store = store
        self.now = now
        self._options: dict[str, int] = {}
        self._seen: dict[str, dict[str, str]] = {}

    def question(self, raw: object, where: str) -> tuple[str, int]:
        """A question id of this audit database and its number of options."""
        question_id = f.text(raw, where)
        if question_id not in self._options:
            with f.located(where):
                self.store.check_question(question_id)
            self._options[question_id] = self.store.audit.question(question_id).n_options
        return question_id, self._options[question_id]

    def once(self, table: str, key: str, where: str) -> None:
        seen = self._seen.setdefault(table, {})
        if key in seen:
            f.fail(where, f"occurs twice in the file (also at {seen[key]})")
        seen[key] = where

    def item_id(self, obj: Mapping[str, Any], name: str, where: str, table: str) -> str:
        at = f.child(where, name)
        value = f.canonical_uuid(obj[name], at)
        self.once(table, value, at)
        return value

    def time(self, raw: object, where: str) -> str:
        return check_time(raw, where, now=self.now)

    def optional_time(self, obj: Mapping[str, Any], name: str, where: str) -> str | None:
        """``obj[name]`` as a time when present and not null, else ``None``."""
        raw = obj.get(name)
        return None if raw is None else self.time(raw, f.child(where, name))

    def sha(self, raw: object, where: str) -> str | None:
        return None if raw is None else f.sha256(raw, where)

    def private_texts(self, obj: Mapping[str, Any], where: str) -> None:
        """Private texts of a private export: checked as text, then ignored."""
        for name in sorted(PRIVATE & obj.keys()):
            raw, at = obj[name], f.child(where, name)
            if name == "question_text":
                f.text(raw, at)
            elif not isinstance(raw, list):
                f.fail(at, f"must be a list, not {f.json_kind(raw)}")
            else:
                for index, item in enumerate(raw):
                    f.text(item, f.child(at, index))


__all__ = [
    "PRIVATE",
    "ItemChecks",
    "answer",
    "choice",
    "history",
    "item_list",
    "key",
    "note",
    "same",
]
