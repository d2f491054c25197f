"""Querying the review index on the demo database, against brute force in Python."""

from __future__ import annotations

import threading
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pytest

from ai4hse_desk.audit import AuditDB, open_audit
from ai4hse_desk.index import (
    CACHE_ENV,
    PARSE_ERROR_STATUSES,
    SORT_COLUMNS,
    AttemptQuery,
    ListRow,
    QueryInterrupted,
    ReviewIndex,
    SortKey,
    ensure_index,
    positions,
)
from ai4hse_desk.index.positions import Listing, ListPositions, page_ends
from ai4hse_desk.verdicts.rescore import iter_verdicts
from ai4hse_desk.writer.demo import write_demo

if TYPE_CHECKING:
    from collections.abc import Iterator


@dataclass(frozen=True)
class Ref:
    """One attempt as brute force sees it: the index's columns, from iter_verdicts."""

    attempt_id: int
    ordinal: int
    question_id: str
    run_id: str
    model: str
    track: str
    repetition: int
    status: str
    correct: int
    strict: int
    disagrees: int
    labels: dict[str, str]


@dataclass
class Demo:
    db: AuditDB
    index: ReviewIndex
    refs: list[Ref]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Demo]:
    folder = tmp_path_factory.mktemp("index-query")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(folder / "cache"))
        write_demo(folder / "demo.sqlite")
        with open_audit(folder / "demo.sqlite") as db:
            runs = {run.run_id: run for run in db.runs()}
            questions = {q.question_id: q for q in db.questions()}
            refs = [
                Ref(
                    v.attempt_id, questions[v.question_id].ordinal, v.question_id, v.run_id,
                    runs[v.run_id].model, runs[v.run_id].track.value, v.repetition,
                    v.outcome.status.value, int(v.correct), int(v.outcome.strict_format),
                    int(not v.agrees), dict(questions[v.question_id].labels),
                )
                for v in iter_verdicts(db)
            ]  # fmt: skip
            with ensure_index(db) as index:
                yield Demo(db, index, refs)


def _holds(query: AttemptQuery, ref: Ref) -> bool:
    """What ``query`` means (without text), written out in Python."""
    facets: dict[str, set[str]] = {}
    for facet, value in query.labels or ():
        facets.setdefault(facet, set()).add(value)
    checks = [
        query.run_ids is None or ref.run_id in query.run_ids,
        query.models is None or ref.model in query.models,
        query.tracks is None or ref.track in query.tracks,
        query.repetitions is None or ref.repetition in query.repetitions,
        query.statuses is None or ref.status in query.statuses,
        query.correct is None or ref.correct == int(query.correct),
        not query.disagreements_only or ref.disagrees == 1,
        query.labels is None or bool(query.labels),
        all(ref.labels.get(facet) in values for facet, values in facets.items()),
        query.question_ids is None or ref.question_id in query.question_ids,
        query.flagged_question_ids is None or ref.question_id in query.flagged_question_ids,
    ]
    return all(checks)


def _queries(demo: Demo) -> list[AttemptQuery]:
    runs = demo.db.runs()
    topics = demo.db.label_facets()["topic"]
    return [
        AttemptQuery(),
        AttemptQuery(run_ids=(runs[0].run_id,)),
        AttemptQuery(run_ids=tuple(run.run_id for run in runs[:3])),
        AttemptQuery(models=(runs[1].model,), repetitions=(1, 3)),
        AttemptQuery(tracks=("reasoning_assisted", "structured_output")),
        AttemptQuery(statuses=("malformed",)),
        AttemptQuery(statuses=PARSE_ERROR_STATUSES),
        AttemptQuery(statuses=("valid",), correct=False),
        AttemptQuery(correct=True, tracks=("answer_only",)),
        AttemptQuery(disagreements_only=True),
        AttemptQuery(labels=(("topic", topics[0]),)),
        AttemptQuery(labels=(("topic", topics[0]), ("topic", topics[1]))),
        AttemptQuery(labels=(("topic", topics[0]), ("topic", topics[1]), ("difficulty", "easy"))),
        AttemptQuery(labels=(("topic", "no such topic"),)),
        AttemptQuery(labels=()),
        AttemptQuery(question_ids=("Q001", "Q017", "nope")),
        AttemptQuery(question_ids=tuple(f"Q{i:03d}" for i in range(1, 90))),  # JSON list
        AttemptQuery(flagged_question_ids=("Q002", "Q003"), statuses=("valid", "missing")),
        AttemptQuery(flagged_question_ids=()),
        AttemptQuery(run_ids=()),
    ]


