"""The desk as a client: the login is the identity, passwords never shown, TLS mode honoured,
a verdict whose connection broke is stored whole or not at all — and the desk says which."""

from __future__ import annotations

import getpass
import subprocess
import sys
import time
from typing import TYPE_CHECKING, Any, Literal

import psycopg
import pytest

from ai4hse_desk.launcher import main
from ai4hse_desk.review.server import connection as server_connection
from ai4hse_desk.review.server.address import parse_server_url
from ai4hse_desk.review.server.client import ReviewServer
from ai4hse_desk.review.server.connection import ServerSession, ServerUnavailable
from tests.server_support import (
    ReviewDatabase,
    connect,
    fresh_database,
    password_of,
    server_root_cert,
    without_password,
)

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

S = "ai4hse_review"
SECRET_URL = "postgresql://ann:s3cr%40t-pw@127.0.0.1:1/review"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


# -- without a server ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            [
                "review",
                "verdict",
                "--server",
                SECRET_URL,
                "--question",
                "Q1",
                "--reviewer",
                "ann",
                "--verdict",
                "key_ok",
                "--not-blind",
            ],
            "--reviewer is not given with --server",
        ),
        (
            [
                "review",
                "adjudicate",
                "--server",
                SECRET_URL,
                "--question",
                "Q1",
                "--adjudicator",
                "cy",
                "--decision",
                "key_confirmed",
            ],
            "--adjudicator is not given with --server",
        ),
        (["review", "status", "audit.sqlite", "--server", SECRET_URL], "AUDIT_DB is not given"),
        (["review", "status", "--notes", "n.sqlite", "--server", SECRET_URL], "--notes is not"),
        (["review", "status"], "AUDIT_DB is needed"),
        (
            [
                "review",
                "verdict",
                "audit.sqlite",
                "--question",
                "Q1",
                "--verdict",
                "key_ok",
                "--not-blind",
            ],
            "--reviewer NAME is needed",
        ),
        (["review", "next", "--server", "mysql://ann:s3cr%40t-pw@h/db"], "not a PostgreSQL URL"),
        (["review", "status", "extra", "--server", SECRET_URL, SECRET_URL], "unrecognized"),
    ],
)
def test_the_login_is_the_identity_and_bad_arguments_are_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) if "unrecognized" in message else _nothing():
        status, out, err = _run(argv, capsys)
        assert status == 2
        assert out == ""
        assert err.startswith("error: ")
        assert message in err
        assert err.count("\n") == 1
    err = capsys.readouterr().err or err
    assert "s3cr" not in err


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> Literal[False]:
        return False


def test_urls_are_shown_without_their_password() -> None:
    address = parse_server_url(
        "postgresql+psycopg://ann:s3cr%40t@db.example:5433/r?sslmode=require"
    )
    assert address.shown == "postgresql://ann:***@db.example:5433/r?sslmode=require"
    assert address.password == "s3cr@t"
    assert address.scrub("failed for s3cr@t and s3cr%40t") == "failed for *** and ***"
    query = parse_server_url("postgresql://ann@db/r?password=hush&sslmode=disable")
    assert "hush" not in query.shown
    assert "hush" not in repr(query)


# -- on the review server -------------------------------------------------------------------


@pytest.fixture
def review_db(demo_db: Path, capsys: pytest.CaptureFixture[str]) -> Iterator[ReviewDatabase]:
    with fresh_database() as database:
        database.publish(
            demo_db,
            capsys,
            "--reviewers",
            "ann,bo",
            "--per-question",
            "2",
            "--questions",
            "Q001,Q002,Q003",
            "--adjudicators",
            "cy",
        )
        yield database


