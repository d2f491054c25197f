"""Exports of the reviewer notes: CSV, JSON (what ``notes import`` reads) and XLSX.

Columns are declared once, in :data:`EXPORT_COLUMNS` (one row per flag or
attempt note, as it stands now) and :data:`HISTORY_COLUMNS` (one row per
revision; the XLSX ``history`` sheet and the JSON ``revisions`` lists). A
column marked *private* — question text, option text, answer key, raw
response — is left out unless ``include_private``; those texts are read from
the audit database at export time and are never kept in the notes store.

In CSV and XLSX a text cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return is neutralised with a leading ``'`` (OWASP CSV injection), so
no spreadsheet runs it as a formula; JSON keeps every value exact. Every file
is written by :func:`ai4hse_desk.filewrite.write_atomic` (a temporary file in the
target folder, fsynced, renamed into place), which refuses the audit file, the
notes store, their side-file names and anything that is not a regular file.
"""

from __future__ import annotations

import csv
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from ai4hse_desk.display.cells import guard_cell
from ai4hse_desk.filewrite import WriteRefused, check_target, write_atomic
from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.model import ItemRecord, Revision, Value, utc_now
from ai4hse_desk.notes.records import fields_of

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

    from ai4hse_desk.audit import Attempt, Question
    from ai4hse_desk.notes.store import NotesStore

EXPORT_FORMAT: Final = "ai4hse-review-notes"
EXPORT_VERSION: Final = 1
FORMATS: Final = ("csv", "json", "xlsx")
_XLSX_ILLEGAL: Final = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


@dataclass(frozen=True, slots=True)
class Entry:
    """One flag or note with what an export may say about it."""

    item: ItemRecord
    values: Mapping[str, Value]
    history: tuple[Revision, ...]
    question: Question | None
    attempt: Attempt | None


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


def _raw_response(entry: Entry) -> str | None:
    return entry.attempt.raw_response if entry.attempt else None


@dataclass(frozen=True, slots=True)
class ExportColumn:
    """One export column: name, value type (``str`` or ``int``), privacy, value."""

    name: str
    type: type
    private: bool
    get: Callable[[Entry], Value]


def _value(name: str) -> Callable[[Entry], Value]:
    return lambda e: e.values.get(name)


#: The columns of CSV, XLSX ``notes`` and JSON items, in order.
EXPORT_COLUMNS: Final = (
    ExportColumn("kind", str, False, lambda e: e.item.kind),
    ExportColumn("item_id", str, False, lambda e: e.item.item_id),
    ExportColumn("question_id", str, False, lambda e: e.item.question_id),
    ExportColumn("option", int, False, _value("option")),
    ExportColumn("attempt_id", int, False, lambda e: e.item.attempt_id),
    ExportColumn("run_id", str, False, lambda e: e.item.run_id),
    ExportColumn("category", str, False, _value("category")),
    ExportColumn("severity", str, False, _value("severity")),
    ExportColumn("state", str, False, _value("state")),
    ExportColumn("note", str, False, _value("note")),
    ExportColumn("reviewer", str, False, lambda e: e.item.reviewer),
    ExportColumn("created_at", str, False, lambda e: e.item.created_at),
    ExportColumn("updated_by", str, False, lambda e: e.history[-1].reviewer),
    ExportColumn("updated_at", str, False, lambda e: e.history[-1].at),
    ExportColumn("revisions", int, False, lambda e: len(e.history)),
    ExportColumn("audit_sha256", str, False, lambda e: e.item.audit_sha256),
    ExportColumn("question_text", str, True, lambda e: e.question.text if e.question else None),
    ExportColumn("option_text", str, True, _option_text),
    ExportColumn("answer_key", str, True, _key_text),
    ExportColumn("raw_response", str, True, _raw_response),
)

#: The columns of the XLSX ``history`` sheet (one row per revision).
HISTORY_COLUMNS: Final = (
    "item_id",
    "revision_id",
    "at",
    "reviewer",
    "action",
    "changes",
    "reverts",
)


def columns(include_private: bool) -> tuple[ExportColumn, ...]:
    """The export columns, private ones only when ``include_private``."""
    return tuple(c for c in EXPORT_COLUMNS if include_private or not c.private)


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


def _write_bytes(path: Path, data: bytes) -> None:
    with open(path, "wb") as handle:
        handle.write(data)


