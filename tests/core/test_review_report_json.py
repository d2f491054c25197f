"""``review report --format json`` as a publication (cli.md, "Reviewer identity,
adjudication queue, report evidence"): its header, the evidence per question, reviewer
effort, the key audit's check and the sensitivity table's named figures."""

from __future__ import annotations

import json
import re
import sqlite3
from typing import TYPE_CHECKING, Any

import pytest
from sqlalchemy import insert

from ai4hse_desk import __version__
from ai4hse_desk.audit import open_audit
from ai4hse_desk.keyaudit import compute_key_audit
from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.schema import review_shown
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.protocol.outcome import CURRENT_PROTOCOL_VERSION
from ai4hse_desk.review.adjudication import Adjudication
from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.review.effort import SESSION_CAP_SECONDS, verdict_time
from ai4hse_desk.review.report import review_report
from ai4hse_desk.verdicts.rescore import rescore
from tests.core.desk_helpers import cli

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from ai4hse_desk.audit import AuditDB

T, F, U = "TRUE", "FALSE", "UNSURE"


def _report(audit: Path, store: str, tmp_path: Path, *extra: str) -> dict[str, Any]:
    out = tmp_path / "report.json"
    code, _, err = cli("review", "report", str(audit), "--format", "json", "--out", str(out),
                       "--notes", store, *extra)  # fmt: skip
    assert (code, err) == (0, "")
    return json.loads(out.read_text())  # type: ignore[no-any-return]


def _review(audit: AuditDB, store: str) -> None:
    """ann and bob (K = 2) on every question, the plan made by "Coord"; cy decides."""
    with NotesStore.open(audit, store) as notes:
        book = ReviewBook(notes)
        book.make_plan(reviewers=["ann", "bob"], per_question=2, order="random", seed=11,
                       created_by="Coord")  # fmt: skip
        book.save_verdict("Q001", "ann", verdict="key_wrong", blind_answer=[T, F, T, T],
                          proposed_key=[T, F, T, T], confidence="high", source="EN 166",
                          note="hearing protection too")  # fmt: skip
        book.save_verdict("Q001", "bob", verdict="key_ok", blind_answer=[T, F, T, U])
        book.save_verdict("Q002", "ann", verdict="key_ok", not_blind=True)
        book.save_verdict("Q002", "bob", verdict="key_ok", not_blind=True)
        book.save_verdict("Q003", "ann", verdict="unclear_options", not_blind=True)
        book.save_verdict("Q003", "bob", verdict="key_ok", not_blind=True)
        book.save_verdict("Q005", "ann", verdict="typo_or_format", not_blind=True)
        book.save_verdict("Q005", "bob", verdict="typo_or_format", not_blind=True)
        adjudication = Adjudication(notes)
        adjudication.adjudicate("Q001", "cy", "key_corrected", key=[T, F, T, T], note="EN 166")
        adjudication.adjudicate("Q003", "cy", "question_excluded")


def test_the_header_names_when_by_what_on_which_file_under_which_plan(
    audit: AuditDB, tmp_path: Path
) -> None:
    store = str(tmp_path / "team.sqlite")
    _review(audit, store)
    report = _report(audit.path, store, tmp_path)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", report["generated_at"])
    assert report["desk_version"] == __version__
    assert report["protocol_version"] == CURRENT_PROTOCOL_VERSION
    assert report["audit"]["sha256"] == audit.fingerprint()
    plan = report["plan"]
    assert (plan["created_by"], plan["order"], plan["seed"], plan["per_question"]) == (
        "Coord", "random", 11, 2,
    )  # fmt: skip
    assert plan["created_at"].endswith("Z")
    assert plan["reviewers"] == ["ann", "bob"]
    method = report["method"]
    assert method["per_question"] == 2
    assert "blind" in method["blind_rule"]
    assert set(method["agreement"]) == {"units", "concern", "category", "blind_options",
                                        "blind_vs_key"}  # fmt: skip
    assert report["final_states"] == {"not_reviewed": 0, "under_review": 1, "confirmed": 2,
                                      "corrected": 1, "excluded": 1, "unresolved": 0}  # fmt: skip


