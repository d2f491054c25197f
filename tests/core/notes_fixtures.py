"""Shared helpers of the reviewer-notes tests: the PostgreSQL URL, writer processes, audit checks.

The fixtures over them (``store_url``, ``pg_url``, ``store``) are in ``conftest.py``.

PostgreSQL: ``$AI4HSE_TEST_PG_URL`` names a database (``make test`` starts a
throwaway cluster with ``scripts/pg-test-cluster.sh`` and sets it). Each test
gets a fresh schema in it (``search_path`` set through the URL), dropped after.
Without the variable the PostgreSQL cases skip — unless ``AI4HSE_REQUIRE_PG=1``
(set by ``make test``), where they fail.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ai4hse_desk.launcher import main
from tests.core.desk_helpers import sha256

PG_ENV = "AI4HSE_TEST_PG_URL"
REQUIRE_ENV = "AI4HSE_REQUIRE_PG"


def pg_base_url() -> str:
    """The test database URL, or skip (fail under ``AI4HSE_REQUIRE_PG=1``)."""
    url = os.environ.get(PG_ENV, "")
    if not url:
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(f"{REQUIRE_ENV}=1 but {PG_ENV} is unset: the PostgreSQL cluster is missing")
        pytest.skip(f"{PG_ENV} is unset (make test starts a PostgreSQL cluster)")
    return url


def rescore_json(audit: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    """``ai4hse-desk rescore AUDIT --per-attempt`` as parsed JSON."""
    capsys.readouterr()
    assert main(["rescore", str(audit), "--per-attempt"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert isinstance(data, dict)
    return data


class AuditUnchanged:
    """Remembers an audit file's bytes and rescore output; :meth:`check` compares."""

    def __init__(self, audit: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.audit, self.capsys = audit, capsys
        self.digest = sha256(audit)
        self.listing = sorted(p.name for p in audit.parent.iterdir())
        self.scores = rescore_json(audit, capsys)

    def check(self) -> None:
        """The audit file is byte-identical and rescore prints the same runs."""
        assert sha256(self.audit) == self.digest
        for suffix in ("-wal", "-shm", "-journal"):
            assert not Path(f"{self.audit}{suffix}").exists()
        assert rescore_json(self.audit, self.capsys) == self.scores


#: A child process adding flags: argv = audit, store, reviewer, count, question ids (comma).
#: Prints "ready", waits for a line on stdin, then prints each flag id once committed.
WRITER = """
import sys
from ai4hse_desk.audit import open_audit
from ai4hse_desk.notes.store import NotesStore
audit, store, reviewer, count, qids = sys.argv[1:6]
questions = qids.split(",")
with open_audit(audit) as db, NotesStore.open(db, store) as notes:
    print("ready", flush=True)
    sys.stdin.readline()
    for i in range(int(count)):
        flag = notes.add_flag(question_id=questions[i % len(questions)], category="other",
                              note=f"{reviewer} {i}", reviewer=reviewer)
        print(flag.flag_id, flush=True)
"""


def start_writer(audit: Path, store: str, reviewer: str, count: int) -> subprocess.Popen[str]:
    """Start a :data:`WRITER` process and wait until it has opened the store."""
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(audit), store, reviewer, str(count), "Q001,Q002,Q003"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if line.strip() != "ready":
        proc.kill()
        _, err = proc.communicate()
        raise AssertionError(f"writer did not start: {line!r} {err}")
    return proc


def go(proc: subprocess.Popen[str]) -> None:
    """Let a started writer begin writing."""
    assert proc.stdin is not None
    proc.stdin.write("go\n")
    proc.stdin.flush()
