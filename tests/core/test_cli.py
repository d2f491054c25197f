"""Headless commands as a script sees them: JSON, ordering, exit codes, one error line."""

from __future__ import annotations

import io
import json
import os
import re
import sqlite3
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.launcher import main
from ai4hse_desk.scores.table_rows import ScoreRow, column, display
from tests.core.desk_helpers import listing, sha256

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from tests.audit_factory import AuditContent

RUN_KEYS = {
    "run_id", "model", "track", "protocol_version", "status", "scored", "attempts", "correct",
    "valid", "exact_accuracy", "coverage", "valid_accuracy", "option_accuracy", "precision",
    "recall", "f1", "hamming_loss", "strict_format_rate", "errors", "baselines", "repetitions",
    "slices", "consistency_index", "disagreements",
}  # fmt: skip
ATTEMPT_KEYS = {
    "attempt_id", "run_id", "question_id", "repetition", "status", "selection",
    "strict_format", "correct", "recorded_status", "agrees",
}  # fmt: skip


def run_cli(
    capsys: pytest.CaptureFixture[str], *args: str, stdin: str | None = None
) -> tuple[int, str, str]:
    if stdin is not None:
        old = sys.stdin
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")))
        try:
            code = main(list(args))
        finally:
            sys.stdin = old
    else:
        code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def run_process(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "ai4hse_desk", *args],
        input=stdin,
        capture_output=True,
        check=False,
        env={**os.environ, "PYTHONWARNINGS": "error"},
    )
    return subprocess.CompletedProcess(
        done.args, done.returncode, done.stdout.decode("utf-8"), done.stderr.decode("utf-8")
    )


# --- extract ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "stdin", "expected"),
    [
        (
            ["--track", "answer_only", "--options", "4"],
            "[TRUE, FALSE, TRUE, FALSE]",
            {"status": "valid", "selection": [True, False, True, False], "strict_format": True},
        ),
        (
            ["--track", "answer_only", "--options", "2", "--protocol", "9"],
            "Sure: [TRUE, FALSE]",
            {"status": "malformed", "selection": None, "strict_format": False},
        ),
        (
            ["--track", "answer_only", "--options", "2", "--finish-reason", "length"],
            "[TRUE, FALSE]",
            {"status": "incomplete", "selection": [True, False], "strict_format": False},
        ),
        (
            ["--track", "reasoning_assisted", "--options", "3"],
            "Because.\nFINAL_ANSWER: TRUE, FALSE, TRUE\n",
            {"status": "valid", "selection": [True, False, True], "strict_format": False},
        ),
        (
            ["--track", "structured_output", "--options", "2"],
            '{"answers": [true, false], "answers": [true, true]}',
            {"status": "schema_violation", "selection": None, "strict_format": False},
        ),
        (
            ["--track", "single_choice", "--options", "4"],
            "The answer is (C).",
            {"status": "valid", "selection": [False, False, True, False], "strict_format": False},
        ),
    ],
)
def test_extract_prints_the_contract_object(
    capsys: pytest.CaptureFixture[str], args: list[str], stdin: str, expected: dict[str, object]
) -> None:
    code, out, err = run_cli(capsys, "extract", *args, stdin=stdin)
    assert (code, err) == (0, "")
    assert json.loads(out) == expected


def test_extract_explain_adds_reason_and_spans(capsys: pytest.CaptureFixture[str]) -> None:
    text = "first [TRUE, TRUE] then [FALSE, TRUE]"
    code, out, _ = run_cli(
        capsys, "extract", "--track", "answer_only", "--options", "2", "--explain", stdin=text
    )
    result = json.loads(out)
    assert code == 0
    assert [text[a:b] for a, b in result["spans"]] == ["[FALSE, TRUE]"]
    assert result["reason"]


@pytest.mark.parametrize(
    "args",
    [
        ["extract", "--track", "answer_only"],
        ["extract", "--track", "poetry", "--options", "4"],
        ["extract", "--track", "answer_only", "--options", "0"],
        ["extract", "--track", "answer_only", "--options", "four"],
        ["rescore"],
        ["demo"],
    ],
)
def test_bad_arguments_exit_2_with_one_error_line(args: list[str]) -> None:
    result = run_process(*args)
    assert result.returncode == 2
    assert result.stderr.startswith("error: ")
    assert len(result.stderr.splitlines()) == 1
    assert "Traceback" not in result.stderr


def test_extract_rejects_invalid_utf8_on_stdin() -> None:
    result = run_process("extract", "--track", "answer_only", "--options", "2", stdin=b"[\xff]")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        "error: standard input is not valid UTF-8 (byte 0xff at offset 1)"
    ]


# --- rescore ---------------------------------------------------------------------------


