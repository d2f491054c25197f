"""The compare grid's choices: what each run chose per option, counted from the index.

Every count is checked against a count made here from ``rescore``'s own
verdicts (``on_attempt``), never from the index the grid reads.
"""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.audit import AuditDB, open_audit
from ai4hse_desk.display.format import option_letter
from ai4hse_desk.index import CACHE_ENV, ReviewIndex, ensure_index
from ai4hse_desk.index.compare import (
    CompareChoices,
    OptionCount,
    OptionShare,
    chosen_letters,
    compare_choices,
    read_compare_choices,
)
from ai4hse_desk.index.compare_cells import DIFFERS_MARK, verdict_text
from ai4hse_desk.index.compare_layout import compare_layout
from ai4hse_desk.protocol.outcome import Status
from ai4hse_desk.verdicts.rescore import AttemptVerdict, rescore

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from tests.audit_factory import AuditContent

MISKEYED = "Q060"  # the demo's question the strong models read the other way (1 of 24 correct)


@dataclass
class Opened:
    db: AuditDB
    index: ReviewIndex
    verdicts: list[AttemptVerdict]

    def choices(self, question_id: str, *, per_repetition: bool = False) -> CompareChoices:
        question = self.db.question(question_id)
        texts = [option.text for option in question.options]
        return read_compare_choices(
            self.index, question_id, question.key, texts, per_repetition=per_repetition
        )

    def of(self, question_id: str) -> list[AttemptVerdict]:
        return [v for v in self.verdicts if v.question_id == question_id]


@pytest.fixture(scope="module")
def opened_demo(demo_db: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Opened]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(tmp_path_factory.mktemp("compare-cache")))
        with open_audit(demo_db) as db:
            verdicts: list[AttemptVerdict] = []
            rescore(db, on_attempt=verdicts.append)
            with ensure_index(db) as index:
                yield Opened(db, index, verdicts)


def counted_per_run(verdicts: list[AttemptVerdict], n: int) -> dict[str, list[OptionCount]]:
    """Per run and option, the valid verdicts choosing TRUE and FALSE (counted here)."""
    true: dict[str, Counter[int]] = defaultdict(Counter)
    false: dict[str, Counter[int]] = defaultdict(Counter)
    for v in verdicts:
        true[v.run_id].update(())
        false[v.run_id].update(())
        selection = v.outcome.selection
        if v.outcome.status is not Status.VALID or selection is None:
            continue
        for i, value in enumerate(selection):
            (true if value else false)[v.run_id][i] += 1
    return {run: [OptionCount(true[run][i], false[run][i]) for i in range(n)] for run in true}


def test_per_option_counts_equal_a_count_from_rescore_for_every_question(
    opened_demo: Opened,
) -> None:
    for question in opened_demo.db.questions():
        choices = opened_demo.choices(question.question_id)
        expected = counted_per_run(opened_demo.of(question.question_id), question.n_options)
        assert {row.run_id: list(row.options) for row in choices.rows} == expected


def test_one_row_per_attempt_holds_its_verdicts_selection(opened_demo: Opened) -> None:
    choices = opened_demo.choices(MISKEYED, per_repetition=True)
    by_id = {v.attempt_id: v for v in opened_demo.of(MISKEYED)}
    assert len(choices.rows) == len(by_id) == 24
    for row in choices.rows:
        (attempt,) = row.attempts
        verdict = by_id[attempt.attempt_id]
        assert row.repetition == verdict.repetition
        valid = verdict.outcome.status is Status.VALID
        selection = verdict.outcome.selection if valid else None
        expected = [
            OptionCount(int(value), int(not value)) for value in selection
        ] if selection is not None else [OptionCount()] * 4  # fmt: skip
        assert list(row.options) == expected


def test_the_shares_count_each_runs_majority(opened_demo: Opened) -> None:
    per_run = counted_per_run(opened_demo.of(MISKEYED), 4)
    expected = []
    for i in range(4):
        counts = [options[i] for options in per_run.values()]
        expected.append(
            OptionShare(
                true=sum(c.true > c.false for c in counts),
                false=sum(c.false > c.true for c in counts),
                tied=sum(c.true == c.false > 0 for c in counts),
                unanswered=sum(c.answered == 0 for c in counts),
            )
        )
    assert list(opened_demo.choices(MISKEYED).shares) == expected


def test_on_the_miskeyed_question_6_of_8_runs_select_a_as_false(opened_demo: Opened) -> None:
    choices = opened_demo.choices(MISKEYED)
    assert (choices.correct, len(choices.attempts), choices.runs) == (1, 24, 8)
    assert choices.key == (True, True, False, False)
    assert choices.shares[0] == OptionShare(true=1, false=6, tied=1, unanswered=0)
    layout = compare_layout(choices)
    a = layout.columns.index(next(c for c in layout.columns if c.title == "A"))
    share = layout.share[a]
    assert "6 of 8 runs select A as FALSE" in share.tooltip
    assert "1 of 8 runs select A as TRUE" in share.tooltip
    assert share.text == f"{DIFFERS_MARK} T 1/8\nF 6/8"
    assert share.differs
    assert [layout.key[c].text for c in layout.option_columns] == ["T", "T", "F", "F"]


