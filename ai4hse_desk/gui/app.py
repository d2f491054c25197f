"""``ai4hse-desk [AUDIT_DB | --demo | --server URL] [--screenshot OUT.png [--view V]]``: the window.

Qt's standard arguments (``-style Fusion``, ``-platform …``, ``-reverse``,
``-stylesheet …``) are split off before the desk reads its own and handed to the
QApplication.

The headless screenshot is :mod:`ai4hse_desk.gui.screenshot`; the application
object is made by :mod:`ai4hse_desk.gui.application`. Qt is imported only
once the arguments are understood.
"""

from __future__ import annotations

import os
import sys
from contextlib import ExitStack
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from ai4hse_desk.verdicts.collector import collector_paused

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

    from ai4hse_desk.gui.main_window import MainWindow

SCREENSHOT_SIZE = (1600, 1000)
#: Qt's standard command-line options (QApplication, QGuiApplication) that take a value
#: ("-style Fusion" or "-style=Fusion") and that stand alone ("-reverse"); the desk hands
#: them to its QApplication untouched, with one dash or two, as Qt reads them.
QT_VALUE_OPTIONS = frozenset({
    "style", "stylesheet", "platform", "platformpluginpath", "platformtheme", "plugin",
    "session", "display", "geometry", "qwindowgeometry", "qwindowicon", "qwindowtitle",
    "title", "name", "qmljsdebugger", "visual",
})  # fmt: skip
QT_FLAG_OPTIONS = frozenset({"reverse", "widgetcount", "nograb", "dograb", "sync", "testability"})
VIEWS = ("attempts", "scores", "compare", "keyaudit", "review")


def window_parser() -> argparse.ArgumentParser:
    """The window's own arguments (Qt's are split off first); imports no Qt."""
    from ai4hse_desk.cli.parser import OneLineErrorParser, process_count

    parser = OneLineErrorParser(
        prog="ai4hse-desk",
        description="Open the review window on an AI4HSE audit database (read-only).",
    )
    parser.add_argument("audit_db", nargs="?", type=Path, metavar="AUDIT_DB")
    parser.add_argument("--demo", action="store_true", help="open the built-in demo database")
    parser.add_argument(
        "--server", metavar="URL",
        help="open the Review page of a review server (postgresql://ROLE@HOST:PORT/DB), "
        "without an audit file",
    )  # fmt: skip
    parser.add_argument(
        "--screenshot", type=Path, metavar="OUT.png",
        help="render the window offscreen to OUT.png and exit",
    )  # fmt: skip
    parser.add_argument("--view", choices=VIEWS, default="attempts", help="view to render")
    parser.add_argument(
        "--workers", type=process_count, metavar="N",
        help="processes that build a file's review index, 1 to 64 (default: 2 for a file of "
        "300,000 attempts or more on a machine with 2 CPUs or more, else 1)",
    )  # fmt: skip
    parser.add_argument(
        "--size", type=_size, default=SCREENSHOT_SIZE, metavar="WxH",
        help="the screenshot's window size (default 1600x1000), e.g. 1366x768",
    )  # fmt: skip
    return parser


def _size(text: str) -> tuple[int, int]:
    """Argparse type: ``WxH`` with 640 ≤ W ≤ 7680 and 480 ≤ H ≤ 4320."""
    import argparse

    width, _, height = text.lower().partition("x")
    if not (width.isdigit() and height.isdigit()):
        raise argparse.ArgumentTypeError(f"not a size like 1366x768: {text[:20]!r}")
    size = (int(width), int(height))
    if not (640 <= size[0] <= 7680 and 480 <= size[1] <= 4320):
        raise argparse.ArgumentTypeError(f"size out of range (640x480 to 7680x4320): {text}")
    return size


def split_qt_arguments(argv: Sequence[str]) -> tuple[list[str], list[str]]:
    """``argv`` as (the desk's own arguments, Qt's standard ones, in their order).

    Everything after a ``--`` is the desk's (a file may be named ``-style``).
    """
    desk: list[str] = []
    qt: list[str] = []
    items = list(argv)
    index = 0
    while index < len(items):
        arg = items[index]
        index += 1
        if arg == "--":
            desk.extend(items[index - 1 :])
            break
        name = arg.lstrip("-").split("=", 1)[0] if arg.startswith("-") else ""
        if arg.startswith("-") and 0 < len(arg) - len(arg.lstrip("-")) <= 2:
            if name in QT_VALUE_OPTIONS:
                qt.append(arg)
                if "=" not in arg and index < len(items):
                    qt.append(items[index])
                    index += 1
                continue
            if name in QT_FLAG_OPTIONS and "=" not in arg:
                qt.append(arg)
                continue
        desk.append(arg)
    return desk, qt


#: The demo's content revision, in its file name beside the desk version: raised when
#: the demo writer changes what it writes, so a demo cached before is not opened again
#: (2: an option's acronym quoted in an explanation keeps its capitals).
DEMO_REVISION = 2


