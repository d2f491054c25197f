"""What each run chose on one question: the compare grid's data, counted from the index.

The review index stores every attempt's extracted selection (``"TFTF"``); the
compare grid lays one question's attempts out as runs × options. Only *valid*
attempts choose (an incomplete attempt's would-be selection and every parse
error count as no answer), as in the key audit.

* One row per attempt (``per_repetition``): each option is TRUE, FALSE or
  unanswered.
* One row per run: per option, how many of the run's valid repetitions chose
  TRUE and FALSE (:class:`OptionCount`); the row's value there is the majority
  (``None`` on a tie), decided option by option.
* Across the grid (:class:`OptionShare`): per option, how many rows' values are
  TRUE, FALSE, tied or missing ("6 of 8 runs select A as FALSE").

Tracks are never merged into one row; a ``single_choice`` run's one-hot
selection is counted like any other, and :func:`chosen_letters` names the
letter it picked.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ai4hse_desk.display.format import option_letter
from ai4hse_desk.protocol.outcome import Selection, Status, Track

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ai4hse_desk.index.filters import ListRow
    from ai4hse_desk.index.query import ReviewIndex

__all__ = [
    "ChoiceRow",
    "CompareChoices",
    "OptionCount",
    "OptionShare",
    "chosen_letters",
    "compare_choices",
    "read_compare_choices",
]


def chosen_letters(selection: Selection) -> str:
    """``"A C"``: the options a selection marks TRUE (``"none"`` when it marks none)."""
    letters = [option_letter(i) for i, value in enumerate(selection) if value]
    return " ".join(letters) if letters else "none"


@dataclass(frozen=True, slots=True)
class OptionCount:
    """Valid answers on one option within a row: how many chose TRUE and FALSE."""

    true: int = 0
    false: int = 0

    @property
    def answered(self) -> int:
        """Valid answers on the option."""
        return self.true + self.false

    @property
    def majority(self) -> bool | None:
        """The value most answers chose; ``None`` on a tie or without an answer."""
        if self.true == self.false:
            return None
        return self.true > self.false


@dataclass(frozen=True, slots=True)
class ChoiceRow:
    """One line of the grid: a run over its repetitions, or one attempt.

    Attributes:
        repetition: the attempt's repetition; ``None`` for a run's row.
        attempts: the attempts the row covers, by repetition.
        options: per option, the valid answers counted.
        choices: each distinct valid selection with how many attempts gave it,
            most frequent first (ties in order of first appearance).
    """

    run_id: str
    model: str
    track: Track
    repetition: int | None
    attempts: tuple[ListRow, ...]
    options: tuple[OptionCount, ...]
    choices: tuple[tuple[Selection, int], ...]

    @property
    def valid(self) -> int:
        """Attempts with a valid answer."""
        return sum(count for _, count in self.choices)

    @property
    def correct(self) -> int:
        """Attempts the desk scores correct."""
        return sum(attempt.correct for attempt in self.attempts)

    @property
    def majority_choice(self) -> Selection | None:
        """The selection most valid attempts gave (``None`` on a tie or without one)."""
        if not self.choices or (len(self.choices) > 1 and self.choices[1][1] == self.choices[0][1]):
            return None
        return self.choices[0][0]

    def value(self, position: int) -> bool | None:
        """The row's value on an option: the majority of its valid answers."""
        return self.options[position].majority

    def differs(self, position: int, key: Selection | None) -> bool:
        """True when the row's value on an option is not the key's (a tie or no
        valid answer is not a value, so it does not differ)."""
        value = self.value(position)
        return key is not None and value is not None and value != key[position]


@dataclass(frozen=True, slots=True)
class OptionShare:
    """One option across the grid: how many rows' values are TRUE, FALSE, tied, or absent."""

    true: int = 0
    false: int = 0
    tied: int = 0
    unanswered: int = 0

    @property
    def rows(self) -> int:
        """Every row of the grid."""
        return self.true + self.false + self.tied + self.unanswered

    @property
    def majority(self) -> bool | None:
        """What most rows with a value chose (``None`` on a tie or with none)."""
        return OptionCount(self.true, self.false).majority


