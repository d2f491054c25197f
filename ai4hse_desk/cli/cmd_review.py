"""``ai4hse-desk review plan | verdict | adjudicate | status | adjudication | report`` (cli.md,
"Review") and, on a review server, ``publish | next | show | collect`` and ``--server URL``.

The independent expert review lives in the notes store (``--notes``, default
``AUDIT_DB.review.sqlite``), never in the audit file, and no official score
changes; or on a review server (:mod:`.review_server`), where the login is the
identity. Bad input is exit 2 with one ``error:`` line and nothing written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from ai4hse_desk.cli import review_server
from ai4hse_desk.cli.cmd_notes import NOTES_HELP, add_store_arguments, notes_session
from ai4hse_desk.cli.errors import InputError
from ai4hse_desk.cli.json_out import dumps_indented, write_json, write_line
from ai4hse_desk.cli.parser import positive_int
from ai4hse_desk.cli.review_server import SERVER_HELP

if TYPE_CHECKING:
    from collections.abc import Callable

    from ai4hse_desk.review.book import ReviewBook

T = TypeVar("T")

_VERDICTS = (
    "key_ok, key_wrong, multiple_defensible, no_correct_option, unclear_question, "
    "unclear_options, outdated_or_jurisdiction, typo_or_format or other"
)
_LIST = "one value per option in option order, e.g. [TRUE, FALSE, TRUE, FALSE]"


def _names(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text[:40]!r}") from None


def _store_or_server(p: argparse.ArgumentParser) -> None:
    """``[AUDIT_DB] [--notes STORE] [--server URL]``: a local review or a server's."""
    p.add_argument("audit_db", nargs="?", type=Path, metavar="AUDIT_DB",
                   help="the audit database (not with --server)")  # fmt: skip
    p.add_argument("--notes", metavar="STORE", help=NOTES_HELP)
    p.add_argument("--server", metavar="URL", help=SERVER_HELP)


def _server_only(p: argparse.ArgumentParser) -> None:
    p.add_argument("--server", metavar="URL", required=True, help=SERVER_HELP)


