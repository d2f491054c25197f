"""Three reviewers submitting 300 verdicts each at once, from three processes: 900 present."""

from __future__ import annotations

import subprocess
import sys
from typing import TYPE_CHECKING

import pytest

from tests.server_support import ReviewDatabase, fresh_database

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

pytestmark = pytest.mark.postgres

S = "ai4hse_review"
COUNT = 300
#: One reviewer's process: logs in, prints "ready", waits for a line, then submits a verdict
#: on each question of its queue (one transaction each) and prints each verdict's id.
REVIEWER = """
import sys
from ai4hse_desk.review.server.client import ReviewServer
server = ReviewServer.open(sys.argv[1])
questions = sys.argv[2].split(",")
print("ready", flush=True)
sys.stdin.readline()
for number, qid in enumerate(questions):
    verdict = "key_ok" if number % 3 else "unclear_question"
    print(server.save_verdict(qid, verdict=verdict, not_blind=True).verdict_id, flush=True)
server.close()
"""


@pytest.fixture
def review_db() -> Iterator[ReviewDatabase]:
    with fresh_database() as database:
        yield database


def test_three_reviewers_submit_300_verdicts_each_at_once(
    review_db: ReviewDatabase,
    make_audit_db: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
) -> None:
    audit = make_audit_db(extra_questions=COUNT)
    questions = [f"G{n:04d}" for n in range(1, COUNT + 1)]
    review_db.publish(
        audit,
        capsys,
        "--reviewers",
        "ann,bo,cy",
        "--per-question",
        "3",
        "--questions",
        ",".join(questions),
        "--responses",
        "none",
    )
    procs = []
    for role in ("ann", "bo", "cy"):
        proc = subprocess.Popen(
            [sys.executable, "-c", REVIEWER, review_db.url(role), ",".join(questions)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.strip() == "ready", proc.stderr.read() if proc.stderr else line
        procs.append(proc)
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    printed = []
    for proc in procs:
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        printed.append(out.split())
    assert [len(ids) for ids in printed] == [COUNT] * 3
    rows = review_db.sql(
        "coord",
        f"SELECT reviewer, count(*), count(DISTINCT question_id) "
        f"FROM {S}.verdicts GROUP BY reviewer ORDER BY reviewer",
    )
    assert rows == [("ann", COUNT, COUNT), ("bo", COUNT, COUNT), ("cy", COUNT, COUNT)]
    stored = review_db.sql("coord", f"SELECT verdict_id::text FROM {S}.verdicts")
    assert {row[0] for row in stored} == {vid for ids in printed for vid in ids}
    revisions = review_db.sql("coord", f"SELECT count(*) FROM {S}.verdict_revisions")
    assert revisions == [(3 * COUNT,)]
    status, out, err = review_db.desk(["review", "status", "--server", review_db.coord], capsys)
    assert status == 0, err
    assert out["coverage"] == {
        "questions": COUNT,
        "fully_reviewed": COUNT,
        "partly_reviewed": 0,
        "unreviewed": 0,
    }
    assert [r["submitted"] for r in out["reviewers"]] == [COUNT] * 3
