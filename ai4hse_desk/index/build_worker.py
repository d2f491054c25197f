"""The worker process of a split stage-1 build: ``python -m ai4hse_desk.index.build_worker``.

Started by :mod:`.build_split` with the audit file, the part file and the slice of
attempt ids (``LOW HIGH``) as arguments. It derives that slice's rows into the part
file (made with the index's own tables; only ``rows`` and ``reasons`` are filled, its
rows' values checked in its scan) and reports on standard output, one line each:
``done N`` after every batch, then one last line, ``ok N`` or ``error MESSAGE`` (a
problem in the data, the text as the one-process build raises it) or ``crash MESSAGE``,
the value JSON-quoted. Its parent stops it by ending the process: it writes nothing but
the part file, which the parent deletes.

A module of its own, run by name: the parent's ``__main__`` (the desk's window, a
user's script) is never imported again, as ``multiprocessing``'s spawn would.
"""

from __future__ import annotations

import json
import sqlite3
import sys
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence


def _say(kind: str, value: object) -> None:
    sys.stdout.write(f"{kind} {json.dumps(value)}\n")
    sys.stdout.flush()


def derive_part(source: Path, part: Path, id_range: tuple[int, int]) -> int:
    """Write the rows of ``id_range`` of ``source`` into the new file ``part``."""
    from ai4hse_desk.audit import open_audit
    from ai4hse_desk.index.build import BUILD_PRAGMAS, INDEX_SCHEMA
    from ai4hse_desk.index.build_rows import ReasonIds, insert_reasons, insert_rows

    def progress(done: int, _total: int) -> bool:
        _say("done", done)
        return True

    with open_audit(source) as db, closing(sqlite3.connect(part, isolation_level=None)) as conn:
        for pragma in BUILD_PRAGMAS:
            conn.execute(f"PRAGMA {pragma}")
        conn.executescript(INDEX_SCHEMA)  # only rows and reasons are filled
        conn.execute("BEGIN")
        ordinals = {question.question_id: question.ordinal for question in db.questions()}
        reasons = ReasonIds()
        count = insert_rows(conn, db, ordinals, reasons, progress, id_range)
        insert_reasons(conn, reasons)
        conn.execute("COMMIT")
    return count


def main(argv: Sequence[str]) -> int:
    """``SOURCE PART LOW HIGH``; the answer goes to standard output (see above)."""
    from ai4hse_desk.audit.errors import AuditError

    try:
        source, part, low, high = argv
        _say("ok", derive_part(Path(source), Path(part), (int(low), int(high))))
    except AuditError as exc:
        _say("error", str(exc))
    except Exception as exc:  # noqa: BLE001 - any crash goes to the parent as one line
        _say("crash", f"{type(exc).__name__}: {exc}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
