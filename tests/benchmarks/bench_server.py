"""The review server at scale: ``review next`` and a verdict submit on a 10,000-question
review with 20 reviewers, each beside a bare round trip to the same server.

A throwaway server is started with ``scripts/review-server.sh`` (scram-sha-256 password
logins on loopback) and stopped at the end. The demo generator writes a 10,000-question
audit file; the coordinator publishes it (``--responses selections``: every run's
selections, as a real review would show them after the blind answer) to 20 LOGIN roles,
two per question (1,000 questions each). Half of every reviewer's queue is then answered
(blind answer, then a submitted verdict, through the functions), so that the next
question is found past 500 submitted ones.

Measured for one reviewer, each as the median of many calls through the desk's client
(:class:`~ai4hse_desk.review.server.client.ReviewServer`, the calls the CLI and the window
make), beside the floor of the same run: ``SELECT 1`` on the same connection (one bare
round trip). Printed as JSON, with the ratios.

Usage: python tests/benchmarks/bench_server.py [--questions N] [--reviewers R] [--out DIR]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "review-server.sh"


def _median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 3)


def _timed(work: Any, repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        samples.append(time.perf_counter() - start)
    return samples


def _start(folder: Path) -> dict[str, str]:
    desk = Path(sys.executable).with_name("ai4hse-desk")
    out = subprocess.run(
        ["bash", str(SCRIPT), "start", str(folder), "--no-publish"],
        check=True,
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "AI4HSE_DESK": str(desk)},
    )
    return dict(line.split(" ", 1) for line in out.stdout.splitlines() if " " in line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--questions", type=int, default=10_000)
    parser.add_argument("--reviewers", type=int, default=20)
    parser.add_argument("--repeat", type=int, default=300)
    parser.add_argument("--out", type=Path, default=Path("out/bench"))
    parser.add_argument("--keep", action="store_true", help="leave the server running")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    audit = args.out / f"server-{args.questions}.sqlite"
    if not audit.exists():
        subprocess.run(
            [
                sys.executable,
                "-m",
                "ai4hse_desk",
                "demo",
                "--out",
                str(audit),
                "--questions",
                str(args.questions),
            ],
            check=True,
            capture_output=True,
        )

    import psycopg
    from psycopg import sql
    from psycopg.conninfo import conninfo_to_dict

    from ai4hse_desk.launcher import main as desk_main
    from ai4hse_desk.review.server.client import ReviewServer

    folder = Path(tempfile.mkdtemp(prefix="ai4hse-bench-server-"))
    try:
        urls = _start(folder)
        coord = urls["coord"]
        params = conninfo_to_dict(coord)
        names = [f"r{n:02d}" for n in range(1, args.reviewers + 1)]
        with psycopg.connect(coord, autocommit=True) as conn:
            for name in names:
                conn.execute(
                    sql.SQL("CREATE ROLE {} LOGIN PASSWORD {}").format(
                        sql.Identifier(name), sql.Literal(f"pw-{name}")
                    )
                )

        def url(name: str) -> str:
            return (
                f"postgresql://{name}:pw-{name}@{params['host']}:{params['port']}/"
                f"{params['dbname']}"
            )

        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()):
            status = desk_main(
                [
                    "review",
                    "publish",
                    str(audit),
                    "--server",
                    coord,
                    "--reviewers",
                    ",".join(names),
                    "--per-question",
                    "2",
                    "--responses",
                    "selections",
                ]
            )
        publish_s = time.perf_counter() - start
        if status != 0:
            return status
        fill_start = time.perf_counter()
        for name in names:
            server = ReviewServer.open(url(name), prompt=False)
            queue = [
                str(row[0])
                for row in server.session.connection().execute(
                    "SELECT question_id FROM ai4hse_review.assignments ORDER BY position"
                )
            ]
            for qid in queue[: len(queue) // 2]:
                server.record_blind(qid, None)
                server.save_verdict(qid, verdict="key_ok", not_blind=True)
            server.close()
        fill_s = time.perf_counter() - fill_start

        me = ReviewServer.open(url(names[0]), prompt=False)
        conn = me.session.connection()
        bare = _timed(lambda: conn.execute("SELECT 1").fetchone(), args.repeat)
        nexts = _timed(me.next, args.repeat)
        pending = [
            q
            for q in (
                str(r[0])
                for r in conn.execute(
                    "SELECT question_id FROM ai4hse_review.assignments ORDER BY position"
                )
            )
        ]
        pending = pending[len(pending) // 2 :][: args.repeat]
        submits = []
        for qid in pending:
            t = time.perf_counter()
            me.save_verdict(qid, verdict="key_ok", not_blind=True)
            submits.append(time.perf_counter() - t)
        bare_after = _timed(lambda: conn.execute("SELECT 1").fetchone(), args.repeat)
        me.close()
        floor = _median_ms(bare + bare_after)
        report = {
            "questions": args.questions,
            "reviewers": args.reviewers,
            "per_question": 2,
            "queue": args.questions * 2 // args.reviewers,
            "submitted_before": args.questions,
            "publish_s": round(publish_s, 2),
            "fill_s": round(fill_s, 2),
            "round_trip_ms": floor,
            "next_ms": _median_ms(nexts),
            "submit_ms": _median_ms(submits),
            "next_vs_round_trip": round(_median_ms(nexts) / floor, 2),
            "submit_vs_round_trip": round(_median_ms(submits) / floor, 2),
        }
        print(json.dumps(report, indent=2))
        from results_table import record

        scale = f"{args.questions:,} questions, {args.reviewers} reviewers"
        record(f"review next (server, {scale})", "a bare SELECT 1 round trip",
               float(report["next_vs_round_trip"]), None, "info")  # fmt: skip
        record(f"verdict submit (server, {scale})", "a bare SELECT 1 round trip",
               float(report["submit_vs_round_trip"]), None, "info")  # fmt: skip
        (args.out / "bench_server.json").write_text(json.dumps(report, indent=2) + "\n")
        return 0
    finally:
        if args.keep:
            print(f"server left running: bash {SCRIPT} stop {folder}", file=sys.stderr)
        else:
            subprocess.run(["bash", str(SCRIPT), "stop", str(folder)], check=False)


if __name__ == "__main__":
    sys.exit(main())
