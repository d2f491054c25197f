"""``ai4hse-desk keyaudit AUDIT_DB [--top K]``: questions whose keys most need a look."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ai4hse_desk.cli.errors import InputError
from ai4hse_desk.cli.json_out import write_json
from ai4hse_desk.cli.parser import positive_int

if TYPE_CHECKING:
    import argparse


def register(commands: Any) -> None:
    """Add the ``keyaudit`` sub-command."""
    p = commands.add_parser(
        "keyaudit",
        help="rank questions by evidence that their answer key needs a review (JSON)",
        description=(
            "Re-derive every attempt of AUDIT_DB and rank its questions by the evidence "
            "that their key is wrong (the runs' answers, one vote per run, and a model of "
            "the runs as annotators; weights fitted on real key errors), with the evidence "
            "in words and the signals behind it. Prints JSON, highest score first, with each "
            "question's rank; 'probability' is P(key wrong) only where it is calibrated "
            "(single-answer questions, 8 to 10 single-choice runs like the calibration "
            "runs), else null with 'probability_withheld'. Suggestions only: no key and no "
            "score changes; the audit database is opened read-only."
        ),
    )
    p.add_argument("audit_db", type=Path, metavar="AUDIT_DB")
    p.add_argument(
        "--top",
        type=positive_int,
        metavar="K",
        help="only the K highest-ranked questions (default: all)",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run ``keyaudit``."""
    from ai4hse_desk.audit import AuditError, open_audit
    from ai4hse_desk.keyaudit import compute_key_audit

    try:
        with open_audit(args.audit_db) as db:
            result = compute_key_audit(db)
    except AuditError as exc:
        raise InputError(str(exc)) from None
    write_json(sys.stdout, result.to_json(args.top), stream="questions")
    return 0
