"""The notes export as a workbook for people: plain headings, real dates, readable history.

Sheets, in order (the workbook opens on the first):

* **Verdicts** — one row per reviewer × question: status, verdict in words, whether the
  answer was blind, the blind answer, the official key (private) beside the proposed
  key, confidence, source, note, what the review made of the question, dates;
* **Decisions** — one row per adjudicated question: the decision in words, the
  corrected key beside the official one (private), the adjudicator, note, dates;
* **Flags and notes** — the reviewers' flags and attempt notes (category, severity and state
  in words: "Key incorrect", "Medium", "Open");
* **History** — every change of every verdict, decision, flag and note, oldest first,
  each told in words ("verdict: — → Key wrong; status: Draft → Submitted");
* **Plan** — every plan's assignments, the plan in force marked;
* **notes** — the same table as the CSV, code-named columns, for programs.

Every sheet has a bold, frozen header row, an autofilter and column widths; times are
Excel date cells in UTC (``yyyy-mm-dd hh:mm:ss``). Keys and answers name each option by
its letter (``A TRUE, B FALSE``). Text cells are guarded like the CSV's (a leading
``=``, ``+``, ``-``, ``@`` is neutralised) and a cell longer than Excel holds is cut,
saying so (the JSON export keeps every text whole). Private columns — question and
option texts, the official key, raw responses — only with ``include_private``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Generic, TypeVar

from ai4hse_desk.display.format import option_letter
from ai4hse_desk.notes.model import category_name, parse_time
from ai4hse_desk.review.export_json import lettered
from ai4hse_desk.review.final_state import NOT_REVIEWED, state_of
from ai4hse_desk.review.names import CONFIDENCE_NAMES, STATE_NAMES, decision_name, yes_no
from ai4hse_desk.review.names import verdict_name as named_verdict
from ai4hse_desk.review.records import BLIND

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence
    from datetime import datetime
    from pathlib import Path

    from ai4hse_desk.audit import Question
    from ai4hse_desk.notes.frames import Entry
    from ai4hse_desk.review.export_json import DecisionEntry, VerdictEntry
    from ai4hse_desk.review.final_state import FinalState
    from ai4hse_desk.review.history import PlanRecord

R = TypeVar("R")
#: The most characters an Excel cell holds.
CELL_LIMIT: Final = 32_767
_CUT: Final = " … (cut: the JSON export holds the whole text)"
_DATE_FORMAT: Final = "yyyy-mm-dd hh:mm:ss"
_WIDEST: Final = 60


@dataclass(frozen=True, slots=True)
class Col(Generic[R]):
    """One column of a people's sheet: its heading, how a row gives its value, and how
    it shows (``kind``: ``text``, ``long`` — wrapped, ``date`` or ``number``)."""

    heading: str
    get: Callable[[R], object]
    kind: str = "text"
    private: bool = False


def _time(value: object) -> datetime | None:
    return parse_time(value) if isinstance(value, str) else None


def _key(question: Question | None) -> str | None:
    if question is None:
        return None
    return lettered(tuple("TRUE" if o.key else "FALSE" for o in question.options))


def _options(question: Question | None) -> str | None:
    if question is None:
        return None
    return "\n".join(f"{option_letter(i)}. {o.text}" for i, o in enumerate(question.options))


@dataclass(frozen=True, slots=True)
class Outcomes:
    """What the review made of each question, as text (``""``: nothing to say)."""

    states: Mapping[str, FinalState]

    def of(self, question_id: str) -> str:
        state = state_of(self.states, question_id)
        return "" if state.state == NOT_REVIEWED else state.text


def verdict_columns(outcome: Outcomes) -> tuple[Col[VerdictEntry], ...]:
    """The *Verdicts* sheet's columns."""
    return (
        Col("Question", lambda e: e.record.question_id),
        Col("Reviewer", lambda e: e.record.reviewer),
        Col("Status", lambda e: STATE_NAMES.get(e.latest.state, e.latest.state)),
        Col("Verdict", lambda e: named_verdict(e.latest.verdict) or "(not chosen yet)"),
        Col("Answered blind", lambda e: yes_no(e.latest.blind == BLIND)),
        Col("Blind answer", lambda e: lettered(e.latest.blind_answer)),
        Col("Official key", lambda e: _key(e.question), private=True),
        Col("Proposed key", lambda e: lettered(e.latest.proposed_key)),
        Col("Confidence", lambda e: CONFIDENCE_NAMES.get(e.latest.confidence or "", "")),
        Col("Source checked", lambda e: e.latest.source, "long"),
        Col("Note", lambda e: e.latest.note, "long"),
        Col("Outcome for the question", lambda e: outcome.of(e.record.question_id)),
        Col("First recorded (UTC)", lambda e: _time(e.record.created_at), "date"),
        Col("Last changed (UTC)", lambda e: _time(e.latest.at), "date"),
        Col("Changes", lambda e: len(e.record.revisions), "number"),
        Col(
            "Question text",
            lambda e: None if e.question is None else e.question.text,
            "long",
            private=True,
        ),
        Col("Options", lambda e: _options(e.question), "long", private=True),
    )


