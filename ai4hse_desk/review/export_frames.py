"""The review in a notes export's CSV and XLSX: its rows and sheets (the JSON is
:mod:`.export_json`).

CSV and the XLSX ``notes`` sheet are one table of everything as it stands now:
the flags and attempt notes (:data:`~.frames.NOTE_COLUMNS`: the export columns and
each option's letter), then one row per
verdict (``kind`` ``review_verdict``) and per decision (``review_decision``), with
the review's own columns (:data:`REVIEW_COLUMNS`) after the flags' ones. There a
list names each option by the letter the window shows (``A TRUE, B FALSE, C
UNSURE``). The histories and the plans are sheets of the XLSX
(:data:`VERDICT_HISTORY_COLUMNS`, :data:`DECISION_HISTORY_COLUMNS`,
:data:`PLAN_COLUMNS`) and lists of the JSON; a CSV, one table, has the current state
only — as for flags. Question and option texts and the answer key (private) are
read from the audit file, only when asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ai4hse_desk.display.format import option_letter
from ai4hse_desk.display.frames import DType, FrameColumn, selected
from ai4hse_desk.notes.changes import sheet_text
from ai4hse_desk.notes.frames import NOTE_COLUMNS, Entry
from ai4hse_desk.review.export_json import DecisionEntry, VerdictEntry, json_value, lettered
from ai4hse_desk.review.records import BLIND

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ai4hse_desk.audit import Question
    from ai4hse_desk.review.history import (
        DecisionRecord,
        DecisionRevision,
        PlanRecord,
        VerdictRecord,
        VerdictRevision,
    )

VERDICT_KIND: Final = "review_verdict"
DECISION_KIND: Final = "review_decision"

#: A row of the CSV / XLSX ``notes`` table.
Row = Entry | VerdictEntry | DecisionEntry
ReviewEntry = VerdictEntry | DecisionEntry


# -- the CSV / XLSX notes table ------------------------------------------------------


def _options_text(question: Question | None) -> str | None:
    if question is None:
        return None
    return "\n".join(f"{option_letter(i)}. {o.text}" for i, o in enumerate(question.options))


def _key_text(question: Question | None) -> str | None:
    if question is None:
        return None
    return lettered(tuple("TRUE" if o.key else "FALSE" for o in question.options))


def _verdict_only(get: Callable[[VerdictEntry], object]) -> Callable[[ReviewEntry], object]:
    return lambda e: get(e) if isinstance(e, VerdictEntry) else None


def _decision_only(get: Callable[[DecisionEntry], object]) -> Callable[[ReviewEntry], object]:
    return lambda e: get(e) if isinstance(e, DecisionEntry) else None


def _author(e: ReviewEntry) -> str:
    if isinstance(e, VerdictEntry):
        return e.record.reviewer
    return e.record.revisions[0].adjudicator


def _updated_by(e: ReviewEntry) -> str:
    return e.record.reviewer if isinstance(e, VerdictEntry) else e.latest.adjudicator


#: The value each flag column takes in a verdict or decision row (absent: empty).
_SHARED: Final[dict[str, Callable[[ReviewEntry], object]]] = {
    "kind": lambda e: VERDICT_KIND if isinstance(e, VerdictEntry) else DECISION_KIND,
    "item_id": lambda e: (
        e.record.verdict_id if isinstance(e, VerdictEntry) else e.record.decision_id
    ),
    "question_id": lambda e: e.record.question_id,
    "state": _verdict_only(lambda e: e.latest.state),
    "note": lambda e: e.latest.note,
    "reviewer": _author,
    "created_at": lambda e: e.record.created_at,
    "updated_by": _updated_by,
    "updated_at": lambda e: e.latest.at,
    "revisions": lambda e: len(e.record.revisions),
    "audit_sha256": lambda e: e.record.audit_sha256,
    "question_text": lambda e: None if e.question is None else e.question.text,
    "option_text": lambda e: _options_text(e.question),
    "answer_key": lambda e: _key_text(e.question),
}


def _review(
    name: str, dtype: DType, doc: str, get: Callable[[ReviewEntry], object]
) -> FrameColumn[Row]:
    return FrameColumn(name, dtype, doc, lambda row: None if isinstance(row, Entry) else get(row))


#: The review's own columns of the notes table (empty in flag and note rows).
REVIEW_COLUMNS: Final[tuple[FrameColumn[Row], ...]] = (
    _review(
        "verdict",
        "string",
        "a verdict's V (key_ok, key_wrong, …)",
        _verdict_only(lambda e: e.latest.verdict),
    ),
    _review(
        "blind",
        "boolean",
        "a verdict's answer was given before the key was shown",
        _verdict_only(lambda e: e.latest.blind == BLIND),
    ),
    _review(
        "blind_at",
        "string",
        "when the blind answer (or its skip) was recorded",
        _verdict_only(lambda e: e.latest.blind_at),
    ),
    _review(
        "blind_answer",
        "string",
        "the blind answer, per option letter (TRUE/FALSE/UNSURE)",
        _verdict_only(lambda e: lettered(e.latest.blind_answer)),
    ),
    _review(
        "proposed_key",
        "string",
        "the key the reviewer proposes, per option letter",
        _verdict_only(lambda e: lettered(e.latest.proposed_key)),
    ),
    _review(
        "confidence", "string", "low, medium or high", _verdict_only(lambda e: e.latest.confidence)
    ),
    _review(
        "source",
        "string",
        "the source the reviewer checked",
        _verdict_only(lambda e: e.latest.source),
    ),
    _review(
        "decision",
        "string",
        "an adjudicator's decision (key_confirmed, …)",
        _decision_only(lambda e: e.latest.decision),
    ),
    _review(
        "corrected_key",
        "string",
        "the corrected key, per option letter",
        _decision_only(lambda e: lettered(e.latest.corrected_key)),
    ),
)


def _shared(col: FrameColumn[Entry]) -> FrameColumn[Row]:
    review = _SHARED.get(col.name)

    def get(row: Row) -> object:
        if isinstance(row, Entry):
            return col.get(row)
        return None if review is None else review(row)

    return FrameColumn(col.name, col.dtype, col.doc, get, col.private)


#: Every column of the CSV and of the XLSX ``notes`` sheet, in order: a flag's option
#: as its 0-based position and, beside it, the letter the window shows.
TABLE_COLUMNS: Final[tuple[FrameColumn[Row], ...]] = (
    *(_shared(col) for col in NOTE_COLUMNS),
    *REVIEW_COLUMNS,
)


def table_columns(include_private: bool) -> tuple[FrameColumn[Row], ...]:
    """The notes table's columns, private ones only when ``include_private``."""
    return selected(TABLE_COLUMNS, include_private)


