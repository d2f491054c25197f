"""Baking a Qt SVG's data transforms into page coordinates (plot exports)."""

from __future__ import annotations

from xml.dom import minidom

from ai4hse_desk.scores.svg_bake import bake_transforms

SVG = b"""<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400" viewBox="0 0 600 400">
<g stroke-width="1" transform="matrix(200,0,0,-300,100,350)">
<rect vector-effect="non-scaling-stroke" x="-0.3" y="0" width="0.6" height="0.5"/>
<path vector-effect="non-scaling-stroke" d="M0,0.2 L1,0.5 L2,1e-1 Z "/>
<polyline vector-effect="non-scaling-stroke" points="0,0 1,1 "/>
<line x1="0" y1="0" x2="1" y2="1"/>
</g>
<g transform="matrix(1,0,0,1,36,1)"><text x="5" y="7">0.5</text>
<rect x="0" y="0" width="1" height="1"/></g>
<g transform="matrix(0,-1,1,0,-4,234)"><rect x="0" y="0" width="10" height="10"/></g>
</svg>"""


def _groups(data: bytes) -> list[minidom.Element]:
    return list(minidom.parseString(data).getElementsByTagName("g"))


def test_shapes_are_mapped_to_page_coordinates() -> None:
    data, labels, rotated = _groups(bake_transforms(SVG))
    assert not data.hasAttribute("transform")
    rect = data.getElementsByTagName("rect")[0]
    position = [rect.getAttribute(k) for k in ("x", "y", "width", "height")]
    assert position == ["40", "200", "120", "150"]
    path = data.getElementsByTagName("path")[0].getAttribute("d")
    assert path == "M100,290 L300,200 L500,320 Z "
    assert data.getElementsByTagName("polyline")[0].getAttribute("points") == "100,350 300,50 "
    line = data.getElementsByTagName("line")[0]
    assert (line.getAttribute("x2"), line.getAttribute("y2")) == ("300", "50")
    assert line.getAttribute("stroke-width") == "244.949"  # a scaling stroke scales too
    assert rect.getAttribute("stroke-width") == ""  # non-scaling strokes stay as they are
    # groups with text, or with a rotation, are left exactly as they were
    assert labels.getAttribute("transform") == "matrix(1,0,0,1,36,1)"
    assert labels.getElementsByTagName("rect")[0].getAttribute("x") == "0"
    assert rotated.getAttribute("transform") == "matrix(0,-1,1,0,-4,234)"


def test_documents_without_transforms_are_unchanged_in_meaning() -> None:
    plain = b'<svg xmlns="http://www.w3.org/2000/svg"><g><rect x="1" y="2" width="3"/></g></svg>'
    (group,) = _groups(bake_transforms(plain))
    assert group.getElementsByTagName("rect")[0].getAttribute("y") == "2"
