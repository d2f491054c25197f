"""Every row of a long listing by its position: keyset pages read from a known key.

The attempt list shows every matching attempt at its place (its scroll bar spans
the whole list) but holds only a few pages of ``(sort value, attempt_id)`` keys,
as Anki's browser holds ids and a small row cache. Page ``n`` holds the keys at
positions ``[n·PAGE, (n+1)·PAGE)``; it is read by keyset
(:meth:`~.query.ReviewIndex.page_keys`, never a long ``OFFSET`` scan) from a
*seed*, a position whose key is known:

* either end of the list (before the first row, after the last: Ctrl+Home, Ctrl+End);
* the first or last key of a page held in memory (scrolling on from there);
* a key whose position was counted in SQL (:meth:`ListPositions.find`: Go to);
* the *page ends*, found once per listing off the GUI thread by :func:`page_ends`
  (the last key of every full page; every key of a short listing read in one pass),
  after which any row (a scroll-bar drag, Go to a row number) is one index seek and
  one page away.

A seed more than :data:`WALK` keys away is not used: until the page ends are known,
such a row is not reachable yet (:meth:`ListPositions.key_at` returns ``None``; the
window shows a placeholder). The review index is opened ``immutable``, so a
position once found stays true for the listing.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, NamedTuple

from ai4hse_desk.index.query import QueryInterrupted

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from ai4hse_desk.index.filters import AttemptQuery, SortKey
    from ai4hse_desk.index.query import ReviewIndex
    from ai4hse_desk.progress import Progress

#: Keys per page (a page is read in one keyset statement).
PAGE = 256
#: At most this many keys are read to reach a page from its nearest seed.
WALK = 8 * PAGE
#: Pages of keys held per listing (least recently used dropped first).
HELD_PAGES = 64
#: Positions remembered from look-ups (each can seed its page).
POINTS = 64
#: A listing read in one ordered pass keeps every key when it has at most this many.
ALL_KEYS = 100_000
_REPORT_EVERY = 64


class Listing(NamedTuple):
    """One order of one query's attempts."""

    query: AttemptQuery
    sort: str = "attempt_id"
    descending: bool = False


def _report(progress: Progress | None, done: int, total: int) -> None:
    if progress is not None and not progress(done, total):
        raise QueryInterrupted("the row positions are no longer wanted")


class PageEnds(NamedTuple):
    """Where the pages of one listing begin, as :func:`page_ends` found them.

    Attributes:
        ends: the keys at positions ``PAGE-1``, ``2·PAGE-1``, …: the last key of
            every full page.
        keys: every key in order, when the pass read them all anyway and they are
            few (at most :data:`ALL_KEYS`); then no page is read again.
    """

    ends: list[SortKey]
    keys: list[SortKey] | None = None


def page_ends(
    index: ReviewIndex,
    listing: Listing,
    total: int,
    progress: Progress | None = None,
) -> PageEnds:
    """The last key of every full page of ``listing`` (``total`` keys).

    When the listing's pages are read along an index
    (:meth:`~.query.ReviewIndex.pages_in_index_order`) each page end is one short
    hop (a ``skip`` of ``PAGE - 1``) after the one before; otherwise (a search's
    id list, a sort SQLite would repeat for every page) one ordered pass over the
    keys keeps every ``PAGE``-th, or all of them if there are few.

    Raises:
        QueryInterrupted: ``progress`` returned False (or the index was interrupted).
    """
    wanted = total // PAGE
    query, sort, descending = _parts(listing)
    ends: list[SortKey] = []
    if index.pages_in_index_order(query, sort):
        after: SortKey | None = None
        while len(ends) < wanted:
            found = index.page_keys(query, sort, descending, after, limit=1, skip=PAGE - 1)
            if not found:
                break
            after = found[0]
            ends.append(after)
            if len(ends) % _REPORT_EVERY == 0:
                _report(progress, len(ends), wanted)
        return PageEnds(ends)
    keep_all = total <= ALL_KEYS
    keys: list[SortKey] = []
    seen = 0
    batches = index.iter_keys(query, sort, descending)
    try:
        for batch in batches:
            if keep_all:
                keys += batch
            else:
                ends += batch[(PAGE - 1 - seen) % PAGE :: PAGE]
            seen += len(batch)
            _report(progress, seen, total)
    finally:
        batches.close()
    if keep_all:
        return PageEnds(keys[PAGE - 1 :: PAGE][:wanted], keys)
    return PageEnds(ends[:wanted])


