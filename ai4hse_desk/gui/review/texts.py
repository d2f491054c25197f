"""How the Review view's reveal reads: keys, answers, the models' votes, evidence (no Qt).

Every text that comes from the audit file or the notes store (reviewer names,
sources, notes, run ids) goes through :func:`display_text` / :func:`one_line`
and is shown in plain-text widgets.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from ai4hse_desk.display.format import option_letter, plural
from ai4hse_desk.display.note_text import one_line
from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.notes.model import category_name
from ai4hse_desk.protocol.outcome import Status
from ai4hse_desk.review.names import verdict_name
from ai4hse_desk.review.records import NOT_BLIND
from ai4hse_desk.review.values import TRUE, UNSURE

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ai4hse_desk.audit.records import Question
    from ai4hse_desk.keyaudit import KeyAuditResult, QuestionSuspicion
    from ai4hse_desk.notes import Flag
    from ai4hse_desk.protocol.outcome import Selection, Track
    from ai4hse_desk.review.final_state import FinalState
    from ai4hse_desk.review.records import ReviewVerdict

NO_OPTION = "none"
NOT_EXTRACTED = "—"
#: The column of :func:`option_votes` (the Review page's key table, the adjudication's
#: options), and what its numbers count, for the column's tooltip.
VOTES_COLUMN = "Attempts selecting it"
VOTES_TIP = (
    "Of the attempts whose response gave a selection, how many select the option; parse "
    "failures, provider errors and pending attempts are not counted"
)


def selected_letters(values: Sequence[bool] | Sequence[str]) -> str:
    """``"A, C"``: the options marked TRUE (``"none"`` when none is)."""
    letters = [option_letter(i) for i, v in enumerate(values) if v is True or v == TRUE]
    return ", ".join(letters) or NO_OPTION


def key_text(key: Sequence[bool]) -> str:
    """The answer key as the reveal shows it: ``"Key: A, C"``."""
    return f"Key: {selected_letters(key)}"


def answer_text(answer: Sequence[str] | None) -> str:
    """A blind answer: ``"A, C"``, ``"A, C (unsure: B)"``, or "not blind"."""
    if answer is None:
        return "not blind"
    unsure = [option_letter(i) for i, v in enumerate(answer) if v == UNSURE]
    return selected_letters(answer) + (f" (unsure: {', '.join(unsure)})" if unsure else "")


def blind_summary(own: ReviewVerdict, key: Sequence[bool]) -> str:
    """The reviewer's blind answer set against the key."""
    when = own.blind_at[:19].replace("T", " ") if own.blind_at else ""
    if own.blind == NOT_BLIND or own.blind_answer is None:
        return f"Recorded as not blind (the key was shown without a blind answer) {when}".strip()
    matches = sum(
        a != UNSURE and (a == TRUE) == k for a, k in zip(own.blind_answer, key, strict=False)
    )
    return (
        f"Your blind answer: {answer_text(own.blind_answer)} — it matches the key on "
        f"{matches} of {len(key)} options (recorded {when} UTC)"
    )


def option_answer(value: str | None) -> str:
    """One option of a blind answer: ``TRUE``, ``FALSE``, ``unsure``, or "not blind"."""
    if value is None:
        return "not blind"
    return "unsure" if value == UNSURE else value


class ResponseRow(Protocol):
    """One attempt as the responses table shows it: a review index's
    :class:`~ai4hse_desk.index.ListRow`, or an attempt a review server released."""

    @property
    def attempt_id(self) -> int: ...
    @property
    def run_id(self) -> str: ...
    @property
    def model(self) -> str: ...
    @property
    def track(self) -> Track: ...
    @property
    def repetition(self) -> int: ...
    @property
    def status(self) -> Status: ...
    @property
    def correct(self) -> bool: ...
    @property
    def selection(self) -> Selection | None: ...


def option_votes(rows: Sequence[ResponseRow], position: int) -> str:
    """``"5 of 8"``: attempts with an extracted selection that select option ``position``."""
    chosen = [row.selection for row in rows if row.selection is not None]
    usable = [s for s in chosen if position < len(s)]
    if not usable:
        return NOT_EXTRACTED
    return f"{sum(s[position] for s in usable):,} of {len(usable):,}"


def rank_words(result: KeyAuditResult, item: QuestionSuspicion, place: int, also: str = "") -> str:
    """``"suspicion rank 8 of 1,020"``, and when others tie with it (nothing tells them
    apart but the corpus order) ``"… (tied with 1,012 others, ranks 8–1,020)"``; ``also``
    joins the same parenthesis (``"…, ranks 8–1,020; no probability shown)"``)."""
    rank = item.rank or place
    first, last = result.tied_ranks(item)
    words = f"suspicion rank {rank:,} of {len(result.questions):,}"
    tie = f"tied with {plural(last - first, 'other')}, ranks {first:,}–{last:,}"
    notes = [note for note in (tie if last > first else "", also) if note]
    return f"{words} ({'; '.join(notes)})" if notes else words


