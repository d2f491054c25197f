"""A million rows, whole: Ctrl+End, Go to and a scroll-bar drag on 1,000,000 attempts.

The review window is opened offscreen on ``out/bench/demo-1m.sqlite`` and, in a process
of its own, on ``out/bench/realistic-1m.sqlite`` (``demo --attempts 1000000
--realistic``: the detail panels then show long explanations that never repeat), each
written if missing, with the review index cached under ``out/bench/cache`` (as
``bench_window.py``); ``--db`` measures one file. Each action is timed
from the key press or call until the table has repainted with the row shown (and, for
Ctrl+End and Go to, the detail panels filled), as the median of several repeats; before
each repeat the list is reset (its held pages dropped) and its page ends found again,
untimed. Beside each figure, a floor measured in the same run: one ``SELECT`` of one
row by primary key on the index, and one page of keys read by keyset.

Targets (issue 14): Ctrl+End to the last row < 150 ms; Go to < 150 ms; a drag < 150 ms.
The bench table (:mod:`results_table`) gets each figure over a full repaint of the
window, measured in the same process (Qt drawing what it holds, nothing read).

Usage: python tests/benchmarks/bench_rows.py [--db PATH] [--cache DIR] [--repeats N]
Exits 1 when a target is missed on any file.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

if TYPE_CHECKING:
    from collections.abc import Callable

    from ai4hse_desk.gui.main_window import MainWindow

TARGET_MS = 150


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def _median_ms(samples: list[float]) -> float:
    return _ms(statistics.median(samples))


def _timed(action: Callable[[], object], repeats: int, prepare: Callable[[int], object]) -> float:
    samples = []
    for i in range(repeats):
        prepare(i)
        t = time.perf_counter()
        action()
        samples.append(time.perf_counter() - t)
    return _median_ms(samples)


#: The files measured without ``--db``, and the ``demo`` options that write them.
DATABASES = {
    Path("out/bench/demo-1m.sqlite"): ("--attempts", "1000000"),
    Path("out/bench/realistic-1m.sqlite"): ("--attempts", "1000000", "--realistic"),
}


def _ensure_demo(db: Path) -> None:
    if not db.exists():
        db.parent.mkdir(parents=True, exist_ok=True)
        options = DATABASES.get(db, ("--attempts", "1000000"))
        subprocess.run(
            [sys.executable, "-m", "ai4hse_desk", "demo", "--out", str(db), *options],
            check=True,
        )


def _each_database(cache: Path, repeats: int) -> int:
    status = 0
    for db in DATABASES:
        print(f"-- {db}", flush=True)
        argv = [sys.executable, __file__, "--db", str(db), "--cache", str(cache),
                "--repeats", str(repeats)]  # fmt: skip
        status = status or subprocess.run(argv, check=False).returncode
    return status


def _table(name: str, report: dict[str, object], timed: list[str], floor: float) -> None:
    """The bench table's rows: each figure over a full repaint of the window."""
    from results_table import record

    for key in timed:
        measure = key.removesuffix("_ms").replace("_", " ")
        record(
            f"{measure}, {name}",
            "a full repaint of the window (same process)",
            float(report[key]) / max(floor, 0.01),  # type: ignore[arg-type]
            None,
            f"{float(report[key]):.0f} ms (< {TARGET_MS} ms)",  # type: ignore[arg-type]
            float(report[key]) < TARGET_MS,  # type: ignore[arg-type]
        )


