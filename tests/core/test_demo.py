"""The demo audit database: deterministic, schema v1, realistic, every status."""

from __future__ import annotations

import sqlite3
from collections import Counter
from contextlib import closing
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.protocol import Status, derive
from ai4hse_desk.protocol.compare import disagrees
from ai4hse_desk.protocol.compare import parse_extracted as parse_recorded
from ai4hse_desk.writer import WriterError, new_audit_db
from ai4hse_desk.writer.demo import DemoSummary, write_demo
from tests.core.desk_helpers import miscased_acronyms, sha256

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

TRACKS = {"answer_only", "reasoning_assisted", "structured_output"}


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> DemoSummary:
    return write_demo(tmp_path_factory.mktemp("demo") / "demo.sqlite")


@pytest.fixture(scope="module")
def db(demo: DemoSummary) -> Iterator[sqlite3.Connection]:
    with closing(sqlite3.connect(f"file:{demo.path}?mode=ro", uri=True)) as conn:
        yield conn


def _desk_view(db: sqlite3.Connection) -> list[tuple[Status, bool, tuple[object, ...]]]:
    """(desk status, recorded-vs-desk disagreement, recorded verdict) per attempt."""
    rows = db.execute(
        "SELECT r.track, r.protocol_version, a.state, a.raw_response, a.finish_reason,"
        " a.question_id, a.parse_status, a.extracted, a.strict_format, a.correct"
        " FROM attempts a JOIN runs r USING (run_id) ORDER BY a.attempt_id"
    ).fetchall()
    keys: dict[str, tuple[bool, ...]] = {}
    for qid, key in db.execute(
        "SELECT question_id, key FROM options ORDER BY question_id, position"
    ):
        keys[qid] = (*keys.get(qid, ()), bool(key))
    out = []
    for track, version, state, raw, reason, qid, *recorded in rows:
        key = keys[qid]
        desk = derive(
            track, raw, len(key), protocol_version=version, state=state, finish_reason=reason
        )
        correct = desk.is_correct(key)
        differs = disagrees(desk.status, desk.selection, desk.strict_format, correct, *recorded)
        out.append((desk.status, differs, tuple(recorded)))
    return out


def test_same_arguments_give_identical_bytes(demo: DemoSummary, tmp_path: Path) -> None:
    again = write_demo(tmp_path / "again.sqlite")
    assert sha256(again.path) == sha256(demo.path)
    assert again.size_bytes == demo.size_bytes == demo.path.stat().st_size


def test_meta_is_schema_v1(db: sqlite3.Connection) -> None:
    meta = dict(db.execute("SELECT key, value FROM audit_meta").fetchall())
    assert meta["format"] == "ai4hse-audit"
    assert meta["schema_version"] == "1"
    assert meta["benchmark"] == "AI4HSE-Bench v1"
    assert meta["corpus_id"]
    assert meta["created_at"].endswith("Z")


def test_file_is_a_plain_rollback_journal_database(
    demo: DemoSummary, db: sqlite3.Connection
) -> None:
    header = demo.path.read_bytes()[:100]
    assert header[18:20] == b"\x01\x01"  # legacy (rollback journal) read/write versions
    assert db.execute("PRAGMA page_size").fetchone()[0] == 4096
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert not list(demo.path.parent.glob(".*.tmp"))


def test_questions_options_and_labels(demo: DemoSummary, db: sqlite3.Connection) -> None:
    assert demo.questions == 100
    assert db.execute("SELECT count(*) FROM questions").fetchone()[0] == 100
    counts = [c for (c,) in db.execute("SELECT count(*) FROM options GROUP BY question_id")]
    assert len(counts) == 100
    assert set(counts) <= {4, 5, 6}
    assert Counter(counts)[4] > 50
    topics = {v for (v,) in db.execute("SELECT value FROM question_labels WHERE facet='topic'")}
    assert 7 <= len(topics) <= 10
    trues = Counter(
        (t, n) for t, n in db.execute("SELECT sum(key), count(*) FROM options GROUP BY question_id")
    )
    assert sum(c for (t, n), c in trues.items() if t == n) >= 2  # all-TRUE keys
    assert sum(c for (t, _), c in trues.items() if t == 0) >= 1  # all-FALSE keys


def test_runs_tracks_and_repetitions(demo: DemoSummary, db: sqlite3.Connection) -> None:
    runs = db.execute("SELECT track, repetitions, status, protocol_version FROM runs").fetchall()
    assert demo.runs == len(runs) >= 6
    assert {r[0] for r in runs} == TRACKS
    assert {r[1] for r in runs} == {3}
    assert [r[2] for r in runs].count("unfinished") == 1
    assert ("answer_only", 9) in {(r[0], r[3]) for r in runs}
    assert len({m for (m,) in db.execute("SELECT model FROM runs")}) >= 4
    assert demo.attempts == len(runs) * 100 * 3
    assert db.execute("SELECT count(*) FROM attempts").fetchone()[0] == demo.attempts


def test_unfinished_run_has_pending_attempts_without_verdicts(db: sqlite3.Connection) -> None:
    pending = db.execute(
        "SELECT a.raw_response, a.parse_status, a.extracted, a.strict_format, a.correct, r.status"
        " FROM attempts a JOIN runs r USING (run_id) WHERE a.state = 'pending'"
    ).fetchall()
    assert pending
    assert {row[5] for row in pending} == {"unfinished"}
    assert {row[:5] for row in pending} == {(None,) * 5}


