"""Reading the review index: :class:`ReviewIndex` answers the review table.

Following Anki's browser, the table holds *keys*, not rows: it asks for one page
of ``(sort value, attempt_id)`` keys at a time with keyset paging (the last key
seen, never ``OFFSET``) and fetches light :class:`ListRow` objects only for the
keys it shows. Filtering, counting and sorting happen in SQL on the index. For
:mod:`.positions` (every row of a long list by its position) it also hops a few
keys within a page (``skip``), counts the keys before one and reads a listing's
keys in one ordered pass.

Threads: every thread queries on its own read-only connection (see
:mod:`.connections`). Close the index before the :class:`~ai4hse_desk.audit.AuditDB`.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Literal

from ai4hse_desk.index.connections import IndexConnections, QueryInterrupted, interruptible
from ai4hse_desk.index.filters import (
    ROW_COLUMNS,
    SEARCH_SCOPES,
    AttemptQuery,
    ListRow,
    SortKey,
    sort_column,
    where_sql,
)
from ai4hse_desk.index.location import audit_uri, fts_path, read_meta
from ai4hse_desk.index.search import TextSearch
from ai4hse_desk.index.stored import (
    VERDICT_COLUMNS,
    VERDICT_FROM,
    read_verdict_batches,
    stored_verdict,
)
from ai4hse_desk.protocol.outcome import Status

if TYPE_CHECKING:
    from collections.abc import Generator, Iterable, Iterator, Sequence
    from pathlib import Path
    from types import TracebackType

    from ai4hse_desk.audit import AuditDB
    from ai4hse_desk.verdicts.attempt_verdict import AttemptVerdict, VerdictTuple


def _only_text(query: AttemptQuery) -> bool:
    """True when ``query`` asks for nothing but a search text."""
    return replace(query, text=None, text_mode="auto", text_scope=SEARCH_SCOPES) == AttemptQuery()


class ReviewIndex:
    """A built review index of one audit database (see :func:`open_index`)."""

    def __init__(self, path: Path, db: AuditDB) -> None:
        self.path = path
        self.fingerprint = db.fingerprint()
        self.fts_path = fts_path(self.fingerprint)
        self.meta: dict[str, str] = read_meta(path) or {}
        self._connections = IndexConnections(path, audit_uri(db), self.fts_path, self.fingerprint)
        self._search = TextSearch(self._connections.all)

    # -- connections (see .connections) ----------------------------------------

    @property
    def fts_ready(self) -> bool:
        """True once the full-text index of this audit is complete (checked on disk)."""
        return self._connections.fts_ready

    @property
    def connections(self) -> IndexConnections:
        """This index's read-only connections, for a raw statement (benchmarks, tests)."""
        return self._connections

    def _all(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """One statement's rows (see :meth:`IndexConnections.all`)."""
        return self._connections.all(sql, params)

    def interrupt(self) -> None:
        """Abort every running query of this index (they raise :class:`QueryInterrupted`)."""
        self._connections.interrupt()

    def close(self) -> None:
        """Close every thread's connection; idempotent."""
        self._connections.close()

    def __enter__(self) -> ReviewIndex:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"ReviewIndex({str(self.path)!r}, fts_ready={self._connections.fts_found})"

    # -- filters and counts ---------------------------------------------------

    def search_mode(self, query: AttemptQuery | None) -> Literal["fts", "like"] | None:
        """How ``query``'s text is searched: ``None`` (no text), ``"fts"`` or
        ``"like"`` (slower: scans every response). ``ValueError`` if the query
        asks for ``"fts"`` before the full-text index is built."""
        if query is None or not (query.text and query.text.strip()):
            return None
        if query.text_mode == "like":
            return "like"
        if self.fts_ready:
            return "fts"
        if query.text_mode == "fts":
            raise ValueError("the full-text index is not built yet")
        return "like"

    def _where(self, query: AttemptQuery | None) -> tuple[str, list[Any]]:
        mode = self.search_mode(query)
        if query is None or mode is None:
            return where_sql(query)
        return where_sql(query, self._search.condition(query.text, mode == "fts", query.text_scope))

    def clear_search_cache(self) -> None:
        """Forget the remembered results of recent searches (see :mod:`.search`)."""
        self._search.clear()

    def total(self) -> int:
        """Number of attempts in the index."""
        if "attempts" in self.meta:
            return int(self.meta["attempts"])
        return int(self._all("SELECT count(*) FROM rows")[0][0])

    def count(self, query: AttemptQuery | None = None) -> int:
        """Number of attempts matching ``query``."""
        mode = self.search_mode(query)
        if query is not None and mode is not None and _only_text(query):
            # A plain search: resolving it counted its responses (see TextSearch.match_count).
            known = self._search.match_count(query.text, mode == "fts", query.text_scope)
            if known is not None:
                return known
        where, params = self._where(query)
        return int(self._all(f"SELECT count(*) FROM rows WHERE {where}", params)[0][0])

    def count_by_status(self, query: AttemptQuery | None = None) -> dict[str, int]:
        """Matching attempts per desk status, in protocol order; absent statuses omitted.

        The values add up to :meth:`count`, so a caller needing both may skip it.
        """
        where, params = self._where(query)
        # Unfiltered, walking the status index is fastest; filtered, "+status" stops
        # SQLite from walking all of it and lets it use the filter's index instead.
        group = "status" if where == "1" else "+status"
        sql = f"SELECT status, count(*) FROM rows WHERE {where} GROUP BY {group}"
        found = dict(self._all(sql, params))
        return {s.value: int(found[s.value]) for s in Status if s.value in found}

    # -- keys and rows --------------------------------------------------------

    def page_keys(
        self,
        query: AttemptQuery | None = None,
        sort: str = "attempt_id",
        descending: bool = False,
        after: SortKey | None = None,
        limit: int = 500,
        skip: int = 0,
    ) -> list[SortKey]:
        """One page of ``(sort value, attempt_id)`` keys of matching attempts.

        Args:
            sort: a column of :data:`~.filters.SORT_COLUMNS`; ties by attempt_id.
            descending: reverse order (ties then by descending attempt_id).
            after: the last key of the previous page; ``None`` for the first page.
            limit: page size.
            skip: keys passed over first: a hop within a page (the row positions'
                page ends), never a long ``OFFSET`` scan.

        Keyset paging: a page after ``(v, id)`` is the rest of the tie group
        ``v`` after ``id`` followed by the values beyond ``v``, each an index
        seek (``(col, attempt_id) > (v, id)`` as a row value would make SQLite
        walk the whole tie group).
        """
        if limit < 1 or skip < 0:
            raise ValueError(f"limit must be positive and skip not negative, not {limit}, {skip}")
        col = sort_column(sort)
        mode = self.search_mode(query)
        if col == "attempt_id" and query is not None and mode is not None and _only_text(query):
            # A plain search in attempt order: a slice of the ids it resolved to.
            ids = self._search.id_page(
                query.text, mode == "fts", query.text_scope, after=None if after is None
                else int(after[1]), descending=descending, limit=limit, skip=skip,
            )  # fmt: skip
            if ids is not None:
                return [(attempt_id, attempt_id) for attempt_id in ids]
        where, params = self._where(query)
        op, direction = ("<", "DESC") if descending else (">", "ASC")
        select = f"SELECT {col}, attempt_id FROM rows WHERE {where}"
        order = f"ORDER BY {col} {direction}, attempt_id {direction} LIMIT ? OFFSET ?"
        if col == "attempt_id":
            order = f"ORDER BY attempt_id {direction} LIMIT ? OFFSET ?"
            if after is None:
                return self._keys(f"{select} {order}", [*params, limit, skip])
            sql = f"{select} AND attempt_id {op} ? {order}"
            return self._keys(sql, [*params, int(after[1]), limit, skip])
        if after is None:
            return self._keys(f"{select} {order}", [*params, limit, skip])
        value, last_id = after
        tie = f"{where} AND {col} = ? AND attempt_id {op} ?"
        tie_params = [*params, value, int(last_id)]
        tie_order = f"ORDER BY attempt_id {direction} LIMIT ? OFFSET ?"
        page = self._keys(
            f"SELECT {col}, attempt_id FROM rows WHERE {tie} {tie_order}",
            [*tie_params, limit, skip],
        )
        if len(page) == limit:
            return page
        if not page and skip:  # the whole rest of the tie group was passed over
            sql = f"SELECT count(*) FROM (SELECT 1 FROM rows WHERE {tie} LIMIT ?)"
            skip -= int(self._all(sql, [*tie_params, skip])[0][0])
        else:
            skip = 0
        rest = f"{select} AND {col} {op} ? {order}"
        return page + self._keys(rest, [*params, value, limit - len(page), skip])

    def first_keys(
        self,
        query: AttemptQuery | None = None,
        sort: str = "attempt_id",
        descending: bool = False,
        limit: int = 500,
    ) -> list[SortKey]:
        """The first page of :meth:`page_keys` without counting the matches: a search
        is tested row by row in the listing's order, each place it may match up to its
        ``limit``-th key, and the places' pages merged (datasette's first page). Fewer
        than ``limit`` keys are every match."""
        mode = self.search_mode(query)
        if query is None or mode is None:
            return self.page_keys(query, sort, descending, None, limit)
        if limit < 1:
            raise ValueError(f"limit must be positive, not {limit}")
        col = sort_column(sort)
        direction = "DESC" if descending else "ASC"
        order = f"{col} {direction}, attempt_id {direction}"
        places = self._search.first_conditions(query.text, mode == "fts", query.text_scope)
        pages: list[str] = []
        params: list[Any] = []
        for place in places:
            where, found = where_sql(query, place)
            pages.append(
                f"SELECT * FROM (SELECT {col}, attempt_id FROM rows WHERE {where} "
                f"ORDER BY {order} LIMIT ?)"
            )
            params.extend([*found, limit])
        if not pages:
            return []
        outer = f"1 {direction}, 2 {direction}"
        return self._keys(f"{' UNION '.join(pages)} ORDER BY {outer} LIMIT ?", [*params, limit])

    def _keys(self, sql: str, params: Sequence[Any]) -> list[SortKey]:
        return [(row[0], int(row[1])) for row in self._all(sql, params)]

    def count_before(
        self, query: AttemptQuery | None, sort: str, descending: bool, key: SortKey
    ) -> int:
        """How many matching attempts come before ``key`` in this order: its row number
        (from 0) when it is listed. Two index range counts, no ``OFFSET``."""
        col = sort_column(sort)
        where, params = self._where(query)
        op = ">" if descending else "<"
        value, attempt_id = key
        if col == "attempt_id":
            sql = f"SELECT count(*) FROM rows WHERE {where} AND attempt_id {op} ?"
            return int(self._all(sql, [*params, int(attempt_id)])[0][0])
        sql = (
            f"SELECT (SELECT count(*) FROM rows WHERE {where} AND {col} {op} ?)"
            f" + (SELECT count(*) FROM rows WHERE {where} AND {col} = ? AND attempt_id {op} ?)"
        )
        return int(self._all(sql, [*params, value, *params, value, int(attempt_id)])[0][0])

    def key_of(self, query: AttemptQuery | None, sort: str, attempt_id: int) -> SortKey | None:
        """The sort key of ``attempt_id`` if it matches ``query`` (``None`` otherwise)."""
        col = sort_column(sort)
        where, params = self._where(query)
        sql = f"SELECT {col}, attempt_id FROM rows WHERE attempt_id = ? AND {where}"
        found = self._keys(sql, [int(attempt_id), *params])
        return found[0] if found else None

    def iter_keys(
        self, query: AttemptQuery | None, sort: str, descending: bool, batch: int = 20_000
    ) -> Generator[list[SortKey]]:
        """Every matching key in order, ``batch`` at a time (one statement, one sort)."""
        col = sort_column(sort)
        where, params = self._where(query)
        direction = "DESC" if descending else "ASC"
        order = f"attempt_id {direction}"
        if col != "attempt_id":
            order = f"{col} {direction}, {order}"
        sql = f"SELECT {col}, attempt_id FROM rows WHERE {where} ORDER BY {order}"
        cursor = self._connections.connect().cursor()
        try:
            with interruptible():
                cursor.execute(sql, params)
                while rows := cursor.fetchmany(batch):
                    yield rows  # (value, attempt_id) tuples as SQLite gives them: the keys
        finally:
            cursor.close()

    def pages_in_index_order(self, query: AttemptQuery | None, sort: str) -> bool:
        """True when a page of this listing is read along an index (no sort of every
        match first, no search's id list to expand): short hops from page to page
        then cost a page each."""
        if self.search_mode(query) is not None:
            return False
        col = sort_column(sort)
        where, params = self._where(query)
        sql = (
            f"EXPLAIN QUERY PLAN SELECT {col}, attempt_id FROM rows WHERE {where} "
            f"AND {col} > ? ORDER BY {col}, attempt_id LIMIT 1 OFFSET 1"
        )
        plan = " ".join(str(row[-1]) for row in self._all(sql, [*params, 0]))
        return "TEMP B-TREE" not in plan

    def find_question(self, text: str) -> str | None:
        """The question id ``text`` names: exactly, else the one that matches
        ignoring ASCII case (``None`` when none does, or several do)."""
        found = self._all("SELECT question_id FROM questions WHERE question_id = ?", [text])
        if not found:
            sql = "SELECT question_id FROM questions WHERE question_id = ? COLLATE NOCASE LIMIT 2"
            found = self._all(sql, [text])
        return str(found[0][0]) if len(found) == 1 else None

    def next_matching(
        self,
        query: AttemptQuery | None,
        sort: str = "attempt_id",
        after: SortKey | None = None,
        descending: bool = False,
    ) -> SortKey | None:
        """The first matching key after ``after`` in this order (e.g. "next parse error")."""
        page = self.page_keys(query, sort, descending, after, limit=1)
        return page[0] if page else None

    def neighbour_question(
        self, ordinal: int, direction: int, query: AttemptQuery | None = None
    ) -> int | None:
        """The nearest question ordinal after (``direction`` > 0) or before ``ordinal``
        that has a matching attempt; ``None`` at either end."""
        where, params = self._where(query)
        pick, op = ("min", ">") if direction > 0 else ("max", "<")
        sql = f"SELECT {pick}(ordinal) FROM rows WHERE ordinal {op} ? AND {where}"
        found = self._all(sql, [int(ordinal), *params])[0][0]
        return None if found is None else int(found)

    def rows(self, attempt_ids: Iterable[int], flagged: Iterable[str] = ()) -> list[ListRow]:
        """Light rows for ``attempt_ids``, in the order given; unknown ids are skipped.

        Args:
            flagged: question ids with a reviewer's flag (fills ``ListRow.flagged``).
        """
        wanted = [int(attempt_id) for attempt_id in attempt_ids]
        if not wanted:
            return []
        marked = frozenset(flagged)
        sql = f"SELECT {ROW_COLUMNS} FROM rows WHERE attempt_id IN (SELECT value FROM json_each(?))"
        found = {
            int(row[0]): ListRow.from_row(row, row[2] in marked)
            for row in self._all(sql, [json.dumps(wanted)])
        }
        return [found[attempt_id] for attempt_id in wanted if attempt_id in found]

    def verdict(self, attempt_id: int) -> AttemptVerdict | None:
        """The desk's stored verdict on one attempt (``None`` for an unknown id)."""
        sql = f"SELECT {VERDICT_COLUMNS} FROM {VERDICT_FROM} WHERE r.attempt_id = ?"
        found = self._all(sql, [int(attempt_id)])
        return stored_verdict(found[0]) if found else None

    def verdict_batches(
        self, exclude_questions: Iterable[str] = (), batch: int = 10_000
    ) -> Iterator[list[VerdictTuple]]:
        """Every stored verdict in attempt_id order, as the rescore loop yields them.

        The same :data:`~ai4hse_desk.verdicts.rescore.VerdictTuple` batches as
        :func:`~ai4hse_desk.verdicts.rescore.iter_verdict_batches`, read from the
        index instead of derived again (the outcome has no spans), so the window's
        scores and key audit count exactly the verdicts the table shows.
        Attempts of ``exclude_questions`` are left out.
        """
        cursor = self._connections.connect().cursor()
        try:
            yield from read_verdict_batches(cursor, frozenset(exclude_questions), batch)
        finally:
            cursor.close()

    def compare_grid(self, question_id: str, flagged: Iterable[str] = ()) -> list[ListRow]:
        """Every attempt of ``question_id`` across runs and repetitions, ordered by
        run then repetition."""
        marked = frozenset(flagged)
        sql = (
            f"SELECT {ROW_COLUMNS} FROM rows WHERE ordinal = "
            "(SELECT ordinal FROM questions WHERE question_id = ?) ORDER BY run_id, repetition"
        )
        return [ListRow.from_row(row, row[2] in marked) for row in self._all(sql, [question_id])]


__all__ = ["QueryInterrupted", "ReviewIndex"]
