"""Hostile audit files: values that break the schema are refused, never scored.

Most files here use the untyped schema (the official tables and columns with no
types, checks or unique constraints), so any value can be planted; each must
give one ``AuditError`` naming the problem, and the CLI exit 2 with one
``error:`` line, never a score and never a traceback.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from ai4hse_desk.audit import AuditError, open_audit
from ai4hse_desk.verdicts.rescore import rescore
from tests.core.desk_helpers import sha256

MakeDb = Callable[..., Path]


def _rescore_error(path: Path) -> str:
    with pytest.raises(AuditError) as caught, open_audit(path) as db:
        rescore(db)
    return str(caught.value)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ai4hse_desk.launcher", *args],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )


# Each case: SQL planted in an untyped file, and words the message must contain.
PLANTED = {
    "key 'false'": (["UPDATE options SET key = 'false' WHERE question_id = 'Q001'"], "key is"),
    "key '0'": (["UPDATE options SET key = '0' WHERE position = 1"], "(must be 0 or 1)"),
    "key 'no'": (["UPDATE options SET key = 'no' WHERE position = 1"], "key is 'no'"),
    "key 2": (["UPDATE options SET key = 2 WHERE position = 0"], "key is 2"),
    "key NULL": (["UPDATE options SET key = NULL WHERE position = 0"], "key is NULL"),
    "repetition -1": (["UPDATE attempts SET repetition = -1 WHERE attempt_id = 3"], "attempt 3"),
    "repetition 0": (
        ["UPDATE attempts SET repetition = 0 WHERE attempt_id = 4"],
        "repetition is 0",
    ),
    "repetition 1.5": (["UPDATE attempts SET repetition = 1.5 WHERE attempt_id = 5"], "1.5"),
    "repetition text": (["UPDATE attempts SET repetition = 'x' WHERE attempt_id = 6"], "'x'"),
    "repetition above the run's": (
        ["UPDATE attempts SET repetition = 3 WHERE attempt_id = 7"],
        "which has 2 repetitions",
    ),
    "duplicate attempt": (
        [
            "INSERT INTO attempts SELECT 999, run_id, question_id, repetition, state, "
            "raw_response, finish_reason, error, parse_status, extracted, strict_format, "
            "correct, prompt_tokens, "
            "completion_tokens, reasoning_tokens, latency_ms, created_at FROM attempts "
            "WHERE attempt_id = 1"
        ],
        "appears 2 times",
    ),
    "duplicate attempt id": (
        ["UPDATE attempts SET attempt_id = 1 WHERE attempt_id = 2"],
        "(attempt_id must be unique)",
    ),
    "positions with gaps": (
        ["UPDATE options SET position = position * 3 WHERE question_id = 'Q001'"],
        "has positions {0, 3, 6, 9}",
    ),
    "repeated position": (
        ["UPDATE options SET position = 1 WHERE question_id = 'Q002' AND position = 2"],
        "has positions {0, 1, 1, 3}",
    ),
    "negative position": (
        ["UPDATE options SET position = -1 WHERE position = 0"],
        "position is -1",
    ),
    "text ordinal": (
        ["UPDATE questions SET ordinal = 'first' WHERE question_id = 'Q001'"],
        "ordinal",
    ),
    "duplicate ordinal": (["UPDATE questions SET ordinal = 1"], "(ordinal must be unique)"),
    "duplicate question": (
        ["INSERT INTO questions VALUES ('Q001', 77, 'again')"],
        "(question_id must be unique)",
    ),
    "unknown state": (
        ["UPDATE attempts SET state = 'done' WHERE attempt_id = 2"],
        "state is 'done'",
    ),
    "unknown track": (["UPDATE runs SET track = 'vibes' WHERE run_id = 'r1'"], "track is 'vibes'"),
    "unknown run status": (["UPDATE runs SET status = 'ok' WHERE run_id = 'r2'"], "status is 'ok'"),
    "text protocol version": (["UPDATE runs SET protocol_version = 'ten'"], "protocol_version"),
    "text latency": (
        ["UPDATE attempts SET latency_ms = 'fast' WHERE attempt_id = 9"],
        "latency_ms",
    ),
    "blob response": (
        ["UPDATE attempts SET raw_response = X'5B545255455D' WHERE attempt_id = 8"],
        "raw_response is X'5B545255455D'",
    ),
    "correct 7": (["UPDATE attempts SET correct = 7 WHERE attempt_id = 10"], "correct is 7"),
    "unknown run": (["UPDATE attempts SET run_id = 'ghost' WHERE attempt_id = 11"], "'ghost'"),
    "unknown question": (
        ["UPDATE attempts SET question_id = 'Q404' WHERE attempt_id = 12"],
        "Q404",
    ),
    "options of an unknown question": (
        ["UPDATE options SET question_id = 'Q9' WHERE position = 0 AND question_id = 'Q001'"],
        "question 'Q9'",
    ),
    "duplicate meta key": (["INSERT INTO audit_meta VALUES ('benchmark', 'other')"], "'benchmark'"),
    "duplicate run": (
        ["INSERT INTO runs SELECT * FROM runs WHERE run_id = 'r1'"],
        "(run_id must be unique)",
    ),
    "infinite temperature": (["UPDATE runs SET temperature = 9e999"], "temperature is Inf"),
}


@pytest.mark.parametrize("case", sorted(PLANTED))
def test_schema_breaking_values_are_refused_not_scored(case: str, make_audit_db: MakeDb) -> None:
    statements, expected = PLANTED[case]
    path = make_audit_db(untyped=True, after=statements)
    before = sha256(path)
    message = _rescore_error(path)
    assert "values break the audit schema" in message
    assert expected in message
    assert "\n" not in message
    assert sha256(path) == before


def test_the_clean_untyped_file_still_scores(make_audit_db: MakeDb) -> None:
    """The check refuses values, not the absence of declarations."""
    path = make_audit_db(untyped=True)
    with open_audit(path) as db:
        result = rescore(db)
        assert result.attempts == 30
        assert db.attempts_valid


def test_check_constraints_ignored_by_the_writer_do_not_help(make_audit_db: MakeDb) -> None:
    path = make_audit_db()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA ignore_check_constraints = ON")
    conn.execute("UPDATE options SET key = 2 WHERE question_id = 'Q001' AND position = 0")
    conn.execute("UPDATE attempts SET state = 'maybe' WHERE attempt_id = 5")
    conn.commit()
    conn.close()
    assert "key is 2" in _rescore_error(path)


def test_a_declared_integer_column_holding_text_is_refused(make_audit_db: MakeDb) -> None:
    path = make_audit_db(after=["UPDATE attempts SET repetition = 'one' WHERE attempt_id = 4"])
    assert "attempt 4: repetition is 'one'" in _rescore_error(path)


@pytest.mark.parametrize(
    "definition",
    [
        "CREATE VIEW attempts AS SELECT attempt_id, run_id, question_id, repetition, state, "
        "CASE WHEN random() % 2 THEN raw_response ELSE '[]' END AS raw_response, finish_reason, "
        "error, parse_status, extracted, strict_format, correct, prompt_tokens, "
        "completion_tokens, reasoning_tokens, latency_ms, created_at FROM real_attempts",
        "CREATE VIEW attempts AS SELECT * FROM real_attempts ORDER BY raw_response COLLATE nope",
    ],
    ids=["random", "unknown collation"],
)
def test_an_attempts_view_is_refused(make_audit_db: MakeDb, definition: str) -> None:
    path = make_audit_db(after=["ALTER TABLE attempts RENAME TO real_attempts", definition])
    with pytest.raises(AuditError, match="'attempts' is a view, not a table"):
        open_audit(path)
    result = _cli("rescore", str(path))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("error: ")


def test_a_generated_column_is_refused(make_audit_db: MakeDb) -> None:
    conn_sql = [
        "ALTER TABLE options RENAME TO options_base",
        "CREATE TABLE options (question_id, position, text, "
        "key INTEGER GENERATED ALWAYS AS (length(text) % 2) VIRTUAL)",
        "INSERT INTO options (question_id, position, text) "
        "SELECT question_id, position, text FROM options_base",
    ]
    path = make_audit_db(after=conn_sql)
    with pytest.raises(AuditError, match="generated columns"):
        open_audit(path)


def test_invalid_utf8_in_a_response_is_an_input_problem(make_audit_db: MakeDb) -> None:
    path = make_audit_db(
        after=[
            "UPDATE attempts SET raw_response = CAST(X'5B54525545C3285D' AS TEXT) "
            "WHERE attempt_id = 1"
        ]
    )
    assert "not valid UTF-8 in column 'raw_response'" in _rescore_error(path)


def test_invalid_utf8_in_a_question_is_an_input_problem(make_audit_db: MakeDb) -> None:
    path = make_audit_db(
        after=["UPDATE questions SET text = CAST(X'436166E9' AS TEXT) WHERE question_id = 'Q001'"]
    )
    with (
        pytest.raises(AuditError, match="not valid UTF-8 in column 'text'"),
        open_audit(path) as db,
    ):
        db.questions()


@pytest.mark.parametrize(
    "statements",
    [
        ["UPDATE attempts SET repetition = 'x' WHERE attempt_id = 6"],
        ["UPDATE options SET key = 'false'"],
        ["UPDATE attempts SET raw_response = CAST(X'FF' AS TEXT) WHERE attempt_id = 2"],
        ["UPDATE attempts SET attempt_id = 'seven' WHERE attempt_id = 7"],
    ],
    ids=["text repetition", "text key", "invalid utf-8", "text attempt id"],
)
@pytest.mark.parametrize("command", ["rescore", "keyaudit"])
def test_every_command_exits_2_with_one_line(
    make_audit_db: MakeDb, statements: list[str], command: str
) -> None:
    path = make_audit_db(untyped=True, after=statements)
    before = sha256(path)
    result = _cli(command, str(path))
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    assert result.stderr.startswith("error: ")
    assert result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr
    assert sha256(path) == before


def test_a_large_file_is_checked_in_the_two_process_rescore(make_audit_db: MakeDb) -> None:
    path = make_audit_db(
        untyped=True, after=["UPDATE attempts SET correct = 'yes' WHERE attempt_id = 30"]
    )
    with open_audit(path) as db, pytest.raises(AuditError, match="correct is 'yes'"):
        rescore(db, workers=2)


def test_a_replaced_file_is_never_paired_with_the_replacement_fingerprint(
    make_audit_db: MakeDb,
) -> None:
    path = make_audit_db()
    original = sha256(path)
    other = make_audit_db(extra_questions=3)
    with open_audit(path) as db:
        rescore(db)
        os.replace(other, path)  # a program swaps the file under the desk
        assert db.fingerprint() == original  # the bytes read, through the pinned descriptor
        with pytest.raises(AuditError, match="changed while being read"):
            db.summary()


def test_rescore_table_escapes_control_characters_from_the_file(make_audit_db: MakeDb) -> None:
    forged = "model-a\x1b[2K\r| r9  forged-model  100.0%\u202e"
    path = make_audit_db(after=[f"UPDATE runs SET model = '{forged}' WHERE run_id = 'r1'"])
    result = _cli("rescore", str(path), "--table")
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout
    assert "\r" not in result.stdout
    assert "\u202e" not in result.stdout
    assert "model-a\\x1b[2K\\r| r9  forged-model  100.0%\\u202e" in result.stdout


def test_an_error_line_quoting_the_file_has_no_control_characters(make_audit_db: MakeDb) -> None:
    path = make_audit_db(
        untyped=True, after=["UPDATE attempts SET state = 'x' || char(27) || '[31m' || char(13)"]
    )
    result = _cli("rescore", str(path))
    assert result.returncode == 2
    line = result.stderr
    assert line.count("\n") == 1
    assert "\x1b" not in line
    assert "\r" not in line
    assert "\\x1b[31m" in line


def test_output_to_a_full_disk_is_one_error_line(audit_db: Path) -> None:
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [sys.executable, "-m", "ai4hse_desk.launcher", "rescore", str(audit_db)],
            stdout=full, stderr=subprocess.PIPE, text=True, check=False,
        )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr == "error: cannot write the output: No space left on device\n"


FILE_LEVEL = {
    "text key": ["UPDATE options SET key = 'false'"],
    "attempts view": [
        "ALTER TABLE attempts RENAME TO real_attempts",
        "CREATE VIEW attempts AS SELECT * FROM real_attempts ORDER BY random()",
    ],
    "duplicate question": ["INSERT INTO questions VALUES ('Q001', 77, 'again')"],
}


@pytest.mark.parametrize("case", sorted(FILE_LEVEL))
@pytest.mark.parametrize(
    "command",
    [
        ["flag", "{db}", "--question", "Q001", "--category", "other", "--note", "n",
         "--reviewer", "ann", "--notes", "{store}"],
        ["notes", "export", "{db}", "--format", "json", "--out", "{out}", "--notes", "{store}"],
        ["notes", "agreement", "{db}", "--notes", "{store}"],
        ["rescore", "{db}", "--table"],
    ],
    ids=["flag", "notes export", "notes agreement", "rescore --table"],
)  # fmt: skip
def test_a_file_level_problem_stops_every_command(
    make_audit_db: MakeDb, tmp_path: Path, case: str, command: list[str]
) -> None:
    path = make_audit_db(untyped=True, after=FILE_LEVEL[case])
    before = sha256(path)
    names = {"db": str(path), "store": str(tmp_path / "n.sqlite"), "out": str(tmp_path / "o.json")}
    result = _cli(*(part.format(**names) for part in command))
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith("error: ")
    assert result.stderr.count("\n") == 1
    assert sha256(path) == before
    assert not (tmp_path / "o.json").exists()
    assert not (tmp_path / "n.sqlite").exists()


@pytest.mark.parametrize(
    "bad",
    [["--question", "Q404"], ["--question", "Q001", "--option", "9"], ["--category", "vibes"]],
    ids=["unknown question", "option out of range", "unknown category"],
)
def test_a_refused_flag_leaves_no_store_behind(audit_db: Path, bad: list[str]) -> None:
    args = {"--question": "Q001", "--category": "other", "--note": "n", "--reviewer": "ann"}
    for name, value in zip(bad[::2], bad[1::2], strict=True):
        args[name] = value
    before = sorted(p.name for p in audit_db.parent.iterdir())
    result = _cli("flag", str(audit_db), *(part for pair in args.items() for part in pair))
    assert result.returncode == 2
    assert result.stderr.startswith("error: ")
    assert sorted(p.name for p in audit_db.parent.iterdir()) == before
