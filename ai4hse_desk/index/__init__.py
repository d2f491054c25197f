"""The desk's review index: a derived SQLite cache that makes the review table fast.

Built from an open :class:`~ai4hse_desk.audit.AuditDB` into the user's cache
directory (never beside the audit file; see :mod:`.location`), keyed by the
audit fingerprint, reused next time:

1. :func:`build_index` (stage 1): the desk's verdict on every attempt, one
   denormalised row each, indexed for the table's filters and sorts.
   :func:`open_index` returns a valid existing one, :func:`ensure_index` either.
2. :func:`build_fts` (stage 2, in the background): a trigram full-text index of
   the raw responses; until it is ready searches use ``LIKE``
   (``ReviewIndex.search_mode`` tells the window which).

Both builds take a progress callback that can cancel (:class:`BuildCancelled`;
nothing is left on disk). :class:`ReviewIndex` answers the table: counts,
keyset-paged keys (:class:`AttemptQuery`, :data:`SORT_COLUMNS`), light
:class:`ListRow` objects and the per-question compare grid.
"""

from ai4hse_desk.index.build import build_index, ensure_index, open_index
from ai4hse_desk.index.filters import (
    PARSE_ERROR_STATUSES,
    SORT_COLUMNS,
    AttemptQuery,
    ListRow,
    SortKey,
    SortValue,
    TextMode,
)
from ai4hse_desk.index.fts import FTS_FORMAT, build_fts, fts_ready
from ai4hse_desk.index.layout import INDEX_FORMAT, INDEXES
from ai4hse_desk.index.location import (
    CACHE_ENV,
    BuildCancelled,
    cache_dir,
    fts_path,
    index_path,
)
from ai4hse_desk.index.query import QueryInterrupted, ReviewIndex
from ai4hse_desk.index.search import search_terms

__all__ = [
    "CACHE_ENV",
    "FTS_FORMAT",
    "INDEXES",
    "INDEX_FORMAT",
    "PARSE_ERROR_STATUSES",
    "SORT_COLUMNS",
    "AttemptQuery",
    "BuildCancelled",
    "ListRow",
    "QueryInterrupted",
    "ReviewIndex",
    "SortKey",
    "SortValue",
    "TextMode",
    "build_fts",
    "build_index",
    "cache_dir",
    "ensure_index",
    "fts_path",
    "fts_ready",
    "index_path",
    "open_index",
    "search_terms",
]