class ListPositions:
    """Where the rows of one listing are: a few pages of keys and the seeds to read more.

    Used from one thread (the window's); :func:`page_ends` runs elsewhere and its
    answer is handed over with :meth:`set_page_ends`.

    Args:
        total: how many attempts the listing has (counted in SQL).
        first_keys: keys already read from the start (a first page).
    """

    def __init__(
        self,
        index: ReviewIndex,
        listing: Listing,
        total: int,
        first_keys: Sequence[SortKey] = (),
    ) -> None:
        self.index = index
        self.listing = listing
        self.total = total
        self._pages: OrderedDict[int, list[SortKey]] = OrderedDict()
        self._held: dict[int, int] = {}  # attempt_id -> position, over the held pages
        self._ends: list[SortKey] | None = None
        self._keys: list[SortKey] | None = None  # every key, when page_ends kept them
        self._points: OrderedDict[int, SortKey] = OrderedDict()
        self._hold(0, list(first_keys))

    @property
    def all_reachable(self) -> bool:
        """True when any row can be read at once: the page ends are known, or the
        listing is short enough to walk from one of its ends."""
        return self._ends is not None or self.total <= 2 * WALK

    def set_page_ends(self, found: PageEnds) -> bool:
        """Take the :func:`page_ends` of this listing (False if they cannot be its)."""
        if len(found.ends) != self.total // PAGE:
            return False
        if found.keys is not None and len(found.keys) != self.total:
            return False
        self._ends, self._keys = found.ends, found.keys
        return True

    # -- keys by position -------------------------------------------------------------

    def held_page(self, number: int) -> list[SortKey] | None:
        """Page ``number`` if it is held (nothing is read)."""
        return self._pages.get(number)

    def key_at(self, position: int) -> SortKey | None:
        """The key at ``position`` (reading its page if a seed is near); ``None``
        outside the listing or while its page is not reachable."""
        if not 0 <= position < self.total:
            return None
        number, offset = divmod(position, PAGE)
        page = self._pages.get(number)  # a held page: no bookkeeping (this runs per cell)
        if page is None:
            page = self.page(number)
        return page[offset] if page is not None and offset < len(page) else None

    def page(self, number: int) -> list[SortKey] | None:
        """Page ``number``, read from its nearest seed when not held."""
        held = self._pages.get(number)
        if held is not None:
            self._pages.move_to_end(number)
            return held
        start = number * PAGE
        stop = min(self.total, start + PAGE)
        if not 0 <= start < stop:
            return None
        if self._keys is not None:
            self._hold(start, self._keys[start:stop])
            return self._pages.get(number)
        best: tuple[int, int, SortKey | None] | None = None
        for position, key in self._seeds(number, start, stop):
            cost = _cost(position, start, stop)
            if cost <= WALK and (best is None or cost < best[0]):
                best = (cost, position, key)
        if best is None:
            return None
        self._read(best[1], best[2], start, stop)
        return self._pages.get(number)

    def _seeds(self, number: int, start: int, stop: int) -> Iterator[tuple[int, SortKey | None]]:
        yield -1, None  # before the first row
        yield self.total, None  # after the last
        ends = self._ends
        if ends is not None:
            if 0 < number <= len(ends):
                yield start - 1, ends[number - 1]
            if number < len(ends):
                yield stop - 1, ends[number]
        reach = WALK // PAGE + 1
        for near in range(number - reach, number + reach + 1):
            page = self._pages.get(near)
            if page:
                yield near * PAGE, page[0]
                yield near * PAGE + len(page) - 1, page[-1]
        yield from self._points.items()

    def _read(self, seed: int, key: SortKey | None, start: int, stop: int) -> None:
        """Read the keys between ``seed`` (whose key is ``key``) and the page [start, stop)."""
        index, (query, sort, descending) = self.index, _parts(self.listing)
        if seed < start:
            after = index.page_keys(query, sort, descending, key, limit=stop - 1 - seed)
            self._hold(seed + 1, after)
            return
        if seed >= stop:
            before = index.page_keys(query, sort, not descending, key, limit=seed - start)
            self._hold(seed - len(before), before[::-1])
            return
        assert key is not None  # a seed inside the page is a real key
        keys = [key]
        if seed > start:
            keys[:0] = index.page_keys(query, sort, not descending, key, limit=seed - start)[::-1]
        if seed < stop - 1:
            keys += index.page_keys(query, sort, descending, key, limit=stop - 1 - seed)
        self._hold(seed - keys.index(key), keys)

    def _hold(self, first: int, keys: list[SortKey]) -> None:
        """Keep every whole page among ``keys`` (the first at position ``first``)."""
        end = min(first + len(keys), self.total)
        number = -(-first // PAGE)
        while True:
            start = number * PAGE
            stop = min(self.total, start + PAGE)
            if start >= stop or stop > end:
                break
            page = keys[start - first : stop - first]
            self._pages[number] = page
            self._pages.move_to_end(number)
            for offset, key in enumerate(page):
                self._held[key[1]] = start + offset
            number += 1
        while len(self._pages) > HELD_PAGES:
            _number, page = self._pages.popitem(last=False)
            for key in page:
                self._held.pop(key[1], None)

    # -- positions of keys ------------------------------------------------------------

    def held_position(self, attempt_id: int) -> int | None:
        """The position of ``attempt_id`` if a held page shows it (nothing is read)."""
        return self._held.get(attempt_id)

    def find(self, attempt_id: int) -> int | None:
        """The position of ``attempt_id`` in the listing (``None``: not listed)."""
        held = self._held.get(attempt_id)
        if held is not None:
            return held
        key = self.index.key_of(self.listing.query, self.listing.sort, attempt_id)
        return None if key is None else self.position_of(key)

    def position_of(self, key: SortKey) -> int:
        """The position of a listed ``key``: from a held page, from the page ends
        (a binary search, then its page) or counted in SQL. The key seeds its page."""
        held = self._held.get(key[1])
        if held is not None:
            return held
        if self._ends is not None:
            self.page(self._page_of(key))
            held = self._held.get(key[1])
            if held is not None:
                return held
        query, sort, descending = _parts(self.listing)
        position = self.index.count_before(query, sort, descending, key)
        self._points[position] = key
        self._points.move_to_end(position)
        while len(self._points) > POINTS:
            self._points.popitem(last=False)
        return position

    def _page_of(self, key: SortKey) -> int:
        """The page whose keys range over ``key``: how many page ends come before it."""
        ends = self._ends or []
        descending = self.listing.descending
        low, high = 0, len(ends)
        while low < high:
            middle = (low + high) // 2
            end = ends[middle]
            if (end > key) if descending else (end < key):
                low = middle + 1
            else:
                high = middle
        return low


def _cost(seed: int, start: int, stop: int) -> int:
    """Keys read to fill the page [start, stop) from a seed at position ``seed``."""
    if seed < start:
        return stop - 1 - seed
    if seed >= stop:
        return seed - start
    return stop - start - 1


def _parts(listing: Listing) -> tuple[AttemptQuery, str, bool]:
    return listing.query, listing.sort, listing.descending


__all__ = [
    "ALL_KEYS",
    "HELD_PAGES",
    "PAGE",
    "WALK",
    "ListPositions",
    "Listing",
    "PageEnds",
    "page_ends",
]
