"""One verdict's cost does not grow with the plan (issue 31): a 5,000,000-assignment plan.

A store holds a plan of 1,000,000 questions × K = 5 over 20 reviewers (the demo's
questions among them, so verdicts can be given), written straight through the
store's own plan writer. Measured in the same run, each beside its floor:

* ``ReviewBook.save_verdict`` (blind answer, submit and a revision) on the big plan
  against the same on a plan of only the demo's questions (ratio ≈ 1: no read grows
  with the plan) — target: the median under 100 ms;
* a whole ``ai4hse-desk review verdict`` process on the big plan against the same
  command on the small plan.

Usage: python tests/benchmarks/bench_verdict_cost.py [--questions N] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

TARGET_MS = 100.0
REVIEWERS = tuple(f"r{n:02d}" for n in range(20))


def _median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 2)


def _store(folder: Path, name: str, extra_questions: int) -> tuple[Path, Path]:
    """An audit file (the demo) and a store whose plan adds ``extra_questions`` questions."""
    from ai4hse_desk.audit import open_audit
    from ai4hse_desk.notes.store import NotesStore
    from ai4hse_desk.review import writes as review_writes
    from ai4hse_desk.review.plan import plan_review
    from ai4hse_desk.writer.demo import write_demo

    audit = folder / "demo.sqlite"
    if not audit.exists():
        write_demo(audit, attempts=2_000)
    store = folder / f"{name}.review.sqlite"
    with open_audit(audit) as db, NotesStore.open(db, str(store)) as notes:
        real = [q.question_id for q in db.questions()]
        synthetic = [f"S{n:07d}" for n in range(extra_questions)]
        plan = plan_review([*real, *synthetic], list(REVIEWERS), 5)
        notes.run(lambda c: review_writes.write_plan(c, plan, "bench", notes.audit_sha256,
                                                     replace=False), write=True)  # fmt: skip
    return audit, store


def _in_process(audit: Path, store: Path, rounds: int) -> list[float]:
    from ai4hse_desk.audit import open_audit
    from ai4hse_desk.notes.store import NotesStore
    from ai4hse_desk.review.book import ReviewBook

    times = []
    with open_audit(audit) as db, NotesStore.open(db, str(store)) as notes:
        book = ReviewBook(notes)
        header = book.plan_header()
        assert header is not None
        done = 0
        for reviewer in REVIEWERS:
            for qid in book.queue(reviewer):
                if not qid.startswith("Q") or done >= rounds:
                    continue
                n = db.question(qid).n_options
                t = time.perf_counter()
                book.save_verdict(qid, reviewer, verdict="key_ok", blind_answer=["TRUE"] * n)
                times.append(time.perf_counter() - t)
                done += 1
    return times


def _process(audit: Path, store: Path, rounds: int) -> list[float]:
    times = []
    for n in range(rounds):
        argv = [sys.executable, "-m", "ai4hse_desk", "review", "verdict", str(audit),
                "--notes", str(store), "--question", "Q001", "--reviewer", REVIEWERS[0],
                "--verdict", "key_ok", "--not-blind", "--note", f"round {n}"]  # fmt: skip
        t = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, check=False)
        times.append(time.perf_counter() - t)
        if done.returncode != 0:
            raise SystemExit(f"review verdict failed: {done.stderr.strip()}")
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--questions", type=int, default=1_000_000, help="the big plan's questions")
    parser.add_argument("--rounds", type=int, default=40)
    parser.add_argument("--out", type=Path, help="keep the files here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.out or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        t = time.perf_counter()
        audit, big = _store(folder, "big", args.questions)
        built = time.perf_counter() - t
        _, small = _store(folder, "small", 0)
        big_in, small_in = (
            _in_process(audit, big, args.rounds),
            _in_process(audit, small, args.rounds),
        )
        big_cli, small_cli = _process(audit, big, 8), _process(audit, small, 8)
    report: dict[str, Any] = {
        "assignments": (args.questions + 1) * 5 if args.questions else None,
        "plan_written_s": round(built, 1),
        "verdict_ms_median (5M-assignment plan)": _median_ms(big_in),
        "verdict_ms_median floor (demo-only plan)": _median_ms(small_in),
        "verdict_ratio": round(statistics.median(big_in) / statistics.median(small_in), 2),
        "cli_ms_median (5M)": _median_ms(big_cli),
        "cli_ms_median floor (demo-only plan)": _median_ms(small_cli),
        "cli_ratio": round(statistics.median(big_cli) / statistics.median(small_cli), 2),
        "target_ms": TARGET_MS,
    }
    report["missed"] = (
        []
        if report["verdict_ms_median (5M-assignment plan)"] < TARGET_MS
        else ["verdict_ms_median"]
    )
    print(json.dumps(report, indent=2))
    from results_table import record

    took = report["verdict_ms_median (5M-assignment plan)"]
    record("one verdict, 5,000,005-assignment plan (in process)", "the same on a demo-only plan",
           float(report["verdict_ratio"]), None, f"{took} ms (< {TARGET_MS:g} ms)",
           not report["missed"])  # fmt: skip
    record("review verdict process, 5M-assignment plan", "the same on a demo-only plan",
           float(report["cli_ratio"]), None, "info")  # fmt: skip
    return 1 if report["missed"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