def test_rescore_prints_the_contract_json(
    capsys: pytest.CaptureFixture[str], audit_db: Path
) -> None:
    before = sha256(audit_db)
    code, out, err = run_cli(capsys, "rescore", str(audit_db))
    assert (code, err) == (0, "")
    data = json.loads(out)
    assert set(data) == {"audit", "runs"}
    assert data["audit"] == {
        "path": str(audit_db.resolve()),
        "sha256": before,
        "schema_version": 1,
        "benchmark": "AI4HSE-Bench v1",
        "corpus_id": "test-corpus-1",
    }
    assert [run["run_id"] for run in data["runs"]] == ["r1", "r2", "r3"]
    for run in data["runs"]:
        assert set(run) == RUN_KEYS
    unfinished = data["runs"][2]
    assert unfinished["scored"] is False
    assert unfinished["exact_accuracy"] is None
    assert unfinished["disagreements"] == 1
    assert sha256(audit_db) == before


def test_rescore_orders_runs_by_track_then_accuracy(
    capsys: pytest.CaptureFixture[str],
    make_audit_db: Callable[..., Path],
    audit_content: AuditContent,
) -> None:
    from dataclasses import replace

    content = audit_content
    runs = list(content.runs)
    attempts = list(content.attempts)
    # A second answer-only run, r0, that answers everything with an all-FALSE list: it
    # must come after r1 (higher accuracy) although its id sorts first.
    runs.append({**runs[0], "run_id": "r0", "model": "model-z"})
    keys = content.keys()
    next_id = max(a["attempt_id"] for a in attempts) + 1
    for a in [a for a in attempts if a["run_id"] == "r1"]:
        n = len(keys[a["question_id"]])
        attempts.append(
            {**a, "attempt_id": next_id, "run_id": "r0", "state": "answered",
             "raw_response": "[" + ", ".join(["FALSE"] * n) + "]", "finish_reason": "stop",
             "error": None, "parse_status": None, "extracted": None,
             "strict_format": None, "correct": None}
        )  # fmt: skip
        next_id += 1
    db = make_audit_db(content=replace(content, runs=tuple(runs), attempts=tuple(attempts)))
    code, out, _ = run_cli(capsys, "rescore", str(db))
    assert code == 0
    data = json.loads(out)
    order = [(run["track"], run["run_id"]) for run in data["runs"]]
    assert order == [
        ("answer_only", "r1"),
        ("answer_only", "r0"),
        ("reasoning_assisted", "r2"),
        ("structured_output", "r3"),
    ]
    r1, r0 = data["runs"][0], data["runs"][1]
    assert r1["exact_accuracy"] > r0["exact_accuracy"]


def test_rescore_run_filter_and_per_attempt(
    capsys: pytest.CaptureFixture[str], audit_db: Path
) -> None:
    code, out, _ = run_cli(capsys, "rescore", str(audit_db), "--run", "r3", "--per-attempt")
    data = json.loads(out)
    assert code == 0
    assert [run["run_id"] for run in data["runs"]] == ["r3"]
    ids = [a["attempt_id"] for a in data["attempts"]]
    assert ids == sorted(ids)
    assert len(ids) == data["runs"][0]["attempts"]
    assert all(set(a) == ATTEMPT_KEYS and a["run_id"] == "r3" for a in data["attempts"])
    disagreeing = [a for a in data["attempts"] if not a["agrees"]]
    assert [(a["status"], a["recorded_status"]) for a in disagreeing] == [("invalid_json", "valid")]


def test_rescore_per_attempt_covers_every_attempt(
    capsys: pytest.CaptureFixture[str], audit_db: Path
) -> None:
    _, out, _ = run_cli(capsys, "rescore", str(audit_db), "--per-attempt")
    data = json.loads(out)
    with sqlite3.connect(f"file:{audit_db}?mode=ro&immutable=1", uri=True) as con:
        ids = [row[0] for row in con.execute("SELECT attempt_id FROM attempts ORDER BY 1")]
    assert [a["attempt_id"] for a in data["attempts"]] == ids
    per_run = {run["run_id"]: run["correct"] for run in data["runs"]}
    for run_id, correct in per_run.items():
        assert correct == sum(a["correct"] for a in data["attempts"] if a["run_id"] == run_id)


