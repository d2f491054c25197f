"""The reviewer notes as tables: one row per flag or attempt note, columns declared once.

:data:`EXPORT_COLUMNS` are the columns of a notes export (CSV, the XLSX ``notes``
sheet, the JSON items ``notes import`` reads); :data:`NOTE_COLUMNS` are the same with
each option's letter beside its 0-based position (``ai4hse_desk.analysis.notes_df``).
:data:`HISTORY_COLUMNS` describe one revision (the XLSX ``history`` sheet). A column
marked private — question text, option text, answer key, raw response — is read
from the audit database when asked for and never kept in the notes store.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from ai4hse_desk.display.format import option_letter
from ai4hse_desk.display.frames import DType, FrameColumn, build_frame, selected
from ai4hse_desk.notes.changes import sheet_text
from ai4hse_desk.notes.records import fields_of

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

    import pandas as pd

    from ai4hse_desk.audit import Attempt, Question
    from ai4hse_desk.notes.model import ItemRecord, Revision, Value
    from ai4hse_desk.notes.store import NotesStore


@dataclass(frozen=True, slots=True)
class Entry:
    """One flag or note as it stands now, with its history (and the audit texts if asked)."""

    item: ItemRecord
    values: Mapping[str, Value]
    history: tuple[Revision, ...]
    question: Question | None
    attempt: Attempt | None


def entries(store: NotesStore, include_private: bool) -> list[Entry]:
    """Every flag and note, oldest first, with its history (and audit texts if private)."""
    history: dict[str, list[Revision]] = {}
    for revision in store.revisions():
        history.setdefault(revision.item_id, []).append(revision)
    items = store.items()
    attempts: dict[int, Attempt] = {}
    if include_private:
        wanted = [item.attempt_id for item in items if item.attempt_id is not None]
        attempts = {a.attempt_id: a for a in store.audit.attempts_by_ids(wanted)}
    questions = {q.question_id: q for q in store.audit.questions()} if include_private else {}
    out = []
    for item in items:
        revs = tuple(history.get(item.item_id, ()))
        question = questions.get(item.question_id)
        attempt = attempts.get(item.attempt_id) if item.attempt_id is not None else None
        values = revs[-1].values if revs else dict.fromkeys(fields_of(item.kind))
        out.append(Entry(item, values, revs, question, attempt))
    return out


def _value(name: str) -> Callable[[Entry], object]:
    return lambda e: e.values.get(name)


def _letter(entry: Entry) -> str | None:
    option = entry.values.get("option")
    return option_letter(option) if isinstance(option, int) else None


def _key_text(entry: Entry) -> str | None:
    if entry.question is None:
        return None
    option = entry.values.get("option")
    keys = [o.key for o in entry.question.options]
    picked = keys if not isinstance(option, int) else keys[option : option + 1]
    return ", ".join("TRUE" if key else "FALSE" for key in picked)


def _option_text(entry: Entry) -> str | None:
    option = entry.values.get("option")
    if entry.question is None or not isinstance(option, int):
        return None
    return entry.question.options[option].text


def _question_text(entry: Entry) -> str | None:
    return entry.question.text if entry.question else None


def _raw_response(entry: Entry) -> str | None:
    return entry.attempt.raw_response if entry.attempt else None


def _col(
    name: str, dtype: DType, doc: str, get: Callable[[Entry], object], private: bool = False
) -> FrameColumn[Entry]:
    return FrameColumn(name, dtype, doc, get, private)


_OPTION = _col(
    "option", "Int64", "the option a flag concerns (0-based; <NA>: the question)", _value("option")
)
_LETTER = _col("option_letter", "string", "that option's letter (A, B, … Z, AA …)", _letter)

#: The columns of CSV, XLSX ``notes`` and JSON items, in order.
EXPORT_COLUMNS: Final[tuple[FrameColumn[Entry], ...]] = (
    _col("kind", "string", "flag or attempt_note", lambda e: e.item.kind),
    _col("item_id", "string", "the item's UUID", lambda e: e.item.item_id),
    _col("question_id", "string", "the question it concerns", lambda e: e.item.question_id),
    _OPTION,
    _col(
        "attempt_id", "Int64", "the attempt an attempt note concerns", lambda e: e.item.attempt_id
    ),
    _col("run_id", "string", "that attempt's run", lambda e: e.item.run_id),
    _col("category", "string", "a flag's category (key_incorrect, …)", _value("category")),
    _col("severity", "string", "a flag's severity (low, medium, high)", _value("severity")),
    _col("state", "string", "open, resolved or withdrawn", _value("state")),
    _col("note", "string", "the reviewer's note", _value("note")),
    _col("reviewer", "string", "who made it", lambda e: e.item.reviewer),
    _col("created_at", "string", "when (ISO-8601 UTC)", lambda e: e.item.created_at),
    _col("updated_by", "string", "who changed it last", lambda e: e.history[-1].reviewer),
    _col("updated_at", "string", "when it was changed last", lambda e: e.history[-1].at),
    _col("revisions", "Int64", "how many revisions it has", lambda e: len(e.history)),
    _col("audit_sha256", "string", "the audit file it was made on", lambda e: e.item.audit_sha256),
    _col("question_text", "string", "the question's text", _question_text, True),
    _col("option_text", "string", "the flagged option's text", _option_text, True),
    _col("answer_key", "string", "the key (of the flagged option, or of all)", _key_text, True),
    _col("raw_response", "string", "the noted attempt's response", _raw_response, True),
)

#: The notes frame's columns: the export's, with the option letter beside the position.
NOTE_COLUMNS: Final[tuple[FrameColumn[Entry], ...]] = tuple(
    column for c in EXPORT_COLUMNS for column in ((c, _LETTER) if c is _OPTION else (c,))
)


def _changes(rev: Revision) -> str:
    return sheet_text(rev.changes)


#: The columns of the XLSX ``history`` sheet (one row per revision).
HISTORY_COLUMNS: Final[tuple[FrameColumn[Revision], ...]] = (
    FrameColumn("item_id", "string", "the flag or note", lambda r: r.item_id),
    FrameColumn("revision_id", "string", "the revision's UUID", lambda r: r.revision_id),
    FrameColumn("at", "string", "when (ISO-8601 UTC)", lambda r: r.at),
    FrameColumn("reviewer", "string", "who", lambda r: r.reviewer),
    FrameColumn("action", "string", "create, edit, state, undo", lambda r: r.action),
    FrameColumn("changes", "string", "field → [old, new], as JSON", _changes),
    FrameColumn("reverts", "string", "the revision an undo reverts", lambda r: r.reverts),
)


def columns(include_private: bool) -> tuple[FrameColumn[Entry], ...]:
    """The export columns, private ones only when ``include_private``."""
    return selected(EXPORT_COLUMNS, include_private)


def notes_frame(
    rows: Sequence[Entry],
    cols: Sequence[FrameColumn[Entry]],
    *,
    cell: Callable[[object], object] | None = None,
) -> pd.DataFrame:
    """One row per flag or note of ``rows`` with the columns ``cols`` (see ``build_frame``)."""
    return build_frame(rows, cols, cell=cell)


def history_frame(
    rows: Iterable[Entry], *, cell: Callable[[object], object] | None = None
) -> pd.DataFrame:
    """One row per revision of the items in ``rows``, in their order."""
    return build_frame((rev for e in rows for rev in e.history), HISTORY_COLUMNS, cell=cell)


__all__ = [
    "EXPORT_COLUMNS",
    "HISTORY_COLUMNS",
    "NOTE_COLUMNS",
    "Entry",
    "columns",
    "entries",
    "history_frame",
    "notes_frame",
]