# -- the XLSX history and plan sheets ------------------------------------------------

#: A verdict revision with the verdict it belongs to.
VerdictStep = tuple["VerdictRecord", "VerdictRevision"]


def _changes_text(rev: VerdictRevision) -> str:
    return sheet_text(rev.changes, json_value)


#: The XLSX ``verdict_history`` sheet: one row per verdict revision.
VERDICT_HISTORY_COLUMNS: Final[tuple[FrameColumn[VerdictStep], ...]] = (
    FrameColumn("verdict_id", "string", "the verdict", lambda s: s[0].verdict_id),
    FrameColumn("revision_id", "string", "the revision's UUID", lambda s: s[1].revision_id),
    FrameColumn("question_id", "string", "the question", lambda s: s[0].question_id),
    FrameColumn("reviewer", "string", "whose verdict", lambda s: s[0].reviewer),
    FrameColumn("at", "string", "when (ISO-8601 UTC)", lambda s: s[1].at),
    FrameColumn("action", "string", "create, edit or submit", lambda s: s[1].action),
    FrameColumn("state", "string", "draft or submitted", lambda s: s[1].state),
    FrameColumn("verdict", "string", "the verdict after it", lambda s: s[1].verdict),
    FrameColumn("blind", "boolean", "a blind answer", lambda s: s[1].blind == BLIND),
    FrameColumn("blind_at", "string", "when it was recorded", lambda s: s[1].blind_at),
    FrameColumn(
        "blind_answer", "string", "per option letter", lambda s: lettered(s[1].blind_answer)
    ),
    FrameColumn(
        "proposed_key", "string", "per option letter", lambda s: lettered(s[1].proposed_key)
    ),
    FrameColumn("confidence", "string", "low, medium or high", lambda s: s[1].confidence),
    FrameColumn("source", "string", "the source checked", lambda s: s[1].source),
    FrameColumn("note", "string", "the note", lambda s: s[1].note),
    FrameColumn("changes", "string", "field → [old, new], as JSON", lambda s: _changes_text(s[1])),
)

