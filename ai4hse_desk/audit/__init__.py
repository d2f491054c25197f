"""Strictly read-only access to the runner's AI4HSE audit databases.

Open a file with :func:`open_audit`; it validates the file (SQLite, ``audit_meta``
format and schema version, required tables and columns) and returns an
:class:`AuditDB` with typed records (:class:`Run`, :class:`Question`,
:class:`Option`, :class:`Attempt`), filtered counts, keyset-paged attempt keys
(:class:`AttemptFilter`, :data:`SortKey`) and a streaming rescoring reader.
Every problem with the input is an :class:`AuditError` with a one-line message.
Nothing here ever writes to, locks or creates a file beside an audit database.
"""

from ai4hse_desk.audit.errors import AuditError
from ai4hse_desk.audit.filters import ATTEMPT_FIELDS, AttemptFilter, SortKey, SortValue
from ai4hse_desk.audit.fingerprint import sha256_file
from ai4hse_desk.audit.opening import open_audit
from ai4hse_desk.audit.queries import RESCORE_COLUMNS, AuditDB, RescoreRow
from ai4hse_desk.audit.records import Attempt, Option, Question, Run
from ai4hse_desk.audit.schema_check import (
    AUDIT_FORMAT,
    REQUIRED_COLUMNS,
    SUPPORTED_SCHEMA_VERSIONS,
)

__all__ = [
    "ATTEMPT_FIELDS",
    "AUDIT_FORMAT",
    "REQUIRED_COLUMNS",
    "RESCORE_COLUMNS",
    "SUPPORTED_SCHEMA_VERSIONS",
    "Attempt",
    "AttemptFilter",
    "AuditDB",
    "AuditError",
    "Option",
    "Question",
    "RescoreRow",
    "Run",
    "SortKey",
    "SortValue",
    "open_audit",
    "sha256_file",
]
