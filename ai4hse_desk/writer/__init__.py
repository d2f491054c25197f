"""Writing NEW audit databases: the demo now, importers of public benchmarks later.

The ``audit`` package only ever reads a runner's database; everything that
creates a database lives here, and never writes to an existing file.
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