def _table(rows: Iterable[Entry], cols: tuple[ExportColumn, ...]) -> list[list[Value]]:
    return [[guard_cell(col.get(entry)) for col in cols] for entry in rows]


def _write_csv(path: Path, rows: list[Entry], cols: tuple[ExportColumn, ...]) -> None:
    with open(path, "w", encoding="utf-8-sig", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow([col.name for col in cols])
        writer.writerows(_table(rows, cols))


def _cell(value: Value) -> Value:
    if isinstance(value, str):
        return _XLSX_ILLEGAL.sub(lambda m: f"\\x{ord(m.group()):02x}", value)
    return value


def _write_xlsx(path: Path, rows: list[Entry], cols: tuple[ExportColumn, ...]) -> None:
    import pandas as pd  # heavy: only when an XLSX is asked for

    notes = [[_cell(v) for v in row] for row in _table(rows, cols)]
    history = [[_cell(guard_cell(v)) for v in _history_row(rev)] for e in rows for rev in e.history]
    with pd.ExcelWriter(path, engine="openpyxl") as writer:
        frame = pd.DataFrame(notes, columns=[c.name for c in cols], dtype=object)
        frame.to_excel(writer, sheet_name="notes", index=False)
        frame = pd.DataFrame(history, columns=list(HISTORY_COLUMNS), dtype=object)
        frame.to_excel(writer, sheet_name="history", index=False)


def _history_row(rev: Revision) -> list[Value]:
    changes = {name: [old, new] for name, (old, new) in rev.changes.items()}
    text = json.dumps(changes, ensure_ascii=False, sort_keys=True)
    return [rev.item_id, rev.revision_id, rev.at, rev.reviewer, rev.action, text, rev.reverts]


def json_document(store: NotesStore, rows: list[Entry], include_private: bool) -> dict[str, Any]:
    """The JSON export: format, version, audit fingerprint, flags and notes with revisions."""
    cols = columns(include_private)

    def item(entry: Entry) -> dict[str, Any]:
        data: dict[str, Any] = {col.name: col.get(entry) for col in cols}
        data["revisions"] = [rev.to_json() for rev in entry.history]
        return data

    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": utc_now(),
        "audit": {"sha256": store.audit_sha256, "name": store.audit.path.name},
        "include_private": include_private,
        "flags": [item(e) for e in rows if e.item.kind == "flag"],
        "attempt_notes": [item(e) for e in rows if e.item.kind == "attempt_note"],
    }


def export_notes(
    store: NotesStore, fmt: str, out: str | os.PathLike[str], *, include_private: bool = False
) -> dict[str, object]:
    """Write every flag and note of ``store`` to ``out`` as ``fmt`` (csv, json, xlsx).

    Returns:
        A summary: ``out``, ``format``, ``flags``, ``attempt_notes``, ``revisions``,
        ``include_private``.
    Raises:
        ReviewError: unknown format, or a target :func:`ai4hse_desk.filewrite.check_target`
            refuses (the audit database, the notes store, a side-file name of either,
            a folder, device, FIFO or existing SQLite database, a missing folder), or
            the write failed (no space, a read-only folder); the old file is then
            left as it was.
    """
    if fmt not in FORMATS:
        raise ReviewError(f"unknown export format: {fmt!r} (one of {', '.join(FORMATS)})")
    target = Path(os.path.abspath(out))
    try:
        check_target(target)  # before reading anything: a refused name fails fast
        rows = entries(store, include_private)
        cols = columns(include_private)
        if fmt == "csv":
            write_atomic(target, lambda p: _write_csv(p, rows, cols))
        elif fmt == "xlsx":
            write_atomic(target, lambda p: _write_xlsx(p, rows, cols))
        else:
            doc = json_document(store, rows, include_private)
            data = (json.dumps(doc, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
            write_atomic(target, lambda p: _write_bytes(p, data))
    except WriteRefused as exc:
        raise ReviewError(str(exc)) from None
    return {
        "out": str(target),
        "format": fmt,
        "flags": sum(e.item.kind == "flag" for e in rows),
        "attempt_notes": sum(e.item.kind == "attempt_note" for e in rows),
        "revisions": sum(len(e.history) for e in rows),
        "include_private": include_private,
    }
