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
(``2025-01-01T10:00:00.000000Z``), which sort as text in time order. A time must
be a real calendar time and not later than this computer's clock plus
:data:`MAX_CLOCK_SKEW` (5 minutes).
Nothing here changes, or can change, an answer key or a score (protocol §7).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from ai4hse_desk.display.note_text import option_text
from ai4hse_desk.notes.changes import as_json
from ai4hse_desk.notes.errors import ReviewError

if TYPE_CHECKING:
    from collections.abc import Mapping

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
#: Each flag category in words, as people read it (the window, the workbook); the JSON,
#: the CSV and the command line keep the codes.
CATEGORY_NAMES: Final = {
    "key_incorrect": "Key incorrect",
    "ambiguous_wording": "Ambiguous wording",
    "multiple_defensible": "Several answers defensible",
    "outdated_or_jurisdiction": "Outdated or jurisdiction-specific",
    "option_overlap": "Options overlap",
    "typo_or_format": "Typo or format",
    "other": "Other",
}
SEVERITIES: Final = ("low", "medium", "high")
#: Item states; a new item is ``open``; ``withdrawn`` takes it back.
STATES: Final = ("open", "resolved", "withdrawn")
#: What a revision did: made the item, edited fields, changed the state, undid a revision.
ACTIONS: Final = ("create", "edit", "state", "undo")
#: Fields a revision may change, per item kind (``option`` is the 0-based position).
FLAG_FIELDS: Final = ("option", "category", "severity", "note", "state")
NOTE_FIELDS: Final = ("note", "state")

MAX_NOTE = 20_000
#: How far ahead of this computer's clock a stored or imported time may be (another
#: reviewer's clock may run a little fast); anything later is refused as "in the future".
MAX_CLOCK_SKEW: Final = timedelta(minutes=5)
_TIME_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"
_TIME_RE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z")

#: A field value as stored and exported.
Value = str | int | None


def category_name(code: str | None) -> str:
    """A flag category in words (an unknown code as it is; ``None`` as an empty text)."""
    return "" if code is None else CATEGORY_NAMES.get(code, code)


def flag_value_text(name: str, value: object) -> str:
    """One field of a flag revision in words, as every history reads it (the window's
    and the workbook's): an option as its letter or "whole question", a category in
    words, no value as "—"."""
    if name == "option":
        return option_text(value if isinstance(value, int) else None)
    if value is None or value == "":
        return "—"
    if name == "category":
        return category_name(str(value))
    return str(value)


def flag_note_problem(category: str, note: str) -> str:
    """Why a flag of ``category`` cannot be recorded with ``note`` ("" when it can): a flag
    of category ``other`` says in its note what the problem is."""
    if category == "other" and not note.strip():
        named = category_name("other")
        return f"a flag of category “{named}” must say in its note what the problem is"
    return ""


def check_flag_note(category: str, note: str) -> None:
    """Raise :class:`ReviewError` when :func:`flag_note_problem` finds a problem."""
    problem = flag_note_problem(category, note)
    if problem:
        raise ReviewError(problem)


def utc_now() -> str:
    """The current time as ``YYYY-MM-DDTHH:MM:SS.ffffffZ``."""
    return datetime.now(UTC).strftime(_TIME_FORMAT)


def parse_time(value: str) -> datetime | None:
    """``value`` as a (naive, UTC) datetime if it is a real time in this module's
    format — ``2026-13-45T25:61:61.000000Z`` is not — else ``None``."""
    if not _TIME_RE.fullmatch(value):
        return None
    try:
        return datetime.strptime(value, _TIME_FORMAT)
    except ValueError:
        return None


