"""The status palette: the one place chips, tables, lists and plots take status colours from.

Every attempt has a palette key: its status, except that a valid attempt is
``"correct"`` when its selection equals the key and ``"valid"`` (valid but
wrong) when it does not (:func:`palette_key`). Each of the 13 keys has its own
:class:`Shade`: a label (``"Valid ✓"``, ``"Valid ✗"``, ``"Missing"`` …, so
colour is never the only cue) and a (background, text) pair for a light and
for a dark application palette.

The colours start from the Okabe–Ito palette (Okabe & Ito 2008, designed to
stay apart for colour-vision deficiencies): the dark variant is close to the
Okabe–Ito colours themselves and their shades, the light variant their tints
(CIELAB hue within 12° of an Okabe–Ito hue). They were chosen so that

* every pair differs by ΔE*ab (CIE76) ≥ 10 and ΔE00 (CIEDE2000) ≥ 8, in normal
  vision and under simulated deuteranopia, protanopia and tritanopia (Machado,
  Oliveira & Fernandes 2009, severity 1) — ``tests/core/test_status_palette.py``
  checks it;
* the text on each background reads at WCAG contrast ≥ 4.5:1; in the light
  variant the text is always black, at ≥ 7:1 (AAA).

Families: ``correct`` bluish green; ``valid`` (valid but wrong) vermillion; a
missing or misplaced answer orange and yellow; a broken one reddish purple,
vermillion and sky blue; ``incomplete`` pale yellow; ``provider_error`` blue;
``pending`` grey.

No Qt import: the values are plain hex strings and a style-sheet string; the
window decides which variant its palette needs.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final, NamedTuple

from ai4hse_desk.protocol.outcome import Status

__all__ = [
    "BANNER_BORDER",
    "CHIP_BORDER",
    "CORRECT",
    "DIFFERS_COLOURS",
    "DISAGREEMENT_COLOURS",
    "MATCH_COLOURS",
    "PALETTE_KEYS",
    "STATUS_COLOURS",
    "STATUS_PALETTE",
    "STATUS_TEXT_COLOURS",
    "VALUE_COLOURS",
    "Shade",
    "chip_style_sheet",
    "outcome_label",
    "palette_key",
    "status_colours",
    "status_foreground",
    "status_label",
    "status_shade",
]

_WHITE = "#ffffff"
_BLACK = "#000000"

#: Palette key of a valid attempt whose selection equals the key.
CORRECT: Final = "correct"


class Shade(NamedTuple):
    """One entry of the status palette.

    Attributes:
        label: what a cell, chip or legend says beside (or instead of) the colour.
        light: (background, text) on a light application palette.
        dark: (background, text) on a dark application palette.
    """

    label: str
    light: tuple[str, str]
    dark: tuple[str, str]

    def colours(self, *, dark: bool = False) -> tuple[str, str]:
        """(background, text) for a dark or a light application palette."""
        return self.dark if dark else self.light


def _shade(label: str, light: str, dark: str, dark_text: str = _BLACK) -> Shade:
    return Shade(label, (light, _BLACK), (dark, dark_text))


#: The status palette by key, in protocol order with ``"correct"`` before
#: ``"valid"`` (which means valid but wrong). Read-only.
STATUS_PALETTE: Final = MappingProxyType(
    {
        Status.PENDING.value: _shade("Pending", "#a7a7a7", "#848484"),
        Status.PROVIDER_ERROR.value: _shade("Provider error", "#99c0df", "#054571", _WHITE),
        Status.INCOMPLETE.value: _shade("Incomplete", "#faf3a9", "#a3ab65"),
        CORRECT: _shade("Valid ✓", "#71d6ae", "#2a9868"),
        Status.VALID.value: _shade("Valid ✗", "#d5886b", "#df6e0e"),
        Status.MISSING.value: _shade("Missing", "#fcaf38", "#e7a810"),
        Status.MULTIPLE.value: _shade("Multiple", "#c588b4", "#cf7baa"),
        Status.AMBIGUOUS.value: _shade("Ambiguous", "#f2d2dc", "#77455e", _WHITE),
        Status.NON_FINAL.value: _shade("Not final", "#dbbd7f", "#936007", _WHITE),
        Status.MALFORMED.value: _shade("Malformed", "#f96e3b", "#823701", _WHITE),
        Status.WRONG_LENGTH.value: _shade("Wrong length", "#d9f938", "#f0e445"),
        Status.INVALID_JSON.value: _shade("Invalid JSON", "#4eace4", "#51b5ec"),
        Status.SCHEMA_VIOLATION.value: _shade("Schema violation", "#bce6fd", "#0f72b0", _WHITE),
    }
)

#: Every palette key, in the order of :data:`STATUS_PALETTE` (plots stack in it).
PALETTE_KEYS: Final = tuple(STATUS_PALETTE)

_LABELS: dict[Status, str] = {
    Status.VALID: "Valid",
    Status.MISSING: "Missing",
    Status.NON_FINAL: "Not final",
    Status.WRONG_LENGTH: "Wrong length",
    Status.MULTIPLE: "Multiple",
    Status.AMBIGUOUS: "Ambiguous",
    Status.MALFORMED: "Malformed",
    Status.INVALID_JSON: "Invalid JSON",
    Status.SCHEMA_VIOLATION: "Schema violation",
    Status.INCOMPLETE: "Incomplete",
    Status.PROVIDER_ERROR: "Provider error",
    Status.PENDING: "Pending",
}


def palette_key(status: Status, correct: bool = False) -> str:
    """The palette key of an attempt: ``"correct"`` for a correct one, else its status."""
    return CORRECT if status is Status.VALID and correct else status.value


def status_shade(status: Status, correct: bool = False) -> Shade:
    """The palette entry of an attempt with this status and correctness."""
    return STATUS_PALETTE[palette_key(status, correct)]


def status_colours(status: Status, correct: bool = False, *, dark: bool = False) -> tuple[str, str]:
    """(background, text) of an attempt's status, for a dark or a light palette."""
    return status_shade(status, correct).colours(dark=dark)


