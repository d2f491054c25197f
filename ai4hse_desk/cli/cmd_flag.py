"""``ai4hse-desk flag AUDIT_DB --question QID --category CAT …``: record an answer-key concern.

The flag goes into the notes store (``--notes``, default ``AUDIT_DB.review.sqlite``);
the audit database is only read, and no score changes (protocol §7). Prints the
new flag as one JSON line.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from ai4hse_desk.cli.cmd_notes import add_store_arguments, notes_session
from ai4hse_desk.cli.errors import InputError
from ai4hse_desk.cli.json_out import write_line

if TYPE_CHECKING:
    import argparse


def register(commands: Any) -> None:
    """Add the ``flag`` sub-command."""
    p = commands.add_parser(
        "flag",
        help="record a reviewer's concern about a question's answer key",
        description=(
            "Record a flag on a question (optionally one option) in the notes store and "
            "print it as one JSON line. The audit database and every score stay as recorded."
        ),
    )
    add_store_arguments(p)
    p.add_argument("--question", required=True, metavar="QID")
    p.add_argument(
        "--category",
        required=True,
        metavar="CAT",
        help=(
            "key_incorrect, ambiguous_wording, multiple_defensible, outdated_or_jurisdiction, "
            "option_overlap, typo_or_format or other"
        ),
    )
    p.add_argument("--option", type=int, metavar="POS", help="0-based option position")
    p.add_argument(
        "--note",
        required=True,
        metavar="TEXT",
        help="why: a regulation, a source, the option that should differ (may be empty, "
        "except for category other)",
    )
    p.add_argument("--reviewer", required=True, metavar="NAME")
    p.add_argument("--severity", default="medium", help="low, medium (default) or high")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run ``flag``."""
    from ai4hse_desk.notes import ReviewError

    with notes_session(args.audit_db, args.notes) as store:
        try:
            flag = store.add_flag(
                question_id=args.question,
                category=args.category,
                note=args.note,
                reviewer=args.reviewer,
                option=args.option,
                severity=args.severity,
            )
        except ReviewError as exc:
            raise InputError(str(exc)) from None
    write_line(sys.stdout, flag.to_json())
    return 0