def test_the_evidence_holds_every_question_with_a_concern_or_a_decision(
    audit: AuditDB, tmp_path: Path
) -> None:
    store = str(tmp_path / "team.sqlite")
    _review(audit, store)
    report = _report(audit.path, store, tmp_path)
    ranking = [q.question_id for q in compute_key_audit(audit).questions]
    evidence = {item["question_id"]: item for item in report["evidence"]}
    assert list(evidence) == ["Q001", "Q003", "Q005"]  # corpus order; Q002 has no concern
    q001 = evidence["Q001"]
    assert q001["official_key"] == [True, False, True, False]
    assert q001["reasons"] == ["key_wrong", "concern_vs_key_ok", "proposed_keys_differ"]
    assert q001["verdicts"][0] == {
        "reviewer": "ann", "verdict": "key_wrong", "blind_answer": [T, F, T, T],
        "proposed_key": [T, F, T, T], "confidence": "high", "source": "EN 166",
        "note": "hearing protection too",
    }  # fmt: skip
    assert q001["decision"]["decision"] == "key_corrected"
    assert q001["decision"]["key"] == [True, False, True, True]
    assert q001["key_audit_rank"] == ranking.index("Q001") + 1
    text = "Key corrected: A TRUE, B FALSE, C TRUE, D TRUE"
    assert q001["final_state"] == {"state": "corrected", "text": text}
    # agreed concern: no decision asked for, the key stands, the evidence is there
    assert evidence["Q005"]["reasons"] == []
    assert evidence["Q005"]["final_state"]["state"] == "confirmed"
    assert "question_text" not in json.dumps(report)
    private = _report(audit.path, store, tmp_path, "--include-private")
    assert private["evidence"][0]["question_text"] == audit.question("Q001").text
    assert private["evidence"][0]["options"] == [o.text for o in audit.question("Q001").options]


def test_sensitivity_names_its_three_figures_and_says_why_a_run_has_none(
    audit: AuditDB, tmp_path: Path
) -> None:
    store = str(tmp_path / "team.sqlite")
    _review(audit, store)
    rows = {r["run_id"]: r for r in _report(audit.path, store, tmp_path)["sensitivity"]}

    def by_hand(*sql: str) -> dict[str, object]:
        copy = tmp_path / "copy.sqlite"
        copy.write_bytes(audit.path.read_bytes())
        with sqlite3.connect(copy) as conn:
            for statement in sql:
                conn.execute(statement)
        conn.close()
        with open_audit(copy) as db:
            figures = {str(r["run_id"]): r["exact_accuracy"] for r in rescore(db).runs}
        copy.unlink()
        return figures

    corrected = "UPDATE options SET key = 1 WHERE question_id = 'Q001' AND position = 3"
    excluded = "DELETE FROM attempts WHERE question_id = 'Q003'"
    only = by_hand(corrected)
    both = by_hand(corrected, excluded)
    without = by_hand(excluded)
    assert {k: r["corrected_keys_only"] for k, r in rows.items()} == only
    assert {k: r["without_excluded_with_corrected_keys"] for k, r in rows.items()} == both
    assert {k: r["with_corrected_keys"] for k, r in rows.items()} == both  # cli.md's name
    assert {k: r["without_excluded"] for k, r in rows.items()} == without
    assert only != both  # the corrected-keys-only column does not leave Q003 out
    assert rows["r3"]["official"] is None
    assert rows["r3"]["unscored_reason"] == "unfinished: the runner marked the run 'unfinished'"
    assert rows["r1"]["unscored_reason"] is None
    assert set(rows["r1"]["repetitions"]) >= {"corrected_keys_only",
                                              "without_excluded_with_corrected_keys"}  # fmt: skip