DECISION_COLUMNS: Final[tuple[Col[DecisionEntry], ...]] = (
    Col("Question", lambda e: e.record.question_id),
    Col("Decision", lambda e: decision_name(e.latest.decision)),
    Col("Corrected key", lambda e: lettered(e.latest.corrected_key)),
    Col("Official key", lambda e: _key(e.question), private=True),
    Col("Adjudicator", lambda e: e.latest.adjudicator),
    Col("Note", lambda e: e.latest.note, "long"),
    Col("Decided (UTC)", lambda e: _time(e.latest.at), "date"),
    Col("First decided (UTC)", lambda e: _time(e.record.created_at), "date"),
    Col("Revisions", lambda e: len(e.record.revisions), "number"),
    Col(
        "Question text",
        lambda e: None if e.question is None else e.question.text,
        "long",
        private=True,
    ),
)

_KINDS: Final = {"flag": "Flag", "attempt_note": "Attempt note"}


def _value(name: str) -> Callable[[Entry], object]:
    return lambda e: e.values.get(name)


def _flag_option(entry: Entry) -> str | None:
    option = entry.values.get("option")
    return option_letter(option) if isinstance(option, int) else None


def _word(name: str) -> Callable[[Entry], str | None]:
    """A field whose values are words (``medium``, ``open``), capitalised as the other
    sheets' words are ("Medium", "Open")."""
    return lambda e: v.capitalize() if isinstance(v := e.values.get(name), str) else None


def _category(entry: Entry) -> str | None:
    value = entry.values.get("category")
    return category_name(value) if isinstance(value, str) else None


def _raw(entry: Entry) -> str | None:
    return None if entry.attempt is None else entry.attempt.raw_response


FLAG_COLUMNS: Final[tuple[Col[Entry], ...]] = (
    Col("Kind", lambda e: _KINDS.get(e.item.kind, e.item.kind)),
    Col("Question", lambda e: e.item.question_id),
    Col("Attempt", lambda e: e.item.attempt_id, "number"),
    Col("Run", lambda e: e.item.run_id),
    Col("Option", _flag_option),
    Col("Category", _category),
    Col("Severity", _word("severity")),
    Col("State", _word("state")),
    Col("Reviewer", lambda e: e.item.reviewer),
    Col("Note", _value("note"), "long"),
    Col("Created (UTC)", lambda e: _time(e.item.created_at), "date"),
    Col("Last changed (UTC)", lambda e: _time(e.history[-1].at) if e.history else None, "date"),
    Col("Revisions", lambda e: len(e.history), "number"),
    Col(
        "Question text",
        lambda e: None if e.question is None else e.question.text,
        "long",
        private=True,
    ),
    Col("Raw response", _raw, "long", private=True),
)


@dataclass(frozen=True, slots=True)
class Change:
    """One row of the *History* sheet."""

    at: str
    question_id: str
    item: str
    by: str
    action: str
    text: str


HISTORY_COLUMNS: Final[tuple[Col[Change], ...]] = (
    Col("When (UTC)", lambda c: _time(c.at), "date"),
    Col("Question", lambda c: c.question_id),
    Col("Item", lambda c: c.item),
    Col("By", lambda c: c.by),
    Col("What happened", lambda c: c.action),
    Col("Changes", lambda c: c.text, "long"),
)

