"""Review index on the 1M demo and the 1M realistic data: build times against their floor, queries.

For each database (written first if missing: ``out/bench/demo-1m.sqlite`` by ``demo
--attempts N``, ``out/bench/realistic-1m.sqlite`` by ``demo --attempts N --realistic``):

* **first stage** (``build_index``): each build runs in a fresh process, interleaved
  with the floor, also in a fresh process: the SQL-only build of the same file (same
  schema, connection settings, indexes and ``ANALYZE``, the rows from one
  ``INSERT … SELECT`` joining the audit's attempts, runs and questions, the verdict
  columns filled from the runner's recorded ones by a trivial expression). Medians of
  ``--repeats`` pairs; target: :data:`STAGE1_RATIOS` (issue 16's 1.5×, loosened by
  issue 32). Beside it, once, the verdict stream alone (the audit scan and the
  derivation the build consumes) in a fresh process: the share of the build that is
  extraction;
* the full-text index build (once);
* query latencies, each ``[median, worst]`` in ms of five repetitions after one
  warm-up: filter change (``count`` + first page of keys, < 150 ms), the counts line,
  next attempt (< 30 ms), and each search as the window does it (a new search:
  ``count`` + first page) with the full-text index, beside the same search with
  ``LIKE`` measured in the same run (its floor): target < 300 ms and no slower
  than ``LIKE``.

Usage: python tests/benchmarks/bench_index.py [--db PATH ...] [--attempts N] [--repeats N]
       [--stage1-only]
Prints JSON, adds the first stage's and the searches' ratios to the bench table
(:mod:`results_table`); exits 1 when a target is missed.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from ai4hse_desk.index import AttemptQuery, ReviewIndex

FILTER_MS = 150.0
NEXT_MS = 30.0
FTS_MS = 300.0
#: The first stage's target: 1.5x its floor (issue 16), loosened as issue 32 allows, to 1.3x
#: the ratio measured before its deletions (1.34x demo, 1.44x realistic), where a deleted
#: mechanism is the reason: the value rules' Python twin checked the values inside the scan;
#: now the one SQL check runs as its own pass beside it.
STAGE1_RATIOS = {"demo-1m.sqlite": 1.74, "realistic-1m.sqlite": 1.87}
STAGE1_RATIO = 1.5  # (any other file)
_REPEAT = 5
#: Typical words (rare to common), two terms, a miss, and a term found in a
#: third of all responses (the slowest case for the trigram index).
SEARCHES = ("lockout procedure", "ventilation", "hazard", "zzqx", "FINAL_ANSWER")
DATABASES = (Path("out/bench/demo-1m.sqlite"), Path("out/bench/realistic-1m.sqlite"))
#: The runner's recorded selection (a JSON array of booleans) as the index stores one.
_SELECTION = (
    "replace(replace(replace(replace(replace(replace(a.extracted, ' ', ''), '[', ''), "
    "']', ''), ',', ''), 'true', 'T'), 'false', 'F')"
)
_FLOOR_ROWS = f"""
INSERT INTO rows SELECT a.attempt_id, q.ordinal, a.question_id, a.run_id, r.model, r.track,
    a.repetition, a.state, coalesce(a.parse_status, a.state), coalesce(a.correct, 0),
    coalesce(a.strict_format, 0), 0, a.parse_status, {_SELECTION}, 1