def main() -> int:  # noqa: C901 - one linear script, each step reported
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--db", type=Path, help="one file (default: each of DATABASES)")
    parser.add_argument("--cache", type=Path, default=Path("out/bench/cache"))
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args()
    if args.db is None:
        return _each_database(args.cache, args.repeats)
    _ensure_demo(args.db)
    args.cache.mkdir(parents=True, exist_ok=True)
    os.environ["AI4HSE_DESK_CACHE_DIR"] = str(args.cache.resolve())
    os.environ["AI4HSE_DESK_CONFIG_DIR"] = str(args.cache.resolve())

    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from ai4hse_desk.audit import open_audit
    from ai4hse_desk.gui.application import quiet_platform_messages
    from ai4hse_desk.gui.main_window import MainWindow
    from ai4hse_desk.gui.models.attempt_columns import COLUMNS, PLACEHOLDER
    from ai4hse_desk.index import ensure_index
    from ai4hse_desk.index.positions import PAGE, Listing, page_ends

    with open_audit(args.db) as db:
        ensure_index(db).close()

    quiet_platform_messages()
    app = QApplication.instance() or QApplication([])
    window: MainWindow = MainWindow()
    window.resize(1600, 1000)
    window.show()
    app.processEvents()
    window.open_path(args.db, wait=True)  # first rows, counts and page ends
    model, table, lst = window.model, window.attempts.table, window.attempt_list
    index = model.review_index
    assert index is not None
    lst.row_chosen.connect(window.navigator.select_row)  # as Ctrl+G wires it
    rows = model.rowCount()
    report: dict[str, object] = {"rows": rows, "repeats": args.repeats, "page_keys": PAGE}

    def shown() -> None:
        app.processEvents()
        table.viewport().repaint()

    def fresh(_i: int = 0) -> None:
        """Drop the held pages (a model reset) and find the page ends again, untimed."""
        model.refresh()
        window.tasks.wait_idle()
        table.scrollToTop()
        shown()

    # -- floors -----------------------------------------------------------------------
    ids = [1 + (i * 7919) % rows for i in range(50)]

    def one_row(i: int) -> None:
        index.connections.all("SELECT * FROM rows WHERE attempt_id = ?", [ids[i % len(ids)]])

    samples = []
    for i in range(50):
        t = time.perf_counter()
        one_row(i)
        samples.append(time.perf_counter() - t)
    floor_row = _median_ms(samples)
    samples = []
    for i in range(50):
        after = (ids[i], ids[i])
        t = time.perf_counter()
        index.page_keys(None, "attempt_id", False, after, PAGE)
        samples.append(time.perf_counter() - t)
    floor_page = _median_ms(samples)
    samples = []
    for i in range(20):
        key = index.page_keys(None, "model", True, None, 1, skip=ids[i] - 1)[0]
        t = time.perf_counter()
        index.page_keys(None, "model", True, key, PAGE)
        samples.append(time.perf_counter() - t)
    samples = []
    for _ in range(20):
        t = time.perf_counter()
        window.repaint()
        samples.append(time.perf_counter() - t)
    floors: dict[str, float] = {
        "window_repaint_ms": _median_ms(samples),
        "select_one_row_by_primary_key_ms": floor_row,
        "page_of_keys_by_keyset_ms (attempt_id)": floor_page,
        "page_of_keys_by_keyset_ms (model, descending)": _median_ms(samples),
    }
    report["floors"] = floors

    # -- the page ends: off the GUI thread, once per listing --------------------------
    passes = {}
    for name, sort, desc in (("attempt_id", "attempt_id", False), ("model desc", "model", True)):
        t = time.perf_counter()
        page_ends(index, Listing(model.query, sort, desc), rows)
        passes[name] = _ms(time.perf_counter() - t)
    report["page_ends_pass_ms (background, per listing)"] = passes

    # -- Ctrl+End ---------------------------------------------------------------------
    last = index.page_keys(None, "attempt_id", True, None, 1)[0][1]

    def ctrl_end() -> None:
        QTest.keyClick(table, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
        shown()
        assert table.currentIndex().row() == rows - 1
        assert window.selection.attempt_id == last

    table.setFocus()
    report["ctrl_end_to_last_row_ms"] = _timed(ctrl_end, args.repeats, fresh)

    def ctrl_end_early() -> None:  # right after a reset: the page ends not found yet
        QTest.keyClick(table, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
        shown()
        assert window.selection.attempt_id == last

    def reset_only(_i: int) -> None:
        window.tasks.wait_idle()
        model.refresh()
        table.scrollToTop()
        shown()

    report["ctrl_end_right_after_a_reset_ms (info)"] = _timed(
        ctrl_end_early, args.repeats, reset_only
    )
    window.tasks.wait_idle()

    def next_attempt() -> None:  # what showing any attempt costs the window
        window.navigator.move_row(1)
        shown()

    floors["next_attempt_J_with_every_panel_ms"] = _timed(next_attempt, args.repeats, fresh)

    # -- Go to ------------------------------------------------------------------------
    questions = [f"Q{n:03d}" for n in (7, 23, 42, 60, 77, 88, 95, 13, 51, 66, 99)]

    def go_question(i: int) -> Callable[[], None]:
        def go() -> None:
            assert lst.go_to(questions[i % len(questions)])
            shown()
            assert window.selection.question_id == questions[i % len(questions)]

        return go

    def go_attempt(i: int) -> Callable[[], None]:
        def go() -> None:
            assert lst.go_to(f"#{ids[i]}")
            shown()
            assert window.selection.attempt_id == ids[i]

        return go

    def go_row(i: int) -> Callable[[], None]:
        def go() -> None:
            assert lst.go_to(f"row {ids[i]}")
            shown()
            assert table.currentIndex().row() == ids[i] - 1

        return go

    for name, make in (
        ("go_to_question_id_ms", go_question),
        ("go_to_attempt_id_ms", go_attempt),
        ("go_to_row_number_ms", go_row),
    ):
        samples = []
        for i in range(args.repeats):
            fresh()
            action = make(i)
            t = time.perf_counter()
            action()
            samples.append(time.perf_counter() - t)
        report[name] = _median_ms(samples)

    # -- a scroll-bar drag ------------------------------------------------------------
    bar = table.verticalScrollBar()
    fractions = [0.5, 0.37, 0.63, 0.5, 0.21, 0.79, 0.5, 0.44, 0.56]
    samples = []
    for i in range(args.repeats):
        fresh()
        t = time.perf_counter()
        bar.setValue(int(bar.maximum() * fractions[i % len(fractions)]))
        shown()
        samples.append(time.perf_counter() - t)
        top = table.rowAt(0)
        assert model.data(model.index(top, 0)) != PLACEHOLDER
        assert abs(top - rows * fractions[i % len(fractions)]) < rows * 0.01
    report["scroll_bar_drag_to_the_middle_ms"] = _median_ms(samples)
    sorted_by = next(i for i, c in enumerate(COLUMNS) if c.sort == "model")
    model.sort(sorted_by, Qt.SortOrder.DescendingOrder)
    window.tasks.wait_idle()
    samples = []
    for i in range(args.repeats):
        t = time.perf_counter()
        bar.setValue(int(bar.maximum() * fractions[i % len(fractions)]))
        shown()
        samples.append(time.perf_counter() - t)
    report["scroll_bar_drag_sorted_by_model_desc_ms"] = _median_ms(samples)
    window.close()

    timed = [k for k, v in report.items() if k.endswith("_ms") and isinstance(v, float)]
    report["targets_ms"] = {k: TARGET_MS for k in timed}
    _table(args.db.name, report, timed, floors["window_repaint_ms"])
    report["load_average_1min"] = round(os.getloadavg()[0], 2)
    print(json.dumps(report, indent=2))
    return 0 if all(float(report[k]) < TARGET_MS for k in timed) else 1  # type: ignore[arg-type]


if __name__ == "__main__":
    sys.exit(main())
