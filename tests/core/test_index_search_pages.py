"""Search results are exactly a plain ``LIKE`` over the audit file: same hits, same order.

The full-text index and the pages cut from a resolved search (``TextSearch.id_page``)
are shortcuts; here every page, in both directions, with hops (``skip``) and from
keys in the middle, is compared with one ``LIKE`` statement on the audit file itself,
on a small demo whose responses hold common and rare words alike.
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from typing import TYPE_CHECKING, Any, Literal

import pytest

from ai4hse_desk.audit import open_audit
from ai4hse_desk.index import AttemptQuery, ReviewIndex, build_fts, ensure_index
from ai4hse_desk.index.search import escape_like, search_terms
from ai4hse_desk.writer.demo import write_demo

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

#: A term in about a third of the responses, mixed case, common words, a bracket,
#: two terms, a miss, and a term of two characters (LIKE only).
WORDS = ("FINAL_ANSWER", "final_answer", "hazard", "[true", "lockout procedure", "zzqx", "ok")


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("pages") / "demo.sqlite"
    write_demo(path, attempts=3_000)
    return path


@pytest.fixture
def index(demo: Path) -> Iterator[ReviewIndex]:
    with open_audit(demo) as db:
        build_fts(db)
        with ensure_index(db) as built:
            assert built.fts_ready
            yield built


def like_ids(audit: Path, text: str) -> list[int]:
    """The attempts whose raw response holds every term, by one LIKE on the audit file."""
    terms = search_terms(text)
    where = " AND ".join("raw_response LIKE ? ESCAPE '\\'" for _ in terms)
    uri = f"{audit.resolve().as_uri()}?mode=ro&immutable=1"
    with closing(sqlite3.connect(uri, uri=True)) as conn:
        rows = conn.execute(
            f"SELECT attempt_id FROM attempts WHERE {where} ORDER BY attempt_id",
            [f"%{escape_like(term)}%" for term in terms],
        ).fetchall()
    return [int(row[0]) for row in rows]


def _paged(index: ReviewIndex, query: AttemptQuery, descending: bool, limit: int) -> list[int]:
    """Every key of ``query`` in attempt order, one page at a time."""
    found: list[int] = []
    after = None
    while page := index.page_keys(query, "attempt_id", descending, after, limit=limit):
        if found:  # every page moves on (a page that repeats would loop forever)
            assert (page[0][1] < found[-1]) if descending else (page[0][1] > found[-1])
        found.extend(attempt_id for _, attempt_id in page)
        after = page[-1]
    return found


@pytest.mark.parametrize("mode", ["fts", "like"])
@pytest.mark.parametrize("words", WORDS)
def test_every_page_is_the_plain_like_result(
    demo: Path, index: ReviewIndex, mode: Literal["fts", "like"], words: str
) -> None:
    expected = like_ids(demo, words)
    query = AttemptQuery(text=words, text_mode=mode, text_scope=("responses",))
    index.clear_search_cache()
    assert index.count(query) == len(expected)
    assert _paged(index, query, False, 97) == expected
    assert _paged(index, query, True, 97) == expected[::-1]
    # The same keys when the list is a filter's (the SQL path, not a slice of ids).
    filtered = AttemptQuery(
        text=words,
        text_mode=mode,
        text_scope=("responses",),
        repetitions=(1, 2, 3),
    )
    assert _paged(index, filtered, False, 500) == expected
    _same_pages_from_the_middle(index, query, filtered, expected)


def _same_pages_from_the_middle(
    index: ReviewIndex, query: AttemptQuery, filtered: AttemptQuery, expected: list[int]
) -> None:
    """Pages of 5 from the middle key, both ways, with and without a hop: ``query``'s
    (a slice of resolved ids) equal ``filtered``'s (the SQL path)."""
    if len(expected) <= 10:
        return
    middle = expected[len(expected) // 2]
    for descending in (False, True):
        for skip in (0, 3):
            page = index.page_keys(query, "attempt_id", descending, (middle, middle), 5, skip)
            sql = index.page_keys(filtered, "attempt_id", descending, (middle, middle), 5, skip)
            assert page == sql
            assert len(page) == 5


def test_the_common_term_is_common_enough(demo: Path) -> None:
    """The demo really holds a term in a large share of responses (the slow case)."""
    with open_audit(demo) as db:
        total = db.count_attempts()
    assert len(like_ids(demo, "FINAL_ANSWER")) > total // 5
    assert like_ids(demo, "FINAL_ANSWER") == like_ids(demo, "final_answer")


@pytest.mark.parametrize("words", ["hazard", "PPE", "FINAL_ANSWER", "Q060", "zzqx"])
def test_the_count_of_a_search_in_every_place_is_the_counted_rows(
    index: ReviewIndex, words: str
) -> None:
    """Responses and question texts both matching: the count is their union (the
    attempts counted twice taken off), as one count over the rows gives it."""
    index.clear_search_cache()
    query = AttemptQuery(text=words)  # every scope
    filtered = AttemptQuery(text=words, repetitions=(1, 2, 3))  # the SQL count's path
    assert index.count(query) == index.count(filtered) == sum(index.count_by_status(query).values())


@pytest.mark.parametrize("words", ["hazard", "PPE", "Q060", "FINAL_ANSWER"])
def test_every_page_of_a_search_in_every_place_is_the_sql_page(
    index: ReviewIndex, words: str
) -> None:
    """Responses and question texts both matching: each page, both ways and with hops,
    merged from the responses' ids and the questions' attempts, is the SQL page."""
    index.clear_search_cache()
    query = AttemptQuery(text=words)  # every scope: the merged pages
    filtered = AttemptQuery(text=words, repetitions=(1, 2, 3))  # the SQL pages
    expected = _paged(index, filtered, False, 500)
    assert len(expected) == index.count(query)
    assert _paged(index, query, False, 97) == expected
    assert _paged(index, query, True, 97) == expected[::-1]
    _same_pages_from_the_middle(index, query, filtered, expected)


@pytest.mark.parametrize("mode", ["fts", "like"])
@pytest.mark.parametrize("words", [*WORDS, "PPE", "Q060"])
def test_the_first_page_found_before_counting_is_the_first_page(
    index: ReviewIndex, mode: Literal["fts", "like"], words: str
) -> None:
    """The first page by an index-driven LIMIT (the search not resolved, not counted) is
    exactly the first page of the resolved search, in every order, scope and filter."""
    extras: tuple[dict[str, Any], ...] = ({}, {"repetitions": (1, 2)})
    for scope in (("responses",), ("responses", "questions", "options"), ("options",)):
        for extra in extras:
            query = AttemptQuery(text=words, text_mode=mode, text_scope=scope, **extra)
            for sort, descending in (("attempt_id", False), ("attempt_id", True), ("status", True),
                                     ("ordinal", False)):  # fmt: skip
                index.clear_search_cache()
                first = index.first_keys(query, sort, descending, 40)
                assert first == index.page_keys(query, sort, descending, None, 40), (scope, sort)
                assert len(first) == min(40, index.count(query))


def test_a_first_page_reads_the_fts_candidates_not_every_response(index: ReviewIndex) -> None:
    """With the full-text index the first page's statement is driven by its candidates
    (and stops at the page's end): far fewer SQLite steps than the count's resolution."""
    query = AttemptQuery(text="FINAL_ANSWER", text_mode="fts", text_scope=("responses",))
    steps: list[int] = []

    def counted(call: object) -> int:
        conn = index.connections.connect()
        seen = [0]

        def tick() -> int:
            seen[0] += 1
            return 0

        conn.set_progress_handler(tick, 100)
        try:
            call()  # type: ignore[operator]
        finally:
            conn.set_progress_handler(None, 100)
        return seen[0]

    index.clear_search_cache()
    steps.append(counted(lambda: index.first_keys(query, "attempt_id", False, 20)))
    index.clear_search_cache()
    steps.append(counted(lambda: index.count(query)))
    assert steps[0] * 2 < steps[1]
