"""Packaging: desktop entry, AppStream data, icons, wheel contents, --version."""

from __future__ import annotations

import configparser
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from xml.etree import ElementTree

import pytest

from ai4hse_desk import AUDIT_SCHEMA_VERSION, __version__

ROOT = Path(__file__).resolve().parents[2]
DESKTOP = ROOT / "packaging" / "org.ai4hse.Desk.desktop"
METAINFO = ROOT / "packaging" / "org.ai4hse.Desk.metainfo.xml"
ICONS = ROOT / "resources" / "icons"


def _tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed (.ci/run installs it)")
    return path


def test_desktop_entry_validates() -> None:
    result = subprocess.run(
        [_tool("desktop-file-validate"), str(DESKTOP)], capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "error" not in result.stdout


def test_metainfo_validates() -> None:
    result = subprocess.run(
        [_tool("appstreamcli"), "validate", "--no-net", str(METAINFO)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_desktop_entry_and_metainfo_agree() -> None:
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str  # type: ignore[assignment,method-assign]
    entry.read(DESKTOP, encoding="utf-8")
    desktop = entry["Desktop Entry"]
    root = ElementTree.parse(METAINFO).getroot()
    assert root.findtext("id") == "org.ai4hse.Desk" == desktop["Icon"]
    assert root.findtext("launchable") == DESKTOP.name
    assert root.find("provides/binary").text == desktop["Exec"].split()[0]  # type: ignore[union-attr]
    assert root.find("releases/release").get("version") == __version__  # type: ignore[union-attr]


def test_icons_exist_in_every_size() -> None:
    from struct import unpack

    assert (ICONS / "ai4hse-desk.svg").read_text().lstrip().startswith("<?xml")
    for size in (16, 24, 32, 48, 64, 128, 256, 512):
        data = (ICONS / f"ai4hse-desk-{size}.png").read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = unpack(">II", data[16:24])
        assert (width, height) == (size, size)


def test_version_flag() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "ai4hse_desk", "--version"], capture_output=True, text=True
    )
    assert result.returncode == 0
    assert (
        result.stdout.strip() == f"ai4hse-desk {__version__} (audit schema v{AUDIT_SCHEMA_VERSION})"
    )


@pytest.mark.slow
def test_wheel_carries_resources(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(tmp_path), str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    (wheel,) = tmp_path.glob("ai4hse_desk-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "ai4hse_desk/resources/schema/audit-db-v1.sql",
        "ai4hse_desk/resources/demo/questions.json",
        "ai4hse_desk/resources/icons/ai4hse-desk.svg",
        "ai4hse_desk/resources/icons/ai4hse-desk-256.png",
        "ai4hse_desk/launcher.py",
        "ai4hse_desk/gui/main_window.py",
    ):
        assert needed in names, needed
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "ai4hse-desk = ai4hse_desk.launcher:console_main" in text
