"""The scores plots in the status palette and the application's palette, tested by item data."""

from __future__ import annotations

import itertools
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import pytest
from PySide6.QtGui import QColor, QImage, QPainter, QPalette
from PySide6.QtWidgets import QApplication

from ai4hse_desk.audit import open_audit
from ai4hse_desk.display.status_style import CORRECT, STATUS_PALETTE
from ai4hse_desk.gui.palette_mode import is_dark, status_colours_now
from ai4hse_desk.gui.views.scores_plots import TrackPlots
from ai4hse_desk.index import AttemptQuery
from ai4hse_desk.protocol.outcome import Status
from ai4hse_desk.verdicts.rescore import rescore

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from pytestqt.qtbot import QtBot

TRACK = "answer_only"


@pytest.fixture(scope="module")
def runs(pristine: Path) -> list[dict[str, Any]]:
    with open_audit(pristine) as db:
        return [run for run in rescore(db).runs if run["track"] == TRACK]


@contextmanager
def dark_palette() -> Iterator[None]:
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    saved = app.palette()
    dark = QPalette(saved)
    for role, colour in (
        (QPalette.ColorRole.Window, "#202020"),
        (QPalette.ColorRole.Base, "#181818"),
        (QPalette.ColorRole.Text, "#eeeeee"),
        (QPalette.ColorRole.WindowText, "#eeeeee"),
    ):
        dark.setColor(role, QColor(colour))
    app.setPalette(dark)
    app.processEvents()  # widgets hear of a new palette through posted events
    try:
        yield
    finally:
        app.setPalette(saved)
        app.processEvents()


def make_plots(qtbot: QtBot, runs: list[dict[str, Any]]) -> TrackPlots:
    plots = TrackPlots(TRACK)
    qtbot.addWidget(plots)
    plots.resize(1200, 500)
    plots.show()
    qtbot.waitExposed(plots)
    plots.set_runs(runs)
    return plots


def brushes(plots: TrackPlots) -> dict[str, QColor]:
    return {key: QColor(item.opts["brush"]) for key, item in plots.items["statuses"].items()}


def background(plots: TrackPlots, name: str) -> QColor:
    colour: QColor = plots.widgets[name].backgroundBrush().color()
    return colour


def drawn_texts(plots: TrackPlots, name: str, axis: str) -> list[tuple[Any, Any, str]]:
    """(rectangle, flags, text) of each label the axis draws at its present size
    (pyqtgraph's draw specs)."""
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        specs = plots.widgets[name].getPlotItem().getAxis(axis).generateDrawSpecs(painter)
    finally:
        painter.end()
    return list(specs[2])


def drawn_ticks(plots: TrackPlots, name: str, axis: str) -> list[str]:
    """The tick labels the axis draws at its present size."""
    return [text for _, _, text in drawn_texts(plots, name, axis)]


def test_status_bars_take_the_palette_colours(qtbot: QtBot, runs: list[dict[str, Any]]) -> None:
    plots = make_plots(qtbot, runs)
    assert not plots.dark
    fills = brushes(plots)
    assert fills == {key: QColor(STATUS_PALETTE[key].light[0]) for key in fills}
    assert {CORRECT, "valid", "missing", "wrong_length", "malformed"} <= set(fills)
    assert fills["missing"] != fills["wrong_length"]
    assert fills["correct"] != fills["valid"]
    assert len({colour.name() for colour in fills.values()}) == len(fills)
    legend = plots.widgets["statuses"].getPlotItem().legend
    labels = [label.text for _, label in legend.items]
    assert "Valid ✓" in labels
    assert "Valid ✗" in labels
    assert "Wrong length" in labels


def test_valid_bars_split_into_correct_and_wrong(qtbot: QtBot, runs: list[dict[str, Any]]) -> None:
    plots = make_plots(qtbot, runs)
    _, correct = plots.items["statuses"][CORRECT].getData()
    _, wrong = plots.items["statuses"]["valid"].getData()
    assert list(correct) == [run["correct"] for run in runs]
    assert list(wrong) == [run["errors"]["by_status"]["valid"] - run["correct"] for run in runs]
    run_id = runs[0]["run_id"]
    queries = {hit.key: hit.query for hit in plots.hits("statuses")}
    assert queries[(run_id, CORRECT)] == AttemptQuery(
        run_ids=(run_id,), statuses=("valid",), correct=True
    )
    assert queries[(run_id, "valid")] == AttemptQuery(
        run_ids=(run_id,), statuses=("valid",), correct=False
    )


def test_light_palette_gives_a_light_plot(qtbot: QtBot, runs: list[dict[str, Any]]) -> None:
    plots = make_plots(qtbot, runs)
    for name in plots.widgets:
        assert background(plots, name).lightness() > 200
    axis = plots.widgets["statuses"].getPlotItem().getAxis("bottom")
    assert axis.textPen().color().lightness() < 80