def test_a_run_with_pending_attempts_says_so(
    make_audit_db: Callable[..., Path], tmp_path: Path
) -> None:
    path = make_audit_db()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE runs SET status = 'complete' WHERE run_id = 'r3'")
    conn.close()
    store = str(tmp_path / "team.sqlite")
    rows = {r["run_id"]: r for r in _report(path, store, tmp_path)["sensitivity"]}
    assert rows["r3"]["unscored_reason"] == "2 attempts pending"


def test_effort_counts_active_time_from_shown_to_submitted(audit: AuditDB, tmp_path: Path) -> None:
    store = str(tmp_path / "team.sqlite")
    _review(audit, store)
    with NotesStore.open(audit, store) as notes:
        report = review_report(audit, ReviewBook(notes))
        effort = report["effort"]
        assert isinstance(effort, dict)
        assert effort["timed"] == 0  # every verdict came without the desk showing it
        assert effort["confirmed_key_errors_per_reviewer_hour"] is None
        assert "no submitted verdict is timed" in effort["undefined_reason"]
        book = ReviewBook(notes)
        # Q004 shown to ann, answered and submitted; then shown again after: not recorded
        assert book.record_shown("Q004", "ann") is True
        book.record_blind("Q004", "ann", [T, T, T, F])
        book.save_verdict("Q004", "ann", verdict="key_ok", blind_answer=[T, T, T, F])
        assert book.record_shown("Q004", "ann") is False
        with pytest.raises(ReviewError, match="unknown reviewer"):
            book.record_shown("Q004", "zed")
        effort = review_report(audit, book)["effort"]
    assert isinstance(effort, dict)
    ann = effort["reviewers"][0]
    assert (ann["reviewer"], ann["submitted"], ann["timed"]) == ("ann", 5, 1)
    assert ann["active_seconds"] is not None
    assert effort["basis"] == "estimated"  # 1 of 9 submitted verdicts is timed
    assert effort["confirmed_key_errors"] == 1


def test_one_verdicts_sessions_and_the_cap() -> None:
    at = "2026-12-01T10:{:02d}:00.000000Z".format
    later = "2026-12-01T13:00:00.000000Z"
    changes = [(at(1), "draft"), (at(3), "draft"), (at(20), "draft"), (at(25), "submitted"),
               (at(40), "submitted")]  # fmt: skip
    # shown at :00 (worked till :03), again at :15 (till :25, the submission); :40 is after
    time = verdict_time("Q1", "ann", [at(0), at(15), at(45)], changes)
    assert time is not None
    assert (time.seconds, time.sessions, time.capped) == (180.0 + 600.0, 2, 0)
    # shown, nothing changed until the next showing: that session counts nothing
    time = verdict_time(
        "Q1", "ann", [at(0), at(2), at(24)], [(at(1), "draft"), (at(25), "submitted")]
    )
    assert time is not None
    assert (time.seconds, time.sessions) == (60.0 + 60.0, 2)
    # left open for hours: one capped session
    time = verdict_time("Q1", "ann", [at(0)], [(later, "submitted")])
    assert time is not None
    assert (time.seconds, time.capped) == (float(SESSION_CAP_SECONDS), 1)
    assert verdict_time("Q1", "ann", [at(0)], [(at(1), "draft")]) is None  # not submitted
    untimed = verdict_time("Q1", "ann", [at(30)], [(at(1), "submitted")])
    assert untimed is not None
    assert untimed.seconds is None


