"""``demo --realistic``: the demo's outcomes with the length and variety of real runs."""

from __future__ import annotations

import re
import sqlite3
import statistics
from contextlib import closing
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.protocol import derive
from ai4hse_desk.protocol.compare import disagrees
from ai4hse_desk.writer.demo import DemoSummary, write_demo
from tests.core.desk_helpers import miscased_acronyms, sha256

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

ATTEMPTS = 5000
_LIST = re.compile(r"\[[^\[\]]*\]")
_WORD = re.compile(r"[A-Za-z]{3,}")


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> DemoSummary:
    path = tmp_path_factory.mktemp("realistic") / "realistic.sqlite"
    return write_demo(path, attempts=ATTEMPTS, realistic=True)


@pytest.fixture(scope="module")
def db(demo: DemoSummary) -> Iterator[sqlite3.Connection]:
    with closing(sqlite3.connect(demo.path)) as conn:
        yield conn


def _responses(db: sqlite3.Connection, track: str) -> list[str]:
    return [
        raw
        for (raw,) in db.execute(
            "SELECT a.raw_response FROM attempts a JOIN runs r USING (run_id)"
            " WHERE r.track = ? AND a.state = 'answered' ORDER BY a.attempt_id",
            (track,),
        )
    ]


def test_reasoning_responses_are_long_and_never_repeat(db: sqlite3.Connection) -> None:
    texts = _responses(db, "reasoning_assisted")
    assert len(texts) > 1000
    assert len(set(texts)) >= 0.99 * len(texts)
    lengths = sorted(len(text) for text in texts)
    assert statistics.median(lengths) > 500
    inside = [n for n in lengths if 300 <= n <= 3000]
    assert len(inside) >= 0.95 * len(lengths)  # the rest: generations cut off at the cap
    assert inside[0] < 400
    assert inside[-1] > 2000
    assert max(lengths) <= 3100


def test_answer_only_has_a_prose_minority(db: sqlite3.Connection) -> None:
    texts = _responses(db, "answer_only")
    prose = [text for text in texts if _WORD.search(_LIST.sub("", text))]
    assert 0.05 * len(texts) <= len(prose) <= 0.30 * len(texts)


def test_structured_output_whitespace_varies(db: sqlite3.Connection) -> None:
    texts = _responses(db, "structured_output")
    shapes = {re.sub(r"true|false", "b", text) for text in texts}
    assert len(shapes) > 30
    assert any("\t" in text for text in texts)
    assert any("\n    " in text for text in texts)


def test_every_verdict_is_the_desks_except_the_deliberate_ones(
    demo: DemoSummary, db: sqlite3.Connection
) -> None:
    keys: dict[str, tuple[bool, ...]] = {}
    for qid, key in db.execute(
        "SELECT question_id, key FROM options ORDER BY question_id, position"
    ):
        keys[qid] = (*keys.get(qid, ()), bool(key))
    rows = db.execute(
        "SELECT r.track, r.protocol_version, a.state, a.raw_response, a.finish_reason,"
        " a.question_id, a.parse_status, a.extracted, a.strict_format, a.correct"
        " FROM attempts a JOIN runs r USING (run_id) ORDER BY a.attempt_id"
    ).fetchall()
    differing = 0
    statuses: dict[str, int] = {}
    for track, version, state, raw, reason, qid, *recorded in rows:
        key = keys[qid]
        desk = derive(
            track, raw, len(key), protocol_version=version, state=state, finish_reason=reason
        )
        statuses[desk.status.value] = statuses.get(desk.status.value, 0) + 1
        differing += disagrees(desk.status, desk.selection, desk.strict_format,
                               desk.is_correct(key), *recorded)  # fmt: skip
    assert differing == demo.disagreements
    assert differing <= 0.01 * len(rows)
    assert statuses == dict(demo.statuses)
    assert statuses["valid"] > 0.7 * len(rows)
    for status in ("wrong_length", "malformed", "missing", "provider_error", "incomplete"):
        assert statuses.get(status, 0) > 0, status


def test_same_seed_same_bytes_other_seed_other_text(demo: DemoSummary, tmp_path: Path) -> None:
    again = write_demo(tmp_path / "again.sqlite", attempts=ATTEMPTS, realistic=True)
    assert sha256(again.path) == sha256(demo.path)
    other = write_demo(tmp_path / "other.sqlite", attempts=ATTEMPTS, realistic=True, seed=7)
    assert sha256(other.path) != sha256(demo.path)


def test_the_flag_changes_only_the_texts(
    demo: DemoSummary, db: sqlite3.Connection, tmp_path: Path
) -> None:
    plain = write_demo(tmp_path / "plain.sqlite", attempts=ATTEMPTS)
    assert plain.attempts == demo.attempts
    assert plain.runs == demo.runs
    assert sha256(plain.path) != sha256(demo.path)
    query = "SELECT run_id, question_id, repetition, state FROM attempts ORDER BY attempt_id"
    with closing(sqlite3.connect(plain.path)) as conn:
        assert conn.execute(query).fetchall() == db.execute(query).fetchall()


def test_acronyms_keep_their_capitals_in_the_responses(demo: DemoSummary) -> None:
    """An option's "PPE" or "LOTO" quoted in an explanation reads as written, not
    "pPE is the last line …" (its first letter was lowered) nor "ppe"."""
    assert miscased_acronyms(demo.path) == []
