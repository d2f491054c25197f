"""How the adjudication workspace reads: the queue, each verdict against the key (no Qt).

Every text that comes from the audit file or the notes store (reviewer names,
sources, notes, option texts) goes through :func:`display_text` / :func:`one_line`
and is shown in plain-text widgets. A proposed key reads as a **diff against the
official key**: the options it changes, each as ``C: TRUE → FALSE``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from ai4hse_desk.display.format import option_letter, plural
from ai4hse_desk.display.note_text import format_time, one_line
from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.review.texts import (
    VOTES_COLUMN,
    answer_text,
    option_answer,
    option_votes,
    selected_letters,
)
from ai4hse_desk.review.names import decision_name, reason_words, verdict_name
from ai4hse_desk.review.values import FALSE, TRUE, UNSURE

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ai4hse_desk.gui.review.texts import ResponseRow
    from ai4hse_desk.review.queue import QueueItem
    from ai4hse_desk.review.records import Decision, ReviewVerdict

#: What each decision means, beside its name in the form.
DECISION_HELP: Final = {
    "key_confirmed": "the official key stands",
    "key_corrected": "the key is wrong: give the right one below",
    "question_excluded": "leave the question out (no key can fix it)",
    "unresolved": "no decision yet: the question stays in the queue",
}
VERDICT_COLUMNS: Final = (
    "Reviewer", "Verdict", "Blind answer", "Proposed key (against the official key)",
    "Confidence", "Source", "Note",
)  # fmt: skip
#: Columns of the options table before the reviewers' (two each: blind, proposed); the
#: option's text comes last (it takes the spare width).
OPTION_COLUMNS: Final = ("Option", "Official key", VOTES_COLUMN)
TEXT_COLUMN: Final = "Text"
SAME_AS_KEY: Final = "same as the official key"
#: What ends an options-table cell that differs from the official key.
DIFFERS: Final = "≠ key"
NO_PROPOSAL: Final = "none proposed"


def _value(flag: bool) -> str:
    return TRUE if flag else FALSE


def reasons_text(reasons: Sequence[str]) -> str:
    """Why a question entered adjudication, in words (``"a reviewer says …; …"``)."""
    return reason_words(reasons) or "no disagreement"


def key_diff(official: Sequence[bool], proposed: Sequence[str] | None) -> str:
    """A proposed (or corrected) key against the official one:
    ``"A, B — changes B: FALSE → TRUE, C: TRUE → FALSE"``."""
    if proposed is None:
        return NO_PROPOSAL
    changes = [
        f"{option_letter(p)}: {_value(k)} → {v}"
        for p, (k, v) in enumerate(zip(official, proposed, strict=False))
        if (v == TRUE) != k
    ]
    if not changes:
        return f"{selected_letters(proposed)} ({SAME_AS_KEY})"
    return f"{selected_letters(proposed)} — changes {', '.join(changes)}"


def blind_against_key(blind: Sequence[str] | None, official: Sequence[bool]) -> str:
    """A blind answer and the options where it differs from the key."""
    if blind is None:
        return answer_text(None)
    differs = [
        option_letter(p)
        for p, (v, k) in enumerate(zip(blind, official, strict=False))
        if v != UNSURE and (v == TRUE) != k
    ]
    where = f"differs on {', '.join(differs)}" if differs else "agrees with the key"
    return f"{answer_text(blind)} — {where}"


def verdict_cells(verdict: ReviewVerdict, official: Sequence[bool]) -> tuple[str, ...]:
    """One reviewer's submitted verdict as a row of the verdicts table."""
    return (
        display_text(verdict.reviewer),
        verdict_name(verdict.verdict),
        blind_against_key(verdict.blind_answer, official),
        key_diff(official, verdict.proposed_key),
        verdict.confidence or "not given",
        one_line(verdict.source),
        one_line(verdict.note),
    )


def reviewer_columns(verdicts: Sequence[ReviewVerdict]) -> list[str]:
    """The options table's columns for the reviewers: a blind and a proposed one each."""
    columns: list[str] = []
    for verdict in verdicts:
        name = display_text(verdict.reviewer)
        columns += [f"{name}: blind", f"{name}: proposed"]
    return columns


def _proposed_cell(value: str | None, key: bool) -> str:
    if value is None:
        return "—"
    return value if (value == TRUE) == key else f"{value} {DIFFERS}"


def _blind_cell(value: str | None, key: bool) -> str:
    shown = option_answer(value)
    if value is None or value == UNSURE or (value == TRUE) == key:
        return shown
    return f"{shown} {DIFFERS}"


def option_rows(
    official: Sequence[bool],
    texts: Sequence[str],
    verdicts: Sequence[ReviewVerdict],
    rows: Sequence[ResponseRow],
) -> list[tuple[str, ...]]:
    """The options side by side: official key, the runs' votes, each reviewer's blind
    answer and proposed key on it (``≠ key`` where they differ from the key), its text."""
    table = []
    for p, (key, text) in enumerate(zip(official, texts, strict=False)):
        cells = [option_letter(p), _value(key), option_votes(rows, p)]
        for verdict in verdicts:
            blind, proposed = verdict.blind_answer, verdict.proposed_key
            cells.append(_blind_cell(None if blind is None or p >= len(blind) else blind[p], key))
            cells.append(_proposed_cell(
                None if proposed is None or p >= len(proposed) else proposed[p], key))  # fmt: skip
        table.append((*cells, one_line(text)))
    return table


def decision_text(decision: Decision | None, official: Sequence[bool] = ()) -> str:
    """The latest decision in words (with who, when, the corrected key and the note)."""
    if decision is None:
        return "No decision yet."
    words = decision_name(decision.decision)
    if decision.corrected_key is not None:
        words += f": {key_diff(official, decision.corrected_key)}"
    note = f" — {one_line(decision.note)}" if decision.note.strip() else ""
    who = display_text(decision.adjudicator)
    return f"Latest decision: {words} (by {who}, {format_time(decision.at)}){note}"


def queue_entry(item: QueueItem) -> str:
    """One line of the queue list: the question, open or decided, and why it is there."""
    if item.open:
        state = "unresolved" if item.decision is not None else "open"
    else:
        state = decision_name(item.decision.decision if item.decision else None)
    return f"{display_text(item.question_id)} · {state}\n{reasons_text(item.reasons)}"


def queue_header(
    adjudicator: str | None, open_items: int, decided: int, own: int, hidden: int
) -> str:
    """The line above the queue: who adjudicates, how many wait, what is left out, why."""
    if adjudicator is None:
        return "Give your name (Reviewer name…) to see the questions you may adjudicate."
    parts = [
        f"Adjudicating as {display_text(adjudicator)}: "
        f"{plural(open_items, 'question')} {'needs' if open_items == 1 else 'need'} a "
        f"decision, {decided:,} decided"
    ]
    if own:
        parts.append(
            f"{plural(own, 'question')} you review {'is' if own == 1 else 'are'} left out "
            "(another person decides them)"
        )
    if hidden:
        parts.append(f"{plural(hidden, 'question')} hidden until your blind answer")
    return " · ".join(parts)


__all__ = [
    "DECISION_HELP",
    "DIFFERS",
    "OPTION_COLUMNS",
    "SAME_AS_KEY",
    "TEXT_COLUMN",
    "VERDICT_COLUMNS",
    "blind_against_key",
    "decision_text",
    "key_diff",
    "option_rows",
    "queue_entry",
    "queue_header",
    "reasons_text",
    "reviewer_columns",
    "verdict_cells",
]
