"""Every file the window writes goes through the guarded writer: screenshot and scores exports.

The red team's attacks: ``ai4hse-desk audit.sqlite --screenshot audit.sqlite``
exited 0 with the audit file turned into a PNG (the same over the notes store),
and the Scores view's report, table and plot exports wrote in place to any path.
Each refused target here must exit 2 with one ``error:`` line (the screenshot)
or show a plain-text error dialog (the exports), and leave every file
byte-identical.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QImage

from ai4hse_desk.audit import AuditDB, open_audit
from ai4hse_desk.cli.main import main as cli_main
from ai4hse_desk.filewrite import WriteRefused
from ai4hse_desk.gui.views.scores import ScoresView
from tests.gui.gui_fixtures import MessageBoxes, sha256

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from pytestqt.qtbot import QtBot

    from ai4hse_desk.gui.workers.runner import TaskRunner


@pytest.fixture
def audit(pristine: Path, tmp_path: Path) -> Path:
    path = tmp_path / "audit.sqlite"
    shutil.copyfile(pristine, path)
    return path


def _screenshot(audit: Path, out: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ai4hse_desk", str(audit), "--screenshot", str(out)],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip


def _one_error_line(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: "), result.stderr
    assert result.stdout == ""
    return lines[0]


# -- --screenshot ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "target",
    ["the audit file", "-wal", "-journal", "a symlink to it", "/dev/null", "a folder"],
)
def test_screenshot_refuses_the_audit_file_its_side_names_and_non_files(
    audit: Path, tmp_path: Path, target: str
) -> None:
    out: Path = {
        "the audit file": audit,
        "-wal": Path(f"{audit}-wal"),
        "-journal": Path(f"{audit}-journal"),
        "a symlink to it": tmp_path / "shot.png",
        "/dev/null": Path("/dev/null"),
        "a folder": tmp_path,
    }[target]
    if target == "a symlink to it":
        out.symlink_to(audit)
    if target == "/dev/null" and not out.exists():
        pytest.skip("no /dev/null here")
    before, files = sha256(audit), sorted(os.listdir(tmp_path))
    _one_error_line(_screenshot(audit, out))
    assert sha256(audit) == before
    assert sorted(os.listdir(tmp_path)) == files  # no side file, no PNG, no temporary


@pytest.mark.parametrize("store", ["existing", "not yet created"])
def test_screenshot_refuses_the_notes_store(audit: Path, tmp_path: Path, store: str) -> None:
    notes = audit.with_name(audit.name + ".review.sqlite")
    if store == "existing":
        flag = ["flag", str(audit), "--question", "Q001", "--category", "other"]
        assert cli_main([*flag, "--note", "keep me", "--reviewer", "ann"]) == 0
        assert notes.is_file()
    sums = {path: sha256(path) for path in (audit, notes) if path.exists()}
    files = sorted(os.listdir(tmp_path))
    line = _one_error_line(_screenshot(audit, notes))
    assert "notes store" in line or "SQLite database" in line
    assert {path: sha256(path) for path in sums} == sums
    assert sorted(os.listdir(tmp_path)) == files


def test_screenshot_of_the_demo_writes_only_the_png(tmp_path: Path) -> None:
    out = tmp_path / "demo.png"
    result = subprocess.run(
        [sys.executable, "-m", "ai4hse_desk", "--demo", "--screenshot", str(out)],
        capture_output=True, text=True, check=False, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert result.stdout == f"screenshot written to {out}\n"
    image = QImage(str(out))
    assert (image.width(), image.height()) == (1600, 1000)
    assert os.listdir(tmp_path) == ["demo.png"]  # the temporary file was renamed


# -- the scores view's exports -------------------------------------------------------------


@pytest.fixture
def db(audit: Path) -> Iterator[AuditDB]:
    with open_audit(audit) as opened:  # protects the file, as the window does
        yield opened


@pytest.fixture
def view(qtbot: QtBot, db: AuditDB, tasks: TaskRunner) -> Iterator[ScoresView]:
    widget = ScoresView(tasks)
    qtbot.addWidget(widget)
    widget.resize(1400, 1000)
    widget.show()
    widget.load_now(db)
    widget.plots["answer_only"].tabs.setCurrentIndex(1)
    QGuiApplication.processEvents()
    yield widget
    widget.clear()


def _chosen(kind: str, audit: Path, tmp_path: Path) -> Path:
    """A name the user could pick in the save dialog that leads to a protected file."""
    if kind == "html":
        return audit  # the report is written under the name chosen
    if kind == "csv":
        link = tmp_path / "scores.csv"  # the suffix is kept; the link leads to the audit
        link.symlink_to(audit)
        return link
    if kind == "xlsx":
        link = tmp_path / "scores.xlsx"
        os.link(audit, link)  # a hard link: the same inode
        return link
    if kind == "png":
        folder = tmp_path / "plot.png"
        folder.mkdir()
        return folder
    link = tmp_path / "plot.svg"  # svg: a link to the audit file's WAL name
    link.symlink_to(f"{audit}-wal")
    return link


@pytest.mark.parametrize("kind", ["html", "csv", "xlsx", "png", "svg"])
def test_a_refused_export_shows_a_plain_error_and_writes_nothing(
    view: ScoresView,
    audit: Path,
    tmp_path: Path,
    kind: str,
    message_boxes: MessageBoxes,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    chosen = _chosen(kind, audit, tmp_path)
    before, files = sha256(audit), sorted(os.listdir(tmp_path))
    monkeypatch.setattr(view.exports, "ask_save_path", lambda *_args: chosen)
    view.action_map[kind].trigger()
    (shown,) = message_boxes
    assert shown.title == "Could not export"
    assert shown.text_format == Qt.TextFormat.PlainText
    assert shown.text
    assert view.status.text() == f"Could not export: {shown.text}"
    assert sha256(audit) == before
    assert sorted(os.listdir(tmp_path)) == files
    assert not Path(f"{audit}-wal").exists()
    if kind == "png":
        assert not list(chosen.iterdir())


def test_the_export_methods_refuse_protected_targets(view: ScoresView, audit: Path) -> None:
    before = sha256(audit)
    exports: tuple[Callable[[], object], ...] = (
        lambda: view.exports.export_report(audit),
        lambda: view.exports.export_tables(audit),
        lambda: view.exports.export_tables(Path(f"{audit}-journal")),
        lambda: view.exports.export_plot(Path(f"{audit}-shm")),
        lambda: view.exports.export_plot(audit.parent),
    )
    for export in exports:
        with pytest.raises(WriteRefused):
            export()
    assert sha256(audit) == before
    assert not Path(f"{audit}-journal").exists()
    assert not Path(f"{audit}-shm").exists()


def test_an_allowed_export_replaces_the_old_file_by_a_rename(
    view: ScoresView, tmp_path: Path
) -> None:
    for name in ("report.html", "scores.csv", "scores.xlsx", "plot.png", "plot.svg"):
        target = tmp_path / name
        target.write_text("old\n")
        inode = target.stat().st_ino
        if name.startswith("report"):
            view.exports.export_report(target)
        elif name.startswith("scores"):
            view.exports.export_tables(target)
        else:
            view.exports.export_plot(target)
        assert target.read_bytes() != b"old\n"
        assert target.stat().st_ino != inode
    assert sorted(os.listdir(tmp_path)) == sorted(
        ["audit.sqlite", "report.html", "scores.csv", "scores.xlsx", "plot.png", "plot.svg"]
    )
