"""Audit- and store-controlled text is shown literally: message boxes, labels, tooltips, legends.

The red team's attack: a hostile run id (or an error quoting the file) drew a
large green "✔ Audit verified: 0 disagreements" heading in the window's error
dialog, because ``QMessageBox`` guesses HTML (AutoText). Every check here looks
at what Qt would render: the box's text format, a label's text format, and a
tooltip rendered the way Qt renders one.
"""

from __future__ import annotations

import shutil
import sys
from typing import TYPE_CHECKING

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QGuiApplication, QTextDocument
from PySide6.QtWidgets import QLabel, QMessageBox

from ai4hse_desk.audit import AuditError
from ai4hse_desk.gui import qt_guard
from ai4hse_desk.gui.plain_text import (
    menu_text,
    might_be_rich_text,
    plain_message,
    plain_tooltip,
    title_text,
)
from ai4hse_desk.index.session import AuditSession
from tests.gui.gui_fixtures import HOSTILE, MessageBoxes, rename_run, set_meta, shown_text

if TYPE_CHECKING:
    from pathlib import Path

    from ai4hse_desk.gui.main_window import MainWindow

RUN = "ao-aurora-7b-2026-09-03"


def shown_as(tooltip: str) -> str:
    """The characters Qt shows for a tooltip (rich text when it looks like HTML)."""
    if not might_be_rich_text(tooltip):
        return tooltip
    document = QTextDocument()
    document.setHtml(tooltip)
    return document.toPlainText()


@pytest.mark.usefixtures("qapp")
@pytest.mark.parametrize(
    "text", [HOSTILE, "a &lt; b", "<b>bold</b>\n  two  spaces", "plain & simple", ""]
)
def test_plain_tooltip_shows_exactly_its_characters(text: str) -> None:
    tip = plain_tooltip(text)
    assert shown_as(tip) == text
    if might_be_rich_text(text):
        assert tip != text
        assert "<h1" not in tip.replace("&lt;h1", "")


@pytest.mark.usefixtures("qapp")
def test_plain_message_is_plain_text(message_boxes: MessageBoxes) -> None:
    plain_message(None, QMessageBox.Icon.Critical, "x [*] y", HOSTILE)
    (shown,) = message_boxes
    assert shown.text == HOSTILE
    assert shown.text_format == Qt.TextFormat.PlainText
    assert shown.icon == QMessageBox.Icon.Critical


def test_title_and_menu_markers_are_kept() -> None:
    assert title_text("a[*].sqlite") == "a[*][*].sqlite"
    assert menu_text("R&D.sqlite") == "R&&D.sqlite"


def test_an_error_quoting_the_file_is_shown_literally(
    window: MainWindow, pristine: Path, tmp_path: Path, message_boxes: MessageBoxes
) -> None:
    bad = tmp_path / "hostile-version.sqlite"
    shutil.copyfile(pristine, bad)
    set_meta(bad, "schema_version", HOSTILE)
    assert not window.open_path(bad)
    (shown,) = message_boxes
    assert shown.icon == QMessageBox.Icon.Critical
    assert shown.text_format == Qt.TextFormat.PlainText
    assert '<h1 style="color:green">' in shown.text


def test_an_exact_hostile_error_text_reaches_the_box_unchanged(
    window: MainWindow,
    pristine: Path,
    message_boxes: MessageBoxes,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def refuse(_path: object) -> AuditSession:
        raise AuditError(HOSTILE)

    monkeypatch.setattr(AuditSession, "open", refuse)
    assert not window.open_path(pristine)
    (shown,) = message_boxes
    assert (shown.text, shown.text_format) == (HOSTILE, Qt.TextFormat.PlainText)


@pytest.fixture
def hostile_run(pristine: Path, tmp_path: Path) -> Path:
    """A demo copy whose first run's id and model are markup."""
    path = tmp_path / "hostile-run.sqlite"
    shutil.copyfile(pristine, path)
    rename_run(path, RUN, HOSTILE, model=f"model {HOSTILE}")
    return path


def test_a_hostile_run_id_is_plain_in_every_label_and_tooltip(
    window: MainWindow, hostile_run: Path, message_boxes: MessageBoxes
) -> None:
    assert window.open_path(hostile_run, wait=True)
    rows = range(window.model.rowCount())
    row = next(r for r in rows if getattr(window.model.row_data(r), "run_id", None) == HOSTILE)
    window.navigator.select_row(row)
    window.switcher.show_compare()
    QGuiApplication.processEvents()
    labels = [label for label in window.findChildren(QLabel) if "<h1" in label.text()]
    assert labels, "the run id should be shown in some label"
    assert all(label.textFormat() == Qt.TextFormat.PlainText for label in labels)

    window.switcher.show_scores(wait=True)
    QGuiApplication.processEvents()
    scores = window.scores
    model = scores.models["answer_only"]
    tips = [
        shown_text(model, r, c, Qt.ItemDataRole.ToolTipRole)
        for r in range(model.rowCount())
        for c in range(model.columnCount())
    ]
    hostile_tips = [tip for tip in tips if "h1" in tip]
    assert hostile_tips
    assert all(HOSTILE in shown_as(tip) for tip in hostile_tips)

    plots = scores.plots["answer_only"]
    hit = next(h for h in plots.hits("disagreements") if h.key == (HOSTILE,))
    box = plots.widgets["disagreements"].getPlotItem().getViewBox()
    plots.scene_moved(
        "disagreements", box.mapViewToScene(QPointF((hit.x0 + hit.x1) / 2, hit.y1 / 2))
    )
    assert shown_as(plots.widgets["disagreements"].toolTip()) == hit.tip
    assert HOSTILE in hit.tip
    legend = plots.widgets["slices"].getPlotItem().legend
    legend_texts = [label.item.toPlainText() for _sample, label in legend.items]
    assert any(HOSTILE in text for text in legend_texts), legend_texts
    assert not message_boxes


@pytest.mark.usefixtures("qapp")
def test_an_unexpected_exception_in_a_slot_is_a_plain_message(
    message_boxes: MessageBoxes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # restored after the test
    qt_guard.install_excepthook()
    try:
        raise KeyError(HOSTILE)
    except KeyError as exc:
        sys.excepthook(KeyError, exc, exc.__traceback__)
    qt_guard.flush_problems()
    (shown,) = message_boxes
    assert shown.title == "Unexpected error"
    assert HOSTILE in shown.text
    assert shown.text_format == Qt.TextFormat.PlainText
