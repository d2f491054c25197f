"""The compare grid's cells as people read them: texts, tooltips, marks (no Qt).

Each :class:`CompareCell` carries its text, its tooltip and a :class:`Tone`; the
window's Qt model only maps tones to colours. Colour is never the only cue: a
value that differs from the key starts with ``≠`` and is bold; "Valid ✓"
(correct) and "Valid ✗" (valid but wrong) differ in their text as well as their
colour. :mod:`.compare_layout` arranges the cells in columns and rows.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from ai4hse_desk.display.format import option_letter
from ai4hse_desk.display.status_style import status_label
from ai4hse_desk.index.compare import chosen_letters
from ai4hse_desk.protocol.outcome import Status, Track

if TYPE_CHECKING:
    from ai4hse_desk.index.compare import ChoiceRow, CompareChoices, OptionShare
    from ai4hse_desk.index.filters import ListRow
    from ai4hse_desk.protocol.outcome import Selection

__all__ = [
    "DIFFERS_MARK",
    "CompareCell",
    "CompareColumn",
    "Tone",
    "key_cells",
    "row_cells",
    "share_cells",
    "verdict_text",
]

#: Starts every value that differs from the key.
DIFFERS_MARK = "≠"
_NONE = "—"


class Tone(StrEnum):
    """How a cell is coloured (the Qt model maps tones to the status palette)."""

    PLAIN = "plain"
    HEADING = "heading"  # the key and share rows' first cell
    TRUE = "true"
    FALSE = "false"
    DIFFERS = "differs"  # a value other than the key's
    VERDICT = "verdict"  # an attempt's status and correctness


@dataclass(frozen=True, slots=True)
class CompareCell:
    """One cell: what it reads, its tooltip, its tone and the attempt it shows alone."""

    text: str
    tooltip: str = ""
    tone: Tone = Tone.PLAIN
    bold: bool = False
    status: Status | None = None
    correct: bool = False
    attempt_id: int | None = None

    @property
    def differs(self) -> bool:
        """True when the cell is marked as differing from the key."""
        return self.tone is Tone.DIFFERS


@dataclass(frozen=True, slots=True)
class CompareColumn:
    """A column: its header, the header's tooltip, and the option position it shows."""

    title: str
    tooltip: str
    option: int | None = None


def verdict_text(attempt: ListRow) -> str:
    """``"Valid ✓"`` (correct), ``"Valid ✗"`` (valid but wrong) or the status label."""
    if attempt.status is Status.VALID:
        return "Valid ✓" if attempt.correct else "Valid ✗"
    return status_label(attempt.status)


def _verdict_cell(attempt: ListRow) -> CompareCell:
    runner = "  · runner ≠" if attempt.disagrees else ""
    tip = (
        f"attempt {attempt.attempt_id}, repetition {attempt.repetition}: "
        f"{status_label(attempt.status)}, {'correct' if attempt.correct else 'not correct'}"
    )
    if attempt.disagrees:
        tip += "; the runner's recorded verdict differs from the desk's"
    return CompareCell(
        verdict_text(attempt) + runner, tip, Tone.VERDICT,
        status=attempt.status, correct=attempt.correct, attempt_id=attempt.attempt_id,
    )  # fmt: skip


def _word(value: bool) -> str:
    return "TRUE" if value else "FALSE"


def key_cells(
    choices: CompareChoices, columns: tuple[CompareColumn, ...]
) -> tuple[CompareCell, ...]:
    """The answer key's row."""
    key = choices.key
    cells = []
    for column in columns:
        if column.title == "Run":
            text = "Answer key" if key is not None else "Answer key (not known)"
            cells.append(
                CompareCell(text, "the answer key stored in the audit file", Tone.HEADING, True)
            )
        elif column.title == "Chose":
            cells.append(CompareCell(chosen_letters(key) if key is not None else "?", "keyed TRUE"))
        elif column.option is not None and key is not None:
            value = key[column.option]
            letter = option_letter(column.option)
            tone = Tone.TRUE if value else Tone.FALSE
            cells.append(
                CompareCell(
                    "T" if value else "F", f"{letter}: the key says {_word(value)}", tone, True
                )
            )
        else:
            cells.append(CompareCell("?" if column.option is not None else ""))
    return tuple(cells)


def _option_cell(
    row: ChoiceRow, position: int, key: Selection | None, attempt: int | None
) -> CompareCell:
    count = row.options[position]
    letter = option_letter(position)
    keyed = "" if key is None else f"; the key says {_word(key[position])}"
    if not count.answered:
        statuses = ", ".join(status_label(a.status) for a in row.attempts)
        return CompareCell(_NONE, f"{letter}: no valid answer ({statuses})", attempt_id=attempt)
    differs = row.differs(position, key)
    mark = f"{DIFFERS_MARK} " if differs else ""
    value = count.majority
    if row.repetition is not None:
        text = f"{mark}{'T' if value else 'F'}"
        tip = f"{letter}: chose {_word(bool(value))}{keyed}"
    else:
        unanswered = len(row.attempts) - count.answered
        tip = (
            f"{letter}: {count.true} of {count.answered} valid repetitions chose TRUE, "
            f"{count.false} FALSE{keyed}"
            + (f"; {unanswered} without a valid answer" if unanswered else "")
        )
        if value is None:
            text, tip = f"T {count.true} · F {count.false}", tip + " (a tie: no majority)"
        else:
            chosen = count.true if value else count.false
            text = f"{mark}{'T' if value else 'F'} {chosen}/{count.answered}"
    if differs:
        tip += " — differs from the key"
        return CompareCell(text, tip, Tone.DIFFERS, True, attempt_id=attempt)
    tone = Tone.PLAIN if value is None else (Tone.TRUE if value else Tone.FALSE)
    return CompareCell(text, tip, tone, attempt_id=attempt)