def test_confirmed_key_errors_per_reviewer_hour_when_every_verdict_is_timed(
    audit: AuditDB, tmp_path: Path
) -> None:
    with NotesStore.open(audit, str(tmp_path / "team.sqlite")) as notes:
        book = ReviewBook(notes)
        book.save_verdict("Q001", "ann", verdict="key_wrong", not_blind=True,
                          proposed_key=[T, F, T, T])  # fmt: skip
        book.save_verdict("Q001", "bob", verdict="key_ok", not_blind=True)
        Adjudication(notes).adjudicate("Q001", "cy", "key_corrected", key=[T, F, T, T])
        first = {v.reviewer: v for v in book.all_verdicts()}
        # each reviewer was shown Q001 exactly 30 minutes before their first change
        rows = [{"shown_id": f"00000000-0000-4000-8000-00000000000{n}", "question_id": "Q001",
                 "reviewer": who, "at": _minutes_before(first[who].created_at, 30),
                 "audit_sha256": None} for n, who in enumerate(("ann", "bob"))]  # fmt: skip
        notes.run(lambda c: c.execute(insert(review_shown), rows), write=True)
        effort = review_report(audit, book)["effort"]
    assert isinstance(effort, dict)
    assert effort["basis"] == "measured"
    assert [r["timed"] for r in effort["reviewers"]] == [1, 1]
    hours = effort["reviewer_hours"]
    assert 1.0 <= hours < 1.01  # two sessions of 30 minutes and a few milliseconds
    assert effort["confirmed_key_errors_per_reviewer_hour"] == pytest.approx(1 / hours, abs=1e-3)


def _minutes_before(at: str, minutes: int) -> str:
    from datetime import timedelta

    from ai4hse_desk.notes.model import parse_time

    moment = parse_time(at)
    assert moment is not None
    return (moment - timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def test_key_audit_check_counts_the_top_ten_percent_the_review_corrected(
    audit: AuditDB, tmp_path: Path
) -> None:
    ranking = [q.question_id for q in compute_key_audit(audit).questions]
    top, second = ranking[0], ranking[1]
    keys = audit.answer_keys()
    with NotesStore.open(audit, str(tmp_path / "team.sqlite")) as notes:
        book = ReviewBook(notes)
        for qid in (top, second):
            n = len(keys[qid])
            flipped = [F if k else T for k in keys[qid]]
            book.save_verdict(qid, "ann", verdict="key_wrong", not_blind=True,
                              proposed_key=flipped)  # fmt: skip
            book.save_verdict(qid, "bob", verdict="key_ok", not_blind=True)
            Adjudication(notes).adjudicate(qid, "cy", "key_corrected" if qid == top
                                           else "key_confirmed",
                                           key=flipped if qid == top else None)  # fmt: skip
            assert n == len(flipped)
        check = review_report(audit, book)["key_audit_check"]
    assert isinstance(check, dict)
    assert (check["ranked"], check["top"]) == (5, 1)  # 10 % of 5, rounded up
    assert (check["settled"], check["corrected"], check["share"]) == (1, 1, 1.0)
    assert check["wilson_low"] == pytest.approx(0.2065, abs=1e-4)
    assert check["others"]["settled"] == 1
    assert check["others"]["corrected"] == 0


def test_the_plans_creator_is_never_its_first_reviewer(
    make_audit_db: Callable[..., Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    audit = str(make_audit_db())
    store = ["--notes", str(tmp_path / "team.sqlite")]
    monkeypatch.setattr("getpass.getuser", lambda: "  jdoe ")
    code, _, err = cli("review", "plan", audit, "--reviewers", "ann,bob", "--per-question", "1",
                       *store)  # fmt: skip
    assert (code, err) == (0, "")
    with open_audit(audit) as db, NotesStore.open(db, store[1]) as notes:
        header = ReviewBook(notes).plan_header()
        assert header is not None
        assert header.created_by == "jdoe"
    code, _, err = cli("review", "plan", audit, "--reviewers", "ann,bob", "--per-question", "1",
                       "--replace", "--created-by", "Dee Coordinator", *store)  # fmt: skip
    assert (code, err) == (0, "")
    with open_audit(audit) as db, NotesStore.open(db, store[1]) as notes:
        header = ReviewBook(notes).plan_header()
        assert header is not None
        assert header.created_by == "Dee Coordinator"
    code, out, err = cli("review", "plan", audit, "--reviewers", "ann", "--per-question", "1",
                         "--replace", "--created-by", "bad\u202ename", *store)  # fmt: skip
    assert (code, out) == (2, "")
    assert "U+202E" in err
