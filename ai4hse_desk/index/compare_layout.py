"""The compare grid's layout: its columns, the key row, the rows and the share row (no Qt).

:func:`compare_layout` turns :class:`~.compare.CompareChoices` into columns and
rows of :class:`~.compare_cells.CompareCell` objects. Columns: ``Run``, then ``Rep``
and ``Status`` (one row per attempt) or ``Correct`` (one row per run),
``Chose``, one column per option headed by its letter (its text in the
tooltip), and (one row per run) one column per repetition with that attempt's
status. The key is a row of its own above the runs, the share choosing TRUE
and FALSE per option one below them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ai4hse_desk.display.format import option_letter
from ai4hse_desk.index.compare_cells import (
    DIFFERS_MARK,
    CompareCell,
    CompareColumn,
    key_cells,
    row_cells,
    share_cells,
)

if TYPE_CHECKING:
    from ai4hse_desk.index.compare import CompareChoices

__all__ = ["OPTION_TIP_CHARS", "CompareLayout", "compare_layout"]

#: An option text longer than this is elided in its column's tooltip.
OPTION_TIP_CHARS = 300


@dataclass(frozen=True)
class CompareLayout:
    """The whole grid: columns, the key row, the attempt or run rows, the share row.

    Attributes:
        row_attempts: per row, the attempt a click on a cell without one of its
            own opens (the first repetition).
    """

    columns: tuple[CompareColumn, ...]
    key: tuple[CompareCell, ...]
    rows: tuple[tuple[CompareCell, ...], ...]
    share: tuple[CompareCell, ...]
    row_attempts: tuple[int, ...]
    title: str
    legend: str

    @property
    def option_columns(self) -> tuple[int, ...]:
        """The columns showing options."""
        return tuple(i for i, column in enumerate(self.columns) if column.option is not None)

    @property
    def repetition_columns(self) -> tuple[int, ...]:
        """The columns of one repetition each (one row per run): those after the options."""
        last = max(self.option_columns, default=len(self.columns) - 1)
        return tuple(range(last + 1, len(self.columns)))


def _columns(choices: CompareChoices) -> tuple[CompareColumn, ...]:
    head = [CompareColumn("Run", "run id (model, track); tracks are never merged into one row")]
    if choices.per_repetition:
        head.append(CompareColumn("Rep", "repetition"))
        head.append(CompareColumn("Status", "the desk's status; ✓ correct, ✗ valid but wrong"))
    else:
        head.append(CompareColumn("Correct", "repetitions the desk scores correct"))
    head.append(
        CompareColumn(
            "Chose", "single-choice runs: the letter chosen; others: the options answered TRUE"
        )
    )
    for i in range(choices.n_options):
        text = choices.option_texts[i] if i < len(choices.option_texts) else ""
        if len(text) > OPTION_TIP_CHARS:
            text = text[: OPTION_TIP_CHARS - 1] + "…"
        head.append(CompareColumn(option_letter(i), f"{option_letter(i)}: {text}".rstrip(": "), i))
    if not choices.per_repetition:
        for rep in choices.repetitions:
            head.append(CompareColumn(f"rep {rep}", f"repetition {rep}: status and correctness"))
    return tuple(head)


def _legend(choices: CompareChoices) -> str:
    if choices.per_repetition:
        cells = "Per option: T (TRUE) or F (FALSE) as each valid attempt chose; — no valid answer."
        bottom = "Bottom row: attempts choosing TRUE and FALSE per option."
    else:
        cells = (
            "Per option: the run's majority over its valid repetitions and how many chose it "
            "(F 2/3: 2 of 3 valid repetitions chose FALSE; T 1 · F 1: a tie)."
        )
        bottom = "Bottom row: runs choosing TRUE and FALSE per option (each run's majority)."
    return (
        f"{cells} Bold {DIFFERS_MARK}: differs from the key. Only valid attempts choose. "
        f"{bottom} Click or press Enter on a cell to open its attempt."
    )


def compare_layout(choices: CompareChoices) -> CompareLayout:
    """The grid of ``choices``: columns, the key row, one row per run or attempt, the shares."""
    columns = _columns(choices)
    reps = len(choices.repetitions)
    title = (
        f"{choices.question_id}: {choices.correct} of {len(choices.attempts)} attempts correct "
        f"across {choices.runs} runs × {reps} repetitions (tracks kept apart per row)"
    )
    return CompareLayout(
        columns=columns,
        key=key_cells(choices, columns),
        rows=tuple(row_cells(choices, row, columns) for row in choices.rows),
        share=share_cells(choices, columns),
        row_attempts=tuple(row.attempts[0].attempt_id for row in choices.rows),
        title=title,
        legend=_legend(choices),
    )
