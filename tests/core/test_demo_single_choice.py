"""The single-choice benchmark database: chain-of-thought replies as real runs write them."""

from __future__ import annotations

import re
import sqlite3
import statistics
from collections import Counter
from contextlib import closing
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.audit import open_audit
from ai4hse_desk.protocol import CUT_OFF_REASONS as CUT_OFF
from ai4hse_desk.verdicts.rescore import rescore
from ai4hse_desk.writer.demo.single_choice import write_single_choice_demo
from ai4hse_desk.writer.new_db import WriterError
from tests.core.desk_helpers import miscased_acronyms, sha256

if TYPE_CHECKING:
    from pathlib import Path

    from ai4hse_desk.writer.demo import DemoSummary

ATTEMPTS = 6000


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> DemoSummary:
    return write_single_choice_demo(
        tmp_path_factory.mktemp("single") / "single.sqlite", attempts=ATTEMPTS
    )


def _answered(summary: DemoSummary) -> list[tuple[str, int, str | None]]:
    with closing(sqlite3.connect(summary.path)) as conn:
        return list(
            conn.execute(
                "SELECT raw_response, (SELECT count(*) FROM options o"
                " WHERE o.question_id = a.question_id), finish_reason"
                " FROM attempts a WHERE state = 'answered' ORDER BY attempt_id"
            )
        )


def test_replies_are_long_varied_and_never_repeat(demo: DemoSummary) -> None:
    rows = _answered(demo)
    chains = [text for text, _, _ in rows if len(text) > 20]
    assert len(chains) > 0.85 * len(rows)
    assert len(set(chains)) == len(chains)
    whole = [len(text) for text, _, reason in rows if len(text) > 20 and reason not in CUT_OFF]
    assert 500 <= statistics.median(whole) <= 800
    assert min(whole) >= 300
    assert max(whole) <= 3000
    bare = [text for text, _, _ in rows if len(text) <= 20]
    assert set(bare) <= {f"{x}{y}" for x in "ABCDEF" for y in ("", ".")} | {
        f"({x})" for x in "ABCDEF"
    }


def test_every_common_ending_and_outcome_occurs(demo: DemoSummary) -> None:
    rows = _answered(demo)
    tails: Counter[str] = Counter()
    for text, _, _ in rows:
        tail = text[-40:]
        for name, pattern in {
            "parenthesised": r"The answer is \([A-J]\)\.$",
            "therefore": r"Therefore, the answer is \([A-J]\)\.$",
            "plain": r"So the answer is [A-J]\.$",
            "bold": r"\*\*[A-J]\*\*\.?$|\*\*\([A-J]\)\*\*$",
            "bold-answer-colon": r"\*\*Answer: [A-J]\*\*$",
            "answer-colon": r"Answer: \([A-J]\)$",
            "lower-case": r"answer is \([a-j]\)\.$",
        }.items():
            if re.search(pattern, tail):
                tails[name] += 1
    assert all(tails[name] >= 10 for name in ("parenthesised", "therefore", "plain", "bold")), tails
    assert all(tails[name] >= 3 for name in ("bold-answer-colon", "answer-colon", "lower-case"))
    statuses = demo.statuses
    assert statuses["valid"] > 0.7 * demo.attempts
    assert statuses["missing"] > 0.05 * demo.attempts
    for status in ("wrong_length", "incomplete", "provider_error"):
        assert statuses[status] > 0.003 * demo.attempts, status


def test_recorded_verdicts_are_the_desks(demo: DemoSummary) -> None:
    with open_audit(demo.path) as db:
        result = rescore(db, workers=1)
    assert result.attempts == demo.attempts
    assert {run["track"] for run in result.runs} == {"single_choice"}
    assert [run["disagreements"] for run in result.runs] == [0] * 8


def test_same_arguments_same_bytes(demo: DemoSummary, tmp_path: Path) -> None:
    again = write_single_choice_demo(tmp_path / "again.sqlite", attempts=ATTEMPTS)
    assert sha256(again.path) == sha256(demo.path)
    other = write_single_choice_demo(tmp_path / "other.sqlite", attempts=ATTEMPTS, seed=7)
    assert sha256(other.path) != sha256(demo.path)


def test_attempts_out_of_range(tmp_path: Path) -> None:
    with pytest.raises(WriterError, match="between 1 and 1,000,000"):
        write_single_choice_demo(tmp_path / "x.sqlite", attempts=0)


def test_acronyms_keep_their_capitals_in_the_responses(demo: DemoSummary) -> None:
    """An option's "PPE" or "LOTO" quoted in an explanation reads as written, not
    "pPE is the last line …" (its first letter was lowered) nor "ppe"."""
    assert miscased_acronyms(demo.path) == []