def demo_database() -> Path:
    """The demo database in the user cache dir, written once per desk version and
    :data:`DEMO_REVISION`."""
    from ai4hse_desk import __version__
    from ai4hse_desk.index import cache_dir

    path = cache_dir() / f"demo-{__version__}-r{DEMO_REVISION}.sqlite"
    if not path.exists():
        from ai4hse_desk.writer.demo import write_demo  # only the first start writes it

        path.parent.mkdir(parents=True, exist_ok=True)
        write_demo(path)
    return path


def run_window(argv: Sequence[str]) -> int:
    """Open the window (or render a screenshot); return the exit status.

    Python's cyclic garbage collector is paused while the window starts, until it is
    whole (its first rows drawn, then the rest built): the start makes the thousands
    of modules, classes and Qt wrappers it keeps, and each collection would only walk
    them (about 7 ms of a start).
    """
    starting = ExitStack()
    starting.enter_context(collector_paused())
    try:
        return _run_window(argv, starting)
    finally:
        starting.close()


def _run_window(argv: Sequence[str], starting: ExitStack) -> int:
    own, qt_arguments = split_qt_arguments(argv)
    args = window_parser().parse_args(own)
    if args.demo and args.audit_db is not None:
        sys.stderr.write("error: give either AUDIT_DB or --demo, not both\n")
        return 2
    if args.server is not None:
        if args.demo or args.audit_db is not None or args.screenshot is not None:
            sys.stderr.write("error: --server opens the server's review alone (no AUDIT_DB, "
                             "--demo or --screenshot)\n")  # fmt: skip
            return 2
        from ai4hse_desk.gui.review.server_window import run_server_window

        return run_server_window(args.server, qt_arguments)
    if args.screenshot is not None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        problem = _refused(args.screenshot)  # before anything is opened or rendered
        if problem is not None:
            sys.stderr.write(f"error: {problem}\n")
            return 2
    path = demo_database() if args.demo else args.audit_db
    if args.screenshot is not None and path is None:
        sys.stderr.write("error: --screenshot needs AUDIT_DB or --demo\n")
        return 2
    if args.screenshot is not None:
        from ai4hse_desk.gui.application import application
        from ai4hse_desk.gui.screenshot import screenshot

        application(qt_arguments)  # made here, so that Qt reads its own arguments
        made = partial(new_window, index_workers=args.workers)
        return screenshot(path, args.screenshot, args.view, args.size, made)
    return _interactive(path, qt_arguments, starting, args.workers)


def _refused(out: Path) -> str | None:
    """Why the guarded writer would refuse to write ``out``, or ``None``."""
    from ai4hse_desk.filewrite import WriteRefused, check_target

    try:
        check_target(out)
    except WriteRefused as exc:
        return str(exc)
    return None


def fit_to_screen(window: MainWindow) -> None:
    """A first start opens at 1500×950; a restored size is kept. Either way the window
    is made to fit the screen's free area (a 1366×768 laptop gets the whole of it)."""
    from ai4hse_desk.gui.application import within_screen

    within_screen(window, (1500, 950) if window.settings.value("geometry") is None else None)


def new_window(
    *, rest_after_first_rows: bool = False, index_workers: int | None = None
) -> MainWindow:
    """A new main window, not shown (the window modules are imported here, once a
    QApplication exists); see :class:`~ai4hse_desk.gui.main_window.MainWindow`."""
    from ai4hse_desk.gui.main_window import MainWindow

    return MainWindow(rest_after_first_rows=rest_after_first_rows, index_workers=index_workers)


def start_window(path: Path | None, index_workers: int | None = None) -> MainWindow:
    """The shown main window, opening ``path`` (else the last file). A file that fails
    shows its reason, plain, and is not remembered.

    The window draws the file's first rows before it builds the rest of itself (the
    selected attempt's panels, the other pages, the menus' entries).
    """
    window = new_window(rest_after_first_rows=True, index_workers=index_workers)
    fit_to_screen(window)
    window.show()
    if path is None:
        last = window.settings.value("last_file")
        if isinstance(last, str) and Path(last).is_file():
            path = Path(last)
    if path is None:
        window.list_settled()  # no rows to wait for
        return window
    # Opened before the window's first frame: a small file's cached rows are in it.
    if not window.open_path(path):
        window.list_settled()  # it failed (and said why): no rows to wait for
    return window


def _interactive(
    path: Path | None, qt_arguments: Sequence[str], starting: ExitStack, workers: int | None
) -> int:
    from ai4hse_desk.gui.application import application, give_icon
    from ai4hse_desk.gui.qt_guard import install_excepthook

    app = application(qt_arguments, icon=False)
    install_excepthook()
    window = start_window(path, workers)
    window.rest_built.connect(give_icon)
    window.rest_built.connect(starting.close)  # the start is over
    status = app.exec()
    del window
    return status
