"""The query API on real audit databases: records, counts, attempts by id, streaming."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from ai4hse_desk.audit import (
    RESCORE_COLUMNS,
    AuditDB,
    AuditError,
    Option,
    open_audit,
)
from ai4hse_desk.protocol.outcome import Track
from ai4hse_desk.verdicts.rescore import rescore

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from tests.audit_factory import AuditContent


@pytest.fixture
def db(audit_db: Path) -> Iterator[AuditDB]:
    with open_audit(audit_db) as opened:
        yield opened


@pytest.mark.parametrize(
    ("run_ids", "expected"),
    [
        (None, 30),
        (["r2"], 10),
        (["r3", "r1"], 20),
        (("r1", "r1"), 10),
        (["r1", "r9"], 10),
        ([], 0),
    ],
    ids=["all", "one run", "two runs", "repeated", "unknown run", "no runs"],
)
def test_count_attempts(db: AuditDB, run_ids: list[str] | None, expected: int) -> None:
    assert db.count_attempts(run_ids) == expected


@pytest.mark.parametrize(("run_ids", "total"), [(None, 30), (["r2"], 10), (["r3", "r1"], 20)])
def test_the_rescore_progress_counts_to_the_attempts_of_its_runs(
    db: AuditDB, run_ids: list[str] | None, total: int
) -> None:
    """The progress total of a rescore is the attempt count of the runs rescored."""
    seen: list[tuple[int, int]] = []

    def record(done: int, total: int) -> bool:
        seen.append((done, total))
        return True

    rescore(db, run_ids, progress=record)
    assert seen
    assert {reported_total for _, reported_total in seen} == {total}
    assert seen[-1] == (total, total)


def test_runs(db: AuditDB, audit_content: AuditContent) -> None:
    runs = db.runs()
    assert [run.run_id for run in runs] == ["r1", "r2", "r3"]
    for run, expected in zip(runs, audit_content.runs, strict=True):
        assert {name: getattr(run, name) for name in expected} == expected
    assert runs[1].track is Track.REASONING_ASSISTED
    assert runs[1].temperature is None
    assert runs[0].temperature == 0.0
    assert runs[0].complete
    assert not runs[2].complete
    assert db.run("r2") == runs[1]
    with pytest.raises(AuditError, match=r"^unknown run: r9$"):
        db.run("r9")
    assert db.models() == ["model-a", "model-b"]
    assert db.tracks() == [Track.ANSWER_ONLY, Track.REASONING_ASSISTED, Track.STRUCTURED_OUTPUT]


def test_questions(db: AuditDB, audit_content: AuditContent) -> None:
    questions = db.questions()
    assert [q.question_id for q in questions] == ["Q001", "Q002", "Q003", "Q005", "Q004"]
    assert [q.ordinal for q in questions] == [1, 2, 3, 4, 5]
    q3 = db.question("Q003")
    assert q3.options == (
        Option(0, "Water", True),
        Option(1, "CO2", True),
        Option(2, "Gasoline", False),
        Option(3, "Paper", False),
        Option(4, "Foam", True),
    )
    assert q3.key == (True, True, False, False, True)
    assert q3.n_options == 5
    assert dict(q3.labels) == {"topic": "Fire Safety", "source": "manual"}
    assert hash(q3) == hash(db.question("Q003"))
    with pytest.raises(AuditError, match=r"^unknown question: Q404$"):
        db.question("Q404")
    assert db.answer_keys() == audit_content.keys()
    assert db.labels() == {q["question_id"]: q["labels"] for q in audit_content.questions}
    assert db.label_facets() == {
        "source": ["exam", "manual"],
        "topic": ["Chemicals", "Fire Safety", "PPE"],
    }


def test_attempts_by_ids(db: AuditDB, audit_content: AuditContent) -> None:
    attempts = db.attempts_by_ids([30, 1, 999, 18])
    assert [a.attempt_id for a in attempts] == [30, 1, 18]
    by_id = {a["attempt_id"]: a for a in audit_content.attempts}
    for attempt in attempts:
        for column, value in by_id[attempt.attempt_id].items():
            assert getattr(attempt, column) == value, column
    pending, first, error = attempts
    assert pending.state == "pending"
    assert pending.raw_response is None
    assert (pending.model, pending.track, pending.question_ordinal) == (
        "model-a",
        Track.STRUCTURED_OUTPUT,
        5,
    )
    assert first.recorded_selection == (True, False, True, False)
    assert first.correct is True
    assert first.strict_format is True
    assert error.error == "HTTP 502 Bad Gateway"
    assert error.recorded_selection is None
    assert db.attempts_by_ids([]) == []
    everything = db.attempts_by_ids(range(1, 31))
    assert [a.attempt_id for a in everything] == list(range(1, 31))


def test_iter_rescore_rows(db: AuditDB, audit_content: AuditContent) -> None:
    def expected(runs: tuple[str, ...]) -> list[tuple[Any, ...]]:
        return [
            tuple(a[column] for column in RESCORE_COLUMNS)
            for a in audit_content.attempts
            if a["run_id"] in runs
        ]

    rows = list(db.iter_rescore_rows())
    assert rows == expected(("r1", "r2", "r3"))
    assert all(type(row) is tuple for row in rows)
    assert list(db.iter_rescore_rows(["r3", "r1"], batch=3)) == expected(("r1", "r3"))
    assert list(db.iter_rescore_rows("r2", batch=1)) == expected(("r2",))
    assert list(db.iter_rescore_rows([])) == []
    with pytest.raises(ValueError, match="batch"):
        next(db.iter_rescore_rows(batch=0))


def test_keys_and_labels_read_alone_equal_those_of_the_loaded_questions(
    make_audit_db: Callable[..., Path],
) -> None:
    """A rescore reads the keys and labels without building the questions: the same
    values in the same (corpus) order, a question without options or labels included."""
    path = make_audit_db(
        extra_questions=6,
        after=[
            "INSERT INTO questions (question_id, ordinal, text) VALUES ('Q-bare', 0, 'No options')",
            "INSERT INTO question_labels VALUES ('Q001', 'Z last', 'z'), ('Q001', 'A first', 'a')",
        ],
    )
    with open_audit(path) as alone:
        keys, labels = alone.answer_keys(), alone.labels()
        assert alone.answer_keys() is not alone.answer_keys()  # a copy each time
        labels["Q001"]["topic"] = "changed"  # ... which the caller may change
        assert alone.labels()["Q001"]["topic"] != "changed"
    with open_audit(path) as loaded:
        questions = loaded.questions()
        assert list(keys.items()) == list(loaded.answer_keys().items())
        assert [list(facets.items()) for facets in alone_labels(path)] == [
            list(dict(q.labels).items()) for q in questions
        ]
    assert next(iter(keys)) == "Q-bare"  # ordinal 0 first
    assert keys["Q-bare"] == ()
    assert labels["Q-bare"] == {}
    assert list(labels["Q001"])[:2] == ["A first", "Z last"]


def alone_labels(path: Path) -> list[dict[str, str]]:
    with open_audit(path) as db:
        return list(db.labels().values())


def test_keys_read_alone_match_question_ids_exactly_whatever_the_columns_collation(
    make_audit_db: Callable[..., Path],
) -> None:
    """Options and labels whose question_id column is declared NOCASE do not give their
    key or labels to a question whose id differs only in case ('q001' beside 'Q001')."""
    import re
    import sqlite3
    from contextlib import closing

    path = make_audit_db()
    with closing(sqlite3.connect(path)) as conn, conn:
        conn.execute("PRAGMA foreign_keys = OFF")
        for table in ("options", "question_labels"):
            sql = conn.execute("SELECT sql FROM sqlite_master WHERE name = ?", (table,))
            definition = str(sql.fetchone()[0])
            nocase = re.sub(
                r"question_id\s+TEXT(\s+NOT NULL)?", r"question_id TEXT\1 COLLATE NOCASE",
                definition, count=1,
            )  # fmt: skip
            assert nocase != definition
            conn.execute(nocase.replace(f"CREATE TABLE {table}", "CREATE TABLE copied"))
            conn.execute(f"INSERT INTO copied SELECT * FROM {table}")
            conn.execute(f"DROP TABLE {table}")
            conn.execute(f"ALTER TABLE copied RENAME TO {table}")
        conn.execute("INSERT INTO questions (question_id, ordinal, text) VALUES ('q001', 99, 'x')")
    with open_audit(path) as alone:
        keys, labels = alone.answer_keys(), alone.labels()
    with open_audit(path) as loaded:
        loaded.questions()
        assert keys == loaded.answer_keys()
        assert labels == loaded.labels()
    assert keys["q001"] == ()
    assert labels["q001"] == {}
    assert keys["Q001"] != ()
