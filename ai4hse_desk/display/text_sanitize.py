"""Make untrusted response text safe to display and keep an offset map back to it.

No Qt import, so it is unit-testable without a display. A plain text (one regex
scan finds nothing to show differently: most responses) is its own display form;
any other is processed vectorised with numpy (already required by pyqtgraph and
pandas): a 10 MB response takes a fraction of a second whatever it contains. numpy
is imported only then, and :func:`display_text` (short texts in labels and lists)
needs it only for a text holding a variation selector: otherwise one
``str.translate`` gives the same text. The stand-ins are in :mod:`.stand_ins`.

:func:`make_visible` replaces every character that would be invisible, would
move or reorder other text, or would confuse a Qt text document with a visible
stand-in:

==================================  =============================================
original                            displayed as
==================================  =============================================
C0 controls except ``\\n``, ``\\t``  their abbreviations: ``⟨NUL⟩``, ``⟨BEL⟩``,
                                    ``⟨BS⟩``, ``⟨ESC⟩``, ``⟨CR⟩`` (a CR never
                                    breaks the line; only LF does) …
DEL                                 ``⟨DEL⟩``
C1 controls U+0080–U+009F           ``⟨U+0085⟩``
zero-width / bidi / format chars    ``⟨ZWSP⟩``, ``⟨RLO⟩``, ``⟨LRI⟩``, ``⟨BOM⟩``,
                                    ``⟨SHY⟩``, ``⟨WJ⟩``, ``⟨MVS⟩`` … (the other
                                    Default_Ignorable code points, including
                                    the tag characters U+E0000–E007F used to
                                    smuggle hidden text: ``⟨U+hhhh⟩`` (hex code point))
unusual spaces (NBSP, U+2000–200A,  ``⟨NBSP⟩``, ``⟨EMSP⟩``, ``⟨IDSP⟩`` …
U+202F, U+205F, U+3000, U+1680)
line / paragraph separators         ``⟨LSEP⟩``, ``⟨PSEP⟩``
lone surrogates                     ``⟨U+D800⟩``
noncharacters, U+FFFC, U+FFF9–FFFB  ``⟨U+FDD0⟩`` … (Qt uses some of these
                                    internally as frame/object markers)
variation selectors U+FE00–FE0F     kept after an ordinary character (emoji
                                    presentation); shown as ``⟨U+FE0F⟩`` when they
                                    follow another selector or invisible
                                    character, or start the text (hidden payloads)
==================================  =============================================

Every stand-in is ASCII inside ``⟨`` and ``⟩``, so it shows in any font (the
Control Pictures block, ␀ ␛ ␍, is missing from common fonts, where they all
looked like the same empty box). A newline and a tab are kept as they are:
they are layout. U+FFFD (the replacement character) is kept but its positions
are reported so the viewer can highlight it. Optionally (``max_line``), very
long lines get display-only breaks ``"↩\\n"``.

:func:`make_visible` returns a :class:`~ai4hse_desk.display.visible_text.VisibleText`
(the display text with its original / display / Qt offset maps), re-exported
here with :func:`~ai4hse_desk.display.visible_text.utf16_offset`.
"""

from __future__ import annotations

import codecs
import functools
import re
from typing import TYPE_CHECKING, Any, Final

from ai4hse_desk.display.stand_ins import (
    LABELLED_RANGES,
    VS_FIRST,
    VS_LAST,
    WRAP_MARK,
    stand_in_table,
)
from ai4hse_desk.display.visible_text import VisibleText, frozen_ints, utf16_offset

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    #: The index arrays computed here (:func:`frozen_ints` makes them the offsets).
    Ints = npt.NDArray[np.int64]

__all__ = [
    "MAX_SHOWN",
    "WRAP_MARK",
    "VisibleText",
    "display_text",
    "make_visible",
    "utf16_offset",
    "visible_text_of",
]


# Per-code-point kinds in the lookup table.
_ORDINARY, _ALWAYS, _SELECTOR, _REPLACEMENT = 0, 1, 2, 3


@functools.cache
def _lookup_tables() -> tuple[
    npt.NDArray[np.uint8], npt.NDArray[np.uint16], npt.NDArray[np.uint8], npt.NDArray[np.uint32]
]:
    """Code-point lookup tables, built on first use (about 3 MB).

    Returns ``kind`` and ``label`` indexed by code point, and ``width`` and the
    ``glyphs`` matrix (one row of UTF-32 code points per stand-in, zero-padded)
    indexed by label number; label 0 is "no stand-in" (width 1).
    """
    import numpy as np

    special = stand_in_table()
    codepoints = np.fromiter(special, dtype=np.int64, count=len(special))
    stand_ins = list(special.values())
    widest = max(map(len, stand_ins))
    kind = np.full(0x110000, _ORDINARY, dtype=np.uint8)
    kind[codepoints] = _ALWAYS
    kind[VS_FIRST : VS_LAST + 1] = _SELECTOR
    kind[0xFFFD] = _REPLACEMENT
    label = np.zeros(0x110000, dtype=np.uint16)
    label[codepoints] = np.arange(1, len(stand_ins) + 1, dtype=np.uint16)
    width = np.array([1, *map(len, stand_ins)], dtype=np.uint8)
    padded = "".join(s.ljust(widest, "\0") for s in ["", *stand_ins]).encode("utf-32-le")
    glyphs = np.frombuffer(padded, dtype=np.uint32).reshape(len(stand_ins) + 1, widest)
    for table in (kind, label, width, glyphs):
        table.flags.writeable = False
    return kind, label, width, glyphs