def test_dark_palette_gives_a_dark_plot(qtbot: QtBot, runs: list[dict[str, Any]]) -> None:
    with dark_palette():
        assert is_dark()
        plots = make_plots(qtbot, runs)
        assert plots.dark
        for name in plots.widgets:
            assert background(plots, name) == QColor("#181818")
        for axis in ("left", "bottom"):
            item = plots.widgets["statuses"].getPlotItem().getAxis(axis)
            assert item.textPen().color() == QColor("#eeeeee")
        fills = brushes(plots)
        assert fills == {key: QColor(STATUS_PALETTE[key].dark[0]) for key in fills}
        assert status_colours_now(Status.VALID, True) == STATUS_PALETTE[CORRECT].dark


def test_a_palette_change_redraws_the_plots(qtbot: QtBot, runs: list[dict[str, Any]]) -> None:
    plots = make_plots(qtbot, runs)
    with dark_palette():
        assert background(plots, "statuses").lightness() < 60
        assert brushes(plots)["missing"] == QColor(STATUS_PALETTE["missing"].dark[0])
        _, heights = plots.items["statuses"][CORRECT].getData()
        assert list(heights) == [run["correct"] for run in runs]  # the same data, redrawn
    assert background(plots, "statuses").lightness() > 200
    assert brushes(plots)["missing"] == QColor(STATUS_PALETTE["missing"].light[0])


def test_repetitions_are_named_on_the_x_axis(qtbot: QtBot, runs: list[dict[str, Any]]) -> None:
    plots = make_plots(qtbot, runs)
    data = plots.data["repetitions"]
    assert data.points is not None
    expected = [
        f"rep {rep['repetition']}"
        for run in runs
        if run["scored"]
        for rep in run["repetitions"]
        if rep["exact_accuracy"] is not None
    ]
    assert [label for _, label in data.ticks] == expected
    assert [x for x, _ in data.ticks] == list(data.points.x)
    assert drawn_ticks(plots, "repetitions", "bottom") == expected
    assert drawn_ticks(plots, "repetitions", "top") == [label for _, label in data.group_ticks]
    assert len(data.group_ticks) == len(runs)
    assert not plots.widgets["statuses"].getPlotItem().getAxis("top").isVisible()


def _many_runs(runs: list[dict[str, Any]], count: int, reps: int) -> list[dict[str, Any]]:
    """``count`` runs of ``reps`` repetitions each, made from the demo's first run."""
    base = runs[0]
    rep = next(r for r in base["repetitions"] if r.get("exact_accuracy") is not None)
    return [
        {**base, "run_id": f"run-{i:02d}", "model": f"model-{i:02d}",
         "repetitions": [{**rep, "repetition": r} for r in range(1, reps + 1)]}
        for i in range(count)
    ]  # fmt: skip


def drawn_rects(plots: TrackPlots, name: str, axis: str) -> list[tuple[float, float]]:
    """(left, right) of every label the axis draws, in x order."""
    texts = drawn_texts(plots, name, axis)
    return sorted((rect.left(), rect.right()) for rect, _, text in texts if text)


def test_crowded_axes_write_only_labels_that_fit(qtbot: QtBot, runs: list[dict[str, Any]]) -> None:
    """40 runs x 10 repetitions on a 1,366-pixel plot: 400 "rep" labels and 40 model
    names cannot all be written; those written never overlap, and a wider plot
    writes more of them."""
    plots = TrackPlots(TRACK)
    qtbot.addWidget(plots)
    plots.resize(1366, 500)
    plots.show()
    qtbot.waitExposed(plots)
    plots.set_runs(_many_runs(runs, 40, 10))
    narrow = {}
    for axis in ("bottom", "top"):
        rects = drawn_rects(plots, "repetitions", axis)
        assert rects
        assert all(b[0] >= a[1] for a, b in itertools.pairwise(rects)), axis
        narrow[axis] = len(rects)
    assert narrow["bottom"] < 400
    assert narrow["top"] <= 40
    plots.resize(4000, 500)
    qtbot.waitUntil(lambda: len(drawn_rects(plots, "repetitions", "bottom")) > narrow["bottom"])
    assert len(plots.labelled["repetitions"]["bottom"]) > narrow["bottom"]


def test_an_uncrowded_axis_writes_every_label(qtbot: QtBot, runs: list[dict[str, Any]]) -> None:
    plots = make_plots(qtbot, runs)
    data = plots.data["repetitions"]
    assert plots.labelled["repetitions"]["top"] == sorted(data.group_ticks)
    assert drawn_ticks(plots, "repetitions", "top") == [label for _, label in data.group_ticks]
