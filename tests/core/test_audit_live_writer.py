"""A rollback-journal writer flipping every answer while ``rescore`` reads the file.

The writer (a real process, SQLite's default journal mode, one transaction per
flip) switches all attempts between all-correct and all-wrong. Every rescore
must report one committed state (all correct or none) or exit 2; never a mix.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

QUESTIONS = 600
REPETITIONS = 10
RIGHT = "[TRUE, TRUE, TRUE, TRUE]"
WRONG = "[FALSE, FALSE, FALSE, FALSE]"

WRITER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], timeout=30, isolation_level=None)
flips = 0
deadline = time.monotonic() + float(sys.argv[2])
while time.monotonic() < deadline:
    conn.execute("BEGIN IMMEDIATE")
    conn.execute(
        "UPDATE attempts SET raw_response = CASE raw_response WHEN ? THEN ? ELSE ? END, "
        "error = hex(randomblob(300))", (sys.argv[3], sys.argv[4], sys.argv[3]))
    conn.execute("COMMIT")
    flips += 1
print(flips)
"""


def _build(path: Path) -> None:
    schema = Path(__file__).resolve().parents[2] / "resources" / "schema" / "audit-db-v1.sql"
    conn = sqlite3.connect(path)
    conn.executescript(schema.read_text(encoding="utf-8"))
    meta = {"format": "ai4hse-audit", "schema_version": "1", "benchmark": "t",
            "corpus_id": "flip", "created_at": "2026-01-01T00:00:00Z"}  # fmt: skip
    conn.executemany("INSERT INTO audit_meta VALUES (?, ?)", meta.items())
    for q in range(QUESTIONS):
        qid = f"Q{q:04d}"
        conn.execute("INSERT INTO questions VALUES (?, ?, ?)", (qid, q, f"question {q}"))
        conn.executemany("INSERT INTO options VALUES (?, ?, ?, 1)",
                         [(qid, p, f"option {p}") for p in range(4)])  # fmt: skip
    conn.execute(
        "INSERT INTO runs (run_id, model, track, protocol_version, repetitions, status) "
        "VALUES ('r1', 'm', 'answer_only', 10, ?, 'complete')",
        (REPETITIONS,),
    )
    conn.executemany(
        "INSERT INTO attempts (run_id, question_id, repetition, state, raw_response, "
        "finish_reason, error) VALUES ('r1', ?, ?, 'answered', ?, 'stop', hex(randomblob(300)))",
        [(f"Q{q:04d}", rep, RIGHT) for rep in range(1, REPETITIONS + 1) for q in range(QUESTIONS)],
    )
    conn.commit()
    assert conn.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    conn.close()


@pytest.mark.slow
def test_rescore_reports_only_committed_states_under_a_live_writer(tmp_path: Path) -> None:
    path = tmp_path / "live.sqlite"
    _build(path)
    total = QUESTIONS * REPETITIONS
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), "12", RIGHT, WRONG],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    seen: list[int | str] = []
    try:
        time.sleep(0.3)
        deadline = time.monotonic() + 9
        while time.monotonic() < deadline:
            result = subprocess.run(
                [sys.executable, "-m", "ai4hse_desk.launcher", "rescore", str(path)],
                capture_output=True, text=True, check=False,
                env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
            )  # fmt: skip
            if result.returncode == 2:
                assert result.stderr.startswith("error: ")
                assert result.stderr.count("\n") == 1
                seen.append("refused")
                continue
            assert result.returncode == 0, result.stderr
            (run,) = json.loads(result.stdout)["runs"]
            assert run["attempts"] == total
            seen.append(run["correct"])
    finally:
        out, _ = writer.communicate(timeout=60)
    flips = int(out.strip() or 0)
    assert flips > 5, "the writer never got to write"
    scored = [count for count in seen if count != "refused"]
    assert scored, seen
    assert set(scored) <= {0, total}, seen