#: One assignment of a plan: the plan, whether it is in force, question, position, reviewer.
Assignment = tuple["PlanRecord", bool, str, int, str]

PLAN_COLUMNS: Final[tuple[Col[Assignment], ...]] = (
    Col("Plan made (UTC)", lambda a: _time(a[0].created_at), "date"),
    Col("Made by", lambda a: a[0].created_by),
    Col("In force", lambda a: yes_no(a[1])),
    Col("Reviewers per question", lambda a: a[0].per_question, "number"),
    Col("Order", lambda a: a[0].order),
    Col("Seed", lambda a: a[0].seed, "number"),
    Col("Question", lambda a: a[2]),
    Col("Position", lambda a: a[3] + 1, "number"),
    Col("Reviewer", lambda a: a[4]),
)


@dataclass(frozen=True, slots=True)
class Sheet(Generic[R]):
    """One people's sheet: its name, columns and rows."""

    name: str
    columns: Sequence[Col[R]]
    rows: Sequence[R]


def _fit(value: object, cell: Callable[[object], object]) -> object:
    shown = cell(value)
    if isinstance(shown, str) and len(shown) > CELL_LIMIT:
        return shown[: CELL_LIMIT - len(_CUT)] + _CUT
    return shown


def _width(col: Col[Any], values: Iterable[object]) -> float:
    if col.kind == "date":
        return 20
    if col.kind == "long":
        return _WIDEST
    longest = max((len(str(v).split("\n", 1)[0]) for v in values if v is not None), default=0)
    return min(max(len(col.heading), longest) + 2, _WIDEST)


def write_sheet(book: Any, sheet: Sheet[Any], include_private: bool,
                cell: Callable[[object], object]) -> None:  # fmt: skip
    """Add ``sheet`` to the openpyxl ``book``: header, rows, dates, filter, freeze, widths."""
    from openpyxl.styles import Alignment, Font, PatternFill
    from openpyxl.utils import get_column_letter

    ws = book.create_sheet(sheet.name)
    columns = [c for c in sheet.columns if include_private or not c.private]
    ws.append([c.heading for c in columns])
    values = [[c.get(row) for c in columns] for row in sheet.rows]
    for line in values:
        ws.append([v if isinstance(v, (int, float)) or v is None or hasattr(v, "year")
                   else _fit(v, cell) for v in line])  # fmt: skip
    bold, fill = Font(bold=True), PatternFill("solid", fgColor="DCE3F0")
    top, wrap = Alignment(vertical="top"), Alignment(vertical="top", wrap_text=True)
    for number, col in enumerate(columns, start=1):
        letter = get_column_letter(number)
        head = ws.cell(row=1, column=number)
        head.font, head.fill, head.alignment = bold, fill, wrap
        ws.column_dimensions[letter].width = _width(col, (line[number - 1] for line in values))
        for row in range(2, len(values) + 2):
            target = ws.cell(row=row, column=number)
            target.alignment = wrap if col.kind == "long" else top
            if col.kind == "date" and target.value is not None:
                target.number_format = _DATE_FORMAT
    ws.freeze_panes = "A2"
    last = get_column_letter(max(1, len(columns)))
    ws.auto_filter.ref = f"A1:{last}{len(values) + 1}"


def write_workbook(
    path: Path,
    sheets: Sequence[Sheet[Any]],
    data: Any,
    include_private: bool,
    cell: Callable[[object], object],
) -> None:
    """Write the people's ``sheets`` and, last, the machine table ``data`` (a pandas
    frame, the CSV's columns) as the sheet ``notes``, to ``path``."""
    import pandas as pd
    from openpyxl import Workbook
    from openpyxl.utils import get_column_letter

    book = Workbook()
    book.remove(book.active)
    for sheet in sheets:
        write_sheet(book, sheet, include_private, cell)
    ws = book.create_sheet("notes")
    ws.append([str(name) for name in data.columns])
    for line in data.itertuples(index=False, name=None):
        ws.append([None if pd.isna(v) else v for v in line])
    ws.freeze_panes = "A2"
    ws.auto_filter.ref = f"A1:{get_column_letter(max(1, len(data.columns)))}{len(data) + 1}"
    book.active = 0
    book.save(path)