def _chose_cell(row: ChoiceRow, attempt: int | None) -> CompareCell:
    single = row.track is Track.SINGLE_CHOICE
    what = "the letter chosen" if single else "the options answered TRUE"
    if not row.choices:
        return CompareCell(_NONE, f"{what}: no valid answer", attempt_id=attempt)
    lines = [f"{chosen_letters(s)}: {n} of {row.valid} valid" for s, n in row.choices]
    tip = f"{what}\n" + "\n".join(lines)
    if row.repetition is not None:
        return CompareCell(chosen_letters(row.choices[0][0]), tip, attempt_id=attempt)
    majority = row.majority_choice
    if majority is None:
        return CompareCell("mixed", tip + "\n(no answer has a majority)", attempt_id=attempt)
    return CompareCell(
        f"{chosen_letters(majority)} {row.choices[0][1]}/{row.valid}", tip, attempt_id=attempt
    )


def _run_cell(row: ChoiceRow, attempt: int | None) -> CompareCell:
    tip = f"run {row.run_id}\nmodel {row.model}\ntrack {row.track.value}"
    return CompareCell(f"{row.run_id}  ({row.model}, {row.track.value})", tip, attempt_id=attempt)


def row_cells(
    choices: CompareChoices, row: ChoiceRow, columns: tuple[CompareColumn, ...]
) -> tuple[CompareCell, ...]:
    """One run's (or one attempt's) row."""
    alone = row.attempts[0].attempt_id if row.repetition is not None else None
    by_rep = {a.repetition: a for a in row.attempts}
    cells: list[CompareCell] = []
    for column in columns:
        if column.option is not None:
            cells.append(_option_cell(row, column.option, choices.key, alone))
        elif column.title == "Run":
            cells.append(_run_cell(row, alone))
        elif column.title == "Rep":
            cells.append(CompareCell(str(row.repetition), attempt_id=alone))
        elif column.title == "Status":
            cells.append(_verdict_cell(row.attempts[0]))
        elif column.title == "Correct":
            tip = (
                f"{row.correct} of {len(row.attempts)} repetitions correct; "
                f"{row.valid} with a valid answer"
            )
            cells.append(CompareCell(f"✓ {row.correct}/{len(row.attempts)}", tip))
        elif column.title == "Chose":
            cells.append(_chose_cell(row, alone))
        else:  # a repetition's column (one row per run)
            attempt = by_rep.get(int(column.title.removeprefix("rep ")))
            cells.append(CompareCell("") if attempt is None else _verdict_cell(attempt))
    return tuple(cells)


def _share_option(
    choices: CompareChoices, share: OptionShare, position: int, unit: str
) -> CompareCell:
    letter, n = option_letter(position), share.rows
    majority = share.majority
    key = choices.key
    differs = key is not None and majority is not None and majority != key[position]
    parts = [
        f"{share.true} of {n} {unit} select {letter} as TRUE",
        f"{share.false} of {n} {unit} select {letter} as FALSE",
    ]
    if share.tied:
        parts.append(f"{share.tied} tied (no majority)")
    if share.unanswered:
        parts.append(f"{share.unanswered} without a valid answer")
    tip = "; ".join(parts)
    if key is not None:
        tip += f"; the key says {_word(key[position])}"
    mark = f"{DIFFERS_MARK} " if differs else ""
    text = f"{mark}T {share.true}/{n}\nF {share.false}/{n}"
    if differs:
        return CompareCell(text, tip + " — most differ from the key", Tone.DIFFERS, True)
    return CompareCell(text, tip, bold=True)


def share_cells(
    choices: CompareChoices, columns: tuple[CompareColumn, ...]
) -> tuple[CompareCell, ...]:
    """The bottom row: per option, the rows choosing TRUE and FALSE."""
    unit = "attempts" if choices.per_repetition else "runs"
    attempts = choices.attempts
    cells: list[CompareCell] = []
    for column in columns:
        if column.option is not None:
            cells.append(_share_option(choices, choices.shares[column.option], column.option, unit))
        elif column.title == "Run":
            tip = f"per option: how many {unit} chose TRUE and FALSE"
            if not choices.per_repetition:
                tip += " (a run's value is the majority of its valid repetitions)"
            cells.append(
                CompareCell(f"{unit.capitalize()} choosing T / F", tip, Tone.HEADING, True)
            )
        elif column.title in ("Status", "Correct"):
            tip = f"{choices.correct} of {len(attempts)} attempts correct"
            cells.append(CompareCell(f"✓ {choices.correct}/{len(attempts)}", tip, bold=True))
        elif column.title == "Chose" and choices.choice_counts:
            (top, count), rows = choices.choice_counts[0], len(choices.rows)
            lines = [f"{chosen_letters(s)}: {k} of {rows} {unit}" for s, k in choices.choice_counts]
            cells.append(
                CompareCell(f"{chosen_letters(top)} {count}/{rows}", "\n".join(lines), bold=True)
            )
        elif column.title.startswith("rep "):
            rep = int(column.title.removeprefix("rep "))
            of_rep = [a for a in attempts if a.repetition == rep]
            right = sum(a.correct for a in of_rep)
            tip = f"repetition {rep}: {right} of {len(of_rep)} attempts correct"
            cells.append(CompareCell(f"✓ {right}/{len(of_rep)}", tip))
        else:
            cells.append(CompareCell(""))
    return tuple(cells)
