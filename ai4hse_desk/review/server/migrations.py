"""The review schema's versions: ordered SQL files, applied by the coordinator's publish.

``sql/NNNN_name.sql`` (packaged with the desk) are the migrations, numbered from 1
without gaps; the schema's version is the number of the last one applied, recorded in
``ai4hse_review.schema_version`` (one row per version, append-only). :func:`migrate`
runs inside the publish transaction, under an advisory lock so that two publishes at
once migrate once: a server at this desk's version is left as it is, an older one gets
the missing files in order, a newer one is refused (the desk is older than the server).
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING, Any, Final

from ai4hse_desk import __version__
from ai4hse_desk.review.server.address import ServerError

if TYPE_CHECKING:
    import psycopg

#: The review schema's name on the server.
SCHEMA: Final = "ai4hse_review"
#: Advisory lock key of a publish (and its migration); any constant shared by all desks.
PUBLISH_LOCK: Final = 0x41493452
_FILE = re.compile(r"(\d{4})_[a-z0-9_]+\.sql")


@cache
def migration_files() -> tuple[tuple[int, str], ...]:
    """``(version, SQL text)`` of every packaged migration, in order.

    Raises:
        RuntimeError: the files are not numbered 1, 2, … without gaps (a packaging bug).
    """
    folder = files("ai4hse_desk.review.server").joinpath("sql")
    found = sorted(
        (int(match.group(1)), entry.read_text(encoding="utf-8"))
        for entry in folder.iterdir()
        if (match := _FILE.fullmatch(entry.name)) is not None
    )
    if [version for version, _ in found] != list(range(1, len(found) + 1)):
        raise RuntimeError("the review schema's migrations are not numbered 1, 2, … in order")
    return tuple(found)


def schema_version() -> int:
    """The review schema version this desk writes and reads."""
    return len(migration_files())


def current_version(conn: psycopg.Connection[Any]) -> int:
    """The version of the review schema on ``conn``'s database (0: none yet).

    Raises:
        ServerError: a schema named like the review's that is not one.
    """
    row = conn.execute(
        "SELECT to_regnamespace(%s) IS NOT NULL, to_regclass(%s) IS NOT NULL",
        (SCHEMA, f"{SCHEMA}.schema_version"),
    ).fetchone()
    has_schema, has_table = (False, False) if row is None else (bool(row[0]), bool(row[1]))
    if not has_schema:
        return 0
    if not has_table:
        raise ServerError(
            f"the database holds a schema {SCHEMA} that is not a review schema "
            "(no version table); publish into another database"
        )
    found = conn.execute(f"SELECT coalesce(max(version), 0) FROM {SCHEMA}.schema_version")
    row = found.fetchone()
    return 0 if row is None else int(row[0])


def migrate(conn: psycopg.Connection[Any]) -> list[int]:
    """Bring the review schema to this desk's version; the versions applied.

    Runs in the caller's transaction (publish), after taking :data:`PUBLISH_LOCK`.

    Raises:
        ServerError: the server's schema is newer than this desk's.
    """
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (PUBLISH_LOCK,))
    current = current_version(conn)
    desk = schema_version()
    if current > desk:
        raise ServerError(
            f"the review schema on this server is version {current}, newer than this "
            f"desk's ({desk}); update the desk before publishing"
        )
    applied = []
    for version, sql in migration_files()[current:]:
        conn.execute(sql)  # no parameters: sent as is
        conn.execute(
            f"INSERT INTO {SCHEMA}.schema_version (version, desk_version) VALUES (%s, %s)",
            (version, __version__),
        )
        applied.append(version)
    return applied