def _runs(mask: npt.NDArray[np.bool_]) -> tuple[Ints, Ints]:
    """Starts and (exclusive) ends of the runs of True in ``mask``."""
    import numpy as np

    edges = np.diff(mask.view(np.int8), prepend=np.int8(0), append=np.int8(0))
    return np.flatnonzero(edges == 1), np.flatnonzero(edges == -1)


def _decode(code_points: npt.NDArray[np.uint32]) -> str:
    return codecs.decode(code_points.data.cast("B"), "utf-32-le")


def _wrap_points(
    newlines: Ints, shown_at: npt.NDArray[np.signedinteger[Any]], length: int, max_line: int
) -> Ints:
    """Indices of the characters to follow with a display-only line break.

    ``shown_at`` holds the display offset of each character (``length`` in
    all). In a display line longer than ``max_line``, the first character at or
    after each further ``max_line`` columns starts a new display line (so a
    stand-in is never split): the break goes after the character before it.
    """
    import numpy as np

    count = len(shown_at)
    first = np.concatenate(([0], newlines + 1))  # of each line, or ``count``
    stop = np.concatenate((newlines, [count]))  # the newline ending it, or ``count``
    at = np.append(shown_at, length)  # display offset, also of the end
    begin, end = at[first], at[stop]
    long = end - begin > max_line
    begin, end = begin[long], end[long]
    cuts = (end - begin - 1) // max_line  # at begin + k * max_line < end, k >= 1
    k = np.arange(int(cuts.sum())) - np.repeat(np.cumsum(cuts) - cuts, cuts) + 1
    targets = (np.repeat(begin, cuts) + k * max_line).astype(shown_at.dtype)
    starts = np.unique(np.searchsorted(shown_at, targets, side="left"))
    starts = starts[starts < count]
    return np.asarray(starts[np.isin(starts, newlines, invert=True)] - 1, dtype=np.int64)


@functools.cache
def _special() -> re.Pattern[str]:
    """One character that :func:`make_visible` must look at: a stand-in, a variation
    selector, U+FFFD, or any character outside the BMP (it moves the Qt offsets)."""
    ranges = sorted([*LABELLED_RANGES, (VS_FIRST, VS_LAST), (0xFFFD, 0xFFFD),
                     (0x10000, 0x10FFFF)])  # fmt: skip
    merged: list[list[int]] = []
    for first, last in ranges:
        if merged and first <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], last)
        else:
            merged.append([first, last])
    return re.compile("[" + "".join(f"\\U{a:08x}-\\U{b:08x}" for a, b in merged) + "]")


def _plain(raw: str, max_line: int | None) -> bool:
    """Whether ``raw`` is shown as it is: nothing special, no line to break."""
    if _special().search(raw) is not None:
        return False
    return max_line is None or len(raw) <= max_line or max(map(len, raw.split("\n"))) <= max_line


def make_visible(raw: str, *, max_line: int | None = None) -> VisibleText:
    """The display form of ``raw`` with its offset maps.

    With ``max_line``, a display line longer than that many characters gets a
    display-only break, ``"↩\\n"``, every ``max_line`` characters or so (Qt lays
    out a whole paragraph at once: a 10 MB single line takes seconds); the
    ``↩`` offsets are in :attr:`VisibleText.wrap_marks`.

    A plain text (one regex scan finds nothing to show differently) is its own
    display form. Any other is vectorised over UTF-32 code points (table look-ups,
    one cumulative sum, boolean masks), so linear in ``len(raw)`` whatever the text
    holds; never raises for any ``str``, including lone surrogates.
    """
    if max_line is not None and max_line < 1:
        raise ValueError(f"max_line must be positive, got {max_line}")
    if _plain(raw, max_line):
        return VisibleText(text=raw, made_visible=0, raw_length=len(raw))
    return _vectorised(raw, max_line)


