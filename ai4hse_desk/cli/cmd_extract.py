"""``ai4hse-desk extract``: apply one track's rule to a raw response read on stdin."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING, Any

from ai4hse_desk.cli.errors import InputError
from ai4hse_desk.cli.parser import positive_int
from ai4hse_desk.protocol.extract import derive
from ai4hse_desk.protocol.outcome import CURRENT_PROTOCOL_VERSION, Extraction, Track

if TYPE_CHECKING:
    import argparse


def register(commands: Any) -> None:
    """Add the ``extract`` sub-command."""
    p = commands.add_parser(
        "extract",
        help="extract one raw response read on stdin",
        description=(
            "Read one raw model response on stdin and print the desk's verdict as JSON: "
            '{"status": ..., "selection": [...] or null, "strict_format": bool}.'
        ),
    )
    p.add_argument("--track", required=True, choices=[t.value for t in Track])
    p.add_argument("--options", required=True, type=positive_int, metavar="N")
    p.add_argument(
        "--protocol",
        type=int,
        default=CURRENT_PROTOCOL_VERSION,
        metavar="V",
        help=f"protocol version of the record (default {CURRENT_PROTOCOL_VERSION})",
    )
    p.add_argument("--finish-reason", metavar="R", help="finish_reason the provider reported")
    p.add_argument(
        "--explain",
        action="store_true",
        help="also print the reason and the character spans the verdict rests on",
    )
    p.set_defaults(handler=run)


def read_stdin_text() -> str:
    """Standard input as UTF-8 text; invalid bytes are an input error."""
    data = sys.stdin.buffer.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = data[exc.start]
        raise InputError(
            f"standard input is not valid UTF-8 (byte 0x{bad:02x} at offset {exc.start})"
        ) from None


def to_json(result: Extraction, explain: bool) -> dict[str, object]:
    """cli.md's object for one extraction (plus reason and spans with ``explain``)."""
    out: dict[str, object] = {
        "status": result.status.value,
        "selection": None if result.selection is None else list(result.selection),
        "strict_format": result.strict_format,
    }
    if explain:
        out["reason"] = result.reason
        out["spans"] = [list(span) for span in result.spans]
    return out


def run(args: argparse.Namespace) -> int:
    """Run ``extract``."""
    text = read_stdin_text()
    result = derive(
        args.track,
        text,
        args.options,
        protocol_version=args.protocol,
        finish_reason=args.finish_reason,
    )
    sys.stdout.write(json.dumps(to_json(result, args.explain)) + "\n")
    return 0