@pytest.mark.postgres
def test_passwords_from_the_url_pgpassword_pgpass_or_a_prompt_and_never_shown(
    review_db: ReviewDatabase,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = review_db.url("ann")
    secret = password_of(url)
    bare = without_password(url)
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.setenv("PGPASSFILE", str(tmp_path / "absent"))
    wrong = url.replace(secret, "not-" + secret)
    status, out, err = _run(["review", "status", "--server", wrong], capsys)
    assert status == 2
    assert "password authentication failed" in err
    assert secret not in err
    assert "ann:***@" in err
    status, out, err = _run(["review", "status", "--server", bare], capsys)
    assert status == 2
    assert "a password is needed" in err
    monkeypatch.setenv("PGPASSWORD", secret)
    status, out, err = _run(["review", "status", "--server", bare], capsys)
    assert status == 0, err
    monkeypatch.delenv("PGPASSWORD")
    pgpass = tmp_path / "pgpass"
    pgpass.write_text(f"*:*:*:ann:{secret}\n")
    pgpass.chmod(0o600)
    monkeypatch.setenv("PGPASSFILE", str(pgpass))
    status, out, err = _run(["review", "status", "--server", bare], capsys)
    assert status == 0, err
    monkeypatch.setenv("PGPASSFILE", str(tmp_path / "absent"))
    asked: list[str] = []
    monkeypatch.setattr(server_connection, "_prompt_allowed", lambda: True)

    def answer(question: str) -> str:
        asked.append(question)
        return secret

    monkeypatch.setattr(getpass, "getpass", answer)  # the module connection.py prompts with
    status, out, err = _run(["review", "next", "--server", bare], capsys)
    assert status == 0, err
    assert asked == [f"Password for ann on {bare}: "]
    assert secret not in out + err


@pytest.mark.postgres
def test_the_desk_talks_tls_when_the_server_offers_it_and_sslmode_is_honoured(
    review_db: ReviewDatabase, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """The test server offers TLS (scripts/review-server.sh, a throwaway certificate
    authority): the desk's own login uses it by default; ``sslmode=verify-full`` with the
    authority succeeds, with another authority fails as one line without the password;
    ``sslmode=disable`` is honoured too (that server still accepts it)."""
    from ai4hse_desk.review.server.connection import ServerSession

    url = review_db.url("ann")
    with ServerSession(url) as session:
        row = (
            session.connection()
            .execute("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
            .fetchone()
        )
    assert row == (True,)
    root = server_root_cert()
    status, _, err = _run(["review", "status", "--server",
                           f"{url}?sslmode=verify-full&sslrootcert={root}"], capsys)  # fmt: skip
    assert status == 0, err
    other = tmp_path / "other-ca.crt"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
         "/CN=not the server's", "-keyout", str(tmp_path / "other.key"), "-out", str(other)],
        check=True, capture_output=True,
    )  # fmt: skip
    status, _, err = _run(["review", "status", "--server",
                           f"{url}?sslmode=verify-full&sslrootcert={other}"], capsys)  # fmt: skip
    assert status == 2
    assert err.count("\n") == 1
    assert "certificate" in err
    assert password_of(url) not in err
    status, _, err = _run(["review", "status", "--server", url + "?sslmode=disable"], capsys)
    assert status == 0, err


def _verdict_argv(url: str) -> list[str]:
    return [
        "review",
        "verdict",
        "--server",
        url,
        "--question",
        "Q001",
        "--verdict",
        "key_ok",
        "--not-blind",
    ]


@pytest.mark.postgres
def test_a_verdict_whose_connection_is_killed_before_commit_is_not_stored(
    review_db: ReviewDatabase,
) -> None:
    url = review_db.url("ann")
    with connect(url) as holder:
        holder.execute(
            "SELECT pg_advisory_lock(hashtextextended(%s, 0))", ("ai4hse_review:question:Q001",)
        )
        desk = subprocess.Popen(
            [sys.executable, "-m", "ai4hse_desk.launcher", *_verdict_argv(url)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        try:
            waiting: list[tuple[Any, ...]] = []
            for _ in range(600):
                waiting = holder.execute(
                    "SELECT pid FROM pg_stat_activity WHERE usename = 'ann' AND application_name "
                    "= 'ai4hse-desk' AND wait_event_type = 'Lock'"
                ).fetchall()
                if waiting or desk.poll() is not None:
                    break
                time.sleep(0.05)
            assert waiting, "the desk's verdict never waited on the lock"
            holder.execute("SELECT pg_terminate_backend(%s)", (waiting[0][0],))
            out, err = desk.communicate(timeout=60)
        finally:
            if desk.poll() is None:
                desk.kill()
                desk.communicate()
        holder.execute("SELECT pg_advisory_unlock_all()")
    assert desk.returncode == 2, err
    assert out == ""
    assert err.count("\n") == 1
    assert "was lost" in err
    assert "the verdict was NOT stored (nothing was written)" in err
    assert password_of(url) not in err
    assert review_db.sql("coord", f"SELECT count(*) FROM {S}.verdict_revisions") == [(0,)]


@pytest.mark.postgres
def test_a_verdict_whose_answer_is_lost_after_commit_is_said_stored(
    review_db: ReviewDatabase, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = ServerSession._run

    def answer_lost(self: ServerSession, conn: Any, query: str, params: list[object]) -> Any:
        result = real(self, conn, query, params)
        if "save_verdict" in query:
            conn.close()
            raise self.error(psycopg.OperationalError("server closed the connection"), conn)
        return result

    monkeypatch.setattr(ServerSession, "_run", answer_lost)
    status, out, err = _run(_verdict_argv(review_db.url("ann")), capsys)
    assert status == 2
    assert out == ""
    assert "the verdict WAS stored" in err
    stored = review_db.sql("coord", f"SELECT reviewer, verdict, state FROM {S}.verdict_revisions")
    assert stored == [("ann", "key_ok", "submitted")]

    def unreachable(_self: ServerSession) -> None:
        raise ServerUnavailable("cannot connect to the review server")

    monkeypatch.setattr(ServerSession, "reconnect", unreachable)
    status, out, err = _run([*_verdict_argv(review_db.url("bo"))], capsys)
    assert status == 2
    assert "whether the verdict was stored is unknown" in err


@pytest.mark.postgres
def test_a_read_whose_connection_is_killed_is_asked_again_on_a_new_one(
    review_db: ReviewDatabase,
) -> None:
    url = review_db.url("ann")
    server = ReviewServer.open(url)

    def end_its_session() -> None:  # a login may end its own other sessions, as a restart does
        pid = server.session.connection().info.backend_pid
        with connect(url) as other:
            other.execute("SELECT pg_terminate_backend(%s)", (pid,))

    shown = server.show("Q001")
    first = server.session.connection().info.backend_pid
    end_its_session()
    assert server.show("Q001") == shown
    assert server.session.connection().info.backend_pid != first
    end_its_session()
    assert server.progress() == {"assigned": 3, "submitted": 0, "drafts": 0, "remaining": 3}

    def unreachable(_self: ServerSession) -> None:
        raise ServerUnavailable("cannot connect to the review server")

    end_its_session()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ServerSession, "reconnect", unreachable)
        with pytest.raises(ServerUnavailable, match="cannot connect"):
            server.progress()
    server.close()
