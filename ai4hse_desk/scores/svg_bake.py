"""Make a Qt-generated SVG of a plot render the same in every viewer (no Qt here).

Qt's SVG generator writes a plot's data items in *data* coordinates inside a
group carrying the data-to-page transform (often a scale of several hundred),
and marks their strokes ``vector-effect="non-scaling-stroke"``. Viewers that
ignore that attribute (ImageMagick, some editors, Qt's own SVG Tiny renderer)
then draw hairlines hundreds of units wide. pyqtgraph's ``SVGExporter`` bakes
such transforms into the coordinates, but cannot read the closed paths
(``… Z``) recent Qt versions write (pyqtgraph issue #3485).

:func:`bake_transforms` does that baking for the axis-aligned groups a 2-D plot
has: every shape's coordinates are mapped to page coordinates and the group's
transform is removed. Groups holding text, nested groups or curved shapes, and
groups with rotation or shear, are left exactly as they were.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from xml.dom import minidom

_NUMBER = r"-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_PAIR = re.compile(rf"({_NUMBER}),({_NUMBER})")
_MATRIX = re.compile(r"matrix\(([^)]*)\)")
_SHAPES = frozenset({"rect", "image", "path", "polyline", "polygon", "line"})
_NON_SCALING = "non-scaling-stroke"

Map = Callable[[float, float], tuple[float, float]]


def _num(value: float) -> str:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("", "-0") else text


def _pairs(text: str, to_page: Map) -> str:
    def replace(match: re.Match[str]) -> str:
        x, y = to_page(float(match.group(1)), float(match.group(2)))
        return f"{_num(x)},{_num(y)}"

    return _PAIR.sub(replace, text)


def _bake(node: minidom.Element, to_page: Map) -> None:
    tag = node.tagName
    if tag in ("rect", "image"):
        x, y = float(node.getAttribute("x") or 0), float(node.getAttribute("y") or 0)
        width, height = float(node.getAttribute("width")), float(node.getAttribute("height"))
        x0, y0 = to_page(x, y)
        x1, y1 = to_page(x + width, y + height)
        node.setAttribute("x", _num(min(x0, x1)))
        node.setAttribute("y", _num(min(y0, y1)))
        node.setAttribute("width", _num(abs(x1 - x0)))
        node.setAttribute("height", _num(abs(y1 - y0)))
    elif tag == "path":
        node.setAttribute("d", _pairs(node.getAttribute("d"), to_page))
    elif tag in ("polyline", "polygon"):
        node.setAttribute("points", _pairs(node.getAttribute("points"), to_page))
    elif tag == "line":
        x1, y1 = to_page(float(node.getAttribute("x1")), float(node.getAttribute("y1")))
        x2, y2 = to_page(float(node.getAttribute("x2")), float(node.getAttribute("y2")))
        for name, value in (("x1", x1), ("y1", y1), ("x2", x2), ("y2", y2)):
            node.setAttribute(name, _num(value))


def _affine(a: float, d: float, e: float, f: float) -> Map:
    return lambda x, y: (a * x + e, d * y + f)


def bake_transforms(svg: bytes) -> bytes:
    """``svg`` with the transforms of plain, axis-aligned shape groups baked in."""
    document = minidom.parseString(svg)
    for group in document.getElementsByTagName("g"):
        match = _MATRIX.fullmatch(group.getAttribute("transform").strip())
        if match is None:
            continue
        try:
            a, b, c, d, e, f = (float(value) for value in match.group(1).split(","))
        except ValueError:
            continue
        children = [n for n in group.childNodes if isinstance(n, minidom.Element)]
        if b or c or not children or any(n.tagName not in _SHAPES for n in children):
            continue
        to_page = _affine(a, d, e, f)
        stroke = group.getAttribute("stroke-width")
        for node in children:
            _bake(node, to_page)
            if stroke and node.getAttribute("vector-effect") != _NON_SCALING:
                node.setAttribute("stroke-width", _num(float(stroke) * math.sqrt(abs(a * d))))
        group.removeAttribute("transform")
    return document.toxml(encoding="utf-8")
