"""The review on a server, end to end through the desk's commands, against the same review
done on a local notes store: publish → blind answers → reveal → verdicts → adjudication →
collect → ``notes import`` beside the audit file → ``review report`` equal to the local one.

Runs on the cluster ``make test`` starts (scripts/review-server.sh), with password logins.
"""

from __future__ import annotations

import json
import shutil
from typing import TYPE_CHECKING, Any

import pytest

from ai4hse_desk.audit import open_audit
from ai4hse_desk.launcher import main
from tests.server_support import ReviewDatabase, fresh_database, server_urls

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

pytestmark = pytest.mark.postgres

QUESTIONS = ("Q001", "Q002", "Q003", "Q004", "Q005", "Q006", "Q007", "Q008")
PLAN = [
    "--reviewers",
    "ann,bo",
    "--per-question",
    "2",
    "--order",
    "random",
    "--seed",
    "7",
    "--questions",
    ",".join(QUESTIONS),
]
#: (reviewer, question, blind answer flips option i (None: the key), verdict, proposed key
#: flips option j, submitted): what both reviews record.
SCRIPT = (
    ("ann", "Q001", None, "key_ok", None, True),
    ("bo", "Q001", 1, "key_ok", None, True),
    ("ann", "Q002", 0, "key_wrong", 0, True),
    ("bo", "Q002", None, "key_ok", None, True),
    ("ann", "Q003", None, "unclear_question", None, True),
    ("bo", "Q003", 2, "unclear_options", None, True),
    ("ann", "Q004", 3, "key_wrong", 3, True),
    ("bo", "Q004", 3, "key_wrong", 3, True),
    ("ann", "Q005", None, "multiple_defensible", None, True),
    ("bo", "Q005", None, "key_ok", None, True),
    ("ann", "Q006", 1, "key_ok", None, False),
    ("bo", "Q007", None, "typo_or_format", None, True),
)
#: Adjudicator cy's decisions on the questions in the queue.
DECISIONS = {
    "Q002": ("key_corrected", 0),
    "Q004": ("question_excluded", None),
    "Q005": ("key_confirmed", None),
    "Q003": ("unresolved", None),
}


@pytest.fixture
def review_db() -> Iterator[ReviewDatabase]:
    with fresh_database() as database:
        yield database


def _listed(values: tuple[bool, ...], flip: int | None) -> str:
    items = ["TRUE" if v else "FALSE" for v in values]
    if flip is not None:
        items[flip] = "FALSE" if items[flip] == "TRUE" else "TRUE"
    return "[" + ", ".join(items) + "]"


def _without(value: Any, drop: frozenset[str]) -> Any:
    """``value`` without the keys ``drop`` (ids and times), at every depth."""
    if isinstance(value, dict):
        return {k: _without(v, drop) for k, v in value.items() if k not in drop}
    if isinstance(value, list):
        return [_without(v, drop) for v in value]
    return value


VOLATILE = frozenset(
    {
        "decision_id",
        "verdict_id",
        "at",
        "created_at",
        "updated_at",
        "blind_at",
        "generated_at",
        "exported_at",
        "path",
        "plan_id",
    }
)


