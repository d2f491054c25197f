"""The display form of a response and the maps between its three kinds of offset.

No Qt import, so it is unit-testable without a display. :class:`VisibleText`
is what :func:`~ai4hse_desk.display.text_sanitize.make_visible` returns. Three
kinds of offset appear here:

* *original* offsets: Python ``str`` indices into the raw response;
* *display* offsets: Python ``str`` indices into :attr:`VisibleText.text`;
* *Qt* offsets: positions in a ``QTextDocument`` holding the display text,
  which count UTF-16 code units (a character outside the BMP counts 2).

The offsets are read-only ``int64`` memoryviews (over the arrays
:func:`~ai4hse_desk.display.text_sanitize.make_visible` computes with numpy) and
every look-up is a :mod:`bisect`, so a plain text (nothing to make visible, which
is most responses) never imports numpy: the window's start-up does not pay for it.
"""

from __future__ import annotations

import array
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy.typing as npt

#: Offsets and widths, as stored in :class:`VisibleText`: a read-only memoryview of
#: ``int64`` (``len``, indexing, slicing, ``tolist()``).
Ints = memoryview

__all__ = ["Ints", "VisibleText", "empty_ints", "frozen_ints", "utf16_offset"]

_EMPTY: Ints = memoryview(b"").cast("q")  # bytes: read-only


def empty_ints() -> Ints:
    """The empty read-only ``int64`` view (one, shared)."""
    return _EMPTY


def frozen_ints(values: npt.NDArray[Any]) -> Ints:
    """The numpy array ``values`` as a read-only ``int64`` memoryview (no copy when
    it already is a contiguous ``int64`` array)."""
    import numpy as np

    result = np.ascontiguousarray(values, dtype=np.int64)
    result.flags.writeable = False
    return memoryview(result.data).cast("B").cast("q")


def _ints(values: list[int]) -> Ints:
    return memoryview(array.array("q", values)).toreadonly()


def _spans_between(
    starts: Ints, ends: Ints | None, low: int, high: int | None, limit: int | None
) -> list[tuple[int, int]]:
    """The spans (sorted, disjoint) overlapping ``[low, high)``, at most ``limit``;
    ``ends`` ``None``: every span is one character long."""
    first = bisect_right(starts, low - 1) if ends is None else bisect_right(ends, low)
    stop = len(starts) if high is None else bisect_left(starts, high)
    if limit is not None:
        stop = min(stop, first + limit)
    begins = starts[first:stop].tolist()
    if ends is None:
        return [(start, start + 1) for start in begins]
    return list(zip(begins, ends[first:stop].tolist(), strict=True))


def utf16_offset(text: str, index: int) -> int:
    """The UTF-16 code-unit offset (Qt position) of the Python index ``index``."""
    return len(text[:index].encode("utf-16-le", "surrogatepass")) // 2


