"""``ai4hse-desk import hse-bench | enviroexam | questions | responses``.

The first three write a NEW audit database (never overwriting a file) and
report every problem found in the source: one ``warning:`` line each on
stderr, then a summary; ``--report FILE`` (a new file, or ``-`` for stdout)
adds the report as JSON. When nothing at all can be imported the command
fails with exit status 2 and one ``error:`` line naming the first problems
(the full list goes to ``--report``). ``responses`` adds one run to a database
the desk made; any problem in its file is an ``error:`` line with
``file:line`` and nothing is written.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ai4hse_desk.cli.errors import InputError
from ai4hse_desk.cli.parser import positive_int
from ai4hse_desk.errors import one_line

if TYPE_CHECKING:
    from collections.abc import Callable

    from ai4hse_desk.writer.imports.report import SourceImport

TRACKS = ("answer_only", "reasoning_assisted", "structured_output", "single_choice")


def _temperature(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"must be a finite number ≥ 0: {text}")
    return value


def _add_out(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--out",
        required=True,
        type=Path,
        metavar="AUDIT_DB",
        help="the NEW audit database to write (never overwritten)",
    )
    p.add_argument(
        "--report",
        type=Path,
        metavar="FILE",
        help="also write the problem report as JSON to FILE (new) or - (stdout)",
    )


def register(commands: Any) -> None:
    """Add the ``import`` sub-command and its four kinds."""
    p = commands.add_parser(
        "import",
        help="write a new audit database from public benchmark or AI4HSE CSV files, "
        "or add a run of responses to one",
        description="Imports always write a NEW audit database (schema v1), or add a run to "
        "one the desk made; never to a runner's database.",
    )
    kinds = p.add_subparsers(dest="kind", metavar="KIND", required=True)
    hse = kinds.add_parser("hse-bench", help="HSE-Bench's 16 CSV files (1,020 questions)")
    hse.add_argument("folder", type=Path, metavar="DIR", help="holds results/<source>/<phase>/")
    _add_out(hse)
    hse.set_defaults(handler=_run_hse_bench)
    env = kinds.add_parser("enviroexam", help="EnviroExam's dev/ and test/ CSVs (936 questions)")
    env.add_argument("folder", type=Path, metavar="DIR", help="holds dev/ and test/")
    _add_out(env)
    env.set_defaults(handler=_run_enviroexam)
    q = kinds.add_parser("questions", help="the AI4HSE question-input CSV (README)")
    q.add_argument("csv", type=Path, metavar="CSV")
    _add_out(q)
    q.add_argument("--benchmark", default="AI4HSE-Bench v1", help="audit_meta benchmark")
    q.add_argument("--corpus-id", help="audit_meta corpus_id (default: from the file's digest)")
    q.add_argument(
        "--consistency-facet",
        default="topic",
        metavar="FACET",
        help="label facet of the consistency index (default: topic)",
    )
    q.set_defaults(handler=_run_questions)
    _register_responses(kinds)


def _register_responses(kinds: Any) -> None:
    r = kinds.add_parser(
        "responses",
        help="add a run from a JSONL or CSV responses file to a desk-made database",
        description="Add one run to an audit database made by 'ai4hse-desk import'. The file "
        "is checked completely first; the database is replaced atomically by an updated copy.",
    )
    r.add_argument("audit_db", type=Path, metavar="AUDIT_DB")
    r.add_argument("file", type=Path, metavar="FILE", help=".jsonl (JSON lines) or .csv")
    r.add_argument("--run-id", required=True, metavar="ID")
    r.add_argument("--model", required=True, metavar="M")
    r.add_argument("--track", required=True, choices=TRACKS)
    r.add_argument("--protocol", type=positive_int, default=10, metavar="V")
    r.add_argument(
        "--repetitions",
        type=positive_int,
        metavar="R",
        help="repetitions of the run (default: the largest in the file)",
    )
    r.add_argument(
        "--prompt-setting",
        default="zero_shot",
        metavar="NAME",
        help="zero_shot (default), five_shot, …; stored as prompt_template",
    )
    r.add_argument(
        "--split",
        help="the one split the run covers (required when the "
        "database has a split label, e.g. EnviroExam dev or test)",
    )
    r.add_argument("--provider")
    r.add_argument("--provider-routing", metavar="ROUTING")
    r.add_argument("--temperature", type=_temperature, help="omit for the provider default")
    r.add_argument("--max-tokens", type=positive_int, metavar="N")
    r.add_argument("--reasoning-effort", metavar="EFFORT")
    r.add_argument("--concurrency", type=positive_int, metavar="N")
    r.add_argument("--started-at", metavar="ISO")
    r.add_argument("--finished-at", metavar="ISO")
    r.set_defaults(handler=_run_responses)


def _import(args: argparse.Namespace, source: Path, read: Callable[[], SourceImport]) -> int:
    """Read, write ``--out``, report; shared by the three question imports."""
    from ai4hse_desk.writer import WriterError
    from ai4hse_desk.writer.imports.report import write_import

    out: Path = args.out
    report: Path | None = args.report
    if out.exists() or out.is_symlink():
        raise InputError(f"{out} already exists; imports never overwrite a file")
    if not out.parent.is_dir():
        raise InputError(f"no such directory: {out.parent}")
    if report is not None and str(report) != "-" and (report.exists() or report == out):
        raise InputError(f"{report} already exists; the report is written to a new file")
    try:
        result = read()
    except WriterError as exc:
        raise InputError(str(exc)) from None
    failure: WriterError | None = None
    try:
        write_import(result, out)
    except WriterError as exc:
        failure = exc
    if report is not None:
        text = json.dumps(result.report_json(None if failure else out, str(source)), indent=2)
        if str(report) == "-":
            sys.stdout.write(text + "\n")
        else:
            from ai4hse_desk.filewrite import write_atomic

            def write(temp: Path) -> None:
                temp.write_text(text + "\n", encoding="utf-8")

            write_atomic(report, write, replace=False)
    if failure is not None:
        raise InputError(str(failure))
    sys.stderr.write("".join(one_line(line) + "\n" for line in result.report_lines(out)))
    return 0


def _run_hse_bench(args: argparse.Namespace) -> int:
    from ai4hse_desk.writer.imports.hse_bench import read_hse_bench

    return _import(args, args.folder, lambda: read_hse_bench(args.folder))


def _run_enviroexam(args: argparse.Namespace) -> int:
    from ai4hse_desk.writer.imports.enviroexam import read_enviroexam

    return _import(args, args.folder, lambda: read_enviroexam(args.folder))


def _run_questions(args: argparse.Namespace) -> int:
    from ai4hse_desk.writer.imports.questions import read_questions

    def read() -> SourceImport:
        return read_questions(
            args.csv,
            benchmark=args.benchmark,
            corpus_id=args.corpus_id,
            consistency_facet=args.consistency_facet,
        )

    return _import(args, args.csv, read)


def _run_responses(args: argparse.Namespace) -> int:
    from ai4hse_desk.writer import WriterError
    from ai4hse_desk.writer.imports.responses import RunSettings, import_responses

    settings = RunSettings(
        run_id=args.run_id,
        model=args.model,
        track=args.track,
        protocol_version=args.protocol,
        repetitions=args.repetitions,
        prompt_setting=args.prompt_setting,
        split=args.split,
        provider=args.provider,
        provider_routing=args.provider_routing,
        temperature=args.temperature,
        max_tokens=args.max_tokens,
        reasoning_effort=args.reasoning_effort,
        concurrency=args.concurrency,
        started_at=args.started_at,
        finished_at=args.finished_at,
    )
    try:
        summary = import_responses(args.audit_db, args.file, settings)
    except WriterError as exc:
        raise InputError(str(exc)) from None
    statuses = ", ".join(f"{status} {count}" for status, count in summary.statuses.items())
    pending = (
        f"; {summary.pending_added} not in the file, recorded as pending: the run is "
        "unfinished and has no score"
        if summary.pending_added
        else ""
    )
    sys.stderr.write(
        f"added run {summary.run_id} to {args.audit_db}: {summary.attempts:,} attempts, "
        f"status {summary.status}{pending}\n  {statuses}\n"
    )
    return 0