def evidence_text(question: Question, result: KeyAuditResult | None) -> str:
    """The key audit's rank, evidence in words and (where honest) probability for
    ``question`` (when computed), and its hygiene."""
    parts: list[str] = []
    if result is None:
        parts.append("Key audit still being computed (it starts when the file opens).")
    else:
        ranked = list(result.questions)
        found = next((i for i, s in enumerate(ranked) if s.question_id == question.question_id),
                     None)  # fmt: skip
        if found is None:
            parts.append("The key audit did not rank this question.")
        else:
            item = ranked[found]
            reasons = "; ".join(item.reasons) or "no signal stands out"
            shown = ("no probability shown" if item.probability is None
                     else f"P(key wrong) {item.probability:.2f}")  # fmt: skip
            parts.append(f"Key audit: {rank_words(result, item, found + 1, shown)} — {reasons}")
    # Imported here: the keyaudit package loads numpy, which the window's start-up does not need.
    from ai4hse_desk.keyaudit.hygiene import empty_options, encoding_damage, identical_options

    hygiene = []
    for first, second in identical_options(question):
        hygiene.append(f"options {option_letter(first)} and {option_letter(second)} are identical")
    hygiene += [f"option {option_letter(p)} is empty" for p in empty_options(question)]
    for damage in encoding_damage(question):
        at = damage.position
        where = "the question" if at is None else f"option {option_letter(at)}"
        hygiene.append(f"{damage.issue} in {where}")
    if hygiene:
        parts.append("Hygiene: " + "; ".join(hygiene))
    return display_text("\n".join(parts))


def flags_text(flags: Sequence[Flag], sealed: int = 0) -> str:
    """The question's open flags, by category (``sealed``: other people's flags the
    visibility policy hides until the reviewer's verdict is submitted)."""
    hidden = ""
    if sealed:
        from ai4hse_desk.review.visibility import SEALED_TEXT  # loaded: it hid them

        hidden = f" {plural(sealed, 'flag')} of other people: {SEALED_TEXT}."
    open_flags = [f for f in flags if f.state == "open"]
    if not open_flags:
        closed = len(flags)
        none = "No open flag of yours" if sealed else "No open flag"
        closed_part = f" ({plural(closed, 'closed flag')})." if closed else "."
        return f"{none} on this question{closed_part}{hidden}"
    categories = sorted({category_name(f.category) for f in open_flags})
    return f"{plural(len(open_flags), 'open flag')}: {', '.join(categories)}.{hidden}"


def final_text(final: FinalState | None) -> str:
    """Where the review of a question stands: its final state, and the adjudicator's
    decision with its note when there is one ("" when not known)."""
    if final is None:
        return ""
    line = f"Where the review stands: {final.text}"
    decision = final.decision
    if decision is not None:
        how = "decided" if final.settled else "left open"
        line += f" — {how} by {display_text(decision.adjudicator)}"
        line += f": {one_line(decision.note)}" if decision.note.strip() else ""
    return line


def response_cell(row: ResponseRow, status_label: str) -> str:
    """A responses-table cell: the selection and ✓/✗ when valid, else the status."""
    if row.status is Status.VALID and row.selection is not None:
        return f"{selected_letters(row.selection)} {'✓' if row.correct else '✗'}"
    return status_label


def response_tip(row: ResponseRow) -> str:
    """A responses-table cell's tooltip: the attempt, its status and what was extracted."""
    picked = NOT_EXTRACTED if row.selection is None else selected_letters(row.selection)
    verdict = "correct" if row.correct else "not correct"
    return f"attempt {row.attempt_id}: {row.status.value}, selection {picked}, {verdict}"


def other_row(verdict: ReviewVerdict) -> tuple[str, ...]:
    """An other reviewer's submitted verdict, as a table row."""
    return (
        display_text(verdict.reviewer),
        verdict_name(verdict.verdict),
        "" if verdict.proposed_key is None else selected_letters(verdict.proposed_key),
        verdict.confidence or "",
        answer_text(verdict.blind_answer),
        one_line(verdict.source),
        one_line(verdict.note),
    )


OTHER_COLUMNS = ("Reviewer", "Verdict", "Proposed key", "Confidence", "Blind answer", "Source",
                 "Note")  # fmt: skip


__all__ = [
    "OTHER_COLUMNS",
    "answer_text",
    "blind_summary",
    "evidence_text",
    "final_text",
    "flags_text",
    "key_text",
    "option_answer",
    "option_votes",
    "other_row",
    "response_cell",
    "response_tip",
    "selected_letters",
]