def _expected(demo: Demo, query: AttemptQuery) -> list[Ref]:
    return [ref for ref in demo.refs if _holds(query, ref)]


def test_counts_equal_brute_force(demo: Demo) -> None:
    assert demo.index.total() == len(demo.refs) == 2400
    assert demo.index.count() == 2400
    for query in _queries(demo):
        expected = _expected(demo, query)
        assert demo.index.count(query) == len(expected), query
        by_status = Counter(ref.status for ref in expected)
        assert demo.index.count_by_status(query) == dict(by_status), query


def test_the_filters_select_something(demo: Demo) -> None:
    """The brute-force comparison means something: most filters match a proper subset."""
    sizes = [len(_expected(demo, query)) for query in _queries(demo)]
    assert sum(1 for size in sizes if 0 < size < 2400) >= 14
    assert 0 < len(_expected(demo, AttemptQuery(disagreements_only=True))) < 100


def test_count_by_status_is_in_protocol_order(demo: Demo) -> None:
    counts = demo.index.count_by_status()
    assert list(counts)[:4] == ["pending", "provider_error", "incomplete", "valid"]
    assert sum(counts.values()) == 2400
    assert len(counts) == 12


def _sort_value(ref: Ref, sort: str) -> Any:
    return getattr(ref, sort)


def _page_all(index: ReviewIndex, query: AttemptQuery, sort: str, desc: bool) -> list[SortKey]:
    keys: list[SortKey] = []
    after: SortKey | None = None
    while page := index.page_keys(query, sort, desc, after, limit=37):
        assert len(page) <= 37
        keys += page
        after = page[-1]
    return keys


@pytest.mark.parametrize("sort", SORT_COLUMNS)
@pytest.mark.parametrize("descending", [False, True])
def test_keyset_paging_visits_every_row_once_in_order(
    demo: Demo, sort: str, descending: bool
) -> None:
    for query in (AttemptQuery(), AttemptQuery(statuses=PARSE_ERROR_STATUSES, repetitions=(2,))):
        expected = sorted(
            ((_sort_value(ref, sort), ref.attempt_id) for ref in _expected(demo, query)),
            reverse=descending,
        )
        assert _page_all(demo.index, query, sort, descending) == expected


def test_keys_reject_unknown_sorts_and_bad_limits(demo: Demo) -> None:
    with pytest.raises(ValueError, match="cannot sort by"):
        demo.index.page_keys(None, "raw_response; DROP TABLE rows")
    with pytest.raises(ValueError, match="limit must be positive"):
        demo.index.page_keys(None, limit=0)


def test_next_matching_and_neighbour_question(demo: Demo) -> None:
    errors = AttemptQuery(statuses=PARSE_ERROR_STATUSES)
    ids = [ref.attempt_id for ref in _expected(demo, errors)]
    assert demo.index.next_matching(errors, "attempt_id", (ids[3], ids[3])) == (ids[4], ids[4])
    assert demo.index.next_matching(errors, "attempt_id", (ids[-1], ids[-1])) is None
    back = demo.index.next_matching(errors, "attempt_id", (ids[3], ids[3]), descending=True)
    assert back == (ids[2], ids[2])
    ordinals = sorted({ref.ordinal for ref in _expected(demo, errors)})
    assert demo.index.neighbour_question(ordinals[0], 1, errors) == ordinals[1]
    assert demo.index.neighbour_question(ordinals[1], -1, errors) == ordinals[0]
    assert demo.index.neighbour_question(ordinals[-1], 1, errors) is None
    assert demo.index.neighbour_question(0, 1) == 1
    assert demo.index.neighbour_question(1, -1) is None


