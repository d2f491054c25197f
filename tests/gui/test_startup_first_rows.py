"""The window's first rows come before the notes store and the Review page: a fresh process.

The desk starts as ``ai4hse-desk AUDIT_DB`` does (the launcher); when the notes
store is about to be looked for (the first thing deferred past the first rows), the
process records whether the first row is read and which modules are loaded, then lets
the window carry on until every task is delivered and records them again. SQLAlchemy, the
notes store's location and store modules, and the Review page's view, controller
and store reads must not be among the first; the store must have been looked for
by the end (deferred, not dropped), and the Review page is made when first shown.
The cyclic collector stays paused and the icon unread until the window is whole.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import TYPE_CHECKING, TypedDict

import pytest

from ai4hse_desk.audit import open_audit
from ai4hse_desk.index import ensure_index
from ai4hse_desk.writer.demo import write_demo

if TYPE_CHECKING:
    from pathlib import Path

#: Loaded only once the notes store is looked for or opened, after the first rows.
DEFERRED = ("sqlalchemy", "ai4hse_desk.notes.location", "ai4hse_desk.notes.store")
#: The verdict stream and the rescore (and its worker processes): a window that finds its
#: review index cached reads stored verdicts and never needs them before its first rows.
NOT_WITH_A_CACHED_INDEX = (
    "ai4hse_desk.verdicts.rescore",
    "ai4hse_desk.verdicts.stream",
    "ai4hse_desk.protocol.metrics",
    "multiprocessing",
    "concurrent.futures",
)
#: The Review page's modules, loaded when the page is first shown.
REVIEW = (
    "ai4hse_desk.gui.review.view",
    "ai4hse_desk.gui.review.controller",
    "ai4hse_desk.gui.review.reads",
)

_RUN = """
import json, os, sys
import ai4hse_desk.gui.app as gui_app
from ai4hse_desk.gui.controllers.notes import NotesController
target = sys.argv.pop(1)
opened = gui_app.start_window
seen = {}
looked_for = NotesController.index_ready
def index_ready(self):
    if "first" not in seen:
        seen["first"] = sorted(sys.modules)
        seen["row"] = bool(WINDOW and WINDOW[0].model.rowCount() and WINDOW[0].model.row_data(0))
    looked_for(self)
NotesController.index_ready = index_ready
WINDOW = []
def start_window(path, index_workers=None):
    window = opened(path, index_workers)
    WINDOW.append(window)
    from PySide6.QtCore import QTimer
    def watch():
        if "first" in seen and window.tasks.idle():
            with open(target, "w") as out:
                json.dump({"first": seen["first"], "row": seen["row"],
                           "idle": sorted(sys.modules)}, out)
            os._exit(0)
    timer = QTimer(window)
    timer.timeout.connect(watch)
    timer.start(1)
    return window
gui_app.start_window = start_window
from ai4hse_desk.launcher import main
main(sys.argv[1:])
os._exit(3)
"""


class _Modules(TypedDict):
    """What one start recorded: the modules at the first rows and once idle."""

    first: list[str]
    row: bool
    idle: list[str]


@pytest.fixture(scope="module")
def small_demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("first-rows") / "demo.sqlite"
    write_demo(path, attempts=2_000)
    return path


def _start(demo: Path, tmp_path: Path) -> _Modules:
    """One start of the desk on ``demo`` (cache and settings under ``tmp_path``): the
    modules at the first rows and once idle, and whether the first row was read."""
    record = tmp_path / "modules.json"
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "AI4HSE_DESK_CACHE_DIR": str(tmp_path / "cache"),
        "AI4HSE_DESK_CONFIG_DIR": str(tmp_path / "config"),
    }
    done = subprocess.run(
        [sys.executable, "-c", _RUN, str(record), str(demo)],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    modules: _Modules = json.loads(record.read_text())
    return modules


def test_with_its_index_cached_the_window_starts_without_the_rescore_loop(
    small_demo: Path, tmp_path: Path
) -> None:
    _start(small_demo, tmp_path)  # builds the review index (with the rescore loop)
    again = _start(small_demo, tmp_path)
    first = set(again["first"])
    assert again["row"]
    assert "ai4hse_desk.index.query" in first
    assert not {name for name in first if name.startswith(NOT_WITH_A_CACHED_INDEX)}


def test_the_first_rows_show_before_sqlalchemy_the_notes_store_and_the_review_page_load(
    small_demo: Path, tmp_path: Path
) -> None:
    modules = _start(small_demo, tmp_path)
    first, idle = set(modules["first"]), set(modules["idle"])
    assert "ai4hse_desk.gui.main_window" in first  # the window itself was measured
    assert modules["row"]  # the first row was read before the store is looked for
    assert not first & set(DEFERRED)
    assert not first & set(REVIEW)
    assert "ai4hse_desk.notes.location" in idle  # the store was looked for afterwards


_PHASES = """
import gc, json, os, sys
import ai4hse_desk.gui.app as gui_app
target = sys.argv.pop(1)
seen = {}
opened = gui_app.start_window
def start_window(path, index_workers=None):
    window = opened(path, index_workers)
    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtGui import QGuiApplication
    def phase():
        app = QGuiApplication.instance()
        owned = any(type(c).__name__ == "GuiThreadCollector" for c in app.children())
        return {"collecting": gc.isenabled(), "gui_collector": owned,
                "icon": not QGuiApplication.windowIcon().isNull(),
                "whole": window.is_built, "rows": window.model.rowCount()}
    class Rows(QObject):
        def eventFilter(self, _watched, event):
            if event.type() == QEvent.Type.Paint and window.model.rowCount() and "rows" not in seen:
                seen["rows"] = phase()
            return False
    rows = Rows(window)
    window.attempts.table.viewport().installEventFilter(rows)
    def whole():
        from PySide6.QtCore import QTimer
        def record():  # the slots connected after this one (the icon, the collector) ran
            seen["whole"] = phase()
            with open(target, "w") as out:
                json.dump(seen, out)
            os._exit(0)
        QTimer.singleShot(0, record)
    window.rest_built.connect(whole)
    return window
gui_app.start_window = start_window
from ai4hse_desk.launcher import main
main(sys.argv[1:])
os._exit(3)
"""


def test_a_start_pauses_the_collector_and_gives_the_icon_until_the_window_is_whole(
    small_demo: Path, tmp_path: Path
) -> None:
    """The first rows are drawn with the cyclic collector paused and before the icon is
    read; once the rest is built the window has its icon, and the collector is the GUI
    thread's (its timer collects; automatic collection, which would run on any thread,
    stays off)."""
    record = tmp_path / "phases.json"
    with open_audit(small_demo) as db:  # in the cache the start reads (this test's own)
        ensure_index(db).close()
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "AI4HSE_DESK_CONFIG_DIR": str(tmp_path / "config"),
    }
    done = subprocess.run(
        [sys.executable, "-c", _PHASES, str(record), str(small_demo)],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    phases = json.loads(record.read_text())
    rows = phases["rows"].pop("rows")
    assert rows > 0
    assert phases["whole"].pop("rows") == rows
    assert phases["rows"] == {
        "collecting": False,
        "gui_collector": True,
        "icon": False,
        "whole": False,
    }
    assert phases["whole"] == {
        "collecting": False,
        "gui_collector": True,
        "icon": True,
        "whole": True,
    }
