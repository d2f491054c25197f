"""Exports of the reviewer notes: CSV, JSON (what ``notes import`` reads) and XLSX.

Columns are declared once, in :mod:`.frames`: :data:`EXPORT_COLUMNS` (one row
per flag or attempt note, as it stands now) and :data:`HISTORY_COLUMNS` (one row
per revision: the XLSX ``history`` sheet); the CSV and XLSX files are written from
the frames built there, the same tables ``ai4hse_desk.analysis.notes_df`` gives. A
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

import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from ai4hse_desk.display.cells import guard_cell
from ai4hse_desk.filewrite import WriteRefused, check_target, write_atomic
from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.frames import Entry, columns, entries, history_frame, notes_frame
from ai4hse_desk.notes.model import utc_now

if TYPE_CHECKING:
    from ai4hse_desk.display.frames import FrameColumn
    from ai4hse_desk.notes.store import NotesStore

EXPORT_FORMAT: Final = "ai4hse-review-notes"
EXPORT_VERSION: Final = 1
FORMATS: Final = ("csv", "json", "xlsx")
_XLSX_ILLEGAL: Final = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _write_bytes(path: Path, data: bytes) -> None:
    with open(path, "wb") as handle:
        handle.write(data)


def _write_csv(path: Path, rows: list[Entry], cols: tuple[FrameColumn[Entry], ...]) -> None:
    frame = notes_frame(rows, cols, cell=guard_cell)
    frame.to_csv(path, index=False, encoding="utf-8-sig", lineterminator="\r\n")


def _xlsx_cell(value: object) -> object:
    value = guard_cell(value)
    if isinstance(value, str):
        return _XLSX_ILLEGAL.sub(lambda m: f"\\x{ord(m.group()):02x}", value)
    return value


def _write_xlsx(path: Path, rows: list[Entry], cols: tuple[FrameColumn[Entry], ...]) -> None:
    import pandas as pd  # heavy: only when an XLSX is asked for

    with pd.ExcelWriter(path, engine="openpyxl") as writer:
        notes_frame(rows, cols, cell=_xlsx_cell).to_excel(writer, sheet_name="notes", index=False)
        history_frame(rows, cell=_xlsx_cell).to_excel(writer, sheet_name="history", index=False)


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
