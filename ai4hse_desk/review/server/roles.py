"""Who may take part, and the grants that let them: the review's two group roles.

Reviewers and adjudicators are existing PostgreSQL LOGIN roles made by the database's
administrator. A publish checks each named role — it exists, may log in, is neither a
superuser nor BYPASSRLS (either would pass every wall) nor the database's owner — and
makes it a member of the review's group role, ``<database>_reviewers`` or
``<database>_adjudicators`` (created, NOLOGIN, when missing: the coordinator needs
CREATEROLE for that, or the administrator makes them and lets the coordinator grant
them). The groups receive exactly:

* CONNECT on the review database (PUBLIC's CONNECT and TEMPORARY are revoked, and
  PUBLIC's CREATE on the schema ``public``: nobody but the owner makes objects there);
* USAGE on the review schema (never CREATE);
* SELECT on :data:`REVIEWER_TABLES` for reviewers, on ``schema_version`` for
  adjudicators — row security limits every reviewer to their own rows;
* EXECUTE on the functions of :data:`READER_FUNCTIONS` (both),
  :data:`REVIEWER_FUNCTIONS` or :data:`ADJUDICATOR_FUNCTIONS`.

No INSERT, UPDATE, DELETE, TRUNCATE, REFERENCES or TRIGGER is granted on anything.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ai4hse_desk.review.server.address import ServerError
from ai4hse_desk.review.server.migrations import SCHEMA

if TYPE_CHECKING:
    from collections.abc import Sequence

    import psycopg

#: Tables a reviewer may SELECT (row security: their own rows only).
REVIEWER_TABLES: Final = (
    "questions",
    "options",
    "assignments",
    "verdicts",
    "verdict_revisions",
    "releases",
    "schema_version",
)
#: Functions every participant calls.
READER_FUNCTIONS: Final = (
    "whoami()",
    "progress()",
    "show_question(text)",
    "review_status()",
    "request_outcome(uuid)",
)
#: Functions of reviewers.
REVIEWER_FUNCTIONS: Final = (
    "next_question()",
    "own_queue()",
    "save_verdict(text, text[], boolean, text, text[], text, text, text, boolean, uuid)",
    "record_blind(text, text[], uuid)",
)
#: Functions of adjudicators.
ADJUDICATOR_FUNCTIONS: Final = (
    "adjudication_queue()",
    "adjudicate(text, text, text[], text, uuid)",
    "review_export()",
)
_LONGEST_NAME: Final = 63


def group_roles(database: str) -> tuple[str, str]:
    """The reviewer and adjudicator group roles of the review database ``database``.

    Raises:
        ServerError: the database's name is too long for them (PostgreSQL's 63 bytes).
    """
    names = (f"{database}_reviewers", f"{database}_adjudicators")
    if any(len(name.encode()) > _LONGEST_NAME for name in names):
        raise ServerError(
            f"the database name {database[:40]!r} is too long for the review's group roles "
            f"({_LONGEST_NAME - len('_adjudicators')} bytes at most)"
        )
    return names


def check_roles(conn: psycopg.Connection[Any], names: Sequence[str], owner: str) -> None:
    """Every one of ``names`` is a LOGIN role that the walls hold.

    Raises:
        ServerError: a role that does not exist, cannot log in, is a superuser or
            BYPASSRLS, or owns the database.
    """
    rows = conn.execute(
        "SELECT rolname, rolcanlogin, rolsuper, rolbypassrls FROM pg_catalog.pg_roles "
        "WHERE rolname = ANY(%s)",
        (list(names),),
    ).fetchall()
    found = {str(row[0]): row for row in rows}
    for name in names:
        row = found.get(name)
        if row is None:
            raise ServerError(
                f"there is no role {name!r} on the server (its administrator makes it)"
            )
        if not row[1]:
            raise ServerError(f"the role {name!r} cannot log in (it is not a LOGIN role)")
        if row[2] or row[3]:
            raise ServerError(
                f"the role {name!r} is a superuser or BYPASSRLS: it would pass every wall, so it "
                "cannot review or adjudicate"
            )
        if name == owner:
            raise ServerError(
                f"{name!r} owns the review database (the coordinator); the owner cannot review "
                "or adjudicate"
            )


def grant(
    conn: psycopg.Connection[Any],
    database: str,
    reviewers: Sequence[str],
    adjudicators: Sequence[str],
) -> None:
    """Make the group roles if missing, give them what they need (module docstring), and
    make each named role a member. Runs in the caller's (publish) transaction."""
    from psycopg import sql

    reviewer_group, adjudicator_group = group_roles(database)
    existing = {
        str(row[0])
        for row in conn.execute(
            "SELECT rolname FROM pg_catalog.pg_roles WHERE rolname = ANY(%s)",
            ([reviewer_group, adjudicator_group],),
        )
    }
    rv, adj, db = (sql.Identifier(n) for n in (reviewer_group, adjudicator_group, database))
    for name in (reviewer_group, adjudicator_group):
        if name not in existing:
            conn.execute(sql.SQL("CREATE ROLE {} NOLOGIN").format(sql.Identifier(name)))
    both = sql.SQL("{}, {}").format(rv, adj)
    schema = sql.Identifier(SCHEMA)
    statements: list[sql.SQL | sql.Composed] = [
        sql.SQL("REVOKE ALL ON DATABASE {} FROM PUBLIC").format(db),
        sql.SQL("GRANT CONNECT ON DATABASE {} TO {}").format(db, both),
        sql.SQL("GRANT USAGE ON SCHEMA {} TO {}").format(schema, both),
        sql.SQL("REVOKE ALL ON ALL FUNCTIONS IN SCHEMA {} FROM PUBLIC").format(schema),
        sql.SQL("GRANT SELECT ON {} TO {}").format(
            sql.SQL(", ").join(sql.Identifier(SCHEMA, t) for t in REVIEWER_TABLES), rv
        ),
        sql.SQL("GRANT SELECT ON {} TO {}").format(sql.Identifier(SCHEMA, "schema_version"), adj),
    ]
    if conn.execute("SELECT to_regnamespace('public') IS NOT NULL").fetchone() == (True,):
        statements.append(sql.SQL("REVOKE CREATE ON SCHEMA public FROM PUBLIC"))
    for functions, to in (
        (READER_FUNCTIONS, both),
        (REVIEWER_FUNCTIONS, rv),
        (ADJUDICATOR_FUNCTIONS, adj),
    ):
        for signature in functions:
            statements.append(
                sql.SQL("GRANT EXECUTE ON FUNCTION {}.{} TO {}").format(
                    schema, sql.SQL(signature), to
                )
            )
    for group, members in ((rv, reviewers), (adj, adjudicators)):
        statements.extend(
            sql.SQL("GRANT {} TO {}").format(group, sql.Identifier(name)) for name in members
        )
    for statement in statements:
        conn.execute(statement)
