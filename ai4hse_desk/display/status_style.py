"""Status colours and labels: the one place chips, tables and lists take them from.

Every colour is a pair, a light tinted background and black text, so that the
text reads at WCAG AAA contrast (at least 7:1) whatever the palette: a chip
or cell sets both colours and never inherits the palette's text colour (which
is light in a dark theme). On a dark window the tints stand out by
themselves; on a light one chips get a dark :data:`CHIP_BORDER`. Colour is
never the only signal: every chip also carries its label (``TRUE``, ``✓``,
``Malformed`` …).

Families: ``valid`` green; parse errors warm (orange for a missing or
misplaced answer, red for a broken one); ``incomplete`` amber;
``provider_error`` purple; ``pending`` grey.

No Qt import: the values are plain hex strings and a style-sheet string.
"""

from __future__ import annotations

from ai4hse_desk.protocol.outcome import Status

__all__ = [
    "BANNER_BORDER",
    "CHIP_BORDER",
    "DIFFERS_COLOURS",
    "DISAGREEMENT_COLOURS",
    "MATCH_COLOURS",
    "STATUS_COLOURS",
    "STATUS_TEXT_COLOURS",
    "VALUE_COLOURS",
    "chip_style_sheet",
    "status_foreground",
    "status_label",
]

_WHITE = "#ffffff"
_BLACK = "#000000"
_GREEN = "#86efac"
_ORANGE = "#fdba74"
_RED = "#fca5a5"
_AMBER = "#fcd34d"
_PURPLE = "#c4b5fd"
_GREY = "#d1d5db"

#: Border of every chip (makes light chips stand out on a light window).
CHIP_BORDER = "#44403c"

#: Chip background per status.
STATUS_COLOURS: dict[Status, str] = {
    Status.VALID: _GREEN,
    Status.MISSING: _ORANGE,
    Status.NON_FINAL: _ORANGE,
    Status.WRONG_LENGTH: _ORANGE,
    Status.MULTIPLE: _RED,
    Status.AMBIGUOUS: _RED,
    Status.MALFORMED: _RED,
    Status.INVALID_JSON: _RED,
    Status.SCHEMA_VIOLATION: _RED,
    Status.INCOMPLETE: _AMBER,
    Status.PROVIDER_ERROR: _PURPLE,
    Status.PENDING: _GREY,
}

#: Chip text colour per status (readable on :data:`STATUS_COLOURS`).
STATUS_TEXT_COLOURS: dict[Status, str] = dict.fromkeys(STATUS_COLOURS, _BLACK)

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

#: (background, text) of an answer-key or extracted value chip, by value.
VALUE_COLOURS: dict[bool, tuple[str, str]] = {
    True: ("#93c5fd", _BLACK),
    False: ("#e5e7eb", _BLACK),
}

#: (background, text) of a match (✓) or mismatch (✗) cell.
MATCH_COLOURS: dict[bool, tuple[str, str]] = {
    True: (_GREEN, _BLACK),
    False: (_RED, _BLACK),
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
