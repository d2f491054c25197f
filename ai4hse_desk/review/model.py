"""What a reviewer records: flags on questions, notes on attempts, and their revisions.

* A :class:`Flag` says "this question's answer key (or wording, …) looks wrong",
  optionally about one option; it has a category, a severity, a note and a
  state (``open`` → ``resolved`` or ``withdrawn``).
* An :class:`AttemptNote` concerns one attempt ("the extraction looks wrong").
* Every change to either is a :class:`Revision`: who, when, what changed (field
  → ``[old, new]``) and the item's values after it. Nothing is overwritten: the
  current state of an item is its latest revision, ordered by ``(at,
  revision_id)`` — a total order every store agrees on, so merged stores show
  the same current state.

Identifiers are random UUIDs (so exports from different reviewers merge
without clashes); times are ISO-8601 UTC with microseconds
(``2025-01-01T10:00:00.000000Z``), which sort as text in time order.
Nothing here changes, or can change, an answer key or a score (protocol §7).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from types import MappingProxyType
from typing import Final

from ai4hse_desk.review.errors import ReviewError

#: Flag categories, in the order the window offers them.
CATEGORIES: Final = (
    "key_incorrect",
    "ambiguous_wording",
    "multiple_defensible",
    "outdated_or_jurisdiction",
    "option_overlap",
    "typo_or_format",
    "other",
)
SEVERITIES: Final = ("low", "medium", "high")
#: Item states; a new item is ``open``; ``withdrawn`` takes it back.
STATES: Final = ("open", "resolved", "withdrawn")
#: What a revision did: made the item, edited fields, changed the state, undid a revision.
ACTIONS: Final = ("create", "edit", "state", "undo")
#: Fields a revision may change, per item kind (``option`` is the 0-based position).
FLAG_FIELDS: Final = ("option", "category", "severity", "note", "state")
NOTE_FIELDS: Final = ("note", "state")

MAX_NOTE = 20_000
MAX_REVIEWER = 200
_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
_TIME_RE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z")
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f]")

#: A field value as stored and exported.
Value = str | int | None


def utc_now() -> str:
    """The current time as ``YYYY-MM-DDTHH:MM:SS.ffffffZ``."""
    return datetime.now(UTC).strftime(_TIME_FORMAT)


def after(previous: str | None, now: str) -> str:
    """``now``, or one microsecond after ``previous`` if the clock has not moved past it."""
    if previous is None or now > previous:
        return now
    bumped = datetime.strptime(previous, _TIME_FORMAT) + timedelta(microseconds=1)
    return bumped.strftime(_TIME_FORMAT)


def check_time(value: object, what: str) -> str:
    """``value`` if it is a time in this module's format, else :class:`ReviewError`."""
    if not isinstance(value, str) or not _TIME_RE.fullmatch(value):
        raise ReviewError(f"{what}: not a UTC time like 2025-01-01T10:00:00.000000Z: {value!r}")
    return value


def new_id() -> str:
    """A fresh random UUID as text."""
    return str(uuid.uuid4())


def check_uuid(value: object, what: str) -> str:
    """``value`` in canonical UUID form, else :class:`ReviewError`."""
    try:
        if isinstance(value, str):
            return str(uuid.UUID(value))
    except ValueError:
        pass
    raise ReviewError(f"{what}: not a UUID: {value!r}")


def check_choice(value: object, allowed: tuple[str, ...], what: str) -> str:
    """``value`` if it is one of ``allowed``, else :class:`ReviewError` listing them."""
    if not isinstance(value, str) or value not in allowed:
        raise ReviewError(f"unknown {what}: {value!r} (one of {', '.join(allowed)})")
    return value


def clean_reviewer(name: object) -> str:
    """A reviewer's name, trimmed; it must be non-empty printable text."""
    if not isinstance(name, str) or not name.strip():
        raise ReviewError("a reviewer name is required")
    name = name.strip()
    if len(name) > MAX_REVIEWER or _CONTROL_RE.search(name):
        raise ReviewError(f"not a usable reviewer name: {name[:40]!r}")
    return name


def clean_note(text: object, *, required: bool) -> str:
    """A note's text (kept as typed); ``required`` notes must not be blank."""
    if not isinstance(text, str):
        raise ReviewError("a note must be text")
    if required and not text.strip():
        raise ReviewError("a note is required")
    if len(text) > MAX_NOTE:
        raise ReviewError(f"a note is limited to {MAX_NOTE} characters, this one has {len(text)}")
    return text


@dataclass(frozen=True, slots=True)
class Revision:
    """One change to a flag or note.

    Attributes:
        changes: field → ``(old, new)``; on ``create`` every field, old ``None``.
        values: the item's fields after this revision (``FLAG_FIELDS`` or ``NOTE_FIELDS``).
        reverts: for ``undo``, the revision it reverted.
    """

    revision_id: str
    item_id: str
    reviewer: str
    at: str
    action: str
    changes: Mapping[str, tuple[Value, Value]] = field(hash=False)
    values: Mapping[str, Value] = field(hash=False)
    reverts: str | None = None

    def to_json(self) -> dict[str, object]:
        """Plain JSON data (``changes`` as ``[old, new]`` lists)."""
        return {
            "revision_id": self.revision_id,
            "item_id": self.item_id,
            "reviewer": self.reviewer,
            "at": self.at,
            "action": self.action,
            "changes": {name: [old, new] for name, (old, new) in self.changes.items()},
            "values": dict(self.values),
            "reverts": self.reverts,
        }


@dataclass(frozen=True, slots=True)
class Flag:
    """A reviewer's concern about a question (optionally one option), as it stands now.

    ``reviewer``/``created_at`` are the author and time of creation;
    ``updated_by``/``updated_at`` those of the latest revision.
    """

    flag_id: str
    question_id: str
    option: int | None
    category: str
    severity: str
    note: str
    state: str
    reviewer: str
    created_at: str
    updated_by: str
    updated_at: str
    audit_sha256: str | None = None

    def to_json(self) -> dict[str, object]:
        """Plain JSON data, every attribute."""
        return asdict(self)


@dataclass(frozen=True, slots=True)
class AttemptNote:
    """A reviewer's note on one attempt, as it stands now."""

    note_id: str
    attempt_id: int
    run_id: str
    question_id: str
    note: str
    state: str
    reviewer: str
    created_at: str
    updated_by: str
    updated_at: str
    audit_sha256: str | None = None

    def to_json(self) -> dict[str, object]:
        """Plain JSON data, every attribute."""
        return asdict(self)


def frozen_values(values: Mapping[str, Value]) -> Mapping[str, Value]:
    """A read-only copy of ``values`` (for the dataclasses above)."""
    return MappingProxyType(dict(values))


@dataclass(frozen=True, slots=True)
class ItemRecord:
    """What never changes about a flag or note: its identity and what it concerns.

    ``attempt_id``/``run_id`` are set for attempt notes only.
    """

    item_id: str
    kind: str
    question_id: str
    reviewer: str
    created_at: str
    attempt_id: int | None = None
    run_id: str | None = None
    audit_sha256: str | None = None

    def to_json(self) -> dict[str, object]:
        """Plain JSON data, every attribute."""
        return asdict(self)
