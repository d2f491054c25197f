"""Every attempt's values are checked once per audit state: beside the first scan, and
recorded with the file's fingerprint in the cache, so a second open does not check again."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from ai4hse_desk.audit import AuditError, open_audit
from ai4hse_desk.audit import queries as queries_module
from ai4hse_desk.audit.cache import check_record_path, check_recorded
from ai4hse_desk.audit.queries import AuditDB
from ai4hse_desk.audit.value_check import check_attempts
from ai4hse_desk.verdicts.rescore import iter_verdict_batches, rescore

MakeDb = Callable[..., Path]


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The files whose attempts were checked in full (one entry per full check)."""
    checked: list[Path] = []
    check = check_attempts  # the one queries.py calls (imported there)

    def counting(conn: sqlite3.Connection, path: Path, *args: object) -> None:
        checked.append(path)
        check(conn, path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(queries_module, "check_attempts", counting)
    return checked


def test_the_check_runs_beside_the_scan(
    make_audit_db: MakeDb, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[AuditDB] = []
    start = AuditDB.start_attempts_check

    def record(db: AuditDB) -> None:
        started.append(db)
        start(db)

    monkeypatch.setattr(AuditDB, "start_attempts_check", record)
    with open_audit(make_audit_db(untyped=True)) as db:
        rescore(db, workers=1, record_check=True)
        assert started == [db]
        assert db.attempts_valid


def test_a_second_open_of_the_same_bytes_does_not_check_again(
    make_audit_db: MakeDb, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = make_audit_db(untyped=True)
    checked = _counted(monkeypatch)
    with open_audit(path) as db:
        expected = rescore(db, workers=1, record_check=True)
        assert check_recorded(db.fingerprint())
    assert len(checked) == 1
    with open_audit(path) as db:
        assert not db.attempts_valid
        assert rescore(db, workers=1, record_check=True) == expected
        assert db.attempts_valid
        assert list(iter_verdict_batches(db))
    assert len(checked) == 1  # the record stood for the check
    with sqlite3.connect(path) as conn:  # other bytes: another state, checked again
        conn.execute("UPDATE attempts SET latency_ms = 7 WHERE attempt_id = 1")
    with open_audit(path) as db:
        rescore(db, workers=1, record_check=True)
    assert len(checked) == 2


def test_a_record_of_another_state_or_desk_version_counts_as_none(
    make_audit_db: MakeDb, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = make_audit_db()
    with open_audit(path) as db:
        rescore(db, workers=1, record_check=True)
        fingerprint = db.fingerprint()
    record = check_record_path(fingerprint)
    data = json.loads(record.read_text(encoding="utf-8"))
    checked = _counted(monkeypatch)
    for change in ({"desk_version": "0.0.0"}, {"fingerprint": "0" * 64}, {"format": "other"}):
        record.write_text(json.dumps({**data, **change}), encoding="utf-8")
        assert not check_recorded(fingerprint)
    record.write_text("not json", encoding="utf-8")
    assert not check_recorded(fingerprint)
    with open_audit(path) as db:
        rescore(db, workers=1, record_check=True)
    assert len(checked) == 1
    assert check_recorded(fingerprint)  # written again


def test_a_failed_check_is_not_recorded(make_audit_db: MakeDb) -> None:
    path = make_audit_db(
        untyped=True, after=["UPDATE attempts SET correct = 2 WHERE attempt_id = 6"]
    )
    for _ in range(2):  # refused the second time too
        with open_audit(path) as db, pytest.raises(AuditError, match="correct is 2"):
            rescore(db, workers=1, record_check=True)
    with open_audit(path) as db:
        assert not check_recorded(db.fingerprint())


def test_a_cache_folder_that_cannot_be_written_costs_only_a_check(
    make_audit_db: MakeDb, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    blocked = tmp_path / "a-file-not-a-folder"
    blocked.write_text("x", encoding="utf-8")
    monkeypatch.setenv("AI4HSE_DESK_CACHE_DIR", str(blocked))
    path = make_audit_db()
    checked = _counted(monkeypatch)
    for _ in range(2):
        with open_audit(path) as db:
            assert rescore(db, workers=1, record_check=True).attempts == 30
    assert len(checked) == 2


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        ("UPDATE attempts SET latency_ms = 'fast' WHERE attempt_id = 9", "latency_ms is 'fast'"),
        ("UPDATE attempts SET error = x'00' WHERE attempt_id = 3", "error is X'00'"),
        ("UPDATE attempts SET repetition = 7 WHERE attempt_id = 5", "repetition 7 of run"),
        ("UPDATE attempts SET strict_format = 1.0 WHERE attempt_id = 4", "strict_format is 1.0"),
        ("UPDATE attempts SET correct = 2 WHERE attempt_id = 6", "correct is 2"),
        ("UPDATE attempts SET state = 'done' WHERE attempt_id = 2", "state is 'done'"),
        ("UPDATE attempts SET raw_response = x'00' WHERE attempt_id = 7", "raw_response is X'00'"),
        ("UPDATE attempts SET parse_status = 5 WHERE attempt_id = 8", "parse_status is 5"),
        ("UPDATE attempts SET repetition = 0 WHERE attempt_id = 10", "repetition is 0"),
        ("UPDATE attempts SET question_id = NULL WHERE attempt_id = 11", "question_id is NULL"),
        ("UPDATE attempts SET run_id = 'ghost' WHERE attempt_id = 12", "run 'ghost' is not in"),
        ("UPDATE attempts SET question_id = 'Q404' WHERE attempt_id = 13", "'Q404' is not in"),
    ],
    ids=[
        "unread column",
        "blob",
        "repetition beyond the run's",
        "real flag",
        "flag 2",
        "unknown state",
        "blob response",
        "integer status",
        "repetition 0",
        "NULL question",
        "unknown run",
        "unknown question",
    ],
)
def test_the_stream_refuses_with_the_checks_message_and_hands_over_nothing(
    make_audit_db: MakeDb, statement: str, expected: str
) -> None:
    """One batch of attempts: the check is waited for before the last batch goes out."""
    path = make_audit_db(untyped=True, after=[statement])
    with open_audit(path) as db:
        batches = iter_verdict_batches(db)
        with pytest.raises(AuditError, match="values break the audit schema") as caught:
            next(batches)
        assert expected in str(caught.value)
        with pytest.raises(AuditError, match="values break the audit schema"):
            rescore(db, workers=1, record_check=True)


def test_only_a_rescore_asked_to_records_the_check(make_audit_db: MakeDb) -> None:
    """A library rescore (the analysis frames, the scores) writes nothing; the command
    records the check, with one process or two."""
    import subprocess
    import sys

    path = make_audit_db()
    with open_audit(path) as db:
        rescore(db, workers=1)
        rescore(db, workers=2)
        assert db.attempts_valid
        fingerprint = db.fingerprint()
    assert not check_recorded(fingerprint)
    with open_audit(path) as db:
        rescore(db, workers=2, record_check=True)
    assert check_recorded(fingerprint)
    check_record_path(fingerprint).unlink()
    done = subprocess.run(
        [sys.executable, "-m", "ai4hse_desk", "rescore", str(path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert check_recorded(fingerprint)
