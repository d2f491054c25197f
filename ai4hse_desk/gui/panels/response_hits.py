"""Search hits in the raw response: where the search's terms are, the bar that steps them.

The hits are found in the *original* response (case-insensitive, every term of
the search, non-overlapping, at most :data:`MAX_HITS`) and kept as display
spans of its :class:`~ai4hse_desk.display.text_sanitize.VisibleText`, sorted, so
the viewer can paint the ones near its viewport and step from one to the next.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QHBoxLayout, QToolButton, QWidget

from ai4hse_desk.gui.panels.response_styles import SEARCH_CURRENT, SEARCH_HIT, selections
from ai4hse_desk.gui.widgets.labels import ElidingLabel

if TYPE_CHECKING:
    from collections.abc import Sequence

    from PySide6.QtGui import QTextDocument
    from PySide6.QtWidgets import QTextEdit

    from ai4hse_desk.display.text_sanitize import VisibleText
    from ai4hse_desk.gui.panels.response_styles import Span

#: At most this many hits are found in one response (a 5 MB response and a one-letter term).
MAX_HITS = 10_000
#: At most this many hits are painted, those near the viewport (the current one always).
MAX_PAINTED = 1_000


class SearchHits:
    """The hits of a search in one response and which of them is current."""

    def __init__(self) -> None:
        self.spans: list[Span] = []  # display spans, in order
        self.current = -1
        self.capped = False
        self._visible: VisibleText | None = None

    def find(self, raw: str | None, visible: VisibleText, terms: Sequence[str]) -> None:
        """Find ``terms`` in ``raw`` (shown as ``visible``); the first hit becomes current."""
        self.spans, self.current, self.capped = [], -1, False
        self._visible = visible
        words = sorted({t for t in terms if t}, key=len, reverse=True)  # longest first
        if not raw or not words:
            return
        pattern = re.compile("|".join(map(re.escape, words)), re.IGNORECASE)
        for found in pattern.finditer(raw):
            if len(self.spans) == MAX_HITS:
                self.capped = True
                break
            self.spans.append(visible.span_to_display(found.span()))
        self.current = 0 if self.spans else -1

    def step(self, direction: int) -> Span | None:
        """Make the next (``1``) or previous (``-1``) hit current, wrapping round."""
        if not self.spans:
            return None
        self.current = (self.current + direction) % len(self.spans)
        return self.spans[self.current]

    def current_span(self) -> Span | None:
        """The current hit's display span."""
        return self.spans[self.current] if self.spans else None

    def qt_spans(self) -> list[Span]:
        """Every hit as a Qt document span of the response shown, in order."""
        return [self._to_qt(span) for span in self.spans]

    def current_qt(self) -> Span | None:
        """The current hit as a Qt document span."""
        span = self.current_span()
        return None if span is None else self._to_qt(span)

    def _to_qt(self, span: Span) -> Span:
        assert self._visible is not None  # set by find() with every span
        return self._visible.display_to_qt(span[0]), self._visible.display_to_qt(span[1])

    def near(self, low: int, high: int, limit: int) -> list[Span]:
        """Hits overlapping display range ``[low, high]``, at most ``limit`` of them."""
        first = max(0, bisect_left(self.spans, (low, low)) - 1)
        result: list[Span] = []
        for span in self.spans[first:]:
            if span[0] > high or len(result) == limit:
                break
            if span[1] >= low:
                result.append(span)
        return result

    def selections(
        self, document: QTextDocument, visible: VisibleText, window: Span
    ) -> list[QTextEdit.ExtraSelection]:
        """The hits within display range ``window``, then the current one (always)."""
        current = self.current_span()
        near = [s for s in self.near(*window, MAX_PAINTED) if s != current]
        return [
            *selections(document, visible, near, SEARCH_HIT),
            *selections(document, visible, [current] if current else [], SEARCH_CURRENT),
        ]

    def summary(self) -> str:
        """The count line: hit 2 of 7, no hit, hit 1 of 10,000+."""
        if not self.spans:
            return "no hit in this response"
        more = "+" if self.capped else ""
        return f"hit {self.current + 1:,} of {len(self.spans):,}{more}"


class HitBar(QWidget):
    """The count of hits ("hit 2 of 7") with previous/next buttons, under the response.

    Its actions (:attr:`hit_actions`: Next search hit, F3; Previous search hit,
    Shift+F3) are added to ``owner`` with a window-wide shortcut, so they work
    from the attempt list too.

    Signals:
        step: ``-1`` (previous hit) or ``1`` (next hit).
    """

    step = Signal(int)

    def __init__(self, owner: QWidget) -> None:
        super().__init__(owner)
        self.setAccessibleName("Search hits")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.label = ElidingLabel(name="Search hit")
        self.hit_actions: list[QAction] = []
        for text, key, step in (("Next search hit", "F3", 1),
                                ("Previous search hit", "Shift+F3", -1)):  # fmt: skip
            action = QAction(text, owner)
            action.setShortcut(QKeySequence(key))
            action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            action.triggered.connect(lambda _checked=False, s=step: self.step.emit(s))
            owner.addAction(action)
            self.hit_actions.append(action)
        self.previous = QToolButton()
        self.previous.setText("◀")
        self.previous.setToolTip("Previous search hit (Shift+F3)")
        self.previous.setAccessibleName("Previous search hit")
        self.previous.clicked.connect(lambda: self.step.emit(-1))
        self.next = QToolButton()
        self.next.setText("▶")
        self.next.setToolTip("Next search hit (F3)")
        self.next.setAccessibleName("Next search hit")
        self.next.clicked.connect(lambda: self.step.emit(1))
        layout.addWidget(self.label, 1)
        layout.addWidget(self.previous)
        layout.addWidget(self.next)

    def show_hits(self, hits: SearchHits, searching: bool) -> None:
        """Show the count of ``hits`` (hidden when there is no search)."""
        self.setHidden(not searching)
        self.label.setText(hits.summary())
        self.previous.setEnabled(len(hits.spans) > 1)
        self.next.setEnabled(len(hits.spans) > 1)


__all__ = ["MAX_HITS", "HitBar", "SearchHits"]
