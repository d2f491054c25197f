"""The rows of the notes list: flags, attempt notes and submitted review concerns (no Qt).

:func:`note_rows` filters and orders them; :func:`note_cells` gives each row's
display texts (plain text, invisible characters shown) for the columns in
:data:`COLUMNS`. The window's notes list (``gui/views/notes_list.py``) shows them.

Codes read as words (a flag's category "Key incorrect", a verdict "Options unclear"). A
concern shows its verdict's own name in the *Category* column ("Options unclear", not the
flag category "Options overlap" it is filtered as). Given the final states
(:func:`~.final_state.read_final_states`), every row shows in *Decision* what the
review made of its question ("Key confirmed", "Key corrected: A TRUE, …",
"Awaiting adjudication" …).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ai4hse_desk.display.note_text import format_time, one_line, option_text
from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.notes.model import category_name
from ai4hse_desk.review.final_state import NOT_REVIEWED
from ai4hse_desk.review.names import verdict_name
from ai4hse_desk.review.values import CONCERN_CATEGORY

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ai4hse_desk.notes.model import AttemptNote, Flag
    from ai4hse_desk.review.final_state import FinalState
    from ai4hse_desk.review.records import ReviewVerdict

#: The row kind of a submitted review concern.
CONCERN = "review_concern"
KINDS = (
    ("Any kind", None),
    ("Flags", "flag"),
    ("Attempt notes", "attempt_note"),
    ("Review concerns", CONCERN),
)
_KIND_TEXT = {"flag": "flag", "attempt_note": "attempt note", CONCERN: "review concern"}
COLUMNS = (
    "Kind",
    "Question",
    "Attempt",
    "Option",
    "Category",
    "Severity",
    "Verdict",
    "Decision",
    "State",
    "Reviewer",
    "Updated",
    "Note",
)


@dataclass(frozen=True, slots=True)
class NoteRow:
    """One flag, attempt note or review concern as the list shows it."""

    kind: str  # "flag", "attempt_note" or CONCERN
    item_id: str
    question_id: str
    attempt_id: int | None
    option: int | None
    category: str | None
    severity: str | None
    state: str
    reviewer: str
    updated_at: str
    note: str
    verdict: str | None = None
    decision: str = ""


def _match(wanted: str | None, value: str) -> bool:
    return wanted is None or wanted == value


def note_rows(
    flags: Sequence[Flag],
    notes: Sequence[AttemptNote],
    *,
    state: str | None = None,
    category: str | None = None,
    reviewer: str | None = None,
    kind: str | None = None,
    concerns: Sequence[ReviewVerdict] = (),
    states: Mapping[str, FinalState] | None = None,
) -> list[NoteRow]:
    """The flags, notes and submitted concerns matching every filter, newest change first.

    ``reviewer`` is the author; a ``category`` leaves attempt notes out (they have none);
    a concern counts as an open flag of the category its verdict maps to. With
    ``states`` (the final states), each row carries its question's state as text.
    """
    rows: list[NoteRow] = []
    if kind in (None, "flag"):
        for f in flags:
            if (
                _match(state, f.state)
                and _match(category, f.category)
                and _match(reviewer, f.reviewer)
            ):
                rows.append(
                    NoteRow(
                        "flag", f.flag_id, f.question_id, None, f.option, f.category,
                        f.severity, f.state, f.reviewer, f.updated_at, f.note,
                    )
                )  # fmt: skip
    if kind in (None, "attempt_note") and category is None:
        for n in notes:
            if _match(state, n.state) and _match(reviewer, n.reviewer):
                rows.append(
                    NoteRow(
                        "attempt_note", n.note_id, n.question_id, n.attempt_id, None, None,
                        None, n.state, n.reviewer, n.updated_at, n.note,
                    )
                )  # fmt: skip
    if kind in (None, CONCERN) and state in (None, "open"):
        for v in concerns:
            mapped = CONCERN_CATEGORY.get(v.verdict or "")
            if v.concern and _match(category, mapped or "") and _match(reviewer, v.reviewer):
                rows.append(
                    NoteRow(
                        CONCERN, v.verdict_id, v.question_id, None, None, v.verdict, None,
                        v.state, v.reviewer, v.updated_at, v.note, v.verdict,
                    )
                )  # fmt: skip
    if states:
        rows = [replace(row, decision=_decision(states, row.question_id)) for row in rows]
    rows.sort(key=lambda row: row.updated_at, reverse=True)
    return rows


def _decision(states: Mapping[str, FinalState], question_id: str) -> str:
    state = states.get(question_id)
    return "" if state is None or state.state == NOT_REVIEWED else state.text


def note_cells(row: NoteRow) -> tuple[str, ...]:
    return (
        _KIND_TEXT[row.kind],
        display_text(row.question_id),
        "" if row.attempt_id is None else str(row.attempt_id),
        option_text(row.option) if row.kind == "flag" else "",
        category_name(row.category) if row.kind == "flag" else verdict_name(row.category),
        row.severity or "",
        display_text(verdict_name(row.verdict)),
        row.decision,
        row.state,
        display_text(row.reviewer),
        format_time(row.updated_at),
        one_line(row.note),
    )
