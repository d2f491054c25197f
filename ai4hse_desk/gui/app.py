"""``ai4hse-desk [AUDIT_DB | --demo] [--screenshot OUT.png [--view V]]``: the window."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

SCREENSHOT_SIZE = (1600, 1000)
VIEWS = ("attempts", "scores", "compare", "keyaudit")


def _parser() -> argparse.ArgumentParser:
    from ai4hse_desk.cli.parser import OneLineErrorParser

    parser = OneLineErrorParser(
        prog="ai4hse-desk",
        description="Open the review window on an AI4HSE audit database (read-only).",
    )
    parser.add_argument("audit_db", nargs="?", type=Path, metavar="AUDIT_DB")
    parser.add_argument("--demo", action="store_true", help="open the built-in demo database")
    parser.add_argument(
        "--screenshot", type=Path, metavar="OUT.png",
        help="render the window offscreen to OUT.png and exit",
    )  # fmt: skip
    parser.add_argument("--view", choices=VIEWS, default="attempts", help="view to render")
    return parser


def demo_database() -> Path:
    """The demo database in the user cache dir, written once per desk version."""
    from ai4hse_desk import __version__
    from ai4hse_desk.index import cache_dir
    from ai4hse_desk.writer.demo import write_demo

    path = cache_dir() / f"demo-{__version__}.sqlite"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_demo(path)
    return path


def run_window(argv: Sequence[str]) -> int:
    """Open the window (or render a screenshot); return the exit status."""
    args = _parser().parse_args(list(argv))
    if args.demo and args.audit_db is not None:
        sys.stderr.write("error: give either AUDIT_DB or --demo, not both\n")
        return 2
    if args.screenshot is not None:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        if not args.screenshot.parent.is_dir():
            sys.stderr.write(f"error: no such directory: {args.screenshot.parent}\n")
            return 2
    path = demo_database() if args.demo else args.audit_db
    if args.screenshot is not None and path is None:
        sys.stderr.write("error: --screenshot needs AUDIT_DB or --demo\n")
        return 2
    if args.screenshot is not None:
        return _screenshot(path, args.screenshot, args.view)
    return _interactive(path)


def _quiet_platform_messages() -> None:
    """Drop the offscreen platform's harmless size-hint notice; pass on the rest."""
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    def handler(kind: QtMsgType, _context: object, message: str) -> None:
        if "does not support propagateSizeHints" in message:
            return
        sys.stderr.write(f"{message}\n")

    qInstallMessageHandler(handler)


def _application() -> object:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QApplication

    from ai4hse_desk.gui.settings import APPLICATION, ORGANISATION

    existing = QApplication.instance()
    if existing is not None:
        return existing
    QGuiApplication.setHighDpiScaleFactorRoundingPolicy(
        Qt.HighDpiScaleFactorRoundingPolicy.PassThrough
    )
    _quiet_platform_messages()
    app = QApplication([sys.argv[0] if sys.argv else "ai4hse-desk"])
    app.setOrganizationName(ORGANISATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName(APPLICATION)
    app.setDesktopFileName("org.ai4hse.Desk")
    from ai4hse_desk.gui.app_icon import app_icon

    app.setWindowIcon(app_icon())
    return app


def _interactive(path: Path | None) -> int:
    from ai4hse_desk.gui.main_window import MainWindow

    app = _application()
    window = MainWindow()
    window.resize(1500, 950)
    window.show()
    if path is not None:
        window.open_path(path)
    else:
        last = window.settings.value("last_file")
        if isinstance(last, str) and Path(last).is_file():
            window.open_path(last)
    return int(app.exec())  # type: ignore[attr-defined]


def _screenshot(path: Path, out: Path, view: str) -> int:
    from PySide6.QtWidgets import QApplication, QMessageBox

    from ai4hse_desk.audit import AuditError, open_audit
    from ai4hse_desk.gui.main_window import TAB_COMPARE, MainWindow

    try:  # fail with one line before any window exists
        open_audit(path).close()
    except AuditError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    _application()
    window = MainWindow()
    window.resize(*SCREENSHOT_SIZE)
    window.show()
    QMessageBox.critical = _no_dialog  # type: ignore[method-assign]
    if not window.open_path(path, wait=True):
        return 2
    window.next_parse_error()
    if view == "compare":
        window.tabs.setCurrentIndex(TAB_COMPARE)
    elif view == "scores":
        window.show_scores(wait=True)
    elif view == "keyaudit":
        window.show_keyaudit(wait=True)
    for _ in range(5):
        QApplication.processEvents()
    image = window.grab()
    ok = image.save(str(out), "PNG")
    window.close()
    if not ok:
        sys.stderr.write(f"error: could not write {out}\n")
        return 2
    print(f"screenshot written to {out}")
    return 0


def _no_dialog(*args: object, **kwargs: object) -> object:
    message = args[2] if len(args) > 2 else kwargs.get("text", "")
    sys.stderr.write(f"error: {message}\n")
    return None
