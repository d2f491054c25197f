"""Start-up costs, whole process, each against a floor measured in the same run.

* Window: ``ai4hse-desk --demo`` (and ``ai4hse-desk DB`` on the realistic 1M
  database, its review index cached) from process start to the end of the paint
  that draws the first rows of the attempt list, offscreen, against a bare Qt
  process: import QtWidgets, create a QApplication and a QMainWindow, show it,
  process events until it is exposed, exit. Target: the demo under 2x that floor.
  Reported beside it (no target): the same start until the first attempt's
  response is drawn too, a frame after the rows.
* Headless (reported, no target): ``rescore --help`` against ``python -c pass``,
  and ``rescore`` of a small database (2,100 attempts) against a process that
  imports sqlite3 and reads the same rows once. That no headless reader of the
  audit file loads SQLAlchemy, Qt, numpy or pandas is a test
  (tests/core/test_startup_imports.py).

The desk's window shows the first attempt, queues its full-text build and looks for
the notes store once the first rows are drawn, as it does for a user; the process may
end in the middle of that build (its temporary file is deleted afterwards). Every process ends with
``os._exit`` once it has reached its mark, so Qt's and Python's teardown is not
counted on either side. Modules run from bytecode, as in an installed desk
(compiled on the first run into a private ``PYTHONPYCACHEPREFIX`` folder, even
where ``PYTHONDONTWRITEBYTECODE`` is set). The runs are interleaved (A B A B ...)
and the medians compared; the ratios go to the bench table (:mod:`results_table`).
Exits 1 when the window target is missed.

Usage: python tests/benchmarks/bench_startup.py [--repeat N] [--realistic PATH]
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

FLOOR_WINDOW = """
import os
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication([])
window = QMainWindow()
window.resize(1500, 950)
window.show()
while window.windowHandle() is None or not window.windowHandle().isExposed():
    app.processEvents()
app.processEvents()
os._exit(0)
"""

#: The desk's own start (the launcher, as ``ai4hse-desk ARGS`` runs it); the list's
#: viewport is watched, and the process ends as soon as the paint that draws its first
#: rows has been drawn (the filter hands that paint on to the list, then exits), so the
#: paint is counted and nothing queued after it. ``WATCH`` picks what is waited for:
#: ``rows`` (the target), or ``detail``: the first attempt's response drawn as well
#: (the desk shows the first attempt's detail a frame after the rows).
DESK_WINDOW = """
import os, sys
import ai4hse_desk.gui.app as gui_app
WATCH = os.environ["BENCH_WATCH"]
opened = gui_app.start_window
def start_window(*args, **kwargs):  # (whatever the launcher passes: the file, --workers)
    window = opened(*args, **kwargs)
    from PySide6.QtCore import QCoreApplication, QEvent, QObject
    def ready():
        if WATCH == "rows":
            return window.model.rowCount() and window.model.row_data(0) is not None
        return window.selection.detail is not None
    class Drawn(QObject):
        def eventFilter(self, watched, event):
            if event.type() == QEvent.Type.Paint and ready():
                watched.removeEventFilter(self)
                QCoreApplication.sendEvent(watched, event)  # drawn now, by the list itself
                os._exit(0)
            return False
    watcher = Drawn(window)
    if WATCH == "rows":
        window.attempts.table.viewport().installEventFilter(watcher)
    else:  # (a window built in two parts makes the response's panel after the rows)
        def watch_response():
            window.attempts.response_view.text_edit().viewport().installEventFilter(watcher)
        if getattr(window, "is_built", True):
            watch_response()
        else:
            window.rest_built.connect(watch_response)
    return window
gui_app.start_window = start_window
from ai4hse_desk.launcher import main
main(sys.argv[1:])
os._exit(3)  # the event loop ended without rows
"""

FLOOR_SCAN = """
import sqlite3, sys
conn = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
for row in conn.execute("SELECT attempt_id, run_id, raw_response, parse_status FROM attempts"):
    pass
