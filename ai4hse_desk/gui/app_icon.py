"""The application icon, from the SVG and PNG sizes shipped in ``resources/icons``."""

from __future__ import annotations

from importlib import resources

from PySide6.QtGui import QIcon

ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def app_icon() -> QIcon:
    """The desk's icon (every PNG size, plus the SVG for any other size)."""
    folder = resources.files("ai4hse_desk.resources") / "icons"
    icon = QIcon()
    for size in ICON_SIZES:
        png = folder / f"ai4hse-desk-{size}.png"
        if png.is_file():
            icon.addFile(str(png))
    svg = folder / "ai4hse-desk.svg"
    if svg.is_file():
        icon.addFile(str(svg))
    return icon
