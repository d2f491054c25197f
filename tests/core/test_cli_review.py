"""``review plan | verdict | adjudicate | status | report`` as a script sees them, on SQLite
and on the real PostgreSQL cluster: the whole flow, bad input, several reviewers at once,
a killed reviewer, and an audit file that never changes."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Any

import pytest

from ai4hse_desk.audit import open_audit
from ai4hse_desk.cli.main import HEADLESS_COMMANDS
from ai4hse_desk.review.book import ReviewBook
from ai4hse_desk.verdicts.rescore import rescore
from tests.core import notes_fixtures
from tests.core.desk_helpers import cli, sha256

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

T, F = "TRUE", "FALSE"


def _review(*args: str) -> tuple[int, str, str]:
    return cli("review", *args)


def _ok(*args: str) -> dict[str, Any]:
    code, out, err = _review(*args)
    assert (code, err) == (0, ""), err
    return json.loads(out)  # type: ignore[no-any-return]


def test_review_is_headless() -> None:
    assert "review" in HEADLESS_COMMANDS


def test_the_whole_flow_plan_blind_verdicts_adjudication_report(
    make_audit_db: Callable[..., Path],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    store_url: str,
) -> None:
    audit = make_audit_db()
    unchanged = notes_fixtures.AuditUnchanged(audit, capsys)
    a, notes = str(audit), ["--notes", store_url]
    status = _ok("plan", a, "--reviewers", "bob,ann", "--per-question", "2", *notes)
    assert status["plan"] == {"per_question": 2, "questions": 5, "order": "corpus", "seed": None}
    assert [r["reviewer"] for r in status["reviewers"]] == ["ann", "bob"]
    unchanged.check()
    # Q001: ann finds the key wrong (blind answer first), bob passes it; both blind.
    _ok("verdict", a, "--question", "Q001", "--reviewer", "ann", "--verdict", "key_wrong",
        "--blind-answer", "[true, false, true, true]", "--proposed-key", "[TRUE,FALSE,TRUE,TRUE]",
        "--confidence", "high", "--source", "EN 166", *notes)  # fmt: skip
    _ok("verdict", a, "--question", "Q001", "--reviewer", "bob", "--verdict", "key_ok",
        "--blind-answer", "[TRUE, FALSE, TRUE, FALSE]", *notes)  # fmt: skip
    for qid in ("Q002", "Q003", "Q005"):
        for who in ("ann", "bob"):
            verdict = "unclear_question" if (qid, who) == ("Q003", "ann") else "key_ok"
            _ok("verdict", a, "--question", qid, "--reviewer", who, "--verdict", verdict,
                "--not-blind", *notes)  # fmt: skip
    draft = _ok("verdict", a, "--question", "Q004", "--reviewer", "ann", "--verdict",
                "unclear_question", "--not-blind", "--draft", *notes)  # fmt: skip
    assert draft["state"] == "draft"
    unchanged.check()
    status = _ok("status", a, *notes)
    assert status["coverage"] == {"questions": 5, "fully_reviewed": 4, "partly_reviewed": 0,
                                  "unreviewed": 1}  # fmt: skip
    assert status["adjudication"] == {"needed": 2, "decided": 0}
    assert status["reviewers"][0] == {"reviewer": "ann", "assigned": 5, "submitted": 4,
                                      "drafts": 1, "remaining": 1}  # fmt: skip
    decision = _ok("adjudicate", a, "--question", "Q001", "--adjudicator", "cy", "--decision",
                   "key_corrected", "--key", "[TRUE, FALSE, TRUE, TRUE]", "--note", "EN 166",
                   *notes)  # fmt: skip
    assert decision["key"] == [True, False, True, True]
    _ok("adjudicate", a, "--question", "Q003", "--adjudicator", "cy", "--decision",
        "question_excluded", *notes)  # fmt: skip
    out = tmp_path / "report.json"
    written = _ok("report", a, "--format", "json", "--out", str(out), *notes)
    assert written["written"] == str(out)
    report = json.loads(out.read_text())
    assert report["status"]["adjudication"] == {"needed": 2, "decided": 2}
    assert report["verdicts"]["key_ok"] == 6
    assert report["verdicts"]["key_wrong"] == 1
    assert report["agreement"]["concern"]["statistic"] == "cohen_kappa"
    assert report["agreement"]["concern"]["units"] == 4
    assert report["agreement"]["blind_vs_key"]["questions"] == {
        "agree": 1, "of": 2, "share": 0.5, "wilson_low": 0.0945, "wilson_high": 0.9055}  # fmt: skip
    assert [d["question_id"] for d in report["decisions"]] == ["Q001", "Q003"]
    assert "question_text" not in json.dumps(report)
    _check_sensitivity(audit, report["sensitivity"], tmp_path)
    html = tmp_path / "report.html"
    _ok("report", a, "--format", "html", "--out", str(html), *notes)
    page = html.read_text()
    assert "NOT OFFICIAL" in page
    assert "Which PPE is required" not in page
    _ok("report", a, "--format", "html", "--out", str(html), "--include-private", *notes)
    assert "Which PPE is required" in html.read_text()
    unchanged.check()


def _check_sensitivity(audit: Path, rows: list[dict[str, object]], tmp_path: Path) -> None:
    """The report's figures equal a rescore done by hand on a copy with Q001's key
    corrected and Q003's attempts removed; the official figure is rescore's own."""
    copy = tmp_path / "corrected.sqlite"
    copy.write_bytes(audit.read_bytes())
    with sqlite3.connect(copy) as conn:
        conn.execute("UPDATE options SET key = 1 WHERE question_id = 'Q001' AND position = 3")
        conn.execute("DELETE FROM attempts WHERE question_id = 'Q003'")
    conn.close()
    with open_audit(audit) as db:
        official = {r["run_id"]: r["exact_accuracy"] for r in rescore(db).runs}
    with open_audit(copy) as db:
        by_hand = {r["run_id"]: r["exact_accuracy"] for r in rescore(db).runs}
    assert {r["run_id"]: r["official"] for r in rows} == official
    assert {r["run_id"]: r["with_corrected_keys"] for r in rows} == by_hand
    assert all(r["not_official"] is True for r in rows)
    assert any(r["with_corrected_keys"] != r["official"] for r in rows)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["verdict", "--question", "Q999", "--reviewer", "ann", "--verdict", "key_ok",
          "--not-blind"], "unknown question: Q999"),
        (["verdict", "--question", "Q001", "--reviewer", "ann", "--verdict", "key_wrong",
          "--not-blind"], "needs a proposed key"),
        (["verdict", "--question", "Q001", "--reviewer", "ann", "--verdict", "key_wrong",
          "--not-blind", "--proposed-key", "[TRUE, FALSE, TRUE, FALSE]"],
         "key_wrong: the proposed key is the official key; propose the key you think is right"),
        (["verdict", "--question", "Q001", "--reviewer", "ann", "--verdict", "fine",
          "--not-blind"], "unknown verdict"),
        (["verdict", "--question", "Q001", "--reviewer", "ann", "--verdict", "key_ok",
          "--blind-answer", "[TRUE, FALSE]"], "has 2 values"),
        (["verdict", "--question", "Q001", "--reviewer", "ann", "--verdict", "key_ok",
          "--blind-answer", "TRUE FALSE"], "must be a list"),
        (["verdict", "--question", "Q001", "--reviewer", "zed", "--verdict", "key_ok",
          "--not-blind"], "unknown reviewer: zed"),
        (["verdict", "--question", "Q001", "--reviewer", "ann", "--verdict", "key_ok"],
         "one of the arguments --blind-answer --not-blind is required"),
        (["plan", "--reviewers", "ann,bob", "--per-question", "1"], "already exists"),
        (["plan", "--reviewers", "ann,bob", "--per-question", "3", "--replace"],
         "needs at least that many reviewers"),
        (["plan", "--reviewers", "ann,bob", "--per-question", "1", "--replace", "--order",
          "alphabet"], "unknown plan order"),
        (["adjudicate", "--question", "Q001", "--adjudicator", "ann", "--decision",
          "key_confirmed"], "one of Q001's reviewers"),
        (["adjudicate", "--question", "Q001", "--adjudicator", "cy", "--decision", "keep"],
         "unknown decision"),
        (["adjudicate", "--question", "Q001", "--adjudicator", "cy", "--decision",
          "key_corrected", "--key", "[TRUE, UNSURE, TRUE, FALSE]"],
         "is 'UNSURE' (one of TRUE, FALSE)"),
    ],
)  # fmt: skip
def test_bad_input_is_one_error_line_and_writes_nothing(
    make_audit_db: Callable[..., Path], tmp_path: Path, args: list[str], message: str
) -> None:
    audit = make_audit_db()
    store = tmp_path / "team.sqlite"
    a, notes = str(audit), ["--notes", str(store)]
    _ok("plan", a, "--reviewers", "ann,bob", "--per-question", "2", *notes)
    _ok("verdict", a, "--question", "Q001", "--reviewer", "ann", "--verdict", "key_ok",
        "--blind-answer", "[TRUE, FALSE, TRUE, FALSE]", *notes)  # fmt: skip
    before_audit, before = sha256(audit), _ok("status", a, *notes)
    code, out, err = _review(args[0], a, *args[1:], *notes)
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert err.startswith("error: ")
    assert message in err
    assert "Traceback" not in err
    assert _ok("status", a, *notes) == before
    assert sha256(audit) == before_audit


def test_a_blind_answer_after_the_reveal_is_refused(
    make_audit_db: Callable[..., Path], tmp_path: Path
) -> None:
    audit = make_audit_db()
    a, notes = str(audit), ["--notes", str(tmp_path / "s.sqlite")]
    _ok("verdict", a, "--question", "Q002", "--reviewer", "ann", "--verdict", "key_ok",
        "--not-blind", *notes)  # fmt: skip
    code, _, err = _review("verdict", a, "--question", "Q002", "--reviewer", "ann", "--verdict",
                           "key_ok", "--blind-answer", "[TRUE,TRUE,TRUE,TRUE]", *notes)  # fmt: skip
    assert code == 2
    assert "cannot be added after the key was shown" in err


def test_report_refuses_to_write_over_the_audit_file(
    make_audit_db: Callable[..., Path], tmp_path: Path
) -> None:
    audit = make_audit_db()
    before = sha256(audit)
    code, _, err = _review("report", str(audit), "--format", "json", "--out", str(audit),
                           "--notes", str(tmp_path / "s.sqlite"))  # fmt: skip
    assert code == 2
    assert "never writes it" in err
    assert sha256(audit) == before


#: A reviewer process: argv = audit, store, reviewer, first, count. Prints "ready", waits
#: for a line, then submits verdicts on questions G<first>… and prints each id once saved.
SUBMITTER = """
import sys
from ai4hse_desk.audit import open_audit
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.review.book import ReviewBook
audit, store, reviewer, first, count = sys.argv[1:6]
with open_audit(audit) as db, NotesStore.open(db, store) as notes:
    print("ready", flush=True)
    sys.stdin.readline()
    for i in range(int(first), int(first) + int(count)):
        qid = f"G{i:04d}"
        v = ReviewBook(notes).save_verdict(qid, reviewer, verdict="key_ok", not_blind=True,
                                      note=f"{reviewer} {i}")
        print(v.verdict_id, flush=True)