def register(commands: Any) -> None:
    """Add the ``review`` sub-command and its actions."""
    review = commands.add_parser(
        "review",
        help="independent expert review of the questions and keys (plan, verdicts, report)",
        description="Plan, record and report an independent review of the questions and keys. "
        "Everything is kept in the notes store, or on a review server (--server); the audit "
        "file and the scores never change.",
    )
    actions = review.add_subparsers(dest="action", metavar="ACTION", required=True)

    p = actions.add_parser("plan", help="assign each question to K distinct reviewers")
    add_store_arguments(p)
    p.add_argument("--reviewers", required=True, metavar="NAME[,NAME...]", type=_names)
    p.add_argument("--per-question", required=True, type=positive_int, metavar="K")
    p.add_argument("--order", default="corpus", help="corpus (default), random or keyaudit")
    p.add_argument("--seed", type=_whole, metavar="N", help="the random order's seed")
    p.add_argument("--questions", type=_names, metavar="QID[,QID...]", help="default: all")
    p.add_argument("--replace", action="store_true", help="replace the plan in force")
    _add_created_by(p)
    p.set_defaults(handler=run_plan)

    p = actions.add_parser("verdict", help="record or revise one reviewer's verdict")
    _store_or_server(p)
    p.add_argument("--question", required=True, metavar="QID")
    p.add_argument("--reviewer", metavar="NAME", help="the reviewer (not with --server)")
    p.add_argument("--verdict", metavar="V", help=f"{_VERDICTS} (optional with --draft)")
    blind = p.add_mutually_exclusive_group(required=True)
    blind.add_argument("--blind-answer", metavar="LIST", help=f"{_LIST}; UNSURE allowed")
    blind.add_argument("--not-blind", action="store_true", help="answered after seeing the key")
    p.add_argument("--proposed-key", metavar="LIST", help=f"{_LIST} (required for key_wrong)")
    p.add_argument("--confidence", help="low, medium or high")
    p.add_argument("--source", default="", metavar="TEXT", help="what was checked")
    p.add_argument("--note", default="", metavar="TEXT")
    p.add_argument("--draft", action="store_true", help="save without submitting")
    p.set_defaults(handler=run_verdict)

    p = actions.add_parser("adjudicate", help="record the final decision on a question")
    _store_or_server(p)
    p.add_argument("--question", required=True, metavar="QID")
    p.add_argument("--adjudicator", metavar="NAME", help="the adjudicator (not with --server)")
    p.add_argument(
        "--decision",
        required=True,
        metavar="D",
        help="key_confirmed, key_corrected, question_excluded or unresolved",
    )
    p.add_argument("--key", metavar="LIST", help=f"the corrected key: {_LIST}")
    p.add_argument("--note", default="", metavar="TEXT")
    p.set_defaults(handler=run_adjudicate)

    _add_adjudication(actions)

    p = actions.add_parser("status", help="progress per reviewer and coverage (JSON)")
    _store_or_server(p)
    p.set_defaults(handler=run_status)

    p = actions.add_parser("report", help="the review report (JSON or printable HTML)")
    _store_or_server(p)
    p.add_argument("--format", dest="fmt", required=True, choices=("json", "html"))
    p.add_argument("--out", required=True, metavar="FILE")
    p.add_argument("--include-private", action="store_true", help="question and option texts")
    p.set_defaults(handler=run_report)

    p = actions.add_parser(
        "publish", help="copy the selected questions to a review server and plan them"
    )
    p.add_argument("audit_db", type=Path, metavar="AUDIT_DB")
    _server_only(p)
    p.add_argument("--reviewers", required=True, metavar="ROLE[,ROLE...]", type=_names)
    p.add_argument("--per-question", required=True, type=positive_int, metavar="K")
    p.add_argument("--adjudicators", metavar="ROLE[,ROLE...]", type=_names)
    p.add_argument("--order", default="corpus", help="corpus (default), random or keyaudit")
    p.add_argument("--seed", type=_whole, metavar="N", help="the random order's seed")
    p.add_argument("--questions", type=_names, metavar="QID[,QID...]", help="default: all")
    p.add_argument(
        "--responses",
        default="full",
        choices=("none", "selections", "full"),
        help="what of the runs to copy: nothing, the extracted selections, or also the raw "
        "responses (default full)",
    )
    p.set_defaults(handler=review_server.run_publish)

    p = actions.add_parser("next", help="the logged-in reviewer's next question (JSON)")
    _server_only(p)
    p.set_defaults(handler=review_server.run_next)

    p = actions.add_parser("show", help="what the logged-in role may see of a question (JSON)")
    _server_only(p)
    p.add_argument("--question", required=True, metavar="QID")
    p.set_defaults(handler=review_server.run_show)

    p = actions.add_parser(
        "collect", help="the whole review on a server as a notes export (JSON v2)"
    )
    _server_only(p)
    p.add_argument("--out", required=True, metavar="FILE.json")
    p.set_defaults(handler=review_server.run_collect)


def _in_store(args: argparse.Namespace, work: Callable[[ReviewBook], T]) -> T:
    """Run ``work`` on the review in the notes store; a :class:`ReviewError` becomes exit 2."""
    from ai4hse_desk.notes import ReviewError
    from ai4hse_desk.review.book import ReviewBook as Book

    if args.audit_db is None:
        raise InputError("AUDIT_DB is needed (or --server URL for a review server)")
    with notes_session(args.audit_db, args.notes) as store:
        try:
            return work(Book(store))
        except ReviewError as exc:
            raise InputError(str(exc)) from None


def _ranking(book: ReviewBook) -> list[str]:
    from ai4hse_desk.keyaudit import compute_key_audit

    return [item.question_id for item in compute_key_audit(book.store.audit).questions]


