"""The attempt list's row cache: light rows read a window at a time, a bad row alone.

The table model asks :class:`RowCache` for the :class:`~ai4hse_desk.index.ListRow`
of the attempt at a row, together with the attempts around it in its page
(:func:`window_ids`), so one statement fills the rows a view paints. A row the
index cannot turn into a ``ListRow`` (a value the schema forbids) spoils its
window: that row is read alone, and if it still fails it is remembered as broken
(shown disabled) and reported once.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING

from ai4hse_desk.gui.qt_guard import READ_ERRORS
from ai4hse_desk.index.positions import PAGE

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from ai4hse_desk.index import ListRow, ReviewIndex, SortKey
    from ai4hse_desk.index.positions import ListPositions

#: Rows kept (least recently used dropped first).
CACHE_ROWS = 2_000
#: Attempts read together around the one asked for.
FETCH_WINDOW = 100


def window_ids(page: Sequence[SortKey], offset: int) -> list[int]:
    """The attempts of ``page`` around position ``offset`` in it, read together."""
    start = max(0, min(offset - FETCH_WINDOW // 2, len(page) - FETCH_WINDOW))
    return [key[1] for key in page[start : start + FETCH_WINDOW]]


def ids_around(rows: ListPositions, row: int, attempt_id: int) -> list[int]:
    """The attempts read with ``attempt_id``, shown at ``row`` of ``rows``: its page's
    :func:`window_ids`, or itself alone when that page is not held."""
    page = rows.held_page(row // PAGE)
    return [attempt_id] if page is None else window_ids(page, row % PAGE)


class RowCache:
    """The light rows of the attempts shown lately.

    Args:
        report: told of a row that cannot be read (once per broken row).
    """

    def __init__(self, report: Callable[[BaseException], None]) -> None:
        self._report = report
        self._rows: OrderedDict[int, ListRow] = OrderedDict()
        self._broken: set[int] = set()  # attempts whose row cannot be read
        self.flagged: frozenset[str] = frozenset()  # questions with a reviewer's flag

    def clear(self) -> None:
        """Forget every row read (the list or the flags changed)."""
        self._rows.clear()

    def forget_broken(self) -> None:
        """Another file: no row is known to be unreadable."""
        self._broken.clear()

    def is_broken(self, attempt_id: int | None) -> bool:
        """True when ``attempt_id``'s row could not be read."""
        return attempt_id in self._broken

    def get(
        self, index: ReviewIndex, attempt_id: int, window: Callable[[], Sequence[int]]
    ) -> ListRow | None:
        """The row of ``attempt_id``, reading ``window()`` (attempts shown near it) if
        needed (a view asks for each cell and role: a row read already costs a look-up)."""
        cached = self._rows.get(attempt_id)
        if cached is not None:
            self._rows.move_to_end(attempt_id)
            return cached
        if attempt_id in self._broken:
            return None
        ids = [i for i in window() if i not in self._broken] or [attempt_id]
        try:
            items = index.rows(ids, self.flagged)
        except READ_ERRORS:  # one bad row spoils its window: read this row alone
            try:
                items = index.rows([attempt_id], self.flagged)
            except READ_ERRORS as exc:
                self._broken.add(attempt_id)
                self._report(exc)
                return None
        for item in items:
            self._rows[item.attempt_id] = item
        while len(self._rows) > CACHE_ROWS:
            self._rows.popitem(last=False)
        return self._rows.get(attempt_id)


__all__ = ["CACHE_ROWS", "FETCH_WINDOW", "RowCache", "ids_around", "window_ids"]
