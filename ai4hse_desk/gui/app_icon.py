"""The application icon, from the SVG and PNG sizes shipped in ``resources/icons``."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

from PySide6.QtGui import QIcon

ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def app_icon() -> QIcon:
    """The desk's icon (every PNG size, plus the SVG for any other size)."""
    # The icons are plain files beside the package (Qt reads them by path), so the
    # folder is found from the package itself: importlib.resources would cost the
    # window's start about 15 ms for a path it has no better way to give.
    package = import_module("ai4hse_desk.resources")  # (installed from resources/)
    folder = Path(str(package.__file__)).parent / "icons"
    icon = QIcon()
    for size in ICON_SIZES:
        png = folder / f"ai4hse-desk-{size}.png"
        if png.is_file():
            icon.addFile(str(png))
    svg = folder / "ai4hse-desk.svg"
    if svg.is_file():
        icon.addFile(str(svg))
    return icon
