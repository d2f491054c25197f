"""Exports of the reviewer notes: CSV, JSON (what ``notes import`` reads) and XLSX.

CSV and JSON are for programs and keep their machine columns. Columns are declared
once, in :mod:`.frames`: :data:`EXPORT_COLUMNS` (one row per flag or attempt note,
as it stands now — the table ``ai4hse_desk.analysis.notes_df`` gives); and in
:mod:`.export_frames` for the independent review: the CSV continues the flags'
table with one row per verdict and per decision and the review's own columns after
the flags' ones. JSON (version 2) adds the lists ``review_plans``,
``review_verdicts`` and ``review_decisions`` with every revision; ``notes import``
still reads version 1.

The XLSX is for people (:mod:`.export_xlsx`): it opens on a *Verdicts* sheet with
plain headings, then *Decisions*, *Flags and notes*, a readable *History*
(:mod:`.history_text`) and the *Plan*, with real dates, frozen headers, filters and
widths; its last sheet, ``notes``, is the CSV's table for programs.

A column marked *private* — question text, option text, answer key, raw response —
is left out unless ``include_private``; those texts are read from the audit
database at export time and are never kept in the notes store. With a
``visibility`` (:mod:`.visibility`) an export holds only what it lets its viewer
see: a reviewer's own export (``notes export --as NAME``) never holds another
reviewer's verdict on a question before their own is submitted.

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
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from ai4hse_desk.display.cells import guard_cell
from ai4hse_desk.display.frames import build_frame
from ai4hse_desk.filewrite import WriteRefused, check_target, write_atomic
from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.frames import Entry, columns, entries
from ai4hse_desk.notes.model import utc_now
from ai4hse_desk.review.export_frames import assignments, table_columns
from ai4hse_desk.review.export_json import (
    DecisionEntry,
    VerdictEntry,
    decision_json,
    plan_json,
    verdict_json,
)
from ai4hse_desk.review.final_state import read_states
from ai4hse_desk.review.read import read_review
from ai4hse_desk.review.visibility import Visibility

if TYPE_CHECKING:
    from collections.abc import Callable

    from ai4hse_desk.notes.store import NotesStore
    from ai4hse_desk.review.export_frames import Row
    from ai4hse_desk.review.final_state import FinalState
    from ai4hse_desk.review.history import PlanRecord

EXPORT_FORMAT: Final = "ai4hse-review-notes"
#: Version 2 added the review lists; version 1 files still import.
EXPORT_VERSION: Final = 2
FORMATS: Final = ("csv", "json", "xlsx")
_XLSX_ILLEGAL: Final = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _write_bytes(path: Path, data: bytes) -> None:
    with open(path, "wb") as handle:
        handle.write(data)


@dataclass(frozen=True, slots=True)
class Contents:
    """Everything an export writes: flags and notes, and the review."""

    entries: list[Entry]
    plans: tuple[PlanRecord, ...]
    verdicts: list[VerdictEntry]
    decisions: list[DecisionEntry]
    include_private: bool
    #: What the review made of each question the viewer may see the others' work on.
    states: dict[str, FinalState]
    #: Verdicts and decisions a damaged store holds without history (left out).
    orphans: tuple[str, ...] = ()

    @classmethod
    def read(
        cls, store: NotesStore, include_private: bool, visibility: Visibility | None = None
    ) -> Contents:
        """Read ``store`` (private texts from its audit file only when asked for); with
        ``visibility``, only what it lets its viewer see (:mod:`.visibility`)."""
        sight = visibility or Visibility.everything()
        rows = [
            e for e in entries(store, include_private)
            if sight.shows_item(e.item.question_id, e.item.reviewer)
        ]  # fmt: skip
        review, states = store.run(lambda c: (read_review(c), read_states(c)))
        questions = {q.question_id: q for q in store.audit.questions()} if include_private else {}
        return cls(
            rows,
            review.plans,
            [
                VerdictEntry(v, questions.get(v.question_id))
                for v in review.verdicts
                if sight.shows_item(v.question_id, v.reviewer)
            ],
            [
                DecisionEntry(d, questions.get(d.question_id))
                for d in review.decisions
                if sight.shows_others(d.question_id)
            ],
            include_private,
            {qid: state for qid, state in states.items() if sight.shows_others(qid)},
            review.orphans,
        )

    def table(self, cell: Callable[[object], object]) -> Any:
        """The notes table: flags and notes, then verdicts, then decisions."""
        rows: list[Row] = [*self.entries, *self.verdicts, *self.decisions]
        return build_frame(rows, table_columns(self.include_private), cell=cell)


def _write_csv(path: Path, contents: Contents) -> None:
    frame = contents.table(guard_cell)
    frame.to_csv(path, index=False, encoding="utf-8-sig", lineterminator="\r\n")


def _xlsx_cell(value: object) -> object:
    value = guard_cell(value)
    if isinstance(value, str):
        return _XLSX_ILLEGAL.sub(lambda m: f"\\x{ord(m.group()):02x}", value)
    return value


def _write_xlsx(path: Path, contents: Contents) -> None:
    from ai4hse_desk.review.export_xlsx import (
        DECISION_COLUMNS,
        FLAG_COLUMNS,
        HISTORY_COLUMNS,
        PLAN_COLUMNS,
        Outcomes,
        Sheet,
        verdict_columns,
        write_workbook,
    )
    from ai4hse_desk.review.history_text import every_change

    history = every_change(contents.entries, contents.verdicts, contents.decisions)
    sheets: list[Sheet[Any]] = [
        Sheet("Verdicts", verdict_columns(Outcomes(contents.states)), contents.verdicts),
        Sheet("Decisions", DECISION_COLUMNS, contents.decisions),
        Sheet("Flags and notes", FLAG_COLUMNS, contents.entries),
        Sheet("History", HISTORY_COLUMNS, history),
        Sheet("Plan", PLAN_COLUMNS, assignments(contents.plans)),
    ]
    data = contents.table(_xlsx_cell)
    write_workbook(path, sheets, data, contents.include_private, _xlsx_cell)


def json_document(store: NotesStore, contents: Contents) -> dict[str, Any]:
    """The JSON export: format, version, audit fingerprint, flags and notes with revisions,
    and the review's plans, verdicts and decisions with theirs."""
    include_private = contents.include_private
    cols = columns(include_private)

    def item(entry: Entry) -> dict[str, Any]:
        data: dict[str, Any] = {col.name: col.get(entry) for col in cols}
        data["revisions"] = [rev.to_json() for rev in entry.history]
        return data

    rows = contents.entries
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "exported_at": utc_now(),
        "audit": {"sha256": store.audit_sha256, "name": store.audit.path.name},
        "include_private": include_private,
        "flags": [item(e) for e in rows if e.item.kind == "flag"],
        "attempt_notes": [item(e) for e in rows if e.item.kind == "attempt_note"],
        "review_plans": [plan_json(plan) for plan in contents.plans],
        "review_verdicts": [verdict_json(v) for v in contents.verdicts],
        "review_decisions": [decision_json(d) for d in contents.decisions],
    }