def test_cells_mark_values_that_differ_from_the_key(opened_demo: Opened) -> None:
    layout = compare_layout(opened_demo.choices(MISKEYED))
    runs = [row[0].text.split()[0] for row in layout.rows]
    borealis = layout.rows[runs.index("ao-borealis-large-2026-09-04")]
    a, b = layout.option_columns[:2]
    assert (borealis[a].text, borealis[a].differs, borealis[a].bold) == ("≠ F 3/3", True, True)
    assert (borealis[b].text, borealis[b].differs) == ("T 3/3", False)
    tied = layout.rows[runs.index("so-aurora-7b-2026-09-15")][a]
    assert (tied.text, tied.differs) == ("T 1 · F 1", False)  # a tie is no value
    assert "a tie" in tied.tooltip


def test_valid_but_wrong_reads_differently_from_correct(opened_demo: Opened) -> None:
    attempts = opened_demo.choices(MISKEYED).attempts
    texts = {(a.status, a.correct): verdict_text(a) for a in attempts}
    assert texts[(Status.VALID, True)] == "Valid ✓"
    assert texts[(Status.VALID, False)] == "Valid ✗"
    assert texts[(Status.MALFORMED, False)] == "Malformed"
    layout = compare_layout(opened_demo.choices(MISKEYED, per_repetition=True))
    status = next(i for i, c in enumerate(layout.columns) if c.title == "Status")
    shown = Counter(row[status].text for row in layout.rows)
    assert shown["Valid ✓"] == 1
    assert shown["Valid ✗"] == sum(
        v.outcome.status is Status.VALID and not v.correct for v in opened_demo.of(MISKEYED)
    )


def test_every_attempt_has_one_cell_of_its_own_per_run(opened_demo: Opened) -> None:
    layout = compare_layout(opened_demo.choices(MISKEYED))
    own = [cell.attempt_id for row in layout.rows for cell in row if cell.attempt_id is not None]
    assert sorted(own) == sorted(v.attempt_id for v in opened_demo.of(MISKEYED))


def test_without_a_key_nothing_is_marked(opened_demo: Opened) -> None:
    rows = opened_demo.index.compare_grid(MISKEYED)
    layout = compare_layout(compare_choices(MISKEYED, rows))
    assert layout.key[0].text == "Answer key (not known)"
    assert not any(cell.differs for row in (*layout.rows, layout.share) for cell in row)
    assert len(layout.option_columns) == 4  # from the longest selection


def test_single_choice_runs_show_the_letter_chosen(
    make_audit_db: Callable[..., Path], audit_content: AuditContent, tmp_path: Path
) -> None:
    runs = tuple(
        {**run, "track": "single_choice"} if run["run_id"] == "r1" else run
        for run in audit_content.runs
    )
    answers = {1: "B", 2: "The answer is (C)."}
    attempts = tuple(
        {**a, "raw_response": answers[a["repetition"]]} if a["run_id"] == "r1" else a
        for a in audit_content.attempts
    )
    content = dataclasses.replace(audit_content, runs=runs, attempts=attempts)
    path = make_audit_db(content=content)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(tmp_path / "cache"))
        with open_audit(path) as db:
            verdicts: list[AttemptVerdict] = []
            rescore(db, ["r1"], on_attempt=verdicts.append)
            with ensure_index(db) as index:
                opened = Opened(db, index, verdicts)
                per_attempt = compare_layout(opened.choices("Q002", per_repetition=True))
                per_run = compare_layout(opened.choices("Q002"))
    chose = next(i for i, c in enumerate(per_attempt.columns) if c.title == "Chose")
    shown: dict[str, list[str]] = {row[0].text.split()[0]: [] for row in per_attempt.rows}
    for row in per_attempt.rows:
        shown[row[0].text.split()[0]].append(row[chose].text)
    expected = [
        chosen_letters(v.outcome.selection)
        for v in sorted(verdicts, key=lambda v: v.repetition)
        if v.question_id == "Q002" and v.outcome.selection is not None
    ]
    assert expected == ["B", "C"]
    assert shown["r1"] == expected
    r1 = next(row for row in per_run.rows if row[0].text.startswith("r1"))
    chose = next(i for i, c in enumerate(per_run.columns) if c.title == "Chose")
    assert r1[chose].text == "mixed"  # one B, one C: no majority
    assert "the letter chosen" in r1[chose].tooltip
    letters = [option_letter(i) for i in range(4)]
    assert [c.title for c in per_run.columns if c.option is not None] == letters
