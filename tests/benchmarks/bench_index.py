"""Review index on a large demo database: build times, sizes and query latencies.

Builds the stage-1 index and the full-text index of the 1,000,000-attempt demo
(written first if missing, at the path bench_rescore.py uses) into a fresh
temporary cache directory, then times what the review window does. Each figure
is ``[median, worst]`` in ms of five repetitions after one warm-up (warm page
cache); targets apply to the median (the worst shows noise from other work on
the machine):

* filter change: ``count`` + the first page of keys, target < 150 ms;
* the counts line (``count_by_status``) for the same filters, reported;
* next attempt (``next_matching`` from deep inside a sort), target < 30 ms;
* full-text query: count + first page, target < 300 ms; the same with ``LIKE``.

Usage: python tests/benchmarks/bench_index.py [--attempts N] [--db PATH]
Prints JSON; exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

FILTER_MS = 150.0
NEXT_MS = 30.0
FTS_MS = 300.0
_REPEAT = 5
#: Typical words (rare to common), two terms, a miss, and a term found in a
#: third of all responses (the slowest case for the trigram index).
SEARCHES = ("lockout procedure", "ventilation", "hazard", "zzqx", "FINAL_ANSWER")


def _ms(action: Callable[[], object]) -> list[float]:
    """[median, worst] of a few timings (ms) after one warm-up (page cache)."""
    action()
    times = []
    for _ in range(_REPEAT):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return [round(statistics.median(times), 2), round(max(times), 2)]


def _demo(db: Path, attempts: int) -> None:
    if db.exists():
        return
    db.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "ai4hse_desk", "demo", "--out", str(db),
         "--attempts", str(attempts)],
        check=True,
    )  # fmt: skip
    print(f"demo database written in {time.perf_counter() - start:.1f} s ({db})")


def _measure(db_path: Path, cache: Path) -> dict[str, Any]:
    os.environ["AI4HSE_DESK_CACHE_DIR"] = str(cache)
    from ai4hse_desk.audit import open_audit
    from ai4hse_desk.index import PARSE_ERROR_STATUSES, AttemptQuery, build_fts, build_index

    report: dict[str, Any] = {}
    with open_audit(db_path) as db:
        start = time.perf_counter()
        db.fingerprint()
        report["fingerprint_s"] = round(time.perf_counter() - start, 2)
        start = time.perf_counter()
        path = build_index(db)
        report["index_build_s"] = round(time.perf_counter() - start, 2)
        report["index_mib"] = round(path.stat().st_size / 2**20, 1)
        start = time.perf_counter()
        fts = build_fts(db)
        report["fts_build_s"] = round(time.perf_counter() - start, 2)
        report["fts_mib"] = round(fts.stat().st_size / 2**20, 1)
        report["audit_mib"] = round(db_path.stat().st_size / 2**20, 1)
        run = db.runs()[0]
        topic = db.label_facets()["topic"][0]
        from ai4hse_desk.index import open_index

        index = open_index(db)
        assert index is not None
        assert index.fts_ready
        with index:
            report["attempts"] = index.total()
            filters: dict[str, AttemptQuery | None] = {
                "all": None,
                "status=malformed": AttemptQuery(statuses=("malformed",)),
                "all parse errors": AttemptQuery(statuses=PARSE_ERROR_STATUSES),
                "one run": AttemptQuery(run_ids=(run.run_id,)),
                "one model": AttemptQuery(models=(run.model,)),
                f"topic={topic}": AttemptQuery(labels=(("topic", topic),)),
                "disagreements": AttemptQuery(disagreements_only=True),
                "incorrect, repetition 1": AttemptQuery(correct=False, repetitions=(1,)),
            }
            change: dict[str, list[float]] = {}
            counts_line: dict[str, list[float]] = {}
            matches: dict[str, int] = {}
            for name, query in filters.items():
                for sort, desc in (("attempt_id", False), ("ordinal", False), ("status", True)):
                    change[f"{name} | {sort}{' desc' if desc else ''}"] = _ms(
                        lambda q=query, s=sort, d=desc: (index.count(q), index.page_keys(q, s, d))
                    )
                counts_line[name] = _ms(lambda q=query: index.count_by_status(q))
                matches[name] = index.count(query)
            report["filter_change_ms"] = change
            report["counts_line_ms"] = counts_line
            report["filter_matches"] = matches
            deep = index.page_keys(None, "status", False, None, limit=500)[-1]
            valid_tail = index.page_keys(AttemptQuery(statuses=("valid",)), "model", True)[-1]
            report["next_attempt_ms"] = {
                "sort status": _ms(lambda: index.next_matching(None, "status", deep)),
                "next parse error": _ms(
                    lambda: index.next_matching(
                        AttemptQuery(statuses=PARSE_ERROR_STATUSES), "attempt_id", (0, 500_000)
                    )
                ),
                "valid, sort model desc": _ms(
                    lambda: index.next_matching(
                        AttemptQuery(statuses=("valid",)), "model", valid_tail, True
                    )
                ),
            }
            search: dict[str, list[float]] = {}
            found: dict[str, int] = {}
            for words in SEARCHES:
                for mode in ("fts", "like"):
                    query = AttemptQuery(text=words, text_mode=mode)  # type: ignore[arg-type]
                    # A new search: nothing remembered; count + first page of keys.
                    search[f"{words} | {mode}"] = _ms(
                        lambda q=query: (
                            index.clear_search_cache(),
                            index.count(q),
                            index.page_keys(q),
                        )
                    )
                query = AttemptQuery(text=words)
                tail = index.page_keys(query, "ordinal")[-1:] or None
                after = tail[0] if tail else None
                search[f"{words} | next page, sort ordinal"] = _ms(
                    lambda q=query, a=after: index.page_keys(q, "ordinal", False, a)
                )
                found[words] = index.count(query)
            report["search_ms"] = search
            report["search_matches"] = found
    return report


def _missed(report: dict[str, Any]) -> list[str]:
    missed = [
        f"filter change {name}: {ms} ms"
        for name, ms in report["filter_change_ms"].items()
        if ms[0] >= FILTER_MS
    ]
    missed += [
        f"next attempt {name}: {ms} ms"
        for name, ms in report["next_attempt_ms"].items()
        if ms[0] >= NEXT_MS
    ]
    missed += [
        f"search {name}: {ms} ms"
        for name, ms in report["search_ms"].items()
        if not name.endswith("| like") and ms[0] >= FTS_MS
    ]
    return missed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--attempts", type=int, default=1_000_000)
    parser.add_argument("--db", type=Path, default=Path("out/bench/demo-1m.sqlite"))
    args = parser.parse_args()
    db: Path = args.db
    _demo(db, args.attempts)
    cache = Path(tempfile.mkdtemp(prefix="bench-index-"))  # never beside the audit file
    try:
        report = _measure(db, cache)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    report["targets"] = (
        f"filter change (count + first page) < {FILTER_MS:g} ms; "
        f"next attempt < {NEXT_MS:g} ms; FTS query < {FTS_MS:g} ms"
    )
    report["missed"] = _missed(report)
    print(json.dumps(report, indent=2))
    return 1 if report["missed"] else 0


if __name__ == "__main__":
    sys.exit(main())
