"""Headless command line: ``ai4hse-desk demo | rescore | extract | import | flag | notes |
keyaudit | review`` (cli.md), one ``cmd_*`` module per sub-command.

Every command here runs without Qt. Exit status follows cli.md: 0 success,
2 a problem with the input (one ``error:`` line on stderr, no traceback),
1 anything else.
"""

from __future__ import annotations

import argparse
import errno
import os
import sys
from collections.abc import Callable, Sequence

from ai4hse_desk import AUDIT_SCHEMA_VERSION, __version__
from ai4hse_desk.cli import (
    HEADLESS_COMMANDS,
    cmd_demo,
    cmd_extract,
    cmd_flag,
    cmd_import,
    cmd_keyaudit,
    cmd_notes,
    cmd_rescore,
    cmd_review,
)
from ai4hse_desk.cli.errors import report_internal_error
from ai4hse_desk.cli.parser import OneLineErrorParser
from ai4hse_desk.errors import InputProblem

__all__ = ["COMMAND_MODULES", "HEADLESS_COMMANDS", "build_parser", "main", "run_headless"]

Handler = Callable[[argparse.Namespace], int]
#: Errors of writing stdout that mean "the output could not be written" (exit 2).
_OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO})

#: Modules with a ``register(commands)`` function, one per sub-command, in help order.
COMMAND_MODULES = (
    cmd_demo,
    cmd_rescore,
    cmd_extract,
    cmd_import,
    cmd_flag,
    cmd_notes,
    cmd_keyaudit,
    cmd_review,
)


def build_parser() -> OneLineErrorParser:
    """The parser of every headless command."""
    parser = OneLineErrorParser(
        prog="ai4hse-desk",
        description="Independent reviewer's desk for AI4HSE-Bench audit databases.",
        epilog="Without a command, ai4hse-desk opens the window (ai4hse-desk [AUDIT_DB | --demo]; "
        "its options: ai4hse-desk --demo --help).",
    )
    parser.add_argument(
        "--version",
        "-V",
        action="version",
        version=f"ai4hse-desk {__version__} (audit schema v{AUDIT_SCHEMA_VERSION})",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in COMMAND_MODULES:
        module.register(commands)
    return parser


def run_headless(argv: Sequence[str]) -> int:
    """Parse ``argv`` and run the command; map failures to cli.md's exit statuses."""
    parser = build_parser()
    args = parser.parse_args(list(argv))
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        status = handler(args)
        sys.stdout.flush()  # a full disk or closed pipe is met here, not at exit
        return status
    except InputProblem as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    except BrokenPipeError:
        # The reader went away (e.g. `| head`); nothing more to say.
        _drop_stdout()
        return 1
    except OSError as exc:
        if exc.filename is not None or exc.errno not in _OUTPUT_ERRNOS:
            return report_internal_error(exc)
        # Writing the output failed (no space, an I/O error): the output is lost.
        _drop_stdout()
        sys.stderr.write(f"error: cannot write the output: {exc.strerror or exc}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("error: interrupted\n")
        return 1
    except Exception as exc:  # noqa: BLE001 - the last resort: one error line, exit 1
        return report_internal_error(exc)


def _drop_stdout() -> None:
    """Point stdout at the null device, so the interpreter's final flush cannot fail."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point for the headless commands alone."""
    return run_headless(sys.argv[1:] if argv is None else argv)
