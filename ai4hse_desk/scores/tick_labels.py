"""Which tick labels of a plot axis to write, so that none overlaps the next (no Qt).

pyqtgraph writes every label it is given, so 40 runs of 10 repetitions ("rep 1" …
"rep 10", 400 labels) on a 1,366-pixel window became one black band. The plots keep
every tick mark and label as many ticks as fit, left to right, each at least ``gap``
pixels from the last one written; the rest keep their mark without a label (every
mark's tooltip still names its run and repetition).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

Tick = tuple[float, str]

#: Pixels between two labels written on one axis.
LABEL_GAP = 8.0


def spaced_labels(
    ticks: Sequence[Tick],
    pixels_per_unit: float,
    label_width: Callable[[str], float],
    gap: float = LABEL_GAP,
    within: tuple[float, float] | None = None,
) -> tuple[list[Tick], list[Tick]]:
    """(the ticks whose label is written, the others), both in ``x`` order.

    Args:
        ticks: (position in data units, label) pairs; a label is centred on its tick.
        pixels_per_unit: the axis's scale now (``0`` or less: nothing fits, and no
            label is written).
        label_width: a label's width in pixels.
        gap: the least room between two written labels.
        within: the axis's (low, high) in data units: a label that would stick out
            is not written (the plot would cut it), so the next one can be.
    """
    written: list[Tick] = []
    bare: list[Tick] = []
    right = float("-inf")  # the right edge of the last label written, in pixels
    low, high = (float("-inf"), float("inf")) if within is None else within
    start, stop = low * pixels_per_unit, high * pixels_per_unit
    for x, label in sorted(ticks, key=lambda tick: tick[0]):
        half = label_width(label) / 2
        centre = x * pixels_per_unit
        inside = start <= centre - half and centre + half <= stop
        if pixels_per_unit > 0 and inside and centre - half >= right + gap:
            written.append((x, label))
            right = centre + half
        else:
            bare.append((x, label))
    return written, bare


__all__ = ["LABEL_GAP", "Tick", "spaced_labels"]
