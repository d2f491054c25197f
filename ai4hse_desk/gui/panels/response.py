"""The raw-response viewer: untrusted model output shown as plain, visible text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import (
    QAction,
    QFontDatabase,
    QGuiApplication,
    QKeySequence,
    QShowEvent,
    QTextCursor,
    QTextOption,
)
from PySide6.QtWidgets import QPlainTextEdit, QTextEdit, QVBoxLayout, QWidget

from ai4hse_desk.display.text_sanitize import VisibleText, make_visible
from ai4hse_desk.gui.panels.response_hits import HitBar, SearchHits
from ai4hse_desk.gui.panels.response_styles import (
    EMPHASIS,
    HIGHLIGHT,
    KIND,
    NO_RESPONSE,
    OFFENDING,
    SPAN,
    Span,
    markings,
    no_response,
    selections,
    summary,
)
from ai4hse_desk.gui.widgets.labels import WrappingLabel

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ai4hse_desk.verdicts.attempt_detail import AttemptDetail


class ResponseView(QWidget):
    """Read-only viewer of one raw model response, with highlighted spans.

    The text is always plain (never HTML) and goes through
    :func:`~ai4hse_desk.display.text_sanitize.make_visible`: control, invisible and
    bidi characters appear as stand-ins (``⟨NUL⟩``, ``⟨ZWSP⟩``, ``⟨RLO⟩`` …, in a
    violet "chip" format so they cannot be mistaken for the same characters
    typed literally), U+FFFD is shown on red, and lines longer than
    :attr:`MAX_LINE` characters are broken for display at a grey ``↩``.

    Spans are half-open ``(start, end)`` offsets into the *original* response.
    The search's terms (:meth:`set_search_terms`) are marked over the spans, the
    first hit in view; F3 / Shift+F3 or the buttons under the text step through them.
    Copying: Ctrl+C copies the *displayed* selection (stand-ins included);
    "Copy raw response" (context menu, Ctrl+Shift+C, :meth:`copy_raw`) copies
    the original, unsanitised response.
    """

    #: Display lines longer than this get a display-only break (Qt lays out a
    #: paragraph at once: a 10 MB single line takes seconds).
    MAX_LINE = 10_000
    #: Stand-ins, U+FFFD and breaks are styled only near the viewport: this
    #: many display characters around it, at most MAX_STYLED_RUNS runs of each
    #: kind (so a response with a million stand-ins costs no more than one).
    STYLE_MARGIN = 4_000
    MAX_STYLED_RUNS = 1_000

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Raw response")
        self._raw: str | None = None
        self._missing = NO_RESPONSE  # what the panel says when there is no response
        self._visible: VisibleText = make_visible("")
        self._center_when_shown = False
        self._busy = False  # replacing the document or the extra selections
        self._pinned: list[QTextEdit.ExtraSelection] = []  # the spans and emphasis
        self._styled: tuple[int, int] | None = None  # display range styled so far
        self._terms: list[str] = []  # the search's terms, marked as hits
        self._hits = SearchHits()

        editor = self._editor = QPlainTextEdit(self)
        editor.setReadOnly(True)
        editor.setUndoRedoEnabled(False)
        editor.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        editor.setTabStopDistance(4 * editor.fontMetrics().horizontalAdvance(" "))
        # Lines wrap at the viewport, inside any word wider than it too (a run of ⟨ZWSP⟩
        # stand-ins is one word): the text never widens the pane or scrolls sideways.
        editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        editor.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        editor.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        option = editor.document().defaultTextOption()
        option.setTextDirection(Qt.LayoutDirection.LeftToRight)  # text never flips a line
        editor.document().setDefaultTextOption(option)
        editor.setAccessibleName("Raw response")
        editor.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        editor.customContextMenuRequested.connect(self._show_context_menu)
        editor.updateRequest.connect(lambda _rect, _dy: self._restyle(force=False))

        # The summary wraps: on one line it set the pane's minimum width.
        self._status = WrappingLabel(name="Raw response summary")
        self._hit_bar = HitBar(self)  # with F3 / Shift+F3, window-wide (from the list too)
        self._hit_bar.step.connect(self.step_hit)

        self._copy_action = QAction("Copy raw response", self)
        self._copy_action.setShortcut(QKeySequence("Ctrl+Shift+C"))
        self._copy_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self._copy_action.setToolTip("Copy the original, unsanitised response as plain text")
        self._copy_action.triggered.connect(self.copy_raw)
        self.addAction(self._copy_action)

        layout = self._layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addWidget(editor, 1)
        layout.addWidget(self._hit_bar)
        layout.addWidget(self._status)
        self.clear()

    # -- public API ------------------------------------------------------------

    def set_response(self, raw: str | None, spans: Sequence[Span] = (), *,
                     emphasis: Sequence[Span] = (), missing: str = NO_RESPONSE,
                     ) -> None:  # fmt: skip
        """Show ``raw`` (``None``: there is none, ``missing`` says why) and highlight spans:
        ``spans`` in the highlight format, ``emphasis`` (the offending item, if any) in
        another; the earliest is scrolled into view. Raises ValueError, changing
        nothing, when a span is not ``0 <= start <= end <= len(raw)``."""
        spans, emphasis = list(spans), list(emphasis)
        length = -1 if raw is None else len(raw)
        for start, end in [*spans, *emphasis]:
            if not 0 <= start <= end <= length:
                raise ValueError(f"span ({start}, {end}) does not fit a response of {length}")
        self._raw = raw
        self._visible = visible = make_visible(raw or "", max_line=self.MAX_LINE)
        self._missing = missing
        self._editor.setPlaceholderText(missing if raw is None else "Empty response")
        self._busy, self._styled = True, None  # the document is being replaced
        try:
            self._editor.clear()  # then filling an empty document is faster
            self._editor.setPlainText(visible.text)
        finally:
            self._busy = False
        self._copy_action.setEnabled(raw is not None)

        document = self._editor.document()
        self._pinned = [
            *selections(document, visible, map(visible.span_to_display, spans), HIGHLIGHT),
            *selections(document, visible, map(visible.span_to_display, emphasis), OFFENDING),
        ]
        self._hits.find(raw, visible, self._terms)
        first = min(spans or emphasis, default=None)
        if not self._show_current_hit():
            self._scroll_to(visible.to_qt(first[0]) if first else 0)
            self._restyle(force=True)
        self._update_status()

    def show_detail(self, detail: AttemptDetail) -> None:
        """Show the response of ``detail`` with the spans its verdict rests on."""
        self.set_response(detail.raw_response, detail.spans, missing=no_response(detail.status))

    def clear(self) -> None:
        """Show nothing (no attempt selected)."""
        self._raw = None
        self._visible = make_visible("")
        self._editor.setPlaceholderText("")
        self._editor.clear()
        self._pinned = []
        self.set_search_terms(self._terms)  # no response, no hits; repainted
        self._copy_action.setEnabled(False)
        self._status.setText("")
        self._editor.setAccessibleDescription("")

    def set_search_terms(self, terms: Sequence[str]) -> None:
        """Mark ``terms`` here and in later responses; the first hit is current, in view."""
        self._terms = [t for t in terms if t]
        self._hits.find(self._raw, self._visible, self._terms)
        if not self._show_current_hit():
            self._restyle(force=True)

    def step_hit(self, direction: int) -> None:
        """F3 (``1``) / Shift+F3 (``-1``): the next or previous hit, wrapping round."""
        if self._hits.step(direction) is not None:
            self._show_current_hit()

    def search_hits(self) -> SearchHits:
        """The hits of the search in the response shown (``qt_spans``, ``current_qt``)."""
        return self._hits

    def highlighted_text(self) -> list[str]:
        """The original substrings now highlighted: the spans, then the emphasis."""
        if self._raw is None:
            return []
        result = []
        for selection in self._editor.extraSelections():
            if selection.format.property(KIND) in (SPAN, EMPHASIS):
                cursor = selection.cursor
                start = self._visible.qt_to_original(cursor.selectionStart())
                end = self._visible.qt_to_original(cursor.selectionEnd(), round_up=True)
                result.append(self._raw[start:end])
        return result

    def plain_text(self) -> str:
        """The text as displayed (stand-ins and display-only breaks included)."""
        return self._editor.toPlainText()

    def raw_text(self) -> str | None:
        """The original response, as given to :meth:`set_response`."""
        return self._raw

    def visible_text(self) -> VisibleText:
        """The sanitised text shown and its offset maps."""
        return self._visible

    def status_text(self) -> str:
        """The summary line under the text."""
        return self._status.text()

    def text_edit(self) -> QPlainTextEdit:
        """The inner text widget (for focus handling and tests)."""
        return self._editor

    def height_for_lines(self, lines: int) -> int:
        """The height that shows ``lines`` lines of the text and the summary under it."""
        editor = self._editor
        height = lines * editor.fontMetrics().lineSpacing() + 2 * editor.frameWidth()
        height += int(editor.document().documentMargin() * 2)
        summary = self._status.heightForWidth(self.width()) if self.width() > 0 else 0
        return height + max(summary, 0) + self._layout.spacing()

    def copy_raw(self) -> None:
        """Copy the original response to the clipboard as plain text.

        Lone surrogates, which a clipboard cannot carry (Qt would silently
        drop them), become U+FFFD.
        """
        if self._raw is not None:
            units = self._raw.encode("utf-16-le", "surrogatepass")
            QGuiApplication.clipboard().setText(units.decode("utf-16-le", "replace"))

    def copy_raw_action(self) -> QAction:
        """The "Copy raw response" action (Ctrl+Shift+C), e.g. for an Edit menu."""
        return self._copy_action

    # -- internals -------------------------------------------------------------

    def _show_current_hit(self) -> bool:
        """Select the current hit, scroll it into view, repaint; False if there is none."""
        self._hit_bar.show_hits(self._hits, searching=bool(self._terms) and self._raw is not None)
        current = self._hits.current_qt()
        if current is None:
            return False
        self._scroll_to(current[1], anchor=current[0])
        self._restyle(force=True)
        return True

    def _restyle(self, *, force: bool) -> None:
        """Set the extra selections: the spans, and the stand-ins, U+FFFD and
        breaks near the viewport (again only if the viewport left that range).
        """
        visible, editor = self._visible, self._editor
        if self._busy:  # setExtraSelections itself emits updateRequest
            return
        styled: list[QTextEdit.ExtraSelection] = []
        hits: list[QTextEdit.ExtraSelection] = []
        marks = (visible.marker_starts, visible.replacement_starts, visible.wrap_marks)
        if any(len(m) for m in marks) or self._hits.spans:
            top = editor.firstVisibleBlock().position()
            bottom = editor.cursorForPosition(editor.viewport().rect().bottomRight()).position()
            low, high = visible.qt_to_display(top), visible.qt_to_display(bottom)
            if not force and self._styled and self._styled[0] <= low and high <= self._styled[1]:
                return
            low = max(0, low - self.STYLE_MARGIN)
            high = min(len(visible.text), high + self.STYLE_MARGIN)
            self._styled = (low, high)
            styled = markings(
                editor.document(), visible, (low, high), self.STYLE_MARGIN, self.MAX_STYLED_RUNS
            )
            hits = self._hits.selections(editor.document(), visible, (low, high))
        elif not force:
            return
        self._busy = True
        try:
            editor.setExtraSelections([*styled, *self._pinned, *hits])
        finally:
            self._busy = False

    def _scroll_to(self, position: int, anchor: int | None = None) -> None:
        cursor = QTextCursor(self._editor.document())
        cursor.setPosition(position if anchor is None else anchor)
        if anchor is not None:  # a hit: selected, so the cursor is on it
            cursor.setPosition(position, QTextCursor.MoveMode.KeepAnchor)
        self._editor.setTextCursor(cursor)
        self._editor.centerCursor()
        self._center_when_shown = not self.isVisible()  # the viewport has no size yet

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._center_when_shown:
            self._center_when_shown = False
            self._editor.centerCursor()

    def _update_status(self) -> None:
        text = summary(self._raw, self._visible, self.MAX_LINE, self._missing)
        self._status.setText(text)
        self._editor.setAccessibleDescription(text)

    def _show_context_menu(self, position: QPoint) -> None:
        menu = self._editor.createStandardContextMenu(position)
        menu.addSeparator()
        menu.addAction(self._copy_action)
        menu.exec(self._editor.viewport().mapToGlobal(position))
        menu.deleteLater()


__all__ = ["NO_RESPONSE", "ResponseView"]
