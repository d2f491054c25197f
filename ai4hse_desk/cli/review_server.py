"""``ai4hse-desk review … --server URL`` (cli.md, "Review server"): the review on a server.

The login is the identity: with ``--server``, ``--reviewer`` and ``--adjudicator`` are
refused (exit 2), and so are ``AUDIT_DB`` and ``--notes`` except for ``review publish``,
the coordinator's copy of the audit file's questions. Every refusal of the database
(a wall, a bad value) is one ``error:`` line (exit 2), the server's URL always shown
without its password. Passwords come from the URL, ``PGPASSWORD``, ``~/.pgpass`` or, on
a terminal, a prompt.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING

from ai4hse_desk.cli.errors import InputError
from ai4hse_desk.cli.json_out import dumps_indented, write_json, write_line

if TYPE_CHECKING:
    import argparse
    from collections.abc import Iterator

    from ai4hse_desk.review.server.client import ReviewServer

SERVER_HELP = (
    "a review server: postgresql://ROLE@HOST:PORT/DB (the login is the identity; the "
    "password from the URL, PGPASSWORD, ~/.pgpass or a prompt; ?sslmode=… honoured)"
)


def check_server_arguments(args: argparse.Namespace, *, audit: bool = False) -> None:
    """Refuse what a server command does not take: ``--reviewer``/``--adjudicator`` (the
    login is the identity), ``--notes``, and ``AUDIT_DB`` unless ``audit``."""
    for name, option in (("reviewer", "--reviewer"), ("adjudicator", "--adjudicator")):
        if getattr(args, name, None) is not None:
            raise InputError(
                f"{option} is not given with --server: the login is the identity "
                "(log in as that role instead)"
            )
    if getattr(args, "notes", None) is not None:
        raise InputError("--notes is not given with --server: the review lives on the server")
    if not audit and getattr(args, "audit_db", None) is not None:
        raise InputError(
            "AUDIT_DB is not given with --server: the server holds what the review needs"
        )


@contextmanager
def server_session(args: argparse.Namespace) -> Iterator[ReviewServer]:
    """The review on ``args.server``, logged in; closed after."""
    from ai4hse_desk.review.server.client import ReviewServer

    check_server_arguments(args)
    server = ReviewServer.open(args.server)
    try:
        yield server
    finally:
        server.close()


def run_publish(args: argparse.Namespace) -> int:
    """Run ``review publish``: print the ``review status`` JSON."""
    from ai4hse_desk.audit import AuditError, open_audit
    from ai4hse_desk.review.server import shapes
    from ai4hse_desk.review.server.connection import ServerSession
    from ai4hse_desk.review.server.publish import PublishRequest, publish

    check_server_arguments(args, audit=True)
    request = PublishRequest(
        reviewers=args.reviewers,
        per_question=args.per_question,
        adjudicators=args.adjudicators or (),
        order=args.order,
        seed=args.seed,
        questions=args.questions,
        responses=args.responses,
    )
    try:
        with (
            open_audit(args.audit_db) as audit,
            ServerSession(args.server, check_version=False) as session,
        ):
            status = publish(audit, session, request)
    except AuditError as exc:
        raise InputError(str(exc)) from None
    write_json(sys.stdout, shapes.status(status))
    return 0


def run_next(args: argparse.Namespace) -> int:
    """Run ``review next``."""
    from ai4hse_desk.review.server import shapes

    with server_session(args) as server:
        write_json(sys.stdout, shapes.next_answer(server.next()))
    return 0


def run_show(args: argparse.Namespace) -> int:
    """Run ``review show``."""
    from ai4hse_desk.review.server import shapes

    with server_session(args) as server:
        write_json(sys.stdout, shapes.shown(server.show(args.question)))
    return 0


def run_verdict(args: argparse.Namespace) -> int:
    """Run ``review verdict --server``: print the verdict as one JSON line."""
    with server_session(args) as server:
        verdict = server.save_verdict(
            args.question,
            verdict=args.verdict,
            blind_answer=args.blind_answer,
            not_blind=args.not_blind,
            proposed_key=args.proposed_key,
            confidence=args.confidence,
            source=args.source,
            note=args.note,
            submit=not args.draft,
        )
    write_line(sys.stdout, verdict.to_json())
    return 0


def run_adjudicate(args: argparse.Namespace) -> int:
    """Run ``review adjudicate --server``: print the decision as one JSON line."""
    with server_session(args) as server:
        decision = server.adjudicate(args.question, args.decision, key=args.key, note=args.note)
    write_line(sys.stdout, decision.to_json())
    return 0


def run_status(args: argparse.Namespace) -> int:
    """Run ``review status --server``."""
    from ai4hse_desk.review.server import shapes

    with server_session(args) as server:
        write_json(sys.stdout, shapes.status(server.status()))
    return 0


def run_adjudication(args: argparse.Namespace) -> int:
    """Run ``review adjudication --server``: the queue as this login may read it."""
    from ai4hse_desk.review.server import shapes

    with server_session(args) as server:
        items = [shapes.queue_item(item) for item in server.adjudication_queue()]
    sys.stdout.write(dumps_indented(items) + "\n")
    return 0


def run_report(args: argparse.Namespace) -> int:
    """Run ``review report --server``: write the report; print a summary."""
    from ai4hse_desk.filewrite import WriteRefused
    from ai4hse_desk.review.server.report import write_server_report

    with server_session(args) as server:
        try:
            path = write_server_report(
                server, args.out, args.fmt, include_private=args.include_private
            )
        except WriteRefused as exc:
            raise InputError(str(exc)) from None
    write_line(
        sys.stdout,
        {"written": str(path), "format": args.fmt, "private": bool(args.include_private)},
    )
    return 0


def run_collect(args: argparse.Namespace) -> int:
    """Run ``review collect``: write the notes export (JSON v2); print a summary."""
    from ai4hse_desk.review.server.collect import collect

    with server_session(args) as server:
        summary = collect(server, args.out)
    write_line(sys.stdout, summary)
    return 0
