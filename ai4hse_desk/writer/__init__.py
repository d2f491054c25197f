"""Writing NEW audit databases (the ``audit`` package only ever reads one).

* :mod:`.new_db` — a new schema-v1 database built in a staged file and renamed
  into place, never over an existing file;
* :mod:`.demo` — the demo database;
* :mod:`.imports` — public benchmarks (HSE-Bench, EnviroExam, a questions CSV)
  and ``import responses``, which adds a run to a database the desk itself made.
"""

from ai4hse_desk.writer.new_db import (
    BuildingConnection,
    WriterError,
    create_audit_db,
    discard_audit_db,
    finish_audit_db,
    new_audit_db,
)

__all__ = [
    "BuildingConnection",
    "WriterError",
    "create_audit_db",
    "discard_audit_db",
    "finish_audit_db",
    "new_audit_db",
]
