"""Which variant of the status palette the application's palette needs: light or dark.

:mod:`ai4hse_desk.display.status_style` holds a light and a dark (background,
text) pair for every status; the window takes the dark one when its palette is
dark (a dark system theme, or a palette set on the application), the light one
otherwise. Asked each time a colour is drawn, so a palette change shows at the
next repaint.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QGuiApplication, QPalette

from ai4hse_desk.display.status_style import status_colours

if TYPE_CHECKING:
    from ai4hse_desk.protocol.outcome import Status

__all__ = ["is_dark", "status_colours_now"]


def is_dark(palette: QPalette | None = None) -> bool:
    """True when ``palette`` (the application's by default) has a dark window."""
    palette = QGuiApplication.palette() if palette is None else palette
    return palette.color(QPalette.ColorRole.Window).lightness() < 128


def status_colours_now(status: Status, correct: bool = False) -> tuple[str, str]:
    """(background, text) of an attempt's status for the application's palette now."""
    return status_colours(status, correct, dark=is_dark())
