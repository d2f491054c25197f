"""The scores plots' colours from the widget's palette: background, text, axes, legend.

A plot's background is the palette's *Base* colour (white in a light theme,
dark in a dark one) and its title, axes, tick labels, legend text and outlines
the palette's *Text* colour, so a plot reads like the tables beside it.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QColor, QPalette

__all__ = ["plot_foreground", "theme_plot"]

_LEGEND_ALPHA = 220


def plot_foreground(palette: QPalette) -> QColor:
    """Text, axes and outlines: the palette's *Text* colour."""
    return palette.color(QPalette.ColorRole.Text)


def theme_plot(widget: Any, title: str, y_label: str, palette: QPalette) -> None:
    """Colour a pyqtgraph ``PlotWidget``, its title, left label, axes and legend."""
    background, foreground = palette.color(QPalette.ColorRole.Base), plot_foreground(palette)
    widget.setBackground(background)
    plot = widget.getPlotItem()
    plot.setTitle(title, color=foreground)
    plot.setLabel("left", y_label, color=foreground)
    for axis in ("left", "bottom", "top"):
        plot.getAxis(axis).setPen(foreground)
        plot.getAxis(axis).setTextPen(foreground)
    if plot.legend is not None:
        legend_brush = QColor(background)
        legend_brush.setAlpha(_LEGEND_ALPHA)
        plot.legend.setLabelTextColor(foreground)
        plot.legend.setBrush(legend_brush)
        plot.legend.setPen(foreground)
