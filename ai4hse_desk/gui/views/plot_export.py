"""A pyqtgraph plot as PNG or SVG bytes (pyqtgraph's exporters, imported when used)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QBuffer, QByteArray, QIODevice, QRectF
from PySide6.QtGui import QPainter, QPicture

from ai4hse_desk.scores.svg_bake import bake_transforms


def png_bytes(item: Any, width: int) -> bytes:
    """``item`` (a ``PlotItem``) as PNG, at least ``width`` pixels wide (ImageExporter)."""
    from pyqtgraph.exporters import ImageExporter

    exporter = ImageExporter(item)
    exporter.parameters()["width"] = max(width, int(item.boundingRect().width()))
    image = exporter.export(toBytes=True)
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    buffer.close()
    return bytes(data.data())


def svg_bytes(item: Any) -> bytes:
    """``item`` as SVG: pyqtgraph's SVGExporter, or, when that exporter cannot read the
    paths this Qt writes (pyqtgraph issue #3485), Qt's SVG generator with the transforms
    baked in (:func:`~ai4hse_desk.scores.svg_bake.bake_transforms`)."""
    from pyqtgraph.exporters import SVGExporter

    try:
        svg = SVGExporter(item).export(toBytes=True)
    except ValueError:
        return bake_transforms(_qt_svg(item))
    return bytes(svg)


def _qt_svg(item: Any) -> bytes:
    from PySide6.QtSvg import QSvgGenerator

    source = item.sceneBoundingRect()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    generator = QSvgGenerator()
    # pyqtgraph records axes and bars as QPictures, which replay scaled by the
    # target's DPI over theirs: give the SVG the same DPI, so they keep their size.
    generator.setResolution(QPicture().logicalDpiX())
    generator.setOutputDevice(buffer)
    generator.setSize(source.size().toSize())
    generator.setViewBox(QRectF(0, 0, source.width(), source.height()))
    generator.setTitle(item.titleLabel.text or "plot")
    painter = QPainter(generator)
    item.scene().render(painter, QRectF(0, 0, source.width(), source.height()), source)
    painter.end()
    buffer.close()
    return bytes(data.data())


__all__ = ["png_bytes", "svg_bytes"]