def after(previous: str | None, now: str, what: str = "the item") -> tuple[str, str | None]:
    """The time of an item's next revision, and the writer's clock when it was overruled.

    ``now`` (the writer's clock, or the server's) when it is past ``previous``;
    otherwise one microsecond after ``previous``, so the history keeps its order
    whatever one client's clock says. When ``previous`` is ahead of ``now`` by more
    than :data:`MAX_CLOCK_SKEW` (a clock running fast wrote it), ``now`` is returned
    as the writer's clock, to be recorded beside the revision; no client's clock can
    freeze the others.

    Args:
        previous: the time of the item's latest revision.
        now: the current time (:func:`utc_now`, or the server's).
        what: the item, for messages ("flag 1b4e…").

    Returns:
        ``(at, writer_clock)``; ``writer_clock`` is ``None`` unless it was overruled.
    Raises:
        ReviewError: ``previous`` is not a time at all, or the last one there is (a
            damaged history, e.g. imported before imports were checked): no later
            revision can be dated.
    """
    if previous is None or now > previous:
        return now, None
    parsed = parse_time(previous)
    if parsed is None:
        raise ReviewError(
            f"{what} cannot be changed: its latest revision is dated {previous!r}, "
            "which is not a time (the notes store's history is damaged)"
        )
    try:
        stamped = (parsed + timedelta(microseconds=1)).strftime(_TIME_FORMAT)
    except OverflowError:
        raise ReviewError(
            f"{what} cannot be changed: its latest revision is dated {previous}, later "
            f"than now ({now}) and than any time a later revision could have; a hostile "
            "import or a broken clock dated it"
        ) from None
    current = parse_time(now)
    overruled = current is None or parsed - current > MAX_CLOCK_SKEW
    return stamped, (now if overruled else None)


def check_time(value: object, what: str, *, now: datetime | None = None) -> str:
    """``value`` if it is a real UTC time in this module's format, not in the future.

    Args:
        value: the time to check.
        what: where it was found, for messages.
        now: the present (naive UTC); default the clock. ``value`` may be later
            than it by :data:`MAX_CLOCK_SKEW` at most.

    Raises:
        ReviewError: not text in the format, not a real date and time, or later
            than ``now`` plus the skew.
    """
    if not isinstance(value, str) or not _TIME_RE.fullmatch(value):
        raise ReviewError(f"{what}: not a UTC time like 2025-01-01T10:00:00.000000Z: {value!r}")
    parsed = parse_time(value)
    if parsed is None:
        raise ReviewError(f"{what}: not a real date and time: {value!r}")
    present = now or datetime.now(UTC).replace(tzinfo=None)
    if parsed - present > MAX_CLOCK_SKEW:
        raise ReviewError(
            f"{what}: {value} is in the future (more than "
            f"{MAX_CLOCK_SKEW.total_seconds() / 60:g} minutes after this computer's clock)"
        )
    return value


def usable_text(value: str) -> bool:
    """True if ``value`` can be stored in every backend: valid Unicode, no NUL."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates (from invalid UTF-8 or a JSON escape)
        return False
    return "\x00" not in value


def new_id() -> str:
    """A fresh random UUID as text."""
    import uuid  # (with platform: not at the window's start)

    return str(uuid.uuid4())


def check_uuid(value: object, what: str) -> str:
    """``value`` in canonical UUID form, else :class:`ReviewError`."""
    import uuid

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


def clean_note(text: object, *, required: bool) -> str:
    """A note's text (kept as typed); ``required`` notes must not be blank."""
    if not isinstance(text, str):
        raise ReviewError("a note must be text")
    if required and not text.strip():
        raise ReviewError("a note is required")
    if not usable_text(text):
        raise ReviewError("a note must be valid text without NUL characters")
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
        writer_clock: the writer's clock when the history's order overruled it
            (:func:`after`), else ``None``.
    """

    revision_id: str
    item_id: str
    reviewer: str
    at: str
    action: str
    changes: Mapping[str, tuple[Value, Value]] = field(hash=False)
    values: Mapping[str, Value] = field(hash=False)
    reverts: str | None = None
    writer_clock: str | None = None

    def to_json(self) -> dict[str, object]:
        """Plain JSON data (``changes`` as ``[old, new]`` lists; ``writer_clock`` only
        when the writer's clock was overruled, :func:`after`)."""
        data: dict[str, object] = {
            "revision_id": self.revision_id,
            "item_id": self.item_id,
            "reviewer": self.reviewer,
            "at": self.at,
            "action": self.action,
            "changes": as_json(self.changes),
            "values": dict(self.values),
            "reverts": self.reverts,
        }
        if self.writer_clock is not None:
            data["writer_clock"] = self.writer_clock
        return data


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
