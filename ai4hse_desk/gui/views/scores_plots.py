"""One track's scores plotted with pyqtgraph (imported when the first plot is made).

What is drawn comes from :mod:`ai4hse_desk.scores.plot_data` (positions,
exact heights, and the :class:`~ai4hse_desk.scores.plot_data.Hit` of every
clickable mark); this module only draws it, in four tabs: repetitions with
their Wilson intervals, statuses, label slices (with a facet chooser and the
consistency index) and disagreements.

A click on the plot's scene is mapped to data coordinates and to the hit
under it (:meth:`TrackPlots.index_at`); ``filter_requested`` then carries that
hit's :class:`~ai4hse_desk.index.AttemptQuery` (:meth:`TrackPlots.query_for`).
Hovering a mark sets the plot's tooltip to its numbers.

Colours follow the widget's palette (:mod:`~ai4hse_desk.gui.views.plot_theme`),
and the status bars take the status palette's dark or light variant
(:mod:`ai4hse_desk.display.status_style`) as that palette is dark or light; a
palette change redraws every plot.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QSize, Qt, Signal
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QComboBox, QLabel, QTabWidget, QVBoxLayout, QWidget

from ai4hse_desk.display.status_style import DIFFERS_COLOURS, STATUS_PALETTE
from ai4hse_desk.filewrite import check_target, write_bytes
from ai4hse_desk.gui.palette_mode import is_dark
from ai4hse_desk.gui.plain_text import plain_tooltip
from ai4hse_desk.gui.views.plot_export import png_bytes, svg_bytes
from ai4hse_desk.gui.views.plot_theme import plot_foreground, theme_plot
from ai4hse_desk.gui.views.plot_ticks import fit_ticks
from ai4hse_desk.scores.plot_data import (
    PLOT_TITLES,
    Hit,
    PlotData,
    disagreements_plot,
    facets,
    note_anchor,
    repetitions_plot,
    slices_plot,
    statuses_plot,
)

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ai4hse_desk.index import AttemptQuery

_Y_AXES: dict[str, tuple[str, bool]] = {  # left-axis label, fixed 0..1 range
    "repetitions": ("exact accuracy", True),
    "statuses": ("attempts", False),
    "slices": ("exact accuracy", True),
    "disagreements": ("attempts", False),
}
_EXPORT_SIZE = QSize(900, 500)
_LEGENDS = ("statuses", "slices")
_LEGEND_ROOM = 1.3
_NOTE_ALPHA = 170


class TrackPlots(QWidget):
    """The four plots of one track, in tabs; clicks become attempt filters."""

    filter_requested = Signal(object)  # AttemptQuery

    def __init__(self, track: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        import pyqtgraph as pg

        self._pg = pg
        self.track = track
        self.setAccessibleName(f"Plots of {track}")
        self.tabs = QTabWidget()
        self.tabs.setAccessibleName("Plots")
        self.widgets: dict[str, Any] = {}
        self.items: dict[str, dict[str, Any]] = {name: {} for name in PLOT_TITLES}
        self.data: dict[str, PlotData] = {}
        #: The tick labels written now, per plot and axis (those that fit its width).
        self.labelled: dict[str, dict[str, list[tuple[float, str]]]] = {}
        self._runs: list[Mapping[str, Any]] = []
        self.consistency_facet = "topic"
        self.last_tip = ""
        self.facet = QComboBox()
        self.facet.setAccessibleName("Label facet")
        self.facet.currentTextChanged.connect(self._facet_changed)
        self.consistency = QLabel()
        self.consistency.setAccessibleName("Consistency index")
        self.consistency.setTextFormat(Qt.TextFormat.PlainText)
        self.consistency.setWordWrap(True)
        for name, title in PLOT_TITLES.items():
            self.tabs.addTab(self._make_page(name, title), title.split(" (")[0])
        self._apply_theme()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.tabs)

    def _make_page(self, name: str, title: str) -> QWidget:
        widget = self._pg.PlotWidget()
        widget.setAccessibleName(title)
        plot = widget.getPlotItem()
        plot.setMenuEnabled(False)
        plot.getViewBox().setMouseEnabled(x=False, y=False)
        if name == "repetitions":
            plot.showAxis("top")  # the runs above, their repetitions below
        if name in _LEGENDS:
            plot.addLegend(offset=(-10, 10))
        widget.scene().sigMouseClicked.connect(lambda ev: self.scene_clicked(name, ev))
        widget.scene().sigMouseMoved.connect(lambda pos: self.scene_moved(name, pos))
        plot.getViewBox().sigResized.connect(lambda _box: self._fit_ticks(name))
        self.widgets[name] = widget
        if name != "slices":
            return widget  # type: ignore[no-any-return]
        page = QWidget()
        box = QVBoxLayout(page)
        box.setContentsMargins(0, 0, 0, 0)
        box.addWidget(self.facet)
        box.addWidget(widget, 1)
        box.addWidget(self.consistency)
        return page

    def _fit_ticks(self, name: str) -> None:
        """Label the ticks of plot ``name`` that fit its width now (again on a resize)."""
        data = self.data.get(name)
        if data is not None:
            axes = {"bottom": data.ticks, "top": data.group_ticks}
            self.labelled[name] = fit_ticks(self.widgets[name].getPlotItem(), axes)

    # -- palette ----------------------------------------------------------------

    @property
    def dark(self) -> bool:
        """Whether the plots are drawn for a dark palette."""
        return is_dark(self.palette())

    def _apply_theme(self) -> None:
        for name, widget in self.widgets.items():
            theme_plot(widget, PLOT_TITLES[name], _Y_AXES[name][0], self.palette())

    def changeEvent(self, event: QEvent) -> None:
        """A palette change (a dark or light theme) redraws the plots in its colours."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self._apply_theme()
            for name, data in list(self.data.items()):
                self._draw(name, data)

    # -- data -----------------------------------------------------------------

    def set_runs(self, runs: Sequence[Mapping[str, Any]], consistency_facet: str = "topic") -> None:
        """Plot these runs (one track, in rescore's order)."""
        self._runs = list(runs)
        self.consistency_facet = consistency_facet
        present = facets(self._runs)
        current = self.facet.currentText()
        self.facet.blockSignals(True)
        self.facet.clear()
        self.facet.addItems(present)
        wanted = current if current in present else consistency_facet
        if wanted in present:
            self.facet.setCurrentText(wanted)
        self.facet.blockSignals(False)
        self._draw("repetitions", repetitions_plot(self._runs))
        self._draw("statuses", statuses_plot(self._runs))
        self._facet_changed(self.facet.currentText())
        self._draw("disagreements", disagreements_plot(self._runs))

    def _facet_changed(self, facet: str) -> None:
        data = slices_plot(self._runs, facet, self.consistency_facet)
        self._draw("slices", data)
        self.consistency.setText(data.caption)

    def bar_colour(self, name: str, key: str, series: int, count: int) -> QColor:
        """The fill of series ``key`` of plot ``name`` (a status's from the palette)."""
        if name == "statuses":
            return QColor(STATUS_PALETTE[key].colours(dark=self.dark)[0])
        if name == "disagreements":
            return QColor(DIFFERS_COLOURS[0])
        return QColor(self._pg.intColor(series, hues=max(count, 1)))

    def _draw(self, name: str, data: PlotData) -> None:
        pg, plot = self._pg, self.widgets[name].getPlotItem()
        plot.clear()
        self.items[name] = {}
        self.data[name] = data
        room = _LEGEND_ROOM if name in _LEGENDS else 0.0  # keeps the legend off the bars
        slots = len(data.group_ticks or data.ticks)
        plot.setXRange(-0.6, max(slots, 1) - 0.4 + room, padding=0)
        self._fit_ticks(name)
        series_count = len({bars.series for bars in data.bars})
        foreground = plot_foreground(self.palette())
        for bars in data.bars:
            colour = self.bar_colour(name, bars.key, bars.series, series_count)
            pen = pg.mkPen(colour if bars.pale else foreground)
            if bars.pale:
                colour.setAlpha(60)
            legend = bars.legend
            if name == "statuses":
                legend = STATUS_PALETTE[bars.key].label
            if legend is not None:  # pyqtgraph's legend labels are HTML
                legend = html.escape(legend, quote=False)
            item = pg.BarGraphItem(
                x=list(bars.x),
                height=list(bars.height),
                y0=list(bars.y0),
                width=bars.width,
                brush=colour,
                pen=pen,
                name=legend,
            )
            self._add(name, bars.key, item)
        if data.points is not None:
            import numpy as np

            x, y = np.array(data.points.x, dtype=float), np.array(data.points.y, dtype=float)
            top, bottom = np.array(data.points.high) - y, y - np.array(data.points.low)
            wilson = pg.ErrorBarItem(
                x=x, y=y, top=top, bottom=bottom, beam=0.05, pen=pg.mkPen(foreground, width=1.5)
            )
            self._add(name, "wilson", wilson)
            point_colour = "#56b4e9" if self.dark else "#0072b2"  # Okabe–Ito sky blue / blue
            points = pg.ScatterPlotItem(
                x=x, y=y, size=9, brush=pg.mkBrush(point_colour), pen=pg.mkPen(foreground)
            )
            self._add(name, "accuracy", points)
        note_colour = QColor(foreground)
        note_colour.setAlpha(_NOTE_ALPHA)
        for x_note, y_note, text in data.notes:
            note = pg.TextItem(text, color=note_colour, anchor=(note_anchor(data, x_note), 0.5))
            note.setPos(x_note, y_note)
            self._add(name, f"note {x_note:g}", note)
        if _Y_AXES[name][1]:
            plot.setYRange(0, 1, padding=0.02)
        else:
            plot.enableAutoRange(axis="y")

    def _add(self, name: str, key: str, item: Any) -> None:
        self.items[name][key] = item
        self.widgets[name].getPlotItem().addItem(item)

    # -- clicks and hover ---------------------------------------------------------

    def hits(self, name: str) -> list[Hit]:
        """Every clickable bar or point of plot ``name``, in drawing order."""
        return list(self.data[name].hits) if name in self.data else []

    def query_for(self, name: str, index: int) -> AttemptQuery:
        """The attempts behind hit ``index`` of plot ``name``."""
        return self.data[name].hits[index].query

    def index_at(self, name: str, x: float, y: float) -> int | None:
        """The hit under data point ``(x, y)`` of plot ``name``, if any."""
        for index, hit in enumerate(self.hits(name)):
            if hit.contains(x, y):
                return index
        return None

    def _hit_at(self, name: str, scene_pos: Any) -> int | None:
        box = self.widgets[name].getPlotItem().getViewBox()
        if not box.sceneBoundingRect().contains(scene_pos):
            return None
        point = box.mapSceneToView(scene_pos)
        return self.index_at(name, point.x(), point.y())

    def scene_clicked(self, name: str, event: Any) -> None:
        """A click on plot ``name``'s scene: a left click on a mark asks for its attempts."""
        if event.button() != Qt.MouseButton.LeftButton or event.double():
            return
        index = self._hit_at(name, event.scenePos())
        if index is not None:
            event.accept()
            self.filter_requested.emit(self.query_for(name, index))

    def scene_moved(self, name: str, scene_pos: Any) -> None:
        """The mouse moved over plot ``name``: the mark under it, if any, gives the tooltip."""
        index = self._hit_at(name, scene_pos)
        tip = "" if index is None else self.data[name].hits[index].tip
        if tip != self.last_tip:
            self.last_tip = tip
            # Qt shows it while the mouse rests; a run id is shown as it is, never as HTML.
            self.widgets[name].setToolTip(plain_tooltip(tip))

    # -- export -------------------------------------------------------------------

    def _plot_item(self, name: str) -> Any:
        widget = self.widgets[name]
        if widget.width() < _EXPORT_SIZE.width() // 2 or widget.height() < 250:
            widget.resize(_EXPORT_SIZE)
        return widget.getPlotItem()

    def export_image(self, name: str, path: str | Path) -> Path:
        """Write plot ``name`` as SVG (``.svg``) or PNG (any other suffix).

        Written through the guarded writer (temporary file beside it, renamed):

        Raises:
            WriteRefused: the audit file, the notes store, one of their side files,
                a folder, device or FIFO, an existing SQLite database; or writing failed.
        """
        target = Path(path)
        check_target(target)  # before rendering: nothing is drawn for a refused name
        is_svg = target.suffix.lower() == ".svg"
        write_bytes(target, self.svg_bytes(name) if is_svg else self.png_bytes(name))
        return target

    def png_bytes(self, name: str) -> bytes:
        """Plot ``name`` as PNG."""
        return png_bytes(self._plot_item(name), _EXPORT_SIZE.width())

    def svg_bytes(self, name: str) -> bytes:
        """Plot ``name`` as SVG."""
        return svg_bytes(self._plot_item(name))
