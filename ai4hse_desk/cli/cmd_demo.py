"""``ai4hse-desk demo --out PATH``: write the demo audit database."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ai4hse_desk.cli.errors import InputError
from ai4hse_desk.cli.parser import positive_int

if TYPE_CHECKING:
    import argparse


def register(commands: Any) -> None:
    """Add the ``demo`` sub-command."""
    p = commands.add_parser(
        "demo",
        help="write the demo audit database",
        description="Write the deterministic demo audit database (schema v1) to PATH.",
    )
    p.add_argument("--out", required=True, type=Path, metavar="PATH")
    p.add_argument(
        "--attempts",
        type=positive_int,
        metavar="N",
        help="scale the database to about N attempts (benchmarks; up to 1,000,000)",
    )
    p.add_argument(
        "--questions",
        type=positive_int,
        metavar="N",
        help="grow the corpus to N questions, variants of the written 100 (benchmarks)",
    )
    p.add_argument(
        "--realistic",
        action="store_true",
        help="responses with the length and variety of real runs (benchmarks)",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    """Run ``demo``."""
    from ai4hse_desk.writer import WriterError
    from ai4hse_desk.writer.demo import write_demo

    out: Path = args.out
    if out.exists():
        raise InputError(f"{out} already exists; the demo never overwrites a file")
    if not out.parent.is_dir():
        raise InputError(f"no such directory: {out.parent}")
    try:
        summary = write_demo(
            out, attempts=args.attempts, questions=args.questions, realistic=args.realistic
        )
    except WriterError as exc:
        raise InputError(str(exc)) from None
    sys.stderr.write(
        f"wrote {out}: {summary.questions} questions, {summary.runs} runs, "
        f"{summary.attempts} attempts\n"
    )
    return 0
