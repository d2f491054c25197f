"""A whole-file rescore checks the attempts' values inside its own scan (one pass, not two)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from ai4hse_desk.audit import AuditError, open_audit
from ai4hse_desk.audit.queries import AuditDB
from ai4hse_desk.verdicts import verdict_loop
from ai4hse_desk.verdicts.rescore import iter_verdict_batches, rescore

MakeDb = Callable[..., Path]


def _no_second_scan(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(_: AuditDB) -> None:
        raise AssertionError("the values were checked on a second scan")

    monkeypatch.setattr(verdict_loop, "idle_cores", lambda **_: 0.0)  # a loaded machine
    monkeypatch.setattr(AuditDB, "start_attempts_check", refuse)


def test_with_an_idle_core_the_check_runs_beside_the_scan(
    make_audit_db: MakeDb, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[AuditDB] = []
    start = AuditDB.start_attempts_check

    def record(db: AuditDB) -> None:
        started.append(db)
        start(db)

    monkeypatch.setattr(verdict_loop, "idle_cores", lambda **_: 1.5)
    monkeypatch.setattr(AuditDB, "start_attempts_check", record)
    with open_audit(make_audit_db(untyped=True)) as db:
        rescore(db, workers=1)
        assert started == [db]
        assert db.attempts_valid


def test_a_whole_file_rescore_checks_in_its_own_scan(
    make_audit_db: MakeDb, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = make_audit_db(untyped=True)
    with open_audit(path) as db:
        every = [run.run_id for run in db.runs()]
        expected = rescore(db, every, workers=1)  # a run filter: the threaded check
    _no_second_scan(monkeypatch)
    with open_audit(path) as db:
        assert not db.attempts_valid
        assert rescore(db, workers=1) == expected
        assert db.attempts_valid  # recorded as checked: later readers do not scan again


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        ("UPDATE attempts SET latency_ms = 'fast' WHERE attempt_id = 9", "latency_ms is 'fast'"),
        ("UPDATE attempts SET error = x'00' WHERE attempt_id = 3", "error is X'00'"),
        ("UPDATE attempts SET repetition = 7 WHERE attempt_id = 5", "repetition 7 of run"),
        # Columns the scan returns: checked on each fetched batch, not in its SQL.
        ("UPDATE attempts SET strict_format = 1.0 WHERE attempt_id = 4", "strict_format is 1.0"),
        ("UPDATE attempts SET correct = 2 WHERE attempt_id = 6", "correct is 2"),
        ("UPDATE attempts SET state = 'done' WHERE attempt_id = 2", "state is 'done'"),
        ("UPDATE attempts SET raw_response = x'00' WHERE attempt_id = 7", "raw_response is X'00'"),
        ("UPDATE attempts SET parse_status = 5 WHERE attempt_id = 8", "parse_status is 5"),
        ("UPDATE attempts SET repetition = 0 WHERE attempt_id = 10", "repetition is 0"),
        ("UPDATE attempts SET question_id = NULL WHERE attempt_id = 11", "question_id is NULL"),
        # What the rows refer to, checked on the fetched batch too.
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
def test_the_scan_refuses_with_the_checks_message_and_hands_over_nothing(
    make_audit_db: MakeDb, monkeypatch: pytest.MonkeyPatch, statement: str, expected: str
) -> None:
    path = make_audit_db(untyped=True, after=[statement])
    _no_second_scan(monkeypatch)
    with open_audit(path) as db:
        batches = iter_verdict_batches(db)
        with pytest.raises(AuditError, match="values break the audit schema") as caught:
            next(batches)
        assert expected in str(caught.value)
        with pytest.raises(AuditError, match="values break the audit schema"):
            rescore(db, workers=1)


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        ("UPDATE attempts SET strict_format = 'yes' WHERE attempt_id = 10", "strict_format is"),
        ("UPDATE attempts SET latency_ms = 'fast' WHERE attempt_id = 10", "latency_ms is 'fast'"),
    ],
    ids=["returned column", "unread column"],
)
def test_a_bad_row_in_a_later_batch_stops_the_scan_before_its_batch(
    make_audit_db: MakeDb, monkeypatch: pytest.MonkeyPatch, statement: str, expected: str
) -> None:
    """A typed file (attempt_id its rowid) streams: the batches before the bad row's are
    handed over, the bad row's batch never is."""
    path = make_audit_db(after=[statement])
    _no_second_scan(monkeypatch)
    monkeypatch.setattr(verdict_loop, "BATCH", 3)
    seen: list[int] = []

    def read_all() -> None:
        with open_audit(path) as db:
            for batch in iter_verdict_batches(db):
                seen.extend(verdict[0] for verdict in batch)

    with pytest.raises(AuditError, match="values break the audit schema") as caught:
        read_all()
    assert expected in str(caught.value)
    assert seen
    assert max(seen) < 10