def test_whole_flow_equals_the_same_review_on_a_local_store(
    review_db: ReviewDatabase, demo_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = review_db.desk
    (tmp_path / "server").mkdir()
    (tmp_path / "local").mkdir()
    beside = shutil.copy(demo_db, tmp_path / "server" / "demo.sqlite")
    local = shutil.copy(demo_db, tmp_path / "local" / "demo.sqlite")
    with open_audit(local) as audit:
        keys = {qid: audit.question(qid).key for qid in QUESTIONS}

    published = review_db.publish(beside, capsys, *PLAN, "--adjudicators", "cy")
    status, planned, err = run(
        ["review", "plan", str(local), *PLAN, "--created-by", "coord"], capsys
    )
    assert status == 0, err
    assert (
        published["plan"]
        == planned["plan"]
        == {"per_question": 2, "questions": 8, "order": "random", "seed": 7}
    )
    assert published["reviewers"] == planned["reviewers"]

    for who, qid, flip, verdict, wrong, submit in SCRIPT:
        server = review_db.url(who)
        blind = _listed(keys[qid], flip)
        before = run(["review", "show", "--server", server, "--question", qid], capsys)[1]
        assert before["key"] is None
        assert before["runs"] is None
        assert before["verdict"] is None
        assert before["hidden"]["key"] == "until your blind answer"
        for where in (["--server", server], [str(local), "--reviewer", who]):
            status, draft, err = run(
                [
                    "review",
                    "verdict",
                    *where,
                    "--question",
                    qid,
                    "--blind-answer",
                    blind,
                    "--draft",
                ],
                capsys,
            )
            assert status == 0, err
            assert draft["state"] == "draft"
            assert draft["blind"] is True
        shown = run(["review", "show", "--server", server, "--question", qid], capsys)[1]
        assert shown["key"] == list(keys[qid])
        assert {run_["run_id"] for run_ in shown["runs"]}
        assert any("response" in a for r in shown["runs"] for a in r["attempts"])
        assert shown["others"] is None, "others' verdicts stay hidden until one's own is submitted"
        options = [
            "--verdict",
            verdict,
            "--not-blind",
            "--confidence",
            "high",
            "--source",
            f"checked {qid}",
            "--note",
            f"{who} on {qid}",
        ]
        if wrong is not None:
            options += ["--proposed-key", _listed(keys[qid], wrong)]
        if not submit:
            options.append("--draft")
        for where in (["--server", server], [str(local), "--reviewer", who]):
            status, line, err = run(
                ["review", "verdict", *where, "--question", qid, *options], capsys
            )
            assert status == 0, err
            assert line["blind_answer"] == blind[1:-1].split(", ")
        if submit:
            after = run(["review", "show", "--server", server, "--question", qid], capsys)[1]
            assert after["others"] is not None

    queue_server = run(["review", "adjudication", "--server", review_db.url("cy")], capsys)[1]
    queue_local = run(["review", "adjudication", str(local)], capsys)[1]
    assert [q["question_id"] for q in queue_server] == ["Q002", "Q003", "Q004", "Q005"]
    assert _without(queue_server, VOLATILE) == _without(queue_local, VOLATILE)
    for qid, (decision, flip) in DECISIONS.items():
        key = [] if flip is None else ["--key", _listed(keys[qid], flip)]
        for where in (["--server", review_db.url("cy")], [str(local), "--adjudicator", "cy"]):
            status, line, err = run(
                [
                    "review",
                    "adjudicate",
                    *where,
                    "--question",
                    qid,
                    "--decision",
                    decision,
                    *key,
                    "--note",
                    "panel",
                ],
                capsys,
            )
            assert status == 0, err
            assert line["adjudicator"] == "cy"
    queue_after = run(["review", "adjudication", "--server", review_db.url("cy")], capsys)[1]
    assert [q["question_id"] for q in queue_after] == ["Q003"], "unresolved stays in the queue"
    assert queue_after[0]["decision"]["decision"] == "unresolved"

    server_status = run(["review", "status", "--server", review_db.url("ann")], capsys)[1]
    local_status = run(["review", "status", str(local)], capsys)[1]
    assert server_status["audit"] == {
        "path": "demo.sqlite",
        "sha256": local_status["audit"]["sha256"],
    }
    for part in ("plan", "reviewers", "coverage"):
        assert server_status[part] == local_status[part]
    assert server_status["adjudication"] == {"needed": 4, "decided": 3}

    status, summary, err = run(
        ["review", "collect", "--server", review_db.coord, "--out", str(tmp_path / "review.json")],
        capsys,
    )
    assert status == 0, err
    assert (summary["plans"], summary["verdicts"], summary["decisions"]) == (1, 12, 4)
    status, imported, err = run(
        ["notes", "import", str(beside), str(tmp_path / "review.json")], capsys
    )
    assert status == 0, err
    assert imported["warnings"] == []
    assert imported["verdicts_added"] == 12
    assert imported["decisions_added"] == 4
    again = run(["notes", "import", str(beside), str(tmp_path / "review.json")], capsys)[1]
    assert again["verdicts_added"] == again["verdict_revisions_added"] == 0

    reports = []
    for audit_file, name in ((beside, "server.json"), (local, "local.json")):
        out = tmp_path / name
        status, _, err = run(
            ["review", "report", str(audit_file), "--format", "json", "--out", str(out)], capsys
        )
        assert status == 0, err
        reports.append(_without(json.loads(out.read_text()), VOLATILE))
    assert reports[0] == reports[1]
    assert reports[0]["verdicts"]["key_wrong"] == 3
    assert [d["question_id"] for d in reports[0]["decisions"]] == ["Q002", "Q003", "Q004", "Q005"]


def test_the_server_report_is_the_coordinators_or_a_pure_adjudicators(
    review_db: ReviewDatabase, demo_db: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    review_db.publish(
        demo_db,
        capsys,
        "--reviewers",
        "ann,bo",
        "--per-question",
        "2",
        "--questions",
        "Q001,Q002",
        "--adjudicators",
        "cy",
    )
    for who, flip in (("ann", None), ("bo", 0)):
        line = review_db.desk(
            [
                "review",
                "verdict",
                "--server",
                review_db.url(who),
                "--question",
                "Q001",
                "--verdict",
                "key_ok",
                "--not-blind",
            ],
            capsys,
        )
        assert line[0] == 0, line[2]
        del flip
    for who in ("coord", "cy"):
        out = tmp_path / f"{who}.html"
        status, _, err = review_db.desk(
            [
                "review",
                "report",
                "--server",
                review_db.url(who),
                "--format",
                "html",
                "--out",
                str(out),
            ],
            capsys,
        )
        assert status == 0, err
        assert "AI4HSE-Bench review report" in out.read_text()
    out = tmp_path / "coord.json"
    status, _, err = review_db.desk(
        [
            "review",
            "report",
            "--server",
            review_db.coord,
            "--format",
            "json",
            "--out",
            str(out),
            "--include-private",
        ],
        capsys,
    )
    assert status == 0, err
    report = json.loads(out.read_text())
    assert report["verdicts"]["key_ok"] == 2
    assert report["sensitivity"] == []
    assert "audit file" in report["sensitivity_note"]
    assert report["plan"]["created_by"] == "coord"
    status, _, err = review_db.desk(
        [
            "review",
            "report",
            "--server",
            review_db.url("ann"),
            "--format",
            "json",
            "--out",
            str(tmp_path / "a.json"),
        ],
        capsys,
    )
    assert status == 2
    assert err.startswith("error: the review server refused: permission denied")
    assert not (tmp_path / "a.json").exists()


def test_the_tour_server_holds_the_published_demo(capsys: pytest.CaptureFixture[str]) -> None:
    """scripts/review-server.sh published the demo: 100 questions, ann and bo two each, cy
    adjudicating (read only: other tests never write there)."""
    urls = server_urls()
    capsys.readouterr()
    assert main(["review", "status", "--server", urls["bo"]]) == 0
    status = json.loads(capsys.readouterr().out)
    assert status["plan"] == {"per_question": 2, "questions": 100, "order": "corpus", "seed": None}
    assert [r["reviewer"] for r in status["reviewers"]] == ["ann", "bo"]
    assert status["audit"]["path"] == "demo.sqlite"
    assert main(["review", "adjudication", "--server", urls["cy"]]) == 0
    assert isinstance(json.loads(capsys.readouterr().out), list)
