"""The track rules give the verdicts of their frozen reference (issue 16), text for text.

``reference_rules`` is a copy of the rules as they stood before they were made
faster. Every verdict must be equal in every field (status, selection, strict
flag, spans and reason, which the window shows), on the realistic demo's
responses, on single-choice chain-of-thought replies, on hostile text from
hypothesis and on the pathological texts of the property tests; each text is
also read by every other track's rule, and under protocol v9.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from dataclasses import replace
from typing import TYPE_CHECKING

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ai4hse_desk.protocol import Track, derive, extract_text
from ai4hse_desk.protocol import extract as current
from ai4hse_desk.writer.demo import write_demo
from ai4hse_desk.writer.demo.single_choice import write_single_choice_demo
from tests.core.reference_rules import extract as reference
from tests.core.test_extraction_properties import HUGE

if TYPE_CHECKING:
    from pathlib import Path

TRACKS = [t.value for t in Track]
#: (track, response, n, protocol version, state, finish_reason) of one attempt.
Row = tuple[str, "str | None", int, int, str, "str | None"]
PROPERTY = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _attempts(path: Path) -> list[Row]:
    """Every attempt of the database at ``path``, in attempt order."""
    with closing(sqlite3.connect(path)) as conn:
        return list(
            conn.execute(
                "SELECT r.track, a.raw_response, (SELECT count(*) FROM options o"
                " WHERE o.question_id = a.question_id), r.protocol_version, a.state,"
                " a.finish_reason FROM attempts a JOIN runs r USING (run_id)"
                " ORDER BY a.attempt_id"
            )
        )


@pytest.fixture(scope="module")
def realistic(tmp_path_factory: pytest.TempPathFactory) -> list[Row]:
    path = tmp_path_factory.mktemp("differential") / "realistic.sqlite"
    write_demo(path, attempts=30_000, realistic=True)
    return _attempts(path)


@pytest.fixture(scope="module")
def single_choice(tmp_path_factory: pytest.TempPathFactory) -> list[Row]:
    path = tmp_path_factory.mktemp("differential") / "single-choice.sqlite"
    write_single_choice_demo(path, attempts=20_000)
    return _attempts(path)


def assert_same_everywhere(text: str, n: int) -> None:
    """Every track's rule, v10 and v9, gives the reference verdict on ``text``; the
    rescore loop's rule (:func:`~ai4hse_desk.protocol.extract.verdict_rule`) gives it
    too, the character spans perhaps left out."""
    for track in TRACKS:
        for version in (10, 9):
            new = extract_text(track, text, n, protocol_version=version)
            old = reference.extract_text(track, text, n, protocol_version=version)
            assert new == old, (track, version, n, text[-300:])
            lean = current.verdict_rule(track)(text, n, version)
            assert lean.spans in ((), new.spans), (track, text[-300:])
            assert replace(lean, spans=()) == replace(new, spans=()), (track, n, text[-300:])


def _check_attempts(rows: list[Row]) -> int:
    texts = 0
    for track, raw, n, version, state, finish in rows:
        new = derive(track, raw, n, protocol_version=version, state=state, finish_reason=finish)
        old = reference.derive(
            track, raw, n, protocol_version=version, state=state, finish_reason=finish
        )
        assert new == old, (track, state, finish, raw if raw is None else raw[-300:])
        if raw is not None:
            assert_same_everywhere(raw, n)
            texts += 1
    return texts


def test_realistic_demo_verdicts_are_unchanged(
    realistic: list[Row],
) -> None:
    tracks = {row[0] for row in realistic}
    assert tracks == {"answer_only", "reasoning_assisted", "structured_output"}
    assert _check_attempts(realistic) > 25_000


def test_single_choice_chain_of_thought_verdicts_are_unchanged(
    single_choice: list[Row],
) -> None:
    statuses = {
        derive(t, raw, n, state=state, finish_reason=f).status.value
        for t, raw, n, _, state, f in single_choice
    }
    assert {"valid", "missing", "wrong_length", "incomplete"} <= statuses
    assert _check_attempts(single_choice) > 19_000


def test_memo_changes_nothing(
    realistic: list[Row],
) -> None:
    """A second pass (the rules' memos warm) gives the same verdicts."""
    sample = [row for row in realistic if row[1] is not None][:3000]
    first = [derive(t, raw, n, protocol_version=v) for t, raw, n, v, _, _ in sample]
    second = [derive(t, raw, n, protocol_version=v) for t, raw, n, v, _, _ in sample]
    assert first == second


@pytest.mark.parametrize("text", list(HUGE.values()), ids=list(HUGE))
def test_pathological_text_verdicts_are_unchanged(text: str) -> None:
    for n in (1, 4):
        assert_same_everywhere(text, n)


#: Pieces that reach every branch of every rule, with ASCII look-alikes that
#: must never match case-insensitively (Kelvin sign, long s, dotted and dotless i).
PIECES = st.sampled_from(
    [
        "answer is ", "Answer is ", "ANSWER IS", "answer Is", "answer  is ", "answer is",
        "answer\u212a", "Answer i\u017f ", "answer \u0130s ", "answer \u0131s ", "ans",
        "wer is ", "The answer is (", "the answer is **", " ", "  ", "*", "(", ")", ".",
        "A", "B", "C", "D", "E", "Z", "a", "c", "\u00e9", "\u212a", "1", "\n", "\t", "\r\n",
        "\u3000", "\x85", "\xa0", "[", "]", ",", ", ", "TRUE", "FALSE", "true", "False",
        "maybe", "FINAL_ANSWER:", "FINAL_ANSWER: ", "**", "_", "`", "#", ">", "{", "}",
        '"answers"', ":", "null", "NaN", "\x00", "\ud800",
    ]
)  # fmt: skip
FILLER = st.sampled_from(["x" * 700, " " * 600, "word " * 300, "answer is " * 80, "(" * 900])
HOSTILE = st.lists(st.one_of(PIECES, PIECES, PIECES, FILLER, st.text(max_size=12)), max_size=60)


@PROPERTY
@given(pieces=HOSTILE, n=st.sampled_from([1, 2, 4, 5, 10, 26]))
def test_hostile_text_verdicts_are_unchanged(pieces: list[str], n: int) -> None:
    assert_same_everywhere("".join(pieces), n)


@PROPERTY
@given(text=st.text(st.characters(exclude_categories=()), max_size=300), n=st.integers(1, 26))
def test_any_text_verdicts_are_unchanged(text: str, n: int) -> None:
    assert_same_everywhere(text, n)