def test_rows_keep_the_order_given_and_mark_flags(demo: Demo) -> None:
    by_id = {ref.attempt_id: ref for ref in demo.refs}
    wanted = [2400, 7, 10**9, 1, 7]
    rows = demo.index.rows(wanted, flagged={by_id[7].question_id})
    assert [row.attempt_id for row in rows] == [2400, 7, 1, 7]
    assert [row.flagged for row in rows] == [
        by_id[2400].question_id == by_id[7].question_id, True,
        by_id[1].question_id == by_id[7].question_id, True,
    ]  # fmt: skip
    for row in rows:
        ref = by_id[row.attempt_id]
        assert (row.ordinal, row.question_id, row.run_id, row.model, row.track.value) == (
            ref.ordinal, ref.question_id, ref.run_id, ref.model, ref.track,
        )  # fmt: skip
        assert (row.repetition, row.status.value, row.correct, row.strict, row.disagrees) == (
            ref.repetition, ref.status, bool(ref.correct), bool(ref.strict), bool(ref.disagrees),
        )  # fmt: skip
    assert demo.index.rows([]) == []


def test_list_rows_carry_state_and_recorded_status(demo: Demo) -> None:
    attempts = {a.attempt_id: a for a in demo.db.attempts_by_ids(range(1, 2401))}
    for row in demo.index.rows(range(1, 2401)):
        assert row.state == attempts[row.attempt_id].state
        assert row.recorded_status == attempts[row.attempt_id].parse_status


def test_compare_grid_orders_by_run_then_repetition(demo: Demo) -> None:
    grid = demo.index.compare_grid("Q042", flagged=("Q042",))
    expected = sorted(
        (ref.run_id, ref.repetition, ref.attempt_id)
        for ref in demo.refs
        if ref.question_id == "Q042"
    )
    assert [(row.run_id, row.repetition, row.attempt_id) for row in grid] == expected
    assert all(isinstance(row, ListRow) and row.flagged for row in grid)
    assert demo.index.compare_grid("no such question") == []


def test_attempt_query_normalises_and_validates() -> None:
    query = AttemptQuery(run_ids=["a", "b"], labels=[("topic", "PPE")])  # type: ignore[arg-type]
    assert query.run_ids == ("a", "b")
    assert query.labels == (("topic", "PPE"),)
    with pytest.raises(ValueError, match=r"\(facet, value\) pairs"):
        AttemptQuery(labels=(("topic",),))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="text_mode must be one of"):
        AttemptQuery(text="x", text_mode="regex")  # type: ignore[arg-type]


def test_user_values_are_never_sql(demo: Demo) -> None:
    nasty = "x') OR 1=1; DROP TABLE rows; --"
    for query in (
        AttemptQuery(run_ids=(nasty,)),
        AttemptQuery(models=(nasty, "'")),
        AttemptQuery(labels=((nasty, nasty),)),
        AttemptQuery(question_ids=(nasty,)),
    ):
        assert demo.index.count(query) == 0
        assert demo.index.page_keys(query, "model") == []
    assert demo.index.count() == 2400


def test_queries_from_worker_threads(demo: Demo) -> None:
    query = AttemptQuery(statuses=("valid",))

    def work() -> list[int]:
        return [demo.index.count(query) for _ in range(20)]

    with ThreadPoolExecutor(4) as pool:
        futures = [pool.submit(work) for _ in range(4)]
    results = [count for future in futures for count in future.result()]  # re-raises errors
    assert set(results) == {len(_expected(demo, query))}
    assert len(results) == 80


def test_interrupt_stops_a_running_query(demo: Demo) -> None:
    endless = (
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
    )
    timer = threading.Timer(0.2, demo.index.interrupt)
    timer.start()
    try:
        with pytest.raises(QueryInterrupted):
            demo.index.connections.all(endless)
    finally:
        timer.cancel()
        timer.join()
    assert demo.index.count() == 2400  # the connection is still usable