def run_plan(args: argparse.Namespace) -> int:
    """Run ``review plan``: store the plan, print the status."""

    def work(book: ReviewBook) -> dict[str, object]:
        ranking = _ranking(book) if args.order == "keyaudit" else None
        book.make_plan(
            reviewers=args.reviewers, per_question=args.per_question, order=args.order,
            seed=args.seed, questions=args.questions, ranking=ranking, replace=args.replace,
            created_by=_creator(args.created_by),
        )  # fmt: skip
        return book.status()

    write_json(sys.stdout, _in_store(args, work))
    return 0


def run_verdict(args: argparse.Namespace) -> int:
    """Run ``review verdict``: print the verdict as one JSON line."""
    if args.server is not None:
        return review_server.run_verdict(args)
    if args.reviewer is None:
        raise InputError("--reviewer NAME is needed (or --server URL, where the login is it)")

    def work(book: ReviewBook) -> object:
        return book.save_verdict(
            args.question, args.reviewer, verdict=args.verdict, blind_answer=args.blind_answer,
            not_blind=args.not_blind, proposed_key=args.proposed_key,
            confidence=args.confidence, source=args.source, note=args.note,
            submit=not args.draft,
        ).to_json()  # fmt: skip

    write_line(sys.stdout, _in_store(args, work))
    return 0


def run_adjudicate(args: argparse.Namespace) -> int:
    """Run ``review adjudicate``: print the decision as one JSON line."""
    if args.server is not None:
        return review_server.run_adjudicate(args)
    if args.adjudicator is None:
        raise InputError("--adjudicator NAME is needed (or --server URL, where the login is it)")
    from ai4hse_desk.review.adjudication import Adjudication

    def work(book: ReviewBook) -> object:
        return (
            Adjudication(book.store)
            .adjudicate(
                args.question, args.adjudicator, args.decision, key=args.key, note=args.note
            )
            .to_json()
        )

    write_line(sys.stdout, _in_store(args, work))
    return 0


# -- the plan's creator --------------------------------------------------------------


def _add_created_by(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--created-by",
        metavar="NAME",
        help="who makes the plan (default: the operating-system user name)",
    )


def _creator(name: str | None) -> str:
    """``--created-by`` cleaned as a person's name, else the operating-system user's."""
    from ai4hse_desk.review.operator import operator_name

    return operator_name() if name is None else name


# -- the adjudication queue ----------------------------------------------------------


def _add_adjudication(actions: Any) -> None:
    p = actions.add_parser(
        "adjudication",
        help="the adjudication queue: the questions that need a decision (JSON)",
        description="Print the questions that need an adjudicator's decision, by ordinal, "
        "each with its official key, every submitted verdict and its decision so far "
        "(an unresolved question stays in the queue).",
    )
    _store_or_server(p)
    p.add_argument(
        "--all", action="store_true", help="also the questions already decided (revisable)"
    )
    p.set_defaults(handler=run_adjudication)


def run_adjudication(args: argparse.Namespace) -> int:
    """Run ``review adjudication``: print the queue as a JSON list (on a server: the
    logged-in adjudicator's queue)."""
    if args.server is not None:
        return review_server.run_adjudication(args)
    from ai4hse_desk.review.adjudication import Adjudication

    def work(book: ReviewBook) -> list[dict[str, object]]:
        items = Adjudication(book.store).queue(include_decided=args.all)
        return [item.to_json() for item in items]

    sys.stdout.write(dumps_indented(_in_store(args, work)) + "\n")
    return 0


def run_status(args: argparse.Namespace) -> int:
    """Run ``review status``."""
    if args.server is not None:
        return review_server.run_status(args)
    write_json(sys.stdout, _in_store(args, lambda book: book.status()))
    return 0


def run_report(args: argparse.Namespace) -> int:
    """Run ``review report``: write the report through the guarded writer; print a summary."""
    if args.server is not None:
        return review_server.run_report(args)
    from ai4hse_desk.review.report import write_review_report

    def work(book: ReviewBook) -> Path:
        return write_review_report(
            book.store, args.out, args.fmt, include_private=args.include_private
        )

    path = _in_store(args, work)
    write_line(sys.stdout, {"written": str(path), "format": args.fmt,
                            "private": bool(args.include_private)})  # fmt: skip
    return 0
