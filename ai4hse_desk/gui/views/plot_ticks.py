"""A plot's tick labels, as many as fit its width (:mod:`ai4hse_desk.scores.tick_labels`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtGui import QFont, QFontMetricsF

from ai4hse_desk.scores.tick_labels import spaced_labels

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ai4hse_desk.scores.tick_labels import Tick


def fit_ticks(plot: Any, axes: Mapping[str, Sequence[Tick]]) -> dict[str, list[Tick]]:
    """Give each of ``plot``'s ``axes`` ("bottom", "top") its ticks, labelling those that
    fit at the plot's width now; every other tick keeps its mark, unlabelled.

    Args:
        plot: a pyqtgraph ``PlotItem`` whose x range is set.

    Returns:
        The labelled ticks per axis.
    """
    box = plot.getViewBox()
    (low, high), _ = box.viewRange()
    scale = box.width() / (high - low) if high > low else 0.0
    written: dict[str, list[Tick]] = {}
    for name, ticks in axes.items():
        axis = plot.getAxis(name)
        font = axis.style.get("tickFont")
        metrics = QFontMetricsF(font if isinstance(font, QFont) else axis.font())
        shown, bare = spaced_labels(ticks, scale, metrics.horizontalAdvance, within=(low, high))
        axis.setTicks([shown, [(x, "") for x, _label in bare]])
        written[name] = shown
    return written


__all__ = ["fit_ticks"]