#: A decision revision with the decision it belongs to.
DecisionStep = tuple["DecisionRecord", "DecisionRevision"]

#: The XLSX ``decision_history`` sheet: one row per decision revision.
DECISION_HISTORY_COLUMNS: Final[tuple[FrameColumn[DecisionStep], ...]] = (
    FrameColumn("decision_id", "string", "the decision", lambda s: s[0].decision_id),
    FrameColumn("revision_id", "string", "the revision's UUID", lambda s: s[1].revision_id),
    FrameColumn("question_id", "string", "the question", lambda s: s[0].question_id),
    FrameColumn("at", "string", "when (ISO-8601 UTC)", lambda s: s[1].at),
    FrameColumn("adjudicator", "string", "who decided", lambda s: s[1].adjudicator),
    FrameColumn("decision", "string", "key_confirmed, key_corrected, …", lambda s: s[1].decision),
    FrameColumn(
        "corrected_key", "string", "per option letter", lambda s: lettered(s[1].corrected_key)
    ),
    FrameColumn("note", "string", "the note", lambda s: s[1].note),
)

#: One assignment of a plan: the plan, whether it is in force, question, position, reviewer.
Assignment = tuple["PlanRecord", bool, str, int, str]

#: The XLSX ``plan`` sheet: one row per (plan, question, reviewer), every plan made.
PLAN_COLUMNS: Final[tuple[FrameColumn[Assignment], ...]] = (
    FrameColumn("plan_id", "string", "the plan", lambda a: a[0].plan_id),
    FrameColumn("in_force", "boolean", "the newest plan, the one in force", lambda a: a[1]),
    FrameColumn("created_at", "string", "when it was made", lambda a: a[0].created_at),
    FrameColumn("created_by", "string", "who made it", lambda a: a[0].created_by),
    FrameColumn("per_question", "Int64", "K, reviewers per question", lambda a: a[0].per_question),
    FrameColumn("order", "string", "corpus, random or keyaudit", lambda a: a[0].order),
    FrameColumn("seed", "Int64", "the random order's seed", lambda a: a[0].seed),
    FrameColumn("question_id", "string", "the question", lambda a: a[2]),
    FrameColumn("position", "Int64", "its place in the plan's order (0-based)", lambda a: a[3]),
    FrameColumn("reviewer", "string", "a reviewer assigned it", lambda a: a[4]),
)


def verdict_steps(entries: Sequence[VerdictEntry]) -> list[VerdictStep]:
    """Every revision of ``entries``, verdict by verdict."""
    return [(e.record, rev) for e in entries for rev in e.record.revisions]


def decision_steps(entries: Sequence[DecisionEntry]) -> list[DecisionStep]:
    """Every revision of ``entries``, decision by decision."""
    return [(e.record, rev) for e in entries for rev in e.record.revisions]


def assignments(plans: Sequence[PlanRecord]) -> list[Assignment]:
    """Every assignment of every plan, the plan in force (the newest) marked."""
    newest = max(plans, key=lambda p: (p.created_at, p.plan_id)) if plans else None
    return [
        (plan, plan is newest, qid, position, who)
        for plan in plans
        for qid, position, reviewers in plan.assignments
        for who in reviewers
    ]
