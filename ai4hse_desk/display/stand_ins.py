"""Which characters a response shows as a visible stand-in, and which stand-in.

The tables behind :func:`~ai4hse_desk.display.text_sanitize.make_visible` (see its
module for what each class of character becomes and why): every stand-in is
ASCII inside ``⟨`` and ``⟩``.
"""

from __future__ import annotations

import functools
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["LABELLED_RANGES", "VS_FIRST", "VS_LAST", "WRAP_MARK", "stand_in_table"]

#: The C0 controls and DEL by their Unicode "NameAliases" abbreviations (ISO 6429);
#: tab (HT) and newline (LF) are not here: they are kept as layout.
_C0_NAMES: tuple[str, ...] = (
    *("NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS", "HT", "LF", "VT"),
    *("FF", "CR", "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4", "NAK", "SYN", "ETB"),
    *("CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US"),
)
_KEPT: Final = frozenset({0x09, 0x0A})

#: Abbreviations (mostly the Unicode "NameAliases" abbreviations) for the
#: invisible characters a reader is most likely to meet.
_NAMED: dict[int, str] = {
    **{cp: name for cp, name in enumerate(_C0_NAMES) if cp not in _KEPT},
    0x007F: "DEL",
    0x00A0: "NBSP",
    0x00AD: "SHY",
    0x034F: "CGJ",
    0x061C: "ALM",
    0x180E: "MVS",
    0x2000: "NQSP",
    0x2001: "MQSP",
    0x2002: "ENSP",
    0x2003: "EMSP",
    0x2004: "3/MSP",
    0x2005: "4/MSP",
    0x2006: "6/MSP",
    0x2007: "FSP",
    0x2008: "PSP",
    0x2009: "THSP",
    0x200A: "HSP",
    0x200B: "ZWSP",
    0x200C: "ZWNJ",
    0x200D: "ZWJ",
    0x200E: "LRM",
    0x200F: "RLM",
    0x2028: "LSEP",
    0x2029: "PSEP",
    0x202A: "LRE",
    0x202B: "RLE",
    0x202C: "PDF",
    0x202D: "LRO",
    0x202E: "RLO",
    0x202F: "NNBSP",
    0x205F: "MMSP",
    0x2060: "WJ",
    0x2066: "LRI",
    0x2067: "RLI",
    0x2068: "FSI",
    0x2069: "PDI",
    0x3000: "IDSP",
    0xFEFF: "BOM",
}

#: Inclusive code point ranges shown as ``⟨…⟩`` labels.
LABELLED_RANGES: tuple[tuple[int, int], ...] = (
    (0x0000, 0x0008),  # C0 controls before the tab
    (0x000B, 0x001F),  # the other C0 controls (after the newline)
    (0x007F, 0x007F),  # DEL
    (0x0080, 0x009F),  # C1 controls
    (0x00A0, 0x00A0),
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),  # Hangul fillers
    (0x1680, 0x1680),  # Ogham space mark (a space in most fonts)
    (0x17B4, 0x17B5),  # Khmer inherent vowels (invisible)
    (0x180B, 0x180F),  # Mongolian variation selectors, MVS
    (0x2000, 0x200F),  # unusual spaces, zero-width chars, LRM/RLM
    (0x2028, 0x202F),  # separators, bidi embeddings/overrides, NNBSP
    (0x205F, 0x206F),  # MMSP, word joiner, invisible operators, isolates
    (0x3000, 0x3000),
    (0x3164, 0x3164),
    (0xD800, 0xDFFF),  # lone surrogates
    (0xFDD0, 0xFDEF),  # noncharacters (Qt uses U+FDD0/FDD1 as frame markers)
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFFC),  # unassigned ignorables, interlinear annotation, U+FFFC
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),  # tags (hidden "ASCII smuggling"), variation selectors
    *((plane + 0xFFFE, plane + 0xFFFF) for plane in range(0, 0x110000, 0x10000)),
)

#: Ends a display line that :func:`make_visible` broke (``max_line``).
WRAP_MARK: Final = "↩"

#: Variation selectors: kept after an ordinary character, shown otherwise.
VS_FIRST, VS_LAST = 0xFE00, 0xFE0F


def _label(cp: int) -> str:
    name = _NAMED.get(cp)
    return f"⟨{name}⟩" if name else f"⟨U+{cp:04X}⟩"


def _build_table() -> dict[int, str]:
    table: dict[int, str] = {}
    for first, last in LABELLED_RANGES:
        for cp in range(first, last + 1):
            table[cp] = _label(cp)
    for cp in range(VS_FIRST, VS_LAST + 1):
        table[cp] = _label(cp)
    return table


@functools.cache
def stand_in_table() -> Mapping[int, str]:
    """Special code point → its displayed stand-in (read-only), made on first use: its
    6,400 entries take 4 ms, and a window's first rows (plain ASCII ids) never need it."""
    return MappingProxyType(_build_table())
