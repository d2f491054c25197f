"""Imports only extend history (notes/chain.py): every revision an import adds is later
than the store's latest one of that item, and each leads exactly from the values before
it. Each case is a history a user could bring in a file, and the problem the import
refusal names (where, and why)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.notes.chain import Step, chain_problem

if TYPE_CHECKING:
    from collections.abc import Mapping


STORED = (
    Step("", "2026-01-01T10:00:00.000000Z", "r1", {"state": "open", "note": "a"}, None),
    Step(
        "",
        "2026-01-02T10:00:00.000000Z",
        "r2",
        {"state": "open", "note": "b"},
        {"note": ("a", "b")},
    ),
)
LATEST = STORED[-1].at


def _step(
    where: str,
    at: str,
    values: Mapping[str, object],
    changes: Mapping[str, tuple[object, object]] | None,
    revision_id: str = "x",
) -> Step:
    return Step(where, at, revision_id, values, changes)


def test_nothing_added_or_nothing_stored_and_a_clean_extension_hold() -> None:
    assert chain_problem(STORED, []) is None
    assert chain_problem([], []) is None
    later = _step(
        "$.v[0].revisions[0]",
        "2026-01-03T00:00:00.000000Z",
        {"state": "resolved", "note": "b"},
        {"state": ("open", "resolved")},
    )
    assert chain_problem(STORED, [later]) is None


def test_a_revision_at_or_before_the_stored_latest_is_refused() -> None:
    for at in (LATEST, "2026-01-01T12:00:00.000000Z"):
        same = _step("$.v[0].revisions[1]", at, {"state": "open", "note": "b"}, {})
        where, problem = chain_problem(STORED, [same])  # type: ignore[misc]
        assert where == "$.v[0].revisions[1].at"
        assert problem == (
            f"is dated {at}, inside the history this store holds (its latest revision is "
            f"dated {LATEST}); an import only adds later revisions"
        )
    a_microsecond_later = "2026-01-02T10:00:00.000001Z"
    ok = _step("$.r", a_microsecond_later, {"state": "open", "note": "b"}, {})
    assert chain_problem(STORED, [ok]) is None


def test_a_stored_revision_without_a_path_is_named_at() -> None:
    early = _step("", "2025-12-31T00:00:00.000000Z", {"state": "open", "note": "b"}, None)
    assert chain_problem(STORED, [early]) == (
        "at",
        f"is dated 2025-12-31T00:00:00.000000Z, inside the history this store holds (its "
        f"latest revision is dated {LATEST}); an import only adds later revisions",
    )


def test_the_earliest_added_revision_is_the_one_checked_against_the_store() -> None:
    late = _step(
        "$.late",
        "2026-02-01T00:00:00.000000Z",
        {"state": "x", "note": "b"},
        {"state": ("open2", "x")},
    )
    inside = _step("$.inside", "2026-01-01T00:00:00.000000Z", {"state": "open", "note": "b"}, {})
    found = chain_problem(STORED, [late, inside])
    assert found is not None
    assert found[0] == "$.inside.at"


def test_revisions_given_in_any_order_are_read_oldest_first() -> None:
    first = _step(
        "$.a",
        "2026-01-03T00:00:00.000000Z",
        {"state": "resolved", "note": "b"},
        {"state": ("open", "resolved")},
    )
    second = _step(
        "$.b",
        "2026-01-04T00:00:00.000000Z",
        {"state": "resolved", "note": "c"},
        {"note": ("b", "c")},
    )
    assert chain_problem(STORED, [second, first]) is None
    # the same time: the revision id orders them
    tie = "2026-01-03T00:00:00.000000Z"
    one = _step("$.one", tie, first.values, first.changes, revision_id="a1")
    two = _step("$.two", tie, second.values, second.changes, revision_id="b2")
    assert chain_problem(STORED, [two, one]) is None
    swapped = (
        _step("$.one", tie, first.values, first.changes, revision_id="b2"),
        _step("$.two", tie, second.values, second.changes, revision_id="a1"),
    )
    assert chain_problem(STORED, swapped) == (
        "$.two.values.state",  # read first, it does not list the state's change
        "changed without a change listing it; the revision does not extend the history",
    )


def test_a_change_that_does_not_start_from_the_value_before_is_refused() -> None:
    forged = _step(
        "$.v[0].revisions[2]",
        "2026-01-03T00:00:00.000000Z",
        {"state": "open", "note": "z"},
        {"note": ("a", "z")},
    )
    assert chain_problem(STORED, [forged]) == (
        "$.v[0].revisions[2].changes.note",
        "its old value is not the value before it; the change does not extend the history",
    )
    new_field = _step(
        "$.n",
        "2026-01-03T00:00:00.000000Z",
        {"state": "open", "note": "b", "tag": "t"},
        {"tag": ("t0", "t")},
    )
    assert chain_problem(STORED, [new_field]) is not None  # the field had no value before
    from_nothing = _step(
        "$.n",
        "2026-01-03T00:00:00.000000Z",
        {"state": "open", "note": "b", "tag": "t"},
        {"tag": (None, "t")},
    )
    assert chain_problem(STORED, [from_nothing]) is None


def test_a_value_changed_without_a_change_listing_it_is_refused() -> None:
    silent = _step("$.s", "2026-01-03T00:00:00.000000Z", {"state": "resolved", "note": "b"}, {})
    assert chain_problem(STORED, [silent]) == (
        "$.s.values.state",
        "changed without a change listing it; the revision does not extend the history",
    )
    listed_elsewhere = _step(
        "$.s",
        "2026-01-03T00:00:00.000000Z",
        {"state": "resolved", "note": "c"},
        {"note": ("b", "c")},
    )
    assert chain_problem(STORED, [listed_elsewhere]) == (
        "$.s.values.state",
        "changed without a change listing it; the revision does not extend the history",
    )


def test_each_added_revision_is_checked_against_the_one_before_it() -> None:
    good = _step(
        "$.a",
        "2026-01-03T00:00:00.000000Z",
        {"state": "resolved", "note": "b"},
        {"state": ("open", "resolved")},
    )
    bad = _step(
        "$.b",
        "2026-01-04T00:00:00.000000Z",
        {"state": "open", "note": "b"},
        {"state": ("open", "open")},
    )  # the value before is "resolved"
    assert chain_problem(STORED, [good, bad]) == (
        "$.b.changes.state",
        "its old value is not the value before it; the change does not extend the history",
    )
    # a first import: nothing stored, the first revision starts the history
    assert chain_problem([], [good]) is None
    assert chain_problem([], [good, bad]) is not None


def test_whole_value_revisions_are_checked_only_for_their_dates() -> None:
    """Decisions keep no changes: each revision holds the whole decision."""
    stored = (_step("", "2026-01-01T00:00:00.000000Z", {"decision": "unresolved"}, None),)
    later = _step("$.d", "2026-01-02T00:00:00.000000Z", {"decision": "key_confirmed"}, None)
    assert chain_problem(stored, [later]) is None
    then = _step("$.e", "2026-01-03T00:00:00.000000Z", {"decision": "unresolved"}, None)
    assert chain_problem(stored, [then, later]) is None
    early = _step("$.d", "2026-01-01T00:00:00.000000Z", {"decision": "key_confirmed"}, None)
    assert chain_problem(stored, [early]) is not None
