"""The one ``QApplication`` of the desk, with its names, icon and quiet offscreen platform,
and the rule that places a top-level window on its screen."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from PySide6.QtCore import (
    QCoreApplication,
    QMessageLogContext,
    Qt,
    QtMsgType,
    qInstallMessageHandler,
)
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QWidget

from ai4hse_desk.gui.settings import APPLICATION, ORGANISATION
from ai4hse_desk.gui.workers.gui_collector import GuiThreadCollector

if TYPE_CHECKING:
    from collections.abc import Sequence

DESKTOP_FILE = "org.ai4hse.Desk"


def quiet_platform_messages() -> None:
    """Drop the offscreen platform's harmless size-hint notice; pass on the rest."""

    def handler(_kind: QtMsgType, _context: QMessageLogContext, message: str) -> None:
        if "does not support propagateSizeHints" in message:
            return
        sys.stderr.write(f"{message}\n")

    qInstallMessageHandler(handler)


def application(qt_arguments: Sequence[str] = (), *, icon: bool = True) -> QCoreApplication:
    """The one QApplication (made on first use, with the desk's names and icon).

    Args:
        qt_arguments: Qt's standard arguments, e.g. ``["-style", "Fusion"]``, read then.
        icon: give it the desk's icon now; a starting window gives it with the rest of
            itself (:func:`give_icon`), after its first rows (reading the icon's nine
            sizes and Qt's icon classes take about 4 ms).
    """
    existing = QApplication.instance()
    if existing is not None:
        return existing
    QGuiApplication.setHighDpiScaleFactorRoundingPolicy(
        Qt.HighDpiScaleFactorRoundingPolicy.PassThrough
    )
    quiet_platform_messages()
    app = QApplication([sys.argv[0] if sys.argv else "ai4hse-desk", *qt_arguments])
    app.setOrganizationName(ORGANISATION)
    app.setApplicationName(APPLICATION)
    app.setApplicationDisplayName(APPLICATION)
    app.setDesktopFileName(DESKTOP_FILE)
    GuiThreadCollector(app)  # the cyclic collector runs on this thread only
    if icon:
        give_icon()
    return app


def give_icon() -> None:
    """Give the application the desk's icon (windows shown already take it too)."""
    from ai4hse_desk.gui.app_icon import app_icon

    QGuiApplication.setWindowIcon(app_icon())


def within_screen(window: QWidget, size: tuple[int, int] | None = None) -> None:
    """Resize ``window`` to ``size`` (when given), then make it fit its screen's free area
    (a 1366×768 laptop gets the whole of it), at the area's top left if it had to shrink."""
    if size is not None:
        window.resize(*size)
    screen = window.screen()
    if screen is None:
        return
    free = screen.availableGeometry()
    if window.width() > free.width() or window.height() > free.height():
        window.resize(min(window.width(), free.width()), min(window.height(), free.height()))
        window.move(free.topLeft())


__all__ = ["application", "give_icon", "quiet_platform_messages", "within_screen"]
