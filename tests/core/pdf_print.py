"""Printing a report to PDF as a reader would: headless Chromium, then poppler's tools.

Chromium and poppler's ``pdfinfo``/``pdftotext`` are what ``make test`` installs
(``scripts/ensure-debian-packages.sh chromium``). Without them a test using :func:`tool`
skips — unless ``AI4HSE_REQUIRE_CHROMIUM=1`` (set by ``make test``), where it fails.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pathlib import Path

REQUIRE_ENV = "AI4HSE_REQUIRE_CHROMIUM"
#: A4 in PostScript points.
A4 = (595.0, 842.0)


def tool(*names: str) -> str:
    """The path of the first of ``names`` installed; else a skip (a failure under make test)."""
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get(REQUIRE_ENV) == "1":
        pytest.fail(f"{REQUIRE_ENV}=1 but {names[0]} is missing (make test installs it)")
    pytest.skip(f"{names[0]} is not installed (make test installs it)")


def print_to_pdf(page: Path, pdf: Path, profile: Path) -> None:
    """``page`` printed to ``pdf`` by headless Chromium (no network, a throwaway profile)."""
    chromium = tool("chromium", "chromium-browser", "google-chrome")
    command = [
        chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        f"--user-data-dir={profile}", "--no-pdf-header-footer", f"--print-to-pdf={pdf}",
        page.as_uri(),
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=180, check=False)
    assert pdf.exists(), done.stderr[-2000:]


def pdf_pages(pdf: Path) -> tuple[int, tuple[int, int]]:
    """(pages, (width, height) in points, rounded) of ``pdf``."""
    info = subprocess.run([tool("pdfinfo"), str(pdf)], capture_output=True, text=True,
                          check=True).stdout  # fmt: skip
    pages = re.search(r"Pages:\s+(\d+)", info)
    size = re.search(r"Page size:\s+([\d.]+) x ([\d.]+) pts", info)
    assert pages is not None
    assert size is not None
    return int(pages.group(1)), (round(float(size.group(1))), round(float(size.group(2))))


def pdf_text(pdf: Path, *options: str) -> str:
    """``pdftotext`` of ``pdf`` with ``options`` (``-layout``, ``-bbox``)."""
    return subprocess.run([tool("pdftotext"), *options, str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout  # fmt: skip


def word_boxes_inside(pdf: Path, width: float, height: float, margin: float = 20) -> None:
    """Every word's box lies inside the page, ``margin`` points from its right and lower
    edges: nothing runs off the page."""
    boxes = pdf_text(pdf, "-bbox")
    right = [float(x) for x in re.findall(r'xMax="([\d.]+)"', boxes)]
    bottom = [float(y) for y in re.findall(r'yMax="([\d.]+)"', boxes)]
    assert right
    assert max(right) <= width - margin
    assert max(bottom) <= height - margin