def _vectorised(raw: str, max_line: int | None) -> VisibleText:
    """:func:`make_visible` over numpy arrays (any text, also a plain one)."""
    if not raw:
        return VisibleText(text="", made_visible=0, raw_length=0)
    import numpy as np

    kind_of, label_of, width_of, glyphs = _lookup_tables()
    cps = np.frombuffer(raw.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    count = len(cps)
    kind = kind_of[cps]
    astral = cps > 0xFFFF
    no_ints: Ints = np.zeros(0, dtype=np.int64)
    newlines, longest = no_ints, 0  # the longest line matters only with max_line
    if max_line is not None:
        newlines = np.flatnonzero(cps == 0x0A)
        longest = int(np.diff(newlines, prepend=-1, append=count).max()) - 1
    if not kind.any() and not (max_line is not None and longest > max_line):
        astral_at = frozen_ints(np.flatnonzero(astral))
        return VisibleText(text=raw, made_visible=0, raw_length=count, astral=astral_at)

    visible = kind == _ALWAYS
    label = label_of[cps]  # 0: shown as it is
    selector = kind == _SELECTOR
    if selector.any():
        previous = np.empty_like(kind)
        previous[0], previous[1:] = _ALWAYS, kind[:-1]
        visible |= selector & ((previous == _ALWAYS) | (previous == _SELECTOR))
        label[selector & ~visible] = 0
    content = width_of[label]  # display width of each character (without breaks)
    wide = np.flatnonzero(content > 1)
    labels, widths = label[wide], content[wide]
    runs, fffd = _runs(visible), _runs(kind == _REPLACEMENT)

    # Display offsets without breaks: int32 unless the text is huge (halves the memory).
    position = np.int32 if count * (glyphs.shape[1] + 2) < 2**31 else np.int64
    shown_at: npt.NDArray[np.signedinteger[Any]] = np.cumsum(content, dtype=position)
    length = int(shown_at[-1])
    np.subtract(shown_at, content, out=shown_at)  # from "after" to "of" each character
    wrap_after = no_ints
    if max_line is not None and longest * glyphs.shape[1] > max_line:
        wrap_after = _wrap_points(newlines, shown_at, length, max_line)

    def place(indices: npt.NDArray[np.integer[Any]]) -> Ints:
        """Display offsets of the characters at ``indices``, breaks included."""
        breaks_before = np.searchsorted(wrap_after, indices, side="left")
        return np.asarray(shown_at[indices], dtype=np.int64) + 2 * breaks_before

    out = np.empty(length + 2 * len(wrap_after), dtype=np.uint32)
    single = np.ones(len(out), dtype=np.bool_)  # slots of one-character stand-ins and the rest
    starts = place(wide)
    for column in range(glyphs.shape[1]):
        within = widths > column
        at = starts[within] + column
        out[at] = glyphs[labels[within], column]
        single[at] = False
    wrap_marks = place(wrap_after) + content[wrap_after]
    out[wrap_marks], out[wrap_marks + 1] = ord(WRAP_MARK), 0x0A
    single[wrap_marks] = single[wrap_marks + 1] = False
    narrow = visible & (content == 1)  # one-character stand-ins (none in the table today)
    mapped = cps.copy()
    mapped[narrow] = glyphs[label[narrow], 0]
    out[single] = mapped[content == 1]

    # Segments of the offset map: where the display width per character changes.
    width = content
    if len(wrap_after):
        width = content.copy()
        width[wrap_after] += 2
    change = np.flatnonzero(np.diff(width)) + 1
    if width[0] != 1:
        change = np.append(0, change)
    last = runs[1] - 1, fffd[1] - 1  # the last character of each run
    return VisibleText(
        text=_decode(out),
        made_visible=int(np.count_nonzero(visible)),
        raw_length=count,
        seg_orig=frozen_ints(change),
        seg_disp=frozen_ints(place(change)),
        seg_width=frozen_ints(width[change]),
        marker_starts=frozen_ints(place(runs[0])),
        marker_ends=frozen_ints(place(last[0]) + content[last[0]]),
        replacement_starts=frozen_ints(place(fffd[0])),
        replacement_ends=frozen_ints(place(last[1]) + 1),
        astral=frozen_ints(place(np.flatnonzero(astral & ~visible))),
        wrap_marks=frozen_ints(wrap_marks),
    )


#: Longest text :func:`display_text` shows before cutting it short.
MAX_SHOWN: Final = 4_000


#: A variation selector: whether it is shown depends on the character before it.
_SELECTORS: Final = re.compile(f"[{chr(VS_FIRST)}-{chr(VS_LAST)}]")


@functools.cache
def _always_shown() -> dict[int, str]:
    """The stand-ins of every special character but the variation selectors."""
    return {cp: shown for cp, shown in stand_in_table().items() if not VS_FIRST <= cp <= VS_LAST}


def visible_text_of(text: str) -> str:
    """``make_visible(text).text`` without the offset maps: one ``str.translate``
    unless a variation selector needs the vectorised rules (and numpy)."""
    if _SELECTORS.search(text) is None:
        return text.translate(_always_shown())
    return make_visible(text).text


def display_text(text: str, limit: int = MAX_SHOWN) -> str:
    """``text`` as a panel shows it: invisible and bidi characters made visible
    (:func:`make_visible`), cut after ``limit``
    characters with a note of how much was left out."""
    if len(text) <= limit:
        if text.isascii() and text.isprintable():
            return text  # nothing to make visible (the common case, and a hot one)
        return visible_text_of(text)
    return f"{visible_text_of(text[:limit])}… ({len(text) - limit:,} more characters)"