@dataclass(frozen=True)
class CompareChoices:
    """One question's attempts as the compare grid shows them.

    Attributes:
        key: the answer key (``None`` when the caller does not know it).
        option_texts: the option texts in position order (may be empty).
        repetitions: every repetition present, ascending.
        shares: per option, the rows' values counted (:class:`OptionShare`).
        choice_counts: each row's majority selection with how many rows gave it,
            most frequent first (rows without one left out).
    """

    question_id: str
    key: Selection | None
    option_texts: tuple[str, ...]
    per_repetition: bool
    rows: tuple[ChoiceRow, ...]
    repetitions: tuple[int, ...]
    shares: tuple[OptionShare, ...]
    choice_counts: tuple[tuple[Selection, int], ...]

    @property
    def n_options(self) -> int:
        """Number of options (columns)."""
        return len(self.shares)

    @property
    def attempts(self) -> tuple[ListRow, ...]:
        """Every attempt, in row order."""
        return tuple(attempt for row in self.rows for attempt in row.attempts)

    @property
    def correct(self) -> int:
        """Attempts the desk scores correct."""
        return sum(row.correct for row in self.rows)

    @property
    def runs(self) -> int:
        """Distinct runs."""
        return len({row.run_id for row in self.rows})

    def row_of(self, attempt_id: int) -> int | None:
        """The row holding ``attempt_id`` (``None`` if it is not in the grid)."""
        for number, row in enumerate(self.rows):
            if any(attempt.attempt_id == attempt_id for attempt in row.attempts):
                return number
        return None


def _ranked(selections: Sequence[Selection]) -> tuple[tuple[Selection, int], ...]:
    return tuple(Counter(selections).most_common())


def _row(group: Sequence[ListRow], n_options: int, repetition: int | None) -> ChoiceRow:
    chosen = [
        a.selection[:n_options]
        for a in group
        if a.status is Status.VALID and a.selection is not None
    ]
    options = tuple(
        OptionCount(
            sum(1 for s in chosen if len(s) > i and s[i]),
            sum(1 for s in chosen if len(s) > i and not s[i]),
        )
        for i in range(n_options)
    )
    first = group[0]
    return ChoiceRow(
        first.run_id, first.model, first.track, repetition, tuple(group), options, _ranked(chosen)
    )


def _share(rows: Sequence[ChoiceRow], position: int) -> OptionShare:
    values = [row.options[position] for row in rows]
    return OptionShare(
        true=sum(1 for v in values if v.majority is True),
        false=sum(1 for v in values if v.majority is False),
        tied=sum(1 for v in values if v.answered and v.majority is None),
        unanswered=sum(1 for v in values if not v.answered),
    )


def _option_count(attempts: Sequence[ListRow], key: Selection | None, texts: Sequence[str]) -> int:
    if key is not None:
        return len(key)
    if texts:
        return len(texts)
    return max((len(a.selection) for a in attempts if a.selection is not None), default=0)


def compare_choices(
    question_id: str,
    attempts: Sequence[ListRow],
    key: Selection | None = None,
    option_texts: Sequence[str] = (),
    *,
    per_repetition: bool = False,
) -> CompareChoices:
    """Lay out ``attempts`` (one question's, ordered by run then repetition) as rows.

    Args:
        key: the answer key; without it the grid marks no differences and the
            number of options is that of the texts or of the longest selection.
        per_repetition: one row per attempt instead of one per run.
    """
    n_options = _option_count(attempts, key, option_texts)
    groups: dict[str, list[ListRow]] = {}
    for attempt in attempts:
        groups.setdefault(attempt.run_id, []).append(attempt)
    if per_repetition:
        rows = tuple(_row([a], n_options, a.repetition) for a in attempts)
    else:
        rows = tuple(_row(group, n_options, None) for group in groups.values())
    majorities = [row.majority_choice for row in rows]
    return CompareChoices(
        question_id=question_id,
        key=key,
        option_texts=tuple(option_texts),
        per_repetition=per_repetition,
        rows=rows,
        repetitions=tuple(sorted({a.repetition for a in attempts})),
        shares=tuple(_share(rows, i) for i in range(n_options)),
        choice_counts=_ranked([m for m in majorities if m is not None]),
    )


def read_compare_choices(
    index: ReviewIndex,
    question_id: str,
    key: Selection | None = None,
    option_texts: Sequence[str] = (),
    *,
    per_repetition: bool = False,
) -> CompareChoices:
    """:func:`compare_choices` over the question's stored verdicts (one indexed read)."""
    rows = index.compare_grid(question_id)
    return compare_choices(question_id, rows, key, option_texts, per_repetition=per_repetition)