def test_a_closed_index_refuses_queries(demo: Demo) -> None:
    index = ReviewIndex(demo.index.path, demo.db)
    assert index.count() == 2400
    index.close()
    index.close()
    with pytest.raises(RuntimeError, match="closed"):
        index.count()


# -- rows by position: keyset pages from either end, from held pages, from the page ends ---

#: Listings the positions are checked on: everything, a filter, two filters at once.
POSITION_QUERIES = (
    AttemptQuery(),
    AttemptQuery(statuses=PARSE_ERROR_STATUSES),
    AttemptQuery(correct=False, tracks=("answer_only", "structured_output")),
)


@pytest.fixture
def small_pages(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pages of 16 keys and walks of 32: the 2,400 demo attempts make 150 pages, most of
    them far from both ends."""
    monkeypatch.setattr(positions, "PAGE", 16)
    monkeypatch.setattr(positions, "WALK", 32)


def _ordered(demo: Demo, query: AttemptQuery, sort: str, desc: bool) -> list[SortKey]:
    """The listing by brute force: every matching attempt's key, sorted in Python."""
    keys = [(_sort_value(ref, sort), ref.attempt_id) for ref in _expected(demo, query)]
    return sorted(keys, reverse=desc)


@pytest.mark.usefixtures("small_pages")
@pytest.mark.parametrize("sort", SORT_COLUMNS)
@pytest.mark.parametrize("descending", [False, True])
def test_rows_by_position_from_the_start_the_end_and_the_middle(
    demo: Demo, sort: str, descending: bool
) -> None:
    for query in POSITION_QUERIES:
        full = _ordered(demo, query, sort, descending)
        listing = Listing(query, sort, descending)
        start = ListPositions(demo.index, listing, len(full))
        assert [start.key_at(p) for p in range(40)] == full[:40]  # Ctrl+Home, then down
        end = ListPositions(demo.index, listing, len(full))
        backwards = [end.key_at(p) for p in reversed(range(len(full) - 40, len(full)))]
        assert backwards[::-1] == full[-40:]  # Ctrl+End, then up
        middle = len(full) // 2
        assert end.key_at(middle) is None  # far from every known key: not reachable yet
        assert not end.all_reachable
        assert end.set_page_ends(page_ends(demo.index, listing, len(full)))
        assert end.all_reachable
        assert [end.key_at(p) for p in range(middle - 20, middle + 20)] == full[
            middle - 20 : middle + 20
        ]
        assert [end.key_at(p) for p in range(0, len(full), 7)] == full[::7]  # a drag, anywhere
        assert end.key_at(len(full)) is None
        assert end.key_at(-1) is None


@pytest.mark.usefixtures("small_pages")
@pytest.mark.parametrize("sort", SORT_COLUMNS)
def test_page_ends_by_short_hops_and_by_one_pass_agree(
    demo: Demo, sort: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for query, descending in zip(POSITION_QUERIES, (False, True, False), strict=True):
        full = _ordered(demo, query, sort, descending)
        listing = Listing(query, sort, descending)
        ends = full[15::16][: len(full) // 16]
        with monkeypatch.context() as patch:
            patch.setattr(ReviewIndex, "pages_in_index_order", lambda *_args: True)
            hops = page_ends(demo.index, listing, len(full))
            assert (hops.ends, hops.keys) == (ends, None)
            patch.setattr(ReviewIndex, "pages_in_index_order", lambda *_args: False)
            whole = page_ends(demo.index, listing, len(full))  # as for a search: one pass
            assert (whole.ends, whole.keys) == (ends, full)  # few keys: all kept
            patch.setattr(positions, "ALL_KEYS", 100)
            sparse = page_ends(demo.index, listing, len(full))
            assert (sparse.ends, sparse.keys) == (ends, None)


@pytest.mark.usefixtures("small_pages")
def test_a_search_listing_is_placed_in_one_pass(demo: Demo) -> None:
    query = AttemptQuery(text="the", text_mode="like")
    assert not demo.index.pages_in_index_order(query, "attempt_id")
    full = demo.index.page_keys(query, "model", True, limit=10_000)
    assert len(full) > 64
    listing = Listing(query, "model", True)
    rows = ListPositions(demo.index, listing, len(full))
    assert rows.set_page_ends(page_ends(demo.index, listing, len(full)))
    assert [rows.key_at(p) for p in range(len(full))] == full


@pytest.mark.usefixtures("small_pages")
@pytest.mark.parametrize("sort", SORT_COLUMNS)
@pytest.mark.parametrize("descending", [False, True])
def test_positions_of_keys_by_counting_and_by_the_page_ends(
    demo: Demo, sort: str, descending: bool
) -> None:
    query = POSITION_QUERIES[2]
    full = _ordered(demo, query, sort, descending)
    listing = Listing(query, sort, descending)
    counted = ListPositions(demo.index, listing, len(full))
    placed = ListPositions(demo.index, listing, len(full))
    assert placed.set_page_ends(page_ends(demo.index, listing, len(full)))
    for position in [*range(0, len(full), 11), len(full) - 1]:
        key = full[position]
        assert demo.index.count_before(query, sort, descending, key) == position
        assert counted.find(key[1]) == position
        assert placed.position_of(key) == position
        assert (
            counted.key_at(min(position + 1, len(full) - 1))
            == full[min(position + 1, len(full) - 1)]
        )
    hidden = next(ref.attempt_id for ref in demo.refs if not _holds(query, ref))
    assert counted.find(hidden) is None
    assert demo.index.key_of(query, sort, hidden) is None
    assert demo.index.key_of(None, sort, hidden) is not None


def test_rows_keep_only_a_few_pages(demo: Demo) -> None:
    full = _ordered(demo, AttemptQuery(), "model", False)
    rows = ListPositions(demo.index, Listing(AttemptQuery(), "model"), len(full))
    assert rows.set_page_ends(page_ends(demo.index, rows.listing, len(full)))
    assert [rows.key_at(p) for p in range(len(full))] == full
    held = [n for n in range(len(full) // positions.PAGE + 1) if rows.held_page(n) is not None]
    assert len(held) <= positions.HELD_PAGES


@pytest.mark.parametrize("sort", SORT_COLUMNS)
@pytest.mark.parametrize("descending", [False, True])
def test_a_skip_hops_over_keys_within_and_across_tie_groups(
    demo: Demo, sort: str, descending: bool
) -> None:
    full = _ordered(demo, AttemptQuery(statuses=PARSE_ERROR_STATUSES), sort, descending)
    changes = [i for i in range(1, len(full)) if full[i][0] != full[i - 1][0]]
    starts = {0, 1, len(full) // 2, len(full) - 3, *(c - 2 for c in changes[:4])}
    for start in sorted(s for s in starts if s >= 0):
        after = full[start - 1] if start else None
        for skip in (0, 1, 2, 5, 40):
            got = demo.index.page_keys(
                AttemptQuery(statuses=PARSE_ERROR_STATUSES), sort, descending, after, 3, skip
            )
            assert got == full[start + skip : start + skip + 3], (start, skip)
    with pytest.raises(ValueError, match="skip not negative"):
        demo.index.page_keys(None, skip=-1)


def test_questions_are_found_by_their_id(demo: Demo) -> None:
    assert demo.index.find_question("Q060") == "Q060"
    assert demo.index.find_question("q060") == "Q060"  # ASCII case ignored when unique
    assert demo.index.find_question("Q999") is None
    assert demo.index.find_question("Q06") is None


def test_a_search_for_a_question_id_finds_its_attempts(demo: Demo) -> None:
    of_q060 = sorted(ref.attempt_id for ref in demo.refs if ref.question_id == "Q060")
    for text in ("Q060", "q060"):
        query = AttemptQuery(text=text, text_mode="like")
        assert [key[1] for key in demo.index.page_keys(query, limit=1000)] == of_q060
        assert demo.index.count(query) == len(of_q060)
