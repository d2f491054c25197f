"""``ai4hse-desk notes export | import | agreement``: the reviewer notes of an audit database.

``STORE`` (``--notes``) is a file path or an SQLAlchemy URL (``sqlite:///…``,
``postgresql+psycopg://…``); by default the notes live in ``AUDIT_DB.review.sqlite``
(or the user data folder when the audit's folder is read-only). The audit
database is only read. A store first used with another audit file still opens;
the CLI prints one ``warning:`` line on stderr.
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ai4hse_desk.cli.errors import InputError
from ai4hse_desk.errors import one_line

if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator

    from ai4hse_desk.notes.store import NotesStore

NOTES_HELP = "notes store: a file path or SQLAlchemy URL (default: AUDIT_DB.review.sqlite)"


def add_store_arguments(p: argparse.ArgumentParser) -> None:
    """``AUDIT_DB`` and ``--notes STORE``, shared by ``flag`` and ``notes``."""
    p.add_argument("audit_db", type=Path, metavar="AUDIT_DB")
    p.add_argument("--notes", metavar="STORE", help=NOTES_HELP)


@contextmanager
def notes_session(audit_db: Path, location: str | None) -> Iterator[NotesStore]:
    """Open the audit database read-only and its notes store; problems become exit 2.

    A command refused for bad input writes nothing: a store that did not exist is
    created only by its first write (:mod:`ai4hse_desk.notes.creation`), so nothing
    is ever removed afterwards.
    """
    from ai4hse_desk.audit import AuditError, open_audit
    from ai4hse_desk.notes import ReviewError
    from ai4hse_desk.notes.store import NotesStore

    try:
        with open_audit(audit_db) as audit, NotesStore.open(audit, location) as store:
            if store.warning:
                sys.stderr.write(f"warning: {one_line(store.warning)}\n")
            yield store
    except (AuditError, ReviewError) as exc:
        raise InputError(str(exc)) from None


def register(commands: Any) -> None:
    """Add the ``notes`` sub-command with ``export``, ``import`` and ``agreement``."""
    notes = commands.add_parser(
        "notes",
        help="export, import and compare reviewers' flags and notes",
        description="Export, merge and compare the reviewer notes of AUDIT_DB.",
    )
    actions = notes.add_subparsers(dest="notes_command", metavar="ACTION", required=True)

    p = actions.add_parser(
        "export",
        help="write every flag, attempt note, review verdict, decision and plan",
        description=(
            "Write every flag and attempt note with its state and revision count, and the "
            "review's verdicts, decisions and plans (XLSX, for people: Verdicts, Decisions, "
            "Flags and notes, History and Plan sheets with plain headings and real dates, "
            "then the CSV's table; CSV and JSON keep the machine columns, JSON with every "
            "revision, as `notes import` reads it). Question, "
            "option and raw response texts only with --include-private. With --as NAME, only "
            "what the blind rule lets that reviewer see."
        ),
    )
    add_store_arguments(p)
    p.add_argument("--format", required=True, choices=("csv", "json", "xlsx"), dest="fmt")
    p.add_argument("--out", required=True, type=Path, metavar="FILE")
    p.add_argument(
        "--include-private",
        action="store_true",
        help="also write question text, option text, answer key and raw responses",
    )
    p.add_argument(
        "--as",
        dest="viewer",
        metavar="NAME",
        help="only what reviewer NAME may see under the blind rule: their own work, and the "
        "others' only on questions where NAME has submitted a verdict",
    )
    p.set_defaults(handler=run_export)

    p = actions.add_parser(
        "import",
        help="merge another reviewer's JSON export (twice adds nothing)",
        description=(
            "Merge a JSON export of `notes export` (flags, notes, and the review's plans, "
            "verdicts and decisions); what is already present is skipped. A file that would "
            "change a recorded blind answer, give a reviewer a second verdict on a question "
            "or let a reviewer adjudicate their own question is refused whole. Prints counts."
        ),
    )
    add_store_arguments(p)
    p.add_argument("file", type=Path, metavar="FILE.json")
    p.set_defaults(handler=run_import)

    p = actions.add_parser(
        "agreement",
        help="agreement between reviewers (kappa / alpha) as JSON",
        description=(
            "Agreement between reviewers. Once review verdicts exist: over the questions "
            "with two or more submitted verdicts (concern, verdict category, blind answers, "
            "blind answers against the key; README, 'Independent review'). Before: on "
            "key_incorrect over the questions flagged by two or more reviewers. Cohen's "
            "kappa for two reviewers, Krippendorff's alpha (nominal) for more; 'based_on' "
            "and 'definition' in the JSON say which was used."
        ),
    )
    add_store_arguments(p)
    p.set_defaults(handler=run_agreement)


def _print_json(data: object, indent: int | None = None) -> None:
    sys.stdout.write(json.dumps(data, indent=indent) + "\n")  # ASCII: safe on a terminal


def run_export(args: argparse.Namespace) -> int:
    """Run ``notes export`` (with ``--as NAME``, that reviewer's own export)."""
    from ai4hse_desk.notes import ReviewError
    from ai4hse_desk.review.book import ReviewBook
    from ai4hse_desk.review.exports import export_notes

    with notes_session(args.audit_db, args.notes) as store:
        try:
            sight = None if args.viewer is None else ReviewBook(store).visibility(args.viewer)
            summary = export_notes(
                store, args.fmt, args.out, include_private=args.include_private, visibility=sight
            )
        except ReviewError as exc:
            raise InputError(str(exc)) from None
    for damaged in summary.get("damaged", []):  # type: ignore[attr-defined]
        sys.stderr.write(f"warning: left out {one_line(str(damaged))}, which has no history\n")
    _print_json(summary)
    return 0


def run_import(args: argparse.Namespace) -> int:
    """Run ``notes import``."""
    from ai4hse_desk.notes import ReviewError
    from ai4hse_desk.review.imports import import_notes

    with notes_session(args.audit_db, args.notes) as store:
        try:
            result = import_notes(store, args.file)
        except ReviewError as exc:
            raise InputError(str(exc)) from None
    for warning in result.warnings:
        sys.stderr.write(f"warning: {one_line(warning)}\n")
    _print_json(result.to_json())
    return 0


def run_agreement(args: argparse.Namespace) -> int:
    """Run ``notes agreement``."""
    from ai4hse_desk.notes.agreement import key_agreement
    from ai4hse_desk.review.agreement import Rated, review_agreement
    from ai4hse_desk.review.book import ReviewBook

    with notes_session(args.audit_db, args.notes) as store:
        submitted = [v for v in ReviewBook(store).all_verdicts() if v.submitted and v.verdict]
        if submitted:
            rated = [Rated(v.question_id, v.reviewer, str(v.verdict), v.blind_answer)
                     for v in submitted]  # fmt: skip
            result = {"based_on": "review_verdicts",
                      **review_agreement(rated, store.audit.answer_keys())}  # fmt: skip
        else:
            result = {"based_on": "flags", **key_agreement(store).to_json()}
    _print_json(result, indent=2)
    return 0
