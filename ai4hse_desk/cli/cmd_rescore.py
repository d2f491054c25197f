"""``ai4hse-desk rescore AUDIT_DB [--per-attempt] [--run RUN_ID]``."""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ai4hse_desk.cli.errors import InputError
from ai4hse_desk.cli.json_out import dumps_indented
from ai4hse_desk.cli.parser import process_count

if TYPE_CHECKING:
    import argparse


def register(commands: Any) -> None:
    """Add the ``rescore`` sub-command."""
    p = commands.add_parser(
        "rescore",
        help="re-derive every attempt with the protocol and print the scores as JSON",
        description=(
            "Re-derive every attempt of AUDIT_DB with protocol.md and print each run's "
            "metrics as JSON (cli.md). The audit database is opened read-only."
        ),
    )
    p.add_argument("audit_db", type=Path, metavar="AUDIT_DB")
    p.add_argument("--per-attempt", action="store_true", help="also list every attempt's verdict")
    p.add_argument(
        "--run",
        action="append",
        dest="runs",
        metavar="RUN_ID",
        help="only this run (repeat for several)",
    )
    p.add_argument(
        "--workers",
        type=process_count,
        metavar="N",
        help="processes that score the attempts, 1 to 64 (default: 2 for a file of 300,000 "
        "attempts or more on a machine with 2 CPUs or more, else 1)",
    )
    p.add_argument(
        "--table",
        action="store_true",
        help="print a readable table per track instead of JSON (not for scripts)",
    )
    p.set_defaults(handler=run)


def _write_json(
    out: IO[str], audit: dict[str, object], runs: list[dict[str, object]], spool: IO[str] | None
) -> None:
    head = dumps_indented({"audit": audit, "runs": runs})  # json.dumps(indent=2)'s text, in C
    if spool is None:
        out.write(head + "\n")
        return
    out.write(head[:-2] + ',\n  "attempts": [')
    spool.seek(0)
    first = True
    for line in spool:
        out.write(("\n    " if first else ",\n    ") + line.rstrip("\n"))
        first = False
    out.write("\n  ]\n}\n" if not first else "]\n}\n")


def run(args: argparse.Namespace) -> int:
    """Run ``rescore``."""
    from ai4hse_desk.audit import AuditError, open_audit
    from ai4hse_desk.verdicts.rescore import AttemptVerdict, rescore

    try:
        with open_audit(args.audit_db) as db:
            spool: IO[str] | None = None
            dumps = json.dumps

            def keep(verdict: AttemptVerdict) -> None:
                assert spool is not None
                spool.write(dumps(verdict.to_json()) + "\n")

            with tempfile.TemporaryFile("w+", encoding="utf-8") as tmp:
                if args.per_attempt:
                    spool = tmp
                result = rescore(
                    db,
                    args.runs,
                    on_attempt=keep if args.per_attempt else None,
                    workers=args.workers,
                    record_check=True,  # the next rescore of these bytes checks nothing
                )
                audit = db.summary()
                if args.table:
                    from ai4hse_desk.cli.table import render_runs

                    sys.stdout.write(render_runs(audit, result.runs))
                else:
                    _write_json(sys.stdout, audit, result.runs, spool)
    except AuditError as exc:
        raise InputError(str(exc)) from None
    return 0