def test_every_status_occurs_per_the_desk(demo: DemoSummary, db: sqlite3.Connection) -> None:
    view = _desk_view(db)
    statuses = Counter(status for status, _, _ in view)
    assert set(statuses) == set(Status)
    assert {s.value: c for s, c in statuses.items()} == dict(demo.statuses)


def test_a_few_deliberate_disagreements(demo: DemoSummary, db: sqlite3.Connection) -> None:
    view = _desk_view(db)
    differing = [recorded for _, differs, recorded in view if differs]
    answered = sum(1 for status, _, _ in view if status not in (Status.PENDING,))
    assert 0 < len(differing) <= 0.01 * answered
    assert len(differing) == demo.disagreements
    for status, extracted, strict, correct in differing:  # well-formed, just wrong
        assert status in {s.value for s in Status}
        assert extracted is None or parse_recorded(str(extracted)) is not None
        assert strict in (0, 1)
        assert correct in (0, 1)


def test_hostile_responses_are_present(db: sqlite3.Connection) -> None:
    def count(where: str) -> int:
        return int(db.execute(f"SELECT count(*) FROM attempts WHERE {where}").fetchone()[0])

    assert count("instr(raw_response, '<script>') AND instr(raw_response, 'onerror=')")
    assert count("instr(raw_response, char(8238)) AND instr(raw_response, char(8203))")
    assert count("instr(raw_response, char(27))")
    assert count("length(raw_response) >= 200000") == 1


def test_provider_errors_have_no_response(db: sqlite3.Connection) -> None:
    rows = db.execute(
        "SELECT raw_response, error FROM attempts WHERE state = 'provider_error'"
    ).fetchall()
    assert rows
    assert all(raw is None and error for raw, error in rows)


def test_refuses_to_overwrite_an_existing_file(tmp_path: Path) -> None:
    target = tmp_path / "existing.sqlite"
    target.write_bytes(b"precious")
    with pytest.raises(WriterError, match="already exists"):
        write_demo(target)
    assert target.read_bytes() == b"precious"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["existing.sqlite"]


def test_failure_while_building_leaves_nothing(tmp_path: Path) -> None:
    target = tmp_path / "new.sqlite"
    meta = {"benchmark": "b", "corpus_id": "c", "created_at": "2026-01-01T00:00:00Z"}

    def build_and_fail() -> None:
        with new_audit_db(target, meta) as conn:
            conn.execute("INSERT INTO questions VALUES ('Q1', 1, 'text')")
            raise RuntimeError("boom")

    with pytest.raises(RuntimeError, match="boom"):
        build_and_fail()
    assert list(tmp_path.iterdir()) == []


def test_incomplete_meta_is_refused(tmp_path: Path) -> None:
    with pytest.raises(WriterError, match="corpus_id"):
        new_audit_db(tmp_path / "x.sqlite", {"benchmark": "b", "created_at": "t"}).__enter__()
    assert list(tmp_path.iterdir()) == []


def test_scaled_database(tmp_path: Path) -> None:
    summary = write_demo(tmp_path / "scaled.sqlite", attempts=5000)
    assert 4500 <= summary.attempts <= 5500
    with closing(sqlite3.connect(summary.path)) as conn:
        tracks = {t for (t,) in conn.execute("SELECT DISTINCT track FROM runs")}
        longest = conn.execute("SELECT max(length(raw_response)) FROM attempts").fetchone()[0]
    assert tracks == TRACKS
    assert longest < 10_000
    assert summary.statuses["valid"] > 0.7 * summary.attempts
    assert summary.disagreements > 0


def test_a_grown_demo_corpus_has_that_many_distinct_questions(tmp_path: Path) -> None:
    """``demo --questions N``: variants of the written 100, every text distinct, keys kept."""
    from ai4hse_desk.audit import open_audit
    from ai4hse_desk.writer.demo import write_demo

    summary = write_demo(tmp_path / "grown.sqlite", questions=250)
    assert summary.questions == 250
    with open_audit(tmp_path / "grown.sqlite") as db:
        questions = db.questions()
    assert [q.question_id for q in questions[:2]] == ["Q0001", "Q0002"]
    assert len({q.text for q in questions}) == 250
    assert questions[100].key == questions[0].key
    assert questions[100].text.endswith("(site 1)")


def test_acronyms_keep_their_capitals_in_the_responses(demo: DemoSummary) -> None:
    """An option's "PPE" or "LOTO" quoted in an explanation reads as written, not
    "pPE is the last line …" (its first letter was lowered) nor "ppe"."""
    assert miscased_acronyms(demo.path) == []


def test_a_demo_cached_before_the_writer_changed_is_not_opened_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--demo`` writes its database once into the user cache; one written by an
    earlier demo writer (the same desk version: "pPE" in its explanations) is left
    alone and a current one is written beside it, then reused."""
    from ai4hse_desk import __version__
    from ai4hse_desk.gui.app import demo_database

    monkeypatch.setenv("AI4HSE_DESK_CACHE_DIR", str(tmp_path))
    earlier = tmp_path / f"demo-{__version__}.sqlite"
    earlier.write_bytes(b"a demo of an earlier writer")
    path = demo_database()
    assert path.parent == tmp_path
    assert path != earlier
    assert earlier.read_bytes() == b"a demo of an earlier writer"
    assert miscased_acronyms(path) == []
    written = path.stat().st_mtime_ns
    assert demo_database() == path
    assert path.stat().st_mtime_ns == written  # written once
