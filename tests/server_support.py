"""Shared helpers of the review server tests: the cluster's logins and a fresh database each.

``make test`` starts ``scripts/review-server.sh`` (a throwaway cluster on loopback with
scram-sha-256 passwords; roles ``coord`` — owner, CREATEDB, CREATEROLE — ``ann``, ``bo``
and ``cy``) and exports each role's URL as ``AI4HSE_TEST_SERVER_<ROLE>``. Without them
the server tests skip — unless ``AI4HSE_REQUIRE_PG=1`` (set by ``make test``), where
they fail.

:class:`ReviewDatabase` is one fresh database owned by ``coord`` (the review's own
group roles are made by the publish), dropped after the test with its group roles.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import psycopg
import pytest
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo

from ai4hse_desk.launcher import main

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

ROLES = ("coord", "ann", "bo", "cy")
ENV = "AI4HSE_TEST_SERVER_{}"
REQUIRE_ENV = "AI4HSE_REQUIRE_PG"


def server_urls() -> dict[str, str]:
    """Each role's URL (to the published demo database), or skip / fail."""
    urls = {role: os.environ.get(ENV.format(role.upper()), "") for role in ROLES}
    if not all(urls.values()):
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(
                f"{REQUIRE_ENV}=1 but {ENV.format('COORD')} and the others are unset: "
                "the review server (scripts/review-server.sh) is missing"
            )
        pytest.skip("the review server is not running (make test starts scripts/review-server.sh)")
    return urls


def server_root_cert() -> str:
    """The test server's certificate authority (``AI4HSE_TEST_SERVER_ROOTCERT``, set by
    ``make test``; scripts/review-server.sh writes it as DIR/root.crt)."""
    path = os.environ.get("AI4HSE_TEST_SERVER_ROOTCERT", "")
    if not path:
        if os.environ.get(REQUIRE_ENV) == "1":
            pytest.fail(f"{REQUIRE_ENV}=1 but AI4HSE_TEST_SERVER_ROOTCERT is unset")
        pytest.skip("AI4HSE_TEST_SERVER_ROOTCERT is unset (make test sets it)")
    return path


def in_database(url: str, database: str) -> str:
    """``url`` naming ``database`` instead (a libpq URI, password kept)."""
    params = conninfo_to_dict(url)
    params["dbname"] = database
    return "postgresql://{user}:{password}@{host}:{port}/{dbname}".format(**params)


def password_of(url: str) -> str:
    return str(conninfo_to_dict(url)["password"])


def without_password(url: str) -> str:
    params = {k: v for k, v in conninfo_to_dict(url).items() if k != "password"}
    return "postgresql://{user}@{host}:{port}/{dbname}".format(**params)


def connect(url: str, **options: Any) -> psycopg.Connection[Any]:
    """A plain psycopg login (not through the desk), autocommit."""
    return psycopg.connect(make_conninfo(url), autocommit=True, **options)


@dataclass
class ReviewDatabase:
    """A fresh review database on the test cluster and each role's URL to it."""

    name: str
    urls: dict[str, str] = field(default_factory=dict)

    @property
    def coord(self) -> str:
        return self.urls["coord"]

    def url(self, role: str) -> str:
        return self.urls[role]

    def desk(self, argv: Sequence[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, Any, str]:
        """Run ``ai4hse-desk argv``: (exit status, stdout parsed as JSON or text, stderr)."""
        capsys.readouterr()
        status = main(list(argv))
        out, err = capsys.readouterr()
        try:
            parsed: Any = json.loads(out) if out.strip() else None
        except ValueError:
            parsed = out
        return status, parsed, err

    def publish(self, audit: object, capsys: pytest.CaptureFixture[str], *options: str) -> Any:
        """``review publish AUDIT --server COORD options…``; its JSON (exit 0 asserted)."""
        status, out, err = self.desk(
            ["review", "publish", str(audit), "--server", self.coord, *options], capsys
        )
        assert status == 0, err
        return out

    def sql(self, role: str, query: str, params: Sequence[object] = ()) -> list[tuple[Any, ...]]:
        """Rows of ``query`` run as ``role`` (plain psycopg)."""
        with connect(self.url(role)) as conn:
            cur = conn.execute(query, params)
            return cur.fetchall() if cur.description else []


def create_database(urls: dict[str, str]) -> ReviewDatabase:
    """A new database owned by ``coord``."""
    name = f"t_{uuid.uuid4().hex[:12]}"
    with connect(urls["coord"]) as conn:
        conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    return ReviewDatabase(name, {role: in_database(url, name) for role, url in urls.items()})


@contextmanager
def fresh_database() -> Iterator[ReviewDatabase]:
    """A new database owned by ``coord`` for the ``with`` block, dropped after it (with the
    review's group roles made for it)."""
    urls = server_urls()
    database = create_database(urls)
    try:
        yield database
    finally:
        drop_database(urls, database)


def drop_database(urls: dict[str, str], database: ReviewDatabase) -> None:
    """Drop ``database`` and the review's group roles made for it.

    ``coord`` ends its own sessions; the sessions the test closed end a moment after their
    clients did, later on a busy machine. A plain ``DROP DATABASE`` waits for them (up to
    5 s each try; tried again for a minute). ``WITH (FORCE)`` is not used: for a role that
    is not a superuser it refuses outright while a session of another role is still on the
    database ("must be a member of the role whose process is being terminated"), which
    failed a teardown once in a full run.
    """
    statement = sql.SQL("DROP DATABASE IF EXISTS {}").format(sql.Identifier(database.name))
    deadline = time.monotonic() + 60
    with connect(urls["coord"]) as conn:
        while True:
            conn.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = %s AND pid <> pg_backend_pid() AND usename = current_user",
                (database.name,),
            )
            try:
                conn.execute(statement)
                break
            except psycopg.errors.ObjectInUse:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        for suffix in ("_reviewers", "_adjudicators"):
            conn.execute(
                sql.SQL("DROP ROLE IF EXISTS {}").format(sql.Identifier(database.name + suffix))
            )