FROM audit.attempts AS a JOIN audit.runs AS r ON r.run_id = a.run_id
JOIN audit.questions AS q ON q.question_id = a.question_id ORDER BY a.attempt_id
"""


def _count_and_page(
    index: ReviewIndex, query: AttemptQuery | None, sort: str, desc: bool
) -> object:
    """What a filter change waits for: the count and the first page of keys."""
    return index.count(query), index.page_keys(query, sort, desc)


def _new_search(index: ReviewIndex, query: AttemptQuery) -> object:
    """A new search, nothing remembered: the count and the first page of keys."""
    index.clear_search_cache()
    return index.count(query), index.page_keys(query)


def _ms(action: Callable[[], object]) -> list[float]:
    """[median, worst] of a few timings (ms) after one warm-up (page cache)."""
    action()
    times = []
    for _ in range(_REPEAT):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return [round(statistics.median(times), 2), round(max(times), 2)]


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _child_floor(db_path: Path, out: Path) -> dict[str, float]:
    """The SQL-only build of the same index file (see the module docstring)."""
    import sqlite3

    from ai4hse_desk.index.layout import INDEXES, start_index_file

    start, cpu = time.perf_counter(), _cpu()
    conn = sqlite3.connect(out, isolation_level=None)
    uri = f"{db_path.resolve().as_uri()}?mode=ro&immutable=1"
    conn.execute("ATTACH DATABASE ? AS audit", (uri,))
    start_index_file(conn)
    conn.execute("INSERT INTO questions SELECT ordinal, question_id, text FROM audit.questions")
    conn.execute(_FLOOR_ROWS)
    conn.execute("INSERT INTO reasons VALUES (1, 'floor')")
    rows_s = time.perf_counter() - start
    for name, columns in INDEXES.items():
        conn.execute(f"CREATE INDEX {name} ON {columns}")
    conn.execute("ANALYZE main")
    conn.execute("COMMIT")
    conn.close()
    return {
        "s": time.perf_counter() - start,
        "cpu_s": _cpu() - cpu,
        "rows_s": rows_s,
        "mib": out.stat().st_size / 2**20,
    }


def _child_build(db_path: Path, what: str) -> dict[str, float]:
    """``build_index`` (or, for ``verdicts``, the verdict stream it consumes) of an
    audit opened and fingerprinted beforehand, as the window has it."""
    from ai4hse_desk.audit import open_audit
    from ai4hse_desk.index import build_index
    from ai4hse_desk.verdicts.rescore import iter_verdict_batches  # the verdict stream

    with open_audit(db_path) as db:
        db.fingerprint()
        start, cpu = time.perf_counter(), _cpu()
        if what == "build":
            size = build_index(db).stat().st_size / 2**20
        else:
            size = float(sum(len(batch) for batch in iter_verdict_batches(db)))
        return {"s": time.perf_counter() - start, "cpu_s": _cpu() - cpu, "size": size}


def _fresh(what: str, db: Path) -> dict[str, float]:
    """Run one ``--child`` measurement in a new process with its own cache folder."""
    work = Path(tempfile.mkdtemp(prefix="bench-index-"))
    env = {**os.environ, "AI4HSE_DESK_CACHE_DIR": str(work)}
    try:
        done = subprocess.run(
            [sys.executable, __file__, "--child", what, "--db", str(db), "--out",
             str(work / "floor.sqlite")],
            check=True, capture_output=True, text=True, env=env,
        )  # fmt: skip
    finally:
        shutil.rmtree(work, ignore_errors=True)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def _stage1(db: Path, repeats: int) -> dict[str, Any]:
    """Builds and floors interleaved (build, floor, build, floor …), medians."""
    builds, floors = [], []
    for _ in range(repeats):
        builds.append(_fresh("build", db))
        floors.append(_fresh("floor", db))
    verdicts = _fresh("verdicts", db)
    build_s = statistics.median(b["s"] for b in builds)
    floor_s = statistics.median(f["s"] for f in floors)
    return {
        "build_s": round(build_s, 2),
        "build_runs_s": [round(b["s"], 2) for b in builds],
        "build_cpu_s": round(statistics.median(b["cpu_s"] for b in builds), 2),
        "floor_sql_only_s": round(floor_s, 2),
        "floor_runs_s": [round(f["s"], 2) for f in floors],
        "floor_cpu_s": round(statistics.median(f["cpu_s"] for f in floors), 2),
        "floor_rows_s": round(statistics.median(f["rows_s"] for f in floors), 2),
        "ratio": round(build_s / floor_s, 2),
        "verdict_stream_alone_s": round(verdicts["s"], 2),
        "index_mib": round(builds[0]["size"], 1),
        "floor_mib": round(floors[0]["mib"], 1),
    }


def _demo(db: Path, attempts: int) -> None:
    """Write the demo (``--realistic`` when the file name says so) if it is missing."""
    if db.exists():
        return
    db.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    realistic = ["--realistic"] if "realistic" in db.name else []
    subprocess.run(
        [sys.executable, "-m", "ai4hse_desk", "demo", "--out", str(db),
         "--attempts", str(attempts), *realistic],
        check=True,
    )  # fmt: skip
    print(f"demo database written in {time.perf_counter() - start:.1f} s ({db})", file=sys.stderr)


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
        build_index(db)
        report["index_build_in_this_process_s"] = round(time.perf_counter() - start, 2)
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
                        partial(_count_and_page, index, query, sort, desc)
                    )
                counts_line[name] = _ms(partial(index.count_by_status, query))
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
            search: dict[str, dict[str, Any]] = {}
            for words in SEARCHES:
                timings: dict[str, list[float]] = {}
                for mode in ("fts", "like"):
                    query = AttemptQuery(text=words, text_mode=mode)
                    # A new search: nothing remembered; count + first page of keys.
                    timings[mode] = _ms(partial(_new_search, index, query))
                query = AttemptQuery(text=words)
                tail = index.page_keys(query, "ordinal")[-1:] or None
                after = tail[0] if tail else None
                search[words] = {
                    "fts_ms": timings["fts"],
                    "floor_like_ms": timings["like"],
                    "ratio_to_like": round(timings["fts"][0] / timings["like"][0], 2),
                    "next_page_sort_ordinal_ms": _ms(
                        partial(index.page_keys, query, "ordinal", False, after)
                    ),
                    "matches": index.count(query),
                }
            report["search"] = search
    return report


def _missed(name: str, report: dict[str, Any]) -> list[str]:
    stage1 = report["first_stage"]
    missed = []
    if stage1["ratio"] > STAGE1_RATIOS.get(name, STAGE1_RATIO):
        missed.append(f"{name}: first stage {stage1['ratio']}x its SQL-only floor")
    if "search" not in report:  # --stage1-only
        return missed
    missed += [
        f"{name}: filter change {what}: {ms} ms"
        for what, ms in report["filter_change_ms"].items()
        if ms[0] >= FILTER_MS
    ]
    missed += [
        f"{name}: next attempt {what}: {ms} ms"
        for what, ms in report["next_attempt_ms"].items()
        if ms[0] >= NEXT_MS
    ]
    for words, found in report["search"].items():
        fts, like = found["fts_ms"][0], found["floor_like_ms"][0]
        if fts >= FTS_MS or fts > like:
            missed.append(f"{name}: search {words!r}: {fts} ms (LIKE {like} ms)")
    return missed


def _table(name: str, report: dict[str, Any]) -> None:
    """This database's rows of the bench table."""
    from results_table import record

    stage1 = report["first_stage"]
    record(
        f"review index, first stage, {name}",
        "SQL-only build of the same file (same schema, indexes, ANALYZE)",
        float(stage1["ratio"]),
        STAGE1_RATIOS.get(name, STAGE1_RATIO),
    )
    for words, found in report.get("search", {}).items():
        record(
            f"search {words!r} (count + first page, full-text index), {name}",
            "the same search with plain LIKE",
            float(found["ratio_to_like"]),
            1.0,
            f"and {found['fts_ms'][0]:.0f} ms (< {FTS_MS:g} ms)",
            found["fts_ms"][0] < FTS_MS,
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--attempts", type=int, default=1_000_000)
    parser.add_argument("--db", type=Path, action="append", help="default: the demo and realistic")
    parser.add_argument("--repeats", type=int, default=3, help="build/floor pairs (default 3)")
    parser.add_argument(
        "--stage1-only", action="store_true", help="only the first stage and its floor"
    )
    parser.add_argument("--child", choices=("build", "floor", "verdicts"), help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        db = args.db[0]
        if args.child == "floor":
            print(json.dumps(_child_floor(db, args.out)))
        else:
            print(json.dumps(_child_build(db, args.child)))
        return 0
    report: dict[str, Any] = {"load_before": os.getloadavg()[0]}
    missed: list[str] = []
    for db in args.db or DATABASES:
        _demo(db, args.attempts)
        found: dict[str, Any] = {"first_stage": _stage1(db, args.repeats)}
        if not args.stage1_only:
            cache = Path(tempfile.mkdtemp(prefix="bench-index-"))  # never beside the audit
            try:
                found |= _measure(db, cache)
            finally:
                shutil.rmtree(cache, ignore_errors=True)
        missed += _missed(db.name, found)
        _table(db.name, found)
        report[db.name] = found
    report["load_after"] = os.getloadavg()[0]
    report["targets"] = (
        f"first stage <= {STAGE1_RATIOS} (else {STAGE1_RATIO:g}x) its SQL-only floor; "
        f"filter change (count + first page) < {FILTER_MS:g} ms; next attempt < {NEXT_MS:g} ms; "
        f"search (count + first page) < {FTS_MS:g} ms and no slower than LIKE"
    )
    report["missed"] = missed
    print(json.dumps(report, indent=2))
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
