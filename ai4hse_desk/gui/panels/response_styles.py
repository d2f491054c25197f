"""What the raw-response viewer paints over its text: spans, search hits, stand-ins, U+FFFD, breaks.

Each kind is a :class:`~PySide6.QtGui.QTextCharFormat` tagged with its name
(:data:`KIND`), laid over the text as extra selections; the summary line under
the text says how much of each there is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor, QTextDocument, QTextFormat
from PySide6.QtWidgets import QTextEdit

from ai4hse_desk.display.format import plural
from ai4hse_desk.protocol.outcome import Status

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from ai4hse_desk.display.text_sanitize import VisibleText

Span = tuple[int, int]

#: Text shown for an attempt whose provider returned no response.
NO_RESPONSE = "No response"
#: Why there is no response, by the attempt's desk status.
_MISSING = {
    Status.PENDING: "No response: the attempt has not run",
    Status.PROVIDER_ERROR: "No response (provider error)",
}


def no_response(status: Status) -> str:
    """What the panel says when an attempt of desk ``status`` has no response."""
    return _MISSING.get(status, NO_RESPONSE)


#: The format property naming what an extra selection marks.
KIND = QTextFormat.Property.UserProperty
SPAN, EMPHASIS = "span", "emphasis"
HIT, CURRENT_HIT = "hit", "current hit"


def _char_format(kind: str, background: str, foreground: str) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setBackground(QColor(background))
    fmt.setForeground(QColor(foreground))
    fmt.setProperty(KIND, kind)
    return fmt


MARKER = _char_format("marker", "#ece6fa", "#5b2fa8")
REPLACEMENT = _char_format("replacement", "#ff9d9d", "#000000")
WRAP = _char_format("wrap", "#f0f0f0", "#808080")
HIGHLIGHT = _char_format(SPAN, "#fff1a6", "#000000")
OFFENDING = _char_format(EMPHASIS, "#ffc1a8", "#000000")
OFFENDING.setFontUnderline(True)
OFFENDING.setUnderlineColor(QColor("#b3261e"))
#: Search hits: outlined in blue (underlined, so a hit inside a highlighted span keeps
#: the span's yellow visible around it); the current hit solid blue.
SEARCH_HIT = _char_format(HIT, "#cfe6ff", "#000000")
SEARCH_HIT.setFontUnderline(True)
SEARCH_HIT.setUnderlineColor(QColor("#0b57d0"))
SEARCH_CURRENT = _char_format(CURRENT_HIT, "#0b57d0", "#ffffff")


def selections(
    document: QTextDocument,
    visible: VisibleText,
    display_spans: Iterable[Span],
    fmt: QTextCharFormat,
) -> list[QTextEdit.ExtraSelection]:
    """``fmt`` over each display span of ``visible`` shown in ``document``."""
    result = []
    for start, end in display_spans:
        selection = QTextEdit.ExtraSelection()
        cursor = QTextCursor(document)
        cursor.setPosition(visible.display_to_qt(start))
        cursor.setPosition(visible.display_to_qt(end), QTextCursor.MoveMode.KeepAnchor)
        selection.cursor = cursor
        selection.format = fmt
        result.append(selection)
    return result


def markings(
    document: QTextDocument, visible: VisibleText, window: Span, margin: int, limit: int
) -> list[QTextEdit.ExtraSelection]:
    """The stand-ins, U+FFFD and display breaks within display range ``window``.

    A run that overlaps the window is styled whole, so no stand-in is cut at the
    edge; only a run longer than ``margin`` (millions of invisibles) is clipped.
    At most ``limit`` runs of each kind.
    """
    low, high = window

    def clipped(spans: list[Span]) -> Iterator[Span]:
        for start, end in spans:
            if end - start > margin:
                yield max(start, low), min(end, high)
            else:
                yield start, end

    return [
        *selections(document, visible, clipped(visible.marker_spans(low, high, limit)), MARKER),
        *selections(
            document, visible, clipped(visible.replacement_spans(low, high, limit)), REPLACEMENT
        ),
        *selections(document, visible, visible.wrap_spans(low, high, limit), WRAP),
    ]


def summary(
    raw: str | None, visible: VisibleText, max_line: int, missing: str = NO_RESPONSE
) -> str:
    """The line under the text: its size and what was made visible (``missing``: what
    to say when there is no response)."""
    if raw is None:
        return missing
    lines = raw.count("\n") + 1 if raw else 0
    parts = [plural(len(raw), "character"), plural(lines, "line")]
    if visible.made_visible:
        count = plural(visible.made_visible, "invisible/control character")
        parts.append(f"{count} shown as ⟨…⟩ names")
    if visible.replacement_count:
        count = plural(visible.replacement_count, "replacement character")
        parts.append(f"{count} (U+FFFD) in red")
    if len(visible.wrap_marks):
        parts.append(f"lines over {max_line:,} characters broken at ↩")
    return " · ".join(parts)


__all__ = [
    "CURRENT_HIT",
    "EMPHASIS",
    "HIGHLIGHT",
    "HIT",
    "KIND",
    "NO_RESPONSE",
    "OFFENDING",
    "SEARCH_CURRENT",
    "SEARCH_HIT",
    "SPAN",
    "Span",
    "markings",
    "no_response",
    "selections",
    "summary",
]
