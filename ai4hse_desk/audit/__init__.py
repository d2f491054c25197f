"""Strictly read-only access to the runner's AI4HSE audit databases.

Open a file with :func:`open_audit`; it validates the file (SQLite, ``audit_meta``
format and schema version, required tables and columns) and returns an
:class:`AuditDB` with typed records (:class:`Run`, :class:`Question`,
:class:`Option`, :class:`Attempt`), attempt counts per run, attempts by id and a
streaming rescoring reader (:data:`RESCORE_COLUMNS` tuples). Listing, filtering and
sorting attempts is the review index's job (:mod:`ai4hse_desk.index`).
Every problem with the input is an :class:`AuditError` with a one-line message.
Nothing here ever writes to an audit database or creates a file beside it; while a
rollback-journal file is open the desk holds SQLite's shared (read) lock on it, so
that no writer commits in the middle of a read (:mod:`.pin`).
"""

from ai4hse_desk.audit.errors import AuditError
from ai4hse_desk.audit.fingerprint import sha256_file
from ai4hse_desk.audit.queries import AuditDB, open_audit
from ai4hse_desk.audit.records import Attempt, Option, Question, Run
from ai4hse_desk.audit.rescore_scan import RESCORE_COLUMNS, RescoreRow
from ai4hse_desk.audit.schema_check import (
    AUDIT_FORMAT,
    REQUIRED_COLUMNS,
    SUPPORTED_SCHEMA_VERSIONS,
)

__all__ = [
    "AUDIT_FORMAT",
    "REQUIRED_COLUMNS",
    "RESCORE_COLUMNS",
    "SUPPORTED_SCHEMA_VERSIONS",
    "Attempt",
    "AuditDB",
    "AuditError",
    "Option",
    "Question",
    "RescoreRow",
    "Run",
    "open_audit",
    "sha256_file",
]
