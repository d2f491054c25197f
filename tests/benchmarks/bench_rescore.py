"""Rescore throughput and peak RSS on a large demo database, next to a floor.

The floor is measured in the same run: one sqlite3 scan of the attempts plus the
cheapest possible extraction (``rfind('[')``) in one Python loop. Target (issue 2):
the full rescore within 1.5x of the floor, peak RSS under 300 MB.

Usage: python tests/benchmarks/bench_rescore.py [--attempts N] [--db PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

FLOOR = r"""
import sqlite3, sys, time
path = sys.argv[1]
con = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
t = time.perf_counter()
cur = con.execute(
    "SELECT attempt_id, run_id, question_id, repetition, state, raw_response, finish_reason,"
    " parse_status, extracted, strict_format, correct FROM attempts ORDER BY attempt_id")
n = hits = 0
while True:
    rows = cur.fetchmany(10000)
    if not rows:
        break
    for row in rows:
        raw = row[5]
        if raw is not None and raw.rfind("[") >= 0:
            hits += 1
        n += 1
print(n, time.perf_counter() - t)
"""

RESCORE = r"""
import resource, sys, time
from ai4hse_desk.audit import open_audit
from ai4hse_desk.verdicts.rescore import rescore
workers = int(sys.argv[2]) if len(sys.argv) > 2 else None
t = time.perf_counter()
with open_audit(sys.argv[1]) as db:
    result = rescore(db, workers=workers)
print(result.attempts, time.perf_counter() - t,
      resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024)
"""


def _child(code: str, db: Path, *extra: str) -> tuple[int, float, float, float]:
    """Run ``code`` in a fresh interpreter.

    Returns (attempts, seconds, its own peak RSS, its workers' peak RSS), RSS in MiB.
    """
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(db), *extra], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    out = proc.stdout.read().split()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"benchmark child failed with status {proc.returncode}")
    workers_rss = float(out[2]) if len(out) > 2 else 0.0
    return int(out[0]), float(out[1]), usage.ru_maxrss / 1024, workers_rss


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--attempts", type=int, default=1_000_000)
    parser.add_argument("--db", type=Path, default=Path("out/bench/demo-1m.sqlite"))
    args = parser.parse_args()
    db: Path = args.db
    if not db.exists():
        db.parent.mkdir(parents=True, exist_ok=True)
        t = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "ai4hse_desk", "demo", "--out", str(db),
             "--attempts", str(args.attempts)],
            check=True,
        )  # fmt: skip
        print(f"demo database written in {time.perf_counter() - t:.1f} s ({db})")
    floor_n, floor_s, floor_rss, _ = _child(FLOOR, db)
    n, secs, rss, workers_rss = _child(RESCORE, db)
    serial_n, serial_s, serial_rss, _ = _child(RESCORE, db, "1")
    assert n == floor_n == serial_n, (n, floor_n, serial_n)
    report = {
        "attempts": n,
        "floor_seconds": round(floor_s, 3),
        "floor_attempts_per_s": round(floor_n / floor_s),
        "rescore_seconds": round(secs, 3),
        "rescore_attempts_per_s": round(n / secs),
        "ratio_to_floor": round(secs / floor_s, 2),
        "rescore_peak_rss_mib": round(rss, 1),
        "rescore_worker_peak_rss_mib": round(workers_rss, 1),
        "serial_rescore_seconds": round(serial_s, 3),
        "serial_ratio_to_floor": round(serial_s / floor_s, 2),
        "serial_peak_rss_mib": round(serial_rss, 1),
        "floor_peak_rss_mib": round(floor_rss, 1),
        "target": "ratio <= 1.5, peak RSS < 300 MiB",
    }
    print(json.dumps(report, indent=2))
    ok = report["ratio_to_floor"] <= 1.5 and max(rss, workers_rss, serial_rss) < 300
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