def test_rescore_table_is_per_track(capsys: pytest.CaptureFixture[str], audit_db: Path) -> None:
    code, out, _ = run_cli(capsys, "rescore", str(audit_db), "--table")
    assert code == 0
    assert out.count("== ") == 3
    assert "unfinished — no aggregate score" in out
    header, _, first = out.split("== answer_only", 1)[1].splitlines()[1:4]
    cells = dict(zip(re.split(r"\s{2,}", header), re.split(r"\s{2,}", first), strict=True))
    code, printed, _ = run_cli(capsys, "rescore", str(audit_db))
    run = json.loads(printed)["runs"][0]
    row = ScoreRow(run, None)
    assert cells["run"] == "r1"
    for header_text, key in (("protocol", "protocol_version"), ("exact acc", "exact_accuracy"),
                             ("strict", "strict_format_rate"), ("F1", "f1")):  # fmt: skip
        assert cells[header_text] == display(column(key), row)  # as the scores table writes it
    assert cells["protocol"] == "10"
    assert re.fullmatch(r"0\.\d{3}", cells["F1"])


# --- bad input: exit 2, one error line, nothing changed, nothing created ------------------


def _truncated(make_audit_db: Callable[..., Path]) -> Path:
    db = make_audit_db(extra_questions=200)
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])
    return db


def _text_file(make_audit_db: Callable[..., Path]) -> Path:
    db = make_audit_db()
    db.write_text("question,answer\nQ1,TRUE\n")
    return db


def _empty_file(make_audit_db: Callable[..., Path]) -> Path:
    db = make_audit_db()
    db.write_bytes(b"")
    return db


def _foreign(make_audit_db: Callable[..., Path]) -> Path:
    db = make_audit_db()
    db.unlink()
    with sqlite3.connect(db) as con:
        con.execute("CREATE TABLE recipes (name TEXT)")
    return db


BAD_INPUTS: dict[str, tuple[Callable[[Callable[..., Path]], Path], str]] = {
    "text file": (_text_file, "not a database"),
    "empty file": (_empty_file, "empty"),
    "truncated": (_truncated, ""),
    "schema v2": (lambda make: make(schema_version="2"), "schema version 2"),
    "missing table": (lambda make: make(drop_tables=["options"]), "options"),
    "missing column": (
        lambda make: make(drop_columns={"attempts": ["raw_response"]}),
        "raw_response",
    ),
    "foreign sqlite": (_foreign, "audit_meta"),
}


@pytest.mark.parametrize("command", ["rescore", "rescore-per-attempt"])
@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_audit_file_exit_2_unchanged(
    make_audit_db: Callable[..., Path], case: str, command: str
) -> None:
    build, fragment = BAD_INPUTS[case]
    db = build(make_audit_db)
    before = listing(db.parent)
    extra = ["--per-attempt"] if command.endswith("per-attempt") else []
    result = run_process("rescore", str(db), *extra)
    assert result.returncode == 2, result.stderr
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: "), result.stderr
    assert fragment in lines[0]
    assert listing(db.parent) == before


def test_missing_path_exit_2_and_nothing_created(tmp_path: Path) -> None:
    missing = tmp_path / "nope.sqlite"
    result = run_process("rescore", str(missing))
    assert result.returncode == 2
    assert result.stderr.splitlines() == [result.stderr.strip()]
    assert result.stderr.startswith("error: ")
    assert list(tmp_path.iterdir()) == []


def test_unknown_run_exit_2(audit_db: Path) -> None:
    before = listing(audit_db.parent)
    result = run_process("rescore", str(audit_db), "--run", "r9")
    assert result.returncode == 2
    assert result.stderr.splitlines() == ["error: unknown run: r9"]
    assert result.stdout == ""
    assert listing(audit_db.parent) == before


# --- demo ------------------------------------------------------------------------------


def test_demo_writes_a_database_rescore_reads(tmp_path: Path) -> None:
    out = tmp_path / "demo.sqlite"
    assert run_process("demo", "--out", str(out)).returncode == 0
    before = sha256(out)
    result = run_process("rescore", str(out))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert {run["track"] for run in data["runs"]} >= {
        "answer_only", "reasoning_assisted", "structured_output"
    }  # fmt: skip
    assert any(not run["scored"] for run in data["runs"])
    assert sum(run["disagreements"] for run in data["runs"]) > 0
    assert sha256(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["demo.sqlite"]


def test_demo_never_overwrites(tmp_path: Path) -> None:
    out = tmp_path / "precious.sqlite"
    out.write_bytes(b"keep me")
    result = run_process("demo", "--out", str(out))
    assert result.returncode == 2
    assert result.stderr.splitlines()[0].startswith("error: ")
    assert out.read_bytes() == b"keep me"


def test_every_registered_command_is_headless() -> None:
    from ai4hse_desk.cli.main import HEADLESS_COMMANDS, build_parser

    parser = build_parser()
    subparsers = next(a for a in parser._actions if a.dest == "command")
    assert subparsers.choices is not None
    assert set(subparsers.choices) == set(HEADLESS_COMMANDS)