@dataclass(frozen=True, eq=False)
class VisibleText:
    """The display form of a raw response and the maps between their offsets.

    The original → display map is piecewise linear: from original offset
    ``seg_orig[i]`` (display offset ``seg_disp[i]``) on, each original
    character takes ``seg_width[i]`` display characters, up to the next
    segment; before the first segment the map is the identity. A segment starts
    only where the width changes, so ordinary text costs nothing. Lookups are
    binary searches (:mod:`bisect`).
    """

    text: str
    #: How many original characters were replaced by a visible stand-in.
    made_visible: int
    raw_length: int
    seg_orig: Ints = field(default_factory=empty_ints, repr=False)
    seg_disp: Ints = field(default_factory=empty_ints, repr=False)
    seg_width: Ints = field(default_factory=empty_ints, repr=False)
    #: Display spans (starts, ends) of the runs of made-visible characters.
    marker_starts: Ints = field(default_factory=empty_ints, repr=False)
    marker_ends: Ints = field(default_factory=empty_ints, repr=False)
    #: Display spans of the runs of U+FFFD replacement characters.
    replacement_starts: Ints = field(default_factory=empty_ints, repr=False)
    replacement_ends: Ints = field(default_factory=empty_ints, repr=False)
    #: Display offsets of the characters outside the BMP (2 UTF-16 units each).
    astral: Ints = field(default_factory=empty_ints, repr=False)
    #: Display offsets of the ``↩`` of display-only line breaks (see ``max_line``).
    wrap_marks: Ints = field(default_factory=empty_ints, repr=False)
    _astral_qt: Ints = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # The Qt position of each astral character: its display offset plus the
        # astral characters before it (each one UTF-16 unit longer).
        qt = [at + before for before, at in enumerate(self.astral.tolist())]
        object.__setattr__(self, "_astral_qt", _ints(qt) if qt else _EMPTY)

    @property
    def replacement_count(self) -> int:
        """How many U+FFFD characters the text contains."""
        return sum(self.replacement_ends.tolist()) - sum(self.replacement_starts.tolist())

    @property
    def qt_length(self) -> int:
        """Length of the display text in UTF-16 code units."""
        return len(self.text) + len(self.astral)

    def marker_spans(
        self, start: int = 0, end: int | None = None, limit: int | None = None
    ) -> list[tuple[int, int]]:
        """Display spans of the runs of made-visible characters.

        Only the runs overlapping the display range ``[start, end)`` (the whole
        text by default), at most ``limit`` of them, in text order.
        """
        return _spans_between(self.marker_starts, self.marker_ends, start, end, limit)

    def replacement_spans(
        self, start: int = 0, end: int | None = None, limit: int | None = None
    ) -> list[tuple[int, int]]:
        """Display spans of the runs of U+FFFD (see :meth:`marker_spans`)."""
        return _spans_between(self.replacement_starts, self.replacement_ends, start, end, limit)

    def wrap_spans(
        self, start: int = 0, end: int | None = None, limit: int | None = None
    ) -> list[tuple[int, int]]:
        """Display spans of the ``↩`` of display-only breaks (see :meth:`marker_spans`)."""
        return _spans_between(self.wrap_marks, None, start, end, limit)

    # -- original <-> display ------------------------------------------------

    def to_display(self, offset: int) -> int:
        """Display offset of the original offset ``offset`` (0 … raw_length)."""
        if not 0 <= offset <= self.raw_length:
            raise IndexError(f"offset {offset} outside 0..{self.raw_length}")
        i = bisect_right(self.seg_orig, offset) - 1
        if i < 0:
            return offset
        return self.seg_disp[i] + (offset - self.seg_orig[i]) * self.seg_width[i]

    def span_to_display(self, span: tuple[int, int]) -> tuple[int, int]:
        """Display span of the half-open original span ``(start, end)``.

        A special character inside the span is covered by its whole stand-in.
        """
        start, end = span
        if start > end:
            raise ValueError(f"span {span} has start > end")
        return self.to_display(start), self.to_display(end)

    def to_original(self, offset: int, *, round_up: bool = False) -> int:
        """Original offset of the display offset ``offset``.

        An offset inside a stand-in (e.g. between ``⟨`` and ``ZWSP⟩``) maps to
        the start of its original character, or to its end with ``round_up``.
        """
        if not 0 <= offset <= len(self.text):
            raise IndexError(f"display offset {offset} outside 0..{len(self.text)}")
        i = bisect_right(self.seg_disp, offset) - 1
        if i < 0:
            return offset
        chars, inside = divmod(offset - self.seg_disp[i], self.seg_width[i])
        return self.seg_orig[i] + chars + (1 if round_up and inside else 0)

    # -- display <-> Qt (UTF-16) ---------------------------------------------

    def display_to_qt(self, offset: int) -> int:
        """Qt document position of the display offset ``offset``."""
        if not 0 <= offset <= len(self.text):
            raise IndexError(f"display offset {offset} outside 0..{len(self.text)}")
        return offset + bisect_left(self.astral, offset)

    def qt_to_display(self, position: int) -> int:
        """Display offset of the Qt position ``position``.

        A position between the two halves of a surrogate pair maps to the
        start of that character.
        """
        if not 0 <= position <= self.qt_length:
            raise IndexError(f"Qt position {position} outside 0..{self.qt_length}")
        before = bisect_left(self._astral_qt, position)
        if before and self._astral_qt[before - 1] + 1 == position:
            return self.astral[before - 1]
        return position - before

    # -- original <-> Qt -----------------------------------------------------

    def to_qt(self, offset: int) -> int:
        """Qt document position of the original offset ``offset``."""
        return self.display_to_qt(self.to_display(offset))

    def span_to_qt(self, span: tuple[int, int]) -> tuple[int, int]:
        """Qt document span of the half-open original span ``(start, end)``."""
        start, end = self.span_to_display(span)
        return self.display_to_qt(start), self.display_to_qt(end)

    def qt_to_original(self, position: int, *, round_up: bool = False) -> int:
        """Original offset of the Qt position ``position`` (see :meth:`to_original`)."""
        return self.to_original(self.qt_to_display(position), round_up=round_up)