"""


def _time_process(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{argv[1:4]} failed ({done.returncode}): {done.stderr.decode()[-500:]}")
    return elapsed


def _pairs(floor: list[str], desk: list[str], env: dict[str, str], repeat: int) -> dict[str, float]:
    """Medians of interleaved runs of ``floor`` and ``desk`` (one warm-up of each first)."""
    _time_process(floor, env)
    _time_process(desk, env)
    floors, desks = [], []
    for _ in range(repeat):
        floors.append(_time_process(floor, env))
        desks.append(_time_process(desk, env))
    floor_s, desk_s = statistics.median(floors), statistics.median(desks)
    return {
        "floor_ms": round(floor_s * 1000, 1),
        "desk_ms": round(desk_s * 1000, 1),
        "ratio": round(desk_s / floor_s, 2),
    }


def _tidy(cache: Path, since: float) -> None:
    """Delete the temporary files of full-text builds that the measured windows began
    (each process ends at its first rows, in the middle of that build)."""
    for stale in cache.glob(".index-*.tmp"):
        try:
            if stale.stat().st_mtime >= since:
                stale.unlink()
        except OSError:
            continue


def _table(report: dict[str, object]) -> None:
    """The bench table's rows: each start beside its floor."""
    from results_table import record

    qt = "bare Qt: QApplication + QMainWindow shown and exposed"
    rows = (
        ("window_demo", "window start to the first rows drawn, demo", qt, 2.0),
        ("window_demo_first_detail", "window start to the first attempt's response, demo",
         qt, None),
        ("window_realistic_1m", "window start to the first rows, realistic-1m (index cached)",
         qt, None),
        ("rescore_help", "rescore --help", "python -c pass", None),
        ("rescore_small_db", "rescore of the demo (2,400 attempts)",
         "sqlite3 reading the same rows once", None),
    )  # fmt: skip
    for key, measure, floor, target in rows:
        found = report.get(key)
        if isinstance(found, dict):
            record(measure, floor, float(found["ratio"]), target, "" if target else "reported")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--realistic", type=Path, default=Path("out/bench/realistic-1m.sqlite"))
    parser.add_argument("--cache", type=Path, default=Path("out/bench/cache"))
    args = parser.parse_args()
    python = sys.executable
    started = time.time()
    work = Path(tempfile.mkdtemp(prefix="ai4hse-bench-startup-"))
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "AI4HSE_DESK_CACHE_DIR": str(work / "cache"),
        "AI4HSE_DESK_CONFIG_DIR": str(work / "config"),  # no remembered file or layout
        # Bytecode, as an installed desk has it: compiled once into a private folder.
        "PYTHONPYCACHEPREFIX": str(work / "pycache"),
    }
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    report: dict[str, object] = {"load_average": [round(x, 2) for x in os.getloadavg()]}

    window_floor = [python, "-c", FLOOR_WINDOW]
    desk = [python, "-c", DESK_WINDOW]
    detail_env = {**env, "BENCH_WATCH": "detail"}
    env["BENCH_WATCH"] = "rows"
    # The first start writes the demo database and its review index into the cache.
    _time_process([*desk, "--demo"], env)
    report["window_demo"] = demo = _pairs(window_floor, [*desk, "--demo"], env, args.repeat)
    report["window_demo_first_detail"] = _pairs(
        window_floor, [*desk, "--demo"], detail_env, args.repeat
    )

    if args.realistic.exists():
        args.cache.mkdir(parents=True, exist_ok=True)
        cached = {**env, "AI4HSE_DESK_CACHE_DIR": str(args.cache.resolve())}
        _time_process([*desk, str(args.realistic)], cached)  # builds the index once if needed
        report["window_realistic_1m"] = _pairs(
            window_floor, [*desk, str(args.realistic)], cached, max(3, args.repeat // 2)
        )
    else:
        report["window_realistic_1m"] = f"skipped: {args.realistic} is missing"

    small = work / "small.sqlite"
    _time_process([python, "-m", "ai4hse_desk", "demo", "--out", str(small)], env)
    help_pair = _pairs(
        [python, "-c", "pass"], [python, "-m", "ai4hse_desk", "rescore", "--help"], env, args.repeat
    )
    scan_pair = _pairs(
        [python, "-c", FLOOR_SCAN, str(small)],
        [python, "-m", "ai4hse_desk", "rescore", str(small)],
        env,
        args.repeat,
    )
    report["rescore_help"] = help_pair
    report["rescore_small_db"] = scan_pair
    report["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    _tidy(args.cache, started)
    shutil.rmtree(work, ignore_errors=True)
    report["target_window_demo_under_2x_floor"] = demo["ratio"] < 2.0
    _table(report)
    print(json.dumps(report, indent=2))
    return 0 if demo["ratio"] < 2.0 else 1


if __name__ == "__main__":
    sys.exit(main())
