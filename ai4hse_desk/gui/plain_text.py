"""Audit- and store-controlled text shown literally: message boxes, tooltips, titles, menus.

Qt guesses whether a string is HTML (``Qt.mightBeRichText``) wherever a text
format is left on *auto*: a :class:`QMessageBox`'s text, a :class:`QLabel`, a
tooltip. A run id, model name, question id, reviewer name, note or an error
message quoting a file can then draw a heading, a link or a forged "verified"
line instead of itself. Everything the window shows goes through these helpers:

* :func:`plain_message` is the one message box of the window (never the
  ``QMessageBox`` statics): plain text always. While a *sink* is set
  (:func:`set_message_sink`: the headless screenshot, tests) it receives the
  message instead of a box being shown.
* :func:`plain_tooltip` escapes a tooltip Qt would read as HTML, so it shows its
  characters as they are.
* :func:`title_text` and :func:`menu_text` keep ``[*]`` in a window title and
  ``&`` in a menu entry from being read as markers.

Labels are made plain with :func:`~ai4hse_desk.gui.widgets.labels.plain_label`.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QMessageBox, QWidget

Icon = QMessageBox.Icon
#: Receives ``(icon, title, text)`` instead of a message box being shown.
MessageSink = Callable[[QMessageBox.Icon, str, str], None]

_sink: MessageSink | None = None


def set_message_sink(sink: MessageSink | None) -> MessageSink | None:
    """Send every :func:`plain_message` to ``sink`` (``None``: show boxes again).

    Returns:
        The sink that was set before, to restore it.
    """
    global _sink
    previous, _sink = _sink, sink
    return previous


def plain_message(
    parent: QWidget | None, icon: QMessageBox.Icon, title: str, text: str, *, wait: bool = True
) -> None:
    """Show ``text`` in a message box, as plain text.

    Args:
        wait: block until it is closed (answers to the user's own action);
            ``False`` for notices that must not stop the window from carrying on
            (opening a file, a failure found while painting a table).
    """
    if _sink is not None:
        _sink(icon, title, text)
        return
    box = QMessageBox(icon, title_text(title), text, QMessageBox.StandardButton.Ok, parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    if wait:
        box.exec()
    else:
        box.open()


def might_be_rich_text(text: str) -> bool:
    """Qt's own guess whether ``text`` is HTML (what an *auto* text format does)."""
    return bool(GuiQt.mightBeRichText(text))


def plain_tooltip(text: str) -> str:
    """``text`` as a tooltip that shows exactly these characters.

    A tooltip Qt would not read as HTML is returned unchanged; any other is
    HTML-escaped and wrapped in a paragraph that keeps its spaces and line breaks.
    """
    if not might_be_rich_text(text):
        return text
    # html.escape(text, quote=False), without importing html and its entity tables at start.
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return f'<p style="white-space:pre-wrap">{escaped}</p>'


def title_text(text: str) -> str:
    """``text`` for a window title: a ``[*]`` in it stays (Qt's modified marker)."""
    return text.replace("[*]", "[*][*]")


def menu_text(text: str) -> str:
    """``text`` for a menu entry or button: an ``&`` in it stays (Qt's shortcut marker)."""
    return text.replace("&", "&&")


__all__ = [
    "Icon",
    "MessageSink",
    "menu_text",
    "might_be_rich_text",
    "plain_message",
    "plain_tooltip",
    "set_message_sink",
    "title_text",
]
