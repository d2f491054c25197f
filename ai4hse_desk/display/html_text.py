"""Text from an audit file or a notes store written into HTML: the one way every report
writes it.

Invisible and bidi characters are made visible first (a right-to-left override in a model
name must not reverse the rest of its line, a zero-width space must not hide), then the text
is escaped, quotes included, so nothing from a file is ever read as markup.
"""

from __future__ import annotations

import html

from ai4hse_desk.display.text_sanitize import make_visible


def html_text(value: object) -> str:
    """``value`` as safe HTML text: invisible characters made visible, then escaped."""
    shown = str(value)
    if not (shown.isascii() and shown.isprintable()):
        shown = make_visible(shown).text
    return html.escape(shown, quote=True)


__all__ = ["html_text"]
