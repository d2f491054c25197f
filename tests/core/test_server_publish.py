"""``review publish``: only what the review needs is copied, the plan is ``review plan``'s and
grows without losing anything, the roles are checked, the schema is versioned."""

from __future__ import annotations

import uuid
from collections import Counter
from importlib.resources import files
from typing import TYPE_CHECKING

import pytest
from psycopg import errors, sql

from ai4hse_desk.audit import open_audit
from ai4hse_desk.review.plan import plan_review
from ai4hse_desk.review.server.migrations import migration_files, schema_version
from ai4hse_desk.verdicts.rescore import iter_verdicts
from tests.server_support import (
    ReviewDatabase,
    connect,
    fresh_database,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

pytestmark = pytest.mark.postgres

S = "ai4hse_review"
#: Every column the review schema holds: nothing else of the audit file is on the server.
COLUMNS = {
    "questions": ["question_id", "ordinal", "text", "publication_id"],
    "options": ["question_id", "position", "text"],
    "keys": ["question_id", "key"],
    "runs": ["run_id", "model", "track", "protocol_version"],
    "attempts": [
        "attempt_id",
        "run_id",
        "question_id",
        "repetition",
        "status",
        "selection",
        "strict_format",
        "response",
    ],
}


@pytest.fixture
def review_db() -> Iterator[ReviewDatabase]:
    with fresh_database() as database:
        yield database


def test_the_migrations_are_numbered_and_packaged() -> None:
    names = sorted(e.name for e in files("ai4hse_desk.review.server").joinpath("sql").iterdir())
    assert names == [
        "0001_tables.sql",
        "0002_functions.sql",
        "0003_own_queue.sql",
        "0004_key_wrong_proposes.sql",
    ]
    assert [v for v, _ in migration_files()] == [1, 2, 3, 4]
    assert schema_version() == 4


@pytest.mark.parametrize("responses", ["none", "selections", "full"])
def test_publish_copies_only_what_the_review_needs(
    review_db: ReviewDatabase, demo_db: Path, capsys: pytest.CaptureFixture[str], responses: str
) -> None:
    chosen = ["Q003", "Q001", "Q010"]
    status = review_db.publish(
        demo_db,
        capsys,
        "--reviewers",
        "ann,bo",
        "--per-question",
        "1",
        "--questions",
        ",".join(chosen),
        "--responses",
        responses,
    )
    assert status["plan"]["questions"] == 3
    with open_audit(demo_db) as audit:
        sha = audit.fingerprint()
        wanted = {qid: audit.question(qid) for qid in chosen}
        attempts = [v for v in iter_verdicts(audit) if v.question_id in wanted]
        raw = {
            a.attempt_id: a.raw_response
            for a in audit.attempts_by_ids([v.attempt_id for v in attempts])
        }
    for table, columns in COLUMNS.items():
        found = review_db.sql(
            "coord",
            "SELECT attname FROM pg_attribute WHERE attrelid = "
            "%s::regclass AND attnum > 0 ORDER BY attnum",
            [f"{S}.{table}"],
        )
        assert [row[0] for row in found] == columns
    questions = review_db.sql("coord", f"SELECT question_id, ordinal, text FROM {S}.questions")
    assert {q: (o, t) for q, o, t in questions} == {
        qid: (q.ordinal, q.text) for qid, q in wanted.items()
    }
    keys = dict(review_db.sql("coord", f"SELECT question_id, key FROM {S}.keys"))
    assert keys == {qid: list(q.key) for qid, q in wanted.items()}
    options = review_db.sql("coord", f"SELECT question_id, position, text FROM {S}.options")
    assert sorted(options) == sorted(
        (qid, o.position, o.text) for qid, q in wanted.items() for o in q.options
    )
    rows = review_db.sql(
        "coord", f"SELECT attempt_id, question_id, status, selection, response FROM {S}.attempts"
    )
    if responses == "none":
        assert rows == []
        assert review_db.sql("coord", f"SELECT * FROM {S}.runs") == []
    else:
        expected = {
            v.attempt_id: (
                v.question_id,
                v.outcome.status.value,
                None if v.outcome.selection is None else list(v.outcome.selection),
            )
            for v in attempts
        }
        assert {r[0]: (r[1], r[2], r[3]) for r in rows} == expected
        shown = {r[0]: r[4] for r in rows}
        assert shown == (
            {a: raw[a] for a in shown} if responses == "full" else dict.fromkeys(shown)
        )
    published = review_db.sql(
        "coord",
        f"SELECT audit_sha256, audit_name, published_by, "
        f"responses, questions_added FROM {S}.publications",
    )
    assert published == [(sha, demo_db.name, "coord", responses, 3)]


def _queue_counts(db: ReviewDatabase) -> Counter[str]:
    rows = db.sql(
        "coord",
        f"SELECT reviewer FROM {S}.assignments WHERE plan_id = "
        f"(SELECT plan_id FROM {S}.plans ORDER BY created_at DESC LIMIT 1)",
    )
    return Counter(row[0] for row in rows)


def test_publishing_again_adds_questions_and_keeps_every_verdict(
    review_db: ReviewDatabase, demo_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    people = ["--reviewers", "ann,bo,cy", "--per-question", "2"]
    first = [f"Q{n:03d}" for n in range(1, 6)]
    review_db.publish(demo_db, capsys, *people, "--questions", ",".join(first))
    assert plan_review(first, ["ann", "bo", "cy"], 2).queue("ann") == sorted(
        row[0] for row in review_db.sql("ann", f"SELECT question_id FROM {S}.assignments")
    )
    before = review_db.sql("coord", f"SELECT question_id, reviewer, position FROM {S}.assignments")
    for qid in ("Q001", "Q002"):
        status, _, err = review_db.desk(
            [
                "review",
                "verdict",
                "--server",
                review_db.url("ann"),
                "--question",
                qid,
                "--verdict",
                "key_ok",
                "--not-blind",
            ],
            capsys,
        )
        assert status == 0, err
    more = [f"Q{n:03d}" for n in range(1, 12)]
    status = review_db.publish(
        demo_db,
        capsys,
        *people,
        "--questions",
        ",".join(more),
        "--order",
        "random",
        "--seed",
        "3",
        "--adjudicators",
        "bo",
    )
    assert status["plan"] == {"per_question": 2, "questions": 11, "order": "random", "seed": 3}
    latest = set(
        review_db.sql(
            "coord",
            f"SELECT question_id, reviewer, position FROM "
            f"{S}.assignments a JOIN {S}.plans p USING (plan_id) "
            f"WHERE p.created_at = (SELECT max(created_at) FROM "
            f"{S}.plans)",
        )
    )
    assert set(before) <= latest, "every earlier question keeps its reviewers and place"
    counts = _queue_counts(review_db)
    assert max(counts.values()) - min(counts.values()) <= 1
    assert sum(counts.values()) == 22
    ann = next(r for r in status["reviewers"] if r["reviewer"] == "ann")
    assert ann["submitted"] == 2
    assert review_db.sql("coord", f"SELECT count(*) FROM {S}.plans") == [(2,)]
    again = review_db.publish(demo_db, capsys, *people, "--questions", ",".join(more))
    assert again["plan"]["questions"] == 11
    assert review_db.sql("coord", f"SELECT count(*) FROM {S}.plans") == [(2,)]
    assert review_db.sql("coord", f"SELECT count(*) FROM {S}.publications") == [(3,)]
    for other in (
        ["--reviewers", "ann,bo", "--per-question", "2"],
        ["--reviewers", "ann,bo,cy", "--per-question", "3"],
    ):
        status, _, err = review_db.desk(
            ["review", "publish", str(demo_db), "--server", review_db.coord, *other], capsys
        )
        assert status == 2
        assert "the same reviewers and --per-question" in err


def test_another_audit_file_is_refused(
    review_db: ReviewDatabase,
    demo_db: Path,
    capsys: pytest.CaptureFixture[str],
    make_audit_db: Callable[..., Path],
) -> None:
    review_db.publish(
        demo_db, capsys, "--reviewers", "ann", "--per-question", "1", "--questions", "Q001"
    )
    other = make_audit_db()
    status, _, err = review_db.desk(
        [
            "review",
            "publish",
            str(other),
            "--server",
            review_db.coord,
            "--reviewers",
            "ann",
            "--per-question",
            "1",
        ],
        capsys,
    )
    assert status == 2
    assert "published from another audit file" in err


def test_roles_the_walls_would_not_hold_are_refused_and_nothing_is_written(
    review_db: ReviewDatabase, demo_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nologin = f"t_nologin_{uuid.uuid4().hex[:8]}"
    with connect(review_db.coord) as conn:
        conn.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(sql.Identifier(nologin)))
    try:
        cases = {
            "nobody_here": "there is no role 'nobody_here'",
            nologin: "cannot log in",
            "coord": "owns the review database",
            "postgres": "superuser or BYPASSRLS",
            "ann,ANN": "one person's name",
            "ann,ann": "one person's name",
        }
        for reviewers, message in cases.items():
            status, _, err = review_db.desk(
                [
                    "review",
                    "publish",
                    str(demo_db),
                    "--server",
                    review_db.coord,
                    "--reviewers",
                    reviewers,
                    "--per-question",
                    "1",
                ],
                capsys,
            )
            assert status == 2, reviewers
            assert message in err, err
            assert err.count("\n") == 1
        status, _, err = review_db.desk(
            [
                "review",
                "publish",
                str(demo_db),
                "--server",
                review_db.coord,
                "--reviewers",
                "ann,bo",
                "--per-question",
                "1",
                "--adjudicators",
                "Bo",
            ],
            capsys,
        )
        assert status == 2
        assert "one person's name" in err
        status, _, err = review_db.desk(
            [
                "review",
                "publish",
                str(demo_db),
                "--server",
                review_db.url("ann"),
                "--reviewers",
                "bo",
                "--per-question",
                "1",
            ],
            capsys,
        )
        assert status == 2
        assert "ann does not own the database" in err
        assert review_db.sql("coord", "SELECT to_regnamespace(%s) IS NULL", [S]) == [(True,)]
    finally:
        with connect(review_db.coord) as conn:
            conn.execute(sql.SQL("DROP ROLE {}").format(sql.Identifier(nologin)))


def test_a_schema_newer_or_older_than_the_desk_is_refused(
    review_db: ReviewDatabase, demo_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with connect(review_db.coord) as conn:  # a server left at version 1 by an older desk
        conn.execute(migration_files()[0][1])
        conn.execute(f"INSERT INTO {S}.schema_version (version, desk_version) VALUES (1, 'old')")
    status, _, err = review_db.desk(["review", "status", "--server", review_db.coord], capsys)
    assert status == 2
    assert f"version 1, older than this desk's ({schema_version()})" in err
    review_db.publish(
        demo_db, capsys, "--reviewers", "ann", "--per-question", "1", "--questions", "Q001"
    )
    status, _, err = review_db.desk(["review", "status", "--server", review_db.url("ann")], capsys)
    assert status == 0, err
    review_db.sql(
        "coord", f"INSERT INTO {S}.schema_version (version, desk_version) VALUES (99, 'future')"
    )
    for argv in (
        ["review", "next", "--server", review_db.url("ann")],
        [
            "review",
            "publish",
            str(demo_db),
            "--server",
            review_db.coord,
            "--reviewers",
            "ann",
            "--per-question",
            "1",
        ],
    ):
        status, _, err = review_db.desk(argv, capsys)
        assert status == 2
        assert f"version 99, newer than this desk's ({schema_version()})" in err


def test_publishing_again_brings_a_version_2_server_up_to_date_and_keeps_every_verdict(
    review_db: ReviewDatabase,
    demo_db: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ai4hse_desk.review.server import migrations, roles
    from ai4hse_desk.review.server.client import ReviewServer

    plan = ("--reviewers", "ann,bo", "--per-question", "1", "--questions", "Q001,Q002")
    every = migrations.migration_files()
    # a desk of version 2: two migrations, and no own_queue() to grant
    monkeypatch.setattr(migrations, "migration_files", lambda: every[:2])
    old_api = tuple(f for f in roles.REVIEWER_FUNCTIONS if f != "own_queue()")
    monkeypatch.setattr(roles, "REVIEWER_FUNCTIONS", old_api)
    review_db.publish(demo_db, capsys, *plan)
    server = ReviewServer.open(review_db.url("ann"))
    server.save_verdict("Q001", verdict="key_ok", not_blind=True, note="before the update")
    server.close()
    with pytest.raises(errors.UndefinedFunction):
        review_db.sql("ann", f"SELECT {S}.own_queue()")
    monkeypatch.undo()
    status, _, err = review_db.desk(["review", "status", "--server", review_db.url("ann")], capsys)
    assert (status, "older than this desk's (4)" in err) == (2, True)
    review_db.publish(demo_db, capsys, *plan)
    versions = review_db.sql("coord", f"SELECT version FROM {S}.schema_version ORDER BY version")
    assert versions == [(1,), (2,), (3,), (4,)]
    # version 4: a key_wrong verdict proposing the official key (Q001's: A, C) is refused by
    # the database itself, through the desk and through a plain client alike
    official = "[TRUE, FALSE, TRUE, FALSE]"
    status, _, err = review_db.desk(["review", "verdict", "--server", review_db.url("ann"),
                                     "--question", "Q001", "--verdict", "key_wrong", "--not-blind",
                                     "--proposed-key", official], capsys)  # fmt: skip
    assert (status, err) == (
        2, "error: key_wrong: the proposed key is the official key; propose the key you think "
        "is right\n",
    )  # fmt: skip
    as_key = "ARRAY['TRUE', 'FALSE', 'TRUE', 'FALSE']"
    with pytest.raises(errors.InvalidParameterValue, match="the proposed key is the official"):
        review_db.sql("ann", f"SELECT {S}.save_verdict('Q001', NULL, true, 'key_wrong', "
                      f"{as_key}, NULL, '', '', false, NULL)")  # fmt: skip
    server = ReviewServer.open(review_db.url("ann"))
    assert server.own_queue() == [{"question_id": "Q001", "position": 0, "state": "submitted"}]
    assert server.show("Q001")["verdict"]["note"] == "before the update"
    server.close()
