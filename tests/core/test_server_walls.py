"""The walls are in the database: logged in as each role with plain psycopg (not through the
desk), every table and view the role can see is read and every write is tried.

The review: demo questions Q001–Q010 published (Q011… are not), reviewers ann, bo and cy,
two per question (corpus order: Q001 ann+bo, Q002 ann+cy, Q003 bo+cy, …), adjudicator cy.
Before each test bo has submitted ``key_wrong`` on Q001 and on Q003, cy ``key_ok`` on Q003,
cy has decided Q001 ``unresolved``, and ann has recorded nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import psycopg
import pytest
from psycopg import errors, sql

from ai4hse_desk.review.server.roles import (
    ADJUDICATOR_FUNCTIONS,
    READER_FUNCTIONS,
    REVIEWER_FUNCTIONS,
    REVIEWER_TABLES,
)
from tests.server_support import (
    ReviewDatabase,
    connect,
    fresh_database,
)

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

pytestmark = pytest.mark.postgres

S = "ai4hse_review"
PUBLISHED = tuple(f"Q{n:03d}" for n in range(1, 11))
QUEUES = {
    "ann": {"Q001", "Q002", "Q004", "Q005", "Q007", "Q008", "Q010"},
    "bo": {"Q001", "Q003", "Q004", "Q006", "Q007", "Q009", "Q010"},
    "cy": {"Q002", "Q003", "Q005", "Q006", "Q008", "Q009"},
}
VERDICT = f"SELECT {S}.save_verdict(%s, %s::text[], %s, %s, %s::text[], NULL, '', '', %s, NULL)"


@pytest.fixture
def review(demo_db: Path, capsys: pytest.CaptureFixture[str]) -> Iterator[ReviewDatabase]:
    with fresh_database() as db:
        db.publish(
            demo_db,
            capsys,
            "--reviewers",
            "ann,bo,cy",
            "--per-question",
            "2",
            "--adjudicators",
            "cy",
            "--questions",
            ",".join(PUBLISHED),
        )
        wrong = ["TRUE", "TRUE", "TRUE", "TRUE"]
        db.sql("bo", VERDICT, ["Q001", None, True, "key_wrong", wrong, True])
        db.sql("bo", VERDICT, ["Q003", None, True, "key_wrong", wrong, True])
        db.sql("cy", VERDICT, ["Q003", None, True, "key_ok", None, True])
        db.sql("cy", f"SELECT {S}.adjudicate('Q001', 'unresolved', NULL, 'wait', NULL)")
        db.sql("coord", f"SELECT {S}.review_export()")
        db.sql("ann", f"SELECT {S}.show_question('Q002')")
        yield db


def _relations(conn: psycopg.Connection[Any]) -> list[str]:
    """Every table and view of every schema but the catalogs that this login may SELECT."""
    rows = conn.execute(
        "SELECT format('%I.%I', n.nspname, c.relname) FROM pg_class c "
        "JOIN pg_namespace n ON n.oid = c.relnamespace "
        "WHERE c.relkind IN ('r', 'v', 'm', 'p', 'f') "
        "AND n.nspname NOT IN ('pg_catalog', 'information_schema') "
        "AND n.nspname NOT LIKE 'pg_toast%%' AND has_table_privilege(c.oid, 'SELECT')"
    ).fetchall()
    return sorted(str(row[0]) for row in rows)


def _tables(conn: psycopg.Connection[Any]) -> list[str]:
    rows = conn.execute(
        "SELECT relname FROM pg_class WHERE relnamespace = %s::regnamespace AND relkind = 'r'",
        (S,),
    ).fetchall()
    return sorted(str(row[0]) for row in rows)


def test_every_table_is_forced_row_secure_and_every_function_pinned(review: ReviewDatabase) -> None:
    with connect(review.coord) as conn:
        tables = conn.execute(
            "SELECT relname, relrowsecurity, relforcerowsecurity FROM pg_class "
            "WHERE relnamespace = %s::regnamespace AND relkind = 'r'",
            (S,),
        ).fetchall()
        assert len(tables) == 16
        assert all(row[1] and row[2] for row in tables), tables
        functions = conn.execute(
            "SELECT p.proname, p.prosecdef, p.proconfig, coalesce(p.proacl::text[], '{}'), "
            "pg_get_function_identity_arguments(p.oid) FROM pg_proc p "
            "WHERE p.pronamespace = %s::regnamespace",
            (S,),
        ).fetchall()
        api = {
            sig.split("(")[0]
            for sig in (*READER_FUNCTIONS, *REVIEWER_FUNCTIONS, *ADJUDICATOR_FUNCTIONS)
        }
        for name, definer, config, acl, _args in functions:
            assert config == [f"search_path=pg_catalog, {S}, pg_temp"] or (
                name == "refuse_change" and config == ["search_path=pg_catalog, pg_temp"]
            ), name
            assert not any(item.startswith("=") for item in acl), f"PUBLIC may execute {name}"
            assert definer == (name in api), name
            granted = [item for item in acl if not item.startswith("coord=")]
            assert bool(granted) == (name in api), (name, acl)
        triggers = conn.execute(
            "SELECT count(*) FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
            "WHERE c.relnamespace = %s::regnamespace AND t.tgname LIKE 'append_only%%'",
            (S,),
        ).fetchone()
        assert triggers == (2 * len(tables),)
    for role in ("ann", "bo", "cy"):
        with connect(review.url(role)) as conn:
            for table in _tables(conn):
                for privilege in (
                    "INSERT",
                    "UPDATE",
                    "DELETE",
                    "TRUNCATE",
                    "REFERENCES",
                    "TRIGGER",
                ):
                    found = conn.execute(
                        "SELECT has_table_privilege(%s, %s)", (f"{S}.{table}", privilege)
                    ).fetchone()
                    assert found == (False,), (role, table, privilege)
            checks = conn.execute(
                "SELECT has_schema_privilege(%s, 'CREATE'), has_schema_privilege('public', "
                "'CREATE'), has_database_privilege(current_database(), 'CREATE'), "
                "has_database_privilege(current_database(), 'TEMPORARY')",
                (S,),
            ).fetchone()
            assert checks == (False, False, False, False), role


@pytest.mark.parametrize("role", ["ann", "bo", "cy"])
def test_a_reviewer_reads_only_their_own_queue_and_rows(review: ReviewDatabase, role: str) -> None:
    with connect(review.url(role)) as conn:
        readable = _relations(conn)
        assert readable == sorted(f"{S}.{t}" for t in REVIEWER_TABLES), readable
        seen_questions: set[str] = set()
        for relation in readable:
            cur = conn.execute(sql.SQL("SELECT * FROM {}").format(sql.SQL(relation)))
            names = [c.name for c in cur.description or ()]
            assert not {"key", "selection", "response", "corrected_key"} & set(names), relation
            for row in cur.fetchall():
                values = dict(zip(names, row, strict=True))
                if "question_id" in values:
                    seen_questions.add(values["question_id"])
                for column in ("reviewer", "role_name"):
                    if column in values:
                        assert values[column] == role, (relation, values)
        assert seen_questions <= QUEUES[role]
        assert not seen_questions & {f"Q{n:03d}" for n in range(11, 101)}
        texts = conn.execute(f"SELECT question_id FROM {S}.questions").fetchall()
        assert {row[0] for row in texts} == QUEUES[role], "the text of one's own queue, all of it"
        for view in ("current_verdicts", "current_decisions"):
            with pytest.raises(errors.InsufficientPrivilege):
                conn.execute(f"SELECT * FROM {S}.{view}")


def test_the_owner_reads_everything_but_changes_no_history(review: ReviewDatabase) -> None:
    with connect(review.coord) as conn:
        tables = _tables(conn)
        for table in tables:
            before = conn.execute(f"SELECT count(*) FROM {S}.{table}").fetchone()
            assert before is not None
            assert before[0] > 0, f"{table} is empty: nothing to try"
            for statement in (
                f"UPDATE {S}.{table} SET {_a_column(conn, table)} = {_a_column(conn, table)}",
                f"DELETE FROM {S}.{table}",
                f"TRUNCATE {S}.{table} CASCADE",
            ):
                with pytest.raises(errors.InsufficientPrivilege, match="append-only"):
                    conn.execute(statement)
            after = conn.execute(f"SELECT count(*) FROM {S}.{table}").fetchone()
            assert after == before


def _a_column(conn: psycopg.Connection[Any], table: str) -> str:
    row = conn.execute(
        "SELECT attname FROM pg_attribute WHERE attrelid = %s::regclass AND attnum = 1",
        (f"{S}.{table}",),
    ).fetchone()
    assert row is not None
    return str(row[0])


@pytest.mark.parametrize("role", ["ann", "bo", "cy"])
def test_no_direct_write_and_no_new_object(review: ReviewDatabase, role: str) -> None:
    with connect(review.url(role)) as conn:
        for table in _tables(conn):
            column = _a_column(conn, table)
            for statement in (
                f"INSERT INTO {S}.{table} DEFAULT VALUES",
                f"UPDATE {S}.{table} SET {column} = {column}",
                f"DELETE FROM {S}.{table}",
                f"TRUNCATE {S}.{table}",
            ):
                with pytest.raises(errors.InsufficientPrivilege):
                    conn.execute(statement)
        for statement in (
            f"CREATE TABLE {S}.mine (x int)",
            "CREATE TABLE public.mine (x int)",
            "CREATE TEMPORARY TABLE mine (x int)",
            "CREATE SCHEMA mine",
            f"CREATE FUNCTION {S}.plan_in_force() RETURNS uuid LANGUAGE sql AS 'SELECT NULL::uuid'",
            "CREATE FUNCTION public.mine() RETURNS int LANGUAGE sql AS 'SELECT 1'",
            "CREATE VIEW public.mine AS SELECT 1",
        ):
            with pytest.raises(errors.InsufficientPrivilege):
                conn.execute(statement)
        for helper in (
            "evidence_json('Q001')",
            "submitted_json('Q001', NULL)",
            "question_json('Q003')",
            "plan_in_force()",
        ):
            with pytest.raises(errors.InsufficientPrivilege):
                conn.execute(f"SELECT {S}.{helper}")


def _show(conn: psycopg.Connection[Any], qid: str) -> dict[str, Any]:
    row = conn.execute(f"SELECT {S}.show_question(%s)", (qid,)).fetchone()
    assert row is not None
    return dict(row[0])


def test_nothing_of_the_key_or_others_before_the_blind_answer(review: ReviewDatabase) -> None:
    with connect(review.url("ann")) as conn:
        first = _show(conn, "Q001")
        assert (first["key"], first["runs"], first["others"], first["verdict"]) == (None,) * 4
        messages = []
        for qid in ("Q003", "Q050", "Q999"):  # another's question, unpublished, unknown
            with pytest.raises(errors.InsufficientPrivilege) as refused:
                _show(conn, qid)
            messages.append(str(refused.value).splitlines()[0].replace(qid, "Q"))
        assert len(set(messages)) == 1, "an unpublished question looks like another's"
        released = conn.execute(
            f"SELECT what FROM {S}.releases WHERE question_id = 'Q001'"
        ).fetchall()
        assert released == [("question",)]
        conn.execute(
            f"SELECT {S}.record_blind('Q001', ARRAY['TRUE','FALSE','FALSE','FALSE'], NULL)"
        )
        shown = _show(conn, "Q001")
        assert shown["key"] == [True, False, True, False]
        assert shown["runs"]
        assert shown["others"] is None
        row = conn.execute(
            f"SELECT released_at, now() - released_at FROM {S}.releases "
            "WHERE question_id = 'Q001' AND what = 'key'"
        ).fetchone()
        assert row is not None
        assert row[1].total_seconds() < 60, "released with the server's time"
        with pytest.raises(errors.InsufficientPrivilege, match="cannot change"):
            conn.execute(
                VERDICT, ["Q001", ["TRUE", "TRUE", "TRUE", "TRUE"], False, "key_ok", None, True]
            )
        with pytest.raises(errors.InsufficientPrivilege, match="already answered"):
            conn.execute(f"SELECT {S}.record_blind('Q001', NULL, NULL)")
        conn.execute(VERDICT, ["Q001", None, True, "key_ok", None, True])
        others = _show(conn, "Q001")["others"]
        assert [v["reviewer"] for v in others] == ["bo"]
        mine = conn.execute(
            f"SELECT reviewer, at, now() - at FROM {S}.verdict_revisions ORDER BY at"
        ).fetchall()
        assert {r[0] for r in mine} == {"ann"}
        assert all(r[2].total_seconds() < 60 for r in mine)


OWN_STATES = {
    "ann": {},
    "bo": {"Q001": "submitted", "Q003": "submitted"},
    "cy": {"Q003": "submitted"},
}


@pytest.mark.parametrize("role", ["ann", "bo", "cy"])
def test_own_queue_lists_ones_own_questions_and_states_and_releases_nothing(
    review: ReviewDatabase, role: str
) -> None:
    releases = f"SELECT count(*) FROM {S}.releases"
    before = review.sql("coord", releases)
    with connect(review.url(role)) as conn:
        row = conn.execute(f"SELECT {S}.own_queue()").fetchone()
    assert row is not None
    entries = row[0]
    assert {e["question_id"] for e in entries} == QUEUES[role]
    assert [e["position"] for e in entries] == sorted(e["position"] for e in entries)
    assert len({e["position"] for e in entries}) == len(entries)
    states = {e["question_id"]: e["state"] for e in entries if e["state"] is not None}
    assert states == OWN_STATES[role]
    assert set(entries[0]) == {"question_id", "position", "state"}, "ids and states only"
    assert review.sql("coord", releases) == before, "listing the queue releases nothing"


def test_own_queue_is_refused_to_an_adjudicator_who_reviews_nothing(
    demo_db: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with fresh_database() as db:
        db.publish(demo_db, capsys, "--reviewers", "ann,bo", "--per-question", "1",
                   "--adjudicators", "cy", "--questions", "Q001,Q002")  # fmt: skip
        with connect(db.url("cy")) as conn, pytest.raises(errors.InsufficientPrivilege):
            conn.execute(f"SELECT {S}.own_queue()")
        (entries,) = db.sql("ann", f"SELECT {S}.own_queue()")[0]
        assert [(e["question_id"], e["state"]) for e in entries] == [("Q001", None)]


def test_the_author_is_the_login_whatever_role_is_set(review: ReviewDatabase) -> None:
    with connect(review.url("ann")) as conn:
        conn.execute(sql.SQL("SET ROLE {}").format(sql.Identifier(f"{review.name}_reviewers")))
        conn.execute(VERDICT, ["Q004", None, True, "key_ok", None, True])
        with pytest.raises(errors.InsufficientPrivilege):
            conn.execute("SET SESSION AUTHORIZATION bo")
    rows = review.sql("coord", f"SELECT reviewer FROM {S}.verdicts WHERE question_id = 'Q004'")
    assert rows == [("ann",)]


def test_adjudication_only_by_an_adjudicator_on_a_queued_question_they_did_not_review(
    review: ReviewDatabase,
) -> None:
    decide = f"SELECT {S}.adjudicate(%s, %s, %s::text[], '', NULL)"
    with connect(review.url("cy")) as conn:
        queue = conn.execute(f"SELECT {S}.adjudication_queue()").fetchone()
        assert queue is not None
        assert [item["question_id"] for item in queue[0]] == ["Q001"], "not Q003: cy reviews it"
        with pytest.raises(errors.InsufficientPrivilege, match="one of Q003's reviewers"):
            conn.execute(decide, ["Q003", "key_confirmed", None])
        with pytest.raises(errors.InsufficientPrivilege, match="not in the adjudication queue"):
            conn.execute(decide, ["Q004", "key_confirmed", None])
        with pytest.raises(errors.InvalidParameterValue, match="equals its official key"):
            conn.execute(decide, ["Q001", "key_corrected", ["TRUE", "FALSE", "TRUE", "FALSE"]])
        with pytest.raises(errors.InsufficientPrivilege, match="may not read it"):
            conn.execute(f"SELECT {S}.review_export()")
        conn.execute(decide, ["Q001", "key_confirmed", None])
        with pytest.raises(errors.InsufficientPrivilege, match="not in the adjudication queue"):
            conn.execute(decide, ["Q001", "question_excluded", None])
    for role in ("ann", "bo"):
        with connect(review.url(role)) as conn:
            for call in (
                f"SELECT {S}.adjudication_queue()",
                f"SELECT {S}.review_export()",
                f"SELECT {S}.adjudicate('Q001', 'key_confirmed', NULL, '', NULL)",
            ):
                with pytest.raises(errors.InsufficientPrivilege, match="permission denied"):
                    conn.execute(call)
    decisions = review.sql(
        "coord", f"SELECT adjudicator, decision FROM {S}.decision_revisions ORDER BY at"
    )
    assert decisions == [("cy", "unresolved"), ("cy", "key_confirmed")]