def outcome_label(status: Status, correct: bool = False) -> str:
    """``"Valid ✓"`` (correct), ``"Valid ✗"`` (valid but wrong) or the status label."""
    return status_shade(status, correct).label


#: Chip background per status, light variant; ``VALID`` is valid but wrong
#: (a correct attempt takes ``STATUS_PALETTE["correct"]``, see :func:`status_colours`).
STATUS_COLOURS: dict[Status, str] = {s: STATUS_PALETTE[s.value].light[0] for s in Status}

#: Chip text colour per status (readable on :data:`STATUS_COLOURS`).
STATUS_TEXT_COLOURS: dict[Status, str] = {s: STATUS_PALETTE[s.value].light[1] for s in Status}

#: Border of every chip (makes light chips stand out on a light window).
CHIP_BORDER = "#44403c"

#: (background, text) of an answer-key or extracted value chip, by value.
VALUE_COLOURS: dict[bool, tuple[str, str]] = {
    True: ("#93c5fd", _BLACK),
    False: ("#e5e7eb", _BLACK),
}

#: (background, text) of a match (✓, a correct verdict) or mismatch (✗, valid but
#: wrong) cell: the palette's ``correct`` and ``valid``, light variant.
MATCH_COLOURS: dict[bool, tuple[str, str]] = {
    True: STATUS_PALETTE[CORRECT].light,
    False: STATUS_PALETTE[Status.VALID.value].light,
}

#: (background, text) of the runner-vs-desk disagreement banner.
DISAGREEMENT_COLOURS: tuple[str, str] = ("#7f1d1d", _WHITE)
#: Border of the disagreement banner.
BANNER_BORDER = "#fbbf24"

#: (background, text) of a runner-vs-desk field that differs.
DIFFERS_COLOURS: tuple[str, str] = ("#fde047", _BLACK)


def status_label(status: Status) -> str:
    """A short human label, e.g. ``"Wrong length"`` for ``wrong_length``."""
    return _LABELS[status]


def status_foreground(status: Status) -> str:
    """The text colour to use on :data:`STATUS_COLOURS` ``[status]``."""
    return STATUS_TEXT_COLOURS[status]


def chip_style_sheet(background: str, foreground: str, widget: str = "QLabel") -> str:
    """A Qt style sheet drawing ``widget`` as a rounded chip in these colours."""
    return (
        f"{widget} {{ background-color: {background}; color: {foreground}; "
        f"border: 1px solid {CHIP_BORDER}; border-radius: 4px; padding: 1px 6px; "
        "font-weight: 600; }"
    )
