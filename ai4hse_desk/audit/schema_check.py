"""Checks that an SQLite file is an AI4HSE audit database the desk can read.

The checks run in order and stop at the first failure, each with one line naming
the file:

1. an ``audit_meta`` table exists (else it is some other SQLite file);
2. ``audit_meta`` says ``format = 'ai4hse-audit'``;
3. ``schema_version`` is one this desk reads (``1``);
4. every table the desk reads exists with every column the desk reads, and is a
   real table (:func:`~.value_check.check_structure`: no view, virtual table or
   generated column).

Extra tables and extra columns are tolerated (``audit-db-v1.sql``). The other
required meta keys (``benchmark``, ``corpus_id``, ``created_at``) are descriptive:
when absent they are simply missing from :attr:`AuditDB.meta`.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from ai4hse_desk.audit.errors import AuditError
from ai4hse_desk.audit.records import RUN_COLUMNS
from ai4hse_desk.audit.value_check import check_structure

if TYPE_CHECKING:
    import sqlite3
    from collections.abc import Mapping

#: Value of ``audit_meta.format`` in every audit database.
AUDIT_FORMAT = "ai4hse-audit"

#: The schema versions this desk reads.
SUPPORTED_SCHEMA_VERSIONS: tuple[int, ...] = (1,)

#: Tables and columns of schema v1 the desk reads (all of them), in check order.
REQUIRED_COLUMNS: Mapping[str, tuple[str, ...]] = {
    "audit_meta": ("key", "value"),
    "questions": ("question_id", "ordinal", "text"),
    "question_labels": ("question_id", "facet", "value"),
    "options": ("question_id", "position", "text", "key"),
    "runs": RUN_COLUMNS,
    "attempts": (
        "attempt_id",
        "run_id",
        "question_id",
        "repetition",
        "state",
        "raw_response",
        "finish_reason",
        "error",
        "parse_status",
        "extracted",
        "strict_format",
        "correct",
        "prompt_tokens",
        "completion_tokens",
        "reasoning_tokens",
        "latency_ms",
        "created_at",
    ),
}


def _tables(conn: sqlite3.Connection) -> set[str]:
    rows = conn.execute("SELECT name FROM sqlite_master WHERE type IN ('table', 'view')")
    return {str(name).lower() for (name,) in rows}


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    rows = conn.execute("SELECT name FROM pragma_table_info(?)", (table,))
    return {str(name).lower() for (name,) in rows}


def _check_columns(conn: sqlite3.Connection, path: str, table: str) -> None:
    present = _columns(conn, table)
    missing = [column for column in REQUIRED_COLUMNS[table] if column not in present]
    if missing:
        names = ", ".join(repr(column) for column in missing)
        noun = "column" if len(missing) == 1 else "columns"
        raise AuditError(f"{path}: table {table!r} lacks required {noun} {names}", path)


def _schema_version(path: str, meta: Mapping[str, str]) -> int:
    raw = meta.get("schema_version")
    if raw is None:
        raise AuditError(f"{path}: audit_meta has no schema_version", path)
    supported = " or ".join(str(version) for version in SUPPORTED_SCHEMA_VERSIONS)
    text = raw.strip()
    version = int(text) if text.isascii() and text.isdigit() else None
    if version is None or version not in SUPPORTED_SCHEMA_VERSIONS:
        shown = repr(raw) if version is None else text
        raise AuditError(
            f"{path}: unsupported audit schema version {shown} (this desk reads version "
            f"{supported})",
            path,
        )
    return version


def check_schema(
    conn: sqlite3.Connection, path: str | os.PathLike[str]
) -> tuple[dict[str, str], int]:
    """Validate the audit database behind ``conn``.

    Args:
        conn: a read-only driver connection to the database.
        path: the file name used in messages.

    Returns:
        The ``audit_meta`` key/value pairs and the schema version.

    Raises:
        AuditError: the first check that fails (see the module docstring).
    """
    shown = os.fspath(path)
    tables = _tables(conn)
    if "audit_meta" not in tables:
        raise AuditError(f"{shown}: not an AI4HSE audit database (no audit_meta table)", path)
    check_structure(conn, Path(shown), ["audit_meta"])
    _check_columns(conn, shown, "audit_meta")
    meta = {
        str(key): "" if value is None else str(value)
        for key, value in conn.execute("SELECT key, value FROM audit_meta ORDER BY key")
    }
    fmt = meta.get("format")
    if fmt != AUDIT_FORMAT:
        found = "no format" if fmt is None else f"format {fmt!r}"
        raise AuditError(
            f"{shown}: not an AI4HSE audit database (audit_meta has {found}, "
            f"expected {AUDIT_FORMAT!r})",
            path,
        )
    version = _schema_version(shown, meta)
    for table in REQUIRED_COLUMNS:
        if table not in tables:
            raise AuditError(
                f"{shown}: not a complete audit database (missing table {table!r})", path
            )
        check_structure(conn, Path(shown), [table])
        _check_columns(conn, shown, table)
    return meta, version


def quick_check(conn: sqlite3.Connection, path: str | os.PathLike[str]) -> None:
    """Run ``PRAGMA quick_check`` (reads every page: O(file size)).

    Raises:
        AuditError: the file is damaged; the message gives SQLite's first finding.
    """
    findings = [str(row[0]) for row in conn.execute("PRAGMA quick_check(1)")]
    if findings != ["ok"]:
        first = findings[0] if findings else "no result"
        raise AuditError(f"{os.fspath(path)}: damaged audit database ({first})", path)