def export_notes(
    store: NotesStore,
    fmt: str,
    out: str | os.PathLike[str],
    *,
    include_private: bool = False,
    visibility: Visibility | None = None,
) -> dict[str, object]:
    """Write every flag and note of ``store`` to ``out`` as ``fmt`` (csv, json, xlsx);
    with ``visibility``, only what it lets its viewer see (an export from the window,
    or one reviewer's own export).

    Returns:
        A summary: ``out``, ``format``, ``flags``, ``attempt_notes``, ``revisions``,
        ``plans``, ``verdicts``, ``decisions``, ``include_private`` (counts only), and
        ``damaged`` when the store holds verdicts or decisions without history (each
        named; left out of the export).
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
        contents = Contents.read(store, include_private, visibility)
        if fmt == "csv":
            write_atomic(target, lambda p: _write_csv(p, contents))
        elif fmt == "xlsx":
            write_atomic(target, lambda p: _write_xlsx(p, contents))
        else:
            doc = json_document(store, contents)
            data = (json.dumps(doc, ensure_ascii=False, indent=2) + "\n").encode("utf-8")
            write_atomic(target, lambda p: _write_bytes(p, data))
    except WriteRefused as exc:
        raise ReviewError(str(exc)) from None
    rows = contents.entries
    return {
        "out": str(target),
        "format": fmt,
        "flags": sum(e.item.kind == "flag" for e in rows),
        "attempt_notes": sum(e.item.kind == "attempt_note" for e in rows),
        "revisions": sum(len(e.history) for e in rows),
        "plans": len(contents.plans),
        "verdicts": len(contents.verdicts),
        "decisions": len(contents.decisions),
        "include_private": include_private,
        **({"damaged": list(contents.orphans)} if contents.orphans else {}),
    }
