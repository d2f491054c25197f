"""Render resources/icons/ai4hse-desk.svg to the PNG sizes desktops ask for.

Run when the SVG changes: .venv/bin/python scripts/render-icons.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage, QPainter
from PySide6.QtSvg import QSvgRenderer

SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICONS = Path(__file__).resolve().parents[1] / "resources" / "icons"


def main() -> int:
    app = QGuiApplication(sys.argv[:1])
    renderer = QSvgRenderer(str(ICONS / "ai4hse-desk.svg"))
    if not renderer.isValid():
        raise SystemExit("the SVG icon does not render")
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        renderer.render(painter)
        painter.end()
        out = ICONS / f"ai4hse-desk-{size}.png"
        if not image.save(str(out), b"PNG"):
            raise SystemExit(f"could not write {out}")
    del app
    return 0


if __name__ == "__main__":
    sys.exit(main())