"""


def _start(audit: Path, store: str, reviewer: str, first: int, count: int) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-c", SUBMITTER, str(audit), store, reviewer, str(first), str(count)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready", proc.stderr
    return proc


def test_three_reviewers_submitting_at_once_lose_nothing(
    make_audit_db: Callable[..., Path], store_url: str
) -> None:
    audit = make_audit_db(extra_questions=300)
    procs = [_start(audit, store_url, who, 1, 300) for who in ("ann", "bob", "cy")]
    for proc in procs:
        notes_fixtures.go(proc)
    results = [proc.communicate(timeout=300) for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0, 0], [err for _, err in results]
    saved = {line for out, _ in results for line in out.split()}
    assert len(saved) == 900
    with open_audit(audit) as db:
        from ai4hse_desk.notes.store import NotesStore

        with NotesStore.open(db, store_url) as notes:
            present = ReviewBook(notes).all_verdicts()
    assert {v.verdict_id for v in present} == saved
    assert {(v.question_id, v.reviewer) for v in present} == {
        (f"G{i:04d}", who) for i in range(1, 301) for who in ("ann", "bob", "cy")}  # fmt: skip


def test_a_reviewer_killed_mid_submit_keeps_every_saved_verdict(
    make_audit_db: Callable[..., Path], store_url: str
) -> None:
    audit = make_audit_db(extra_questions=300)
    proc = _start(audit, store_url, "ann", 1, 300)
    notes_fixtures.go(proc)
    assert proc.stdout is not None
    printed: list[str] = []
    deadline = time.monotonic() + 60
    while len(printed) < 40 and time.monotonic() < deadline:
        printed.append(proc.stdout.readline().strip())
    proc.send_signal(signal.SIGKILL)
    printed.extend(proc.stdout.read().split())
    assert proc.wait(timeout=30) == -signal.SIGKILL
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        assert stream is not None
        stream.close()
    saved = {line for line in printed if line}
    assert len(saved) >= 40
    with open_audit(audit) as db:
        from ai4hse_desk.notes.store import NotesStore

        with NotesStore.open(db, store_url) as notes:
            present = {v.verdict_id for v in ReviewBook(notes).all_verdicts()}
    assert saved <= present
    assert len(present) - len(saved) <= 1


def test_notes_agreement_says_which_definition_it_used(
    make_audit_db: Callable[..., Path], tmp_path: Path
) -> None:
    audit = make_audit_db()
    a, notes = str(audit), ["--notes", str(tmp_path / "s.sqlite")]
    code, _, _ = cli("flag", a, "--question", "Q001", "--category", "key_incorrect",
                     "--note", "n", "--reviewer", "ann", *notes)  # fmt: skip
    assert code == 0
    code, out, _ = cli("notes", "agreement", a, *notes)
    assert code == 0
    assert json.loads(out)["based_on"] == "flags"
    for who, verdict in (("ann", "key_ok"), ("bob", "unclear_question")):
        _ok("verdict", a, "--question", "Q002", "--reviewer", who, "--verdict", verdict,
            "--blind-answer", "[TRUE, FALSE, FALSE, TRUE]", *notes)  # fmt: skip
    code, out, _ = cli("notes", "agreement", a, *notes)
    result = json.loads(out)
    assert result["based_on"] == "review_verdicts"
    assert result["definition"] == "units: questions with two or more submitted verdicts"
    assert result["concern"]["units"] == 1
    assert result["blind_vs_key"]["options"]["of"] == 8
