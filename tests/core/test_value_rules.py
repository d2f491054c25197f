"""The value rules say the same in SQL and on fetched values, under any column declaration."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai4hse_desk.audit.value_rules import STATES, TABLE_RULES, column_keeps, text, text_or_null

_VALUES = (
    st.none()
    | st.integers(-(2**63), 2**63 - 1)
    | st.floats(allow_nan=False)
    | st.text(max_size=8)
    | st.binary(max_size=8)
    | st.sampled_from(["", "1", "1.5", " 2", "x", "\x00", "\U0010ffff"])
)
_DECLARED = (
    "TEXT",
    "INTEGER",
    "REAL",
    "NUMERIC",
    "BLOB",
    "",
    "TEXT COLLATE NOCASE",
    "TEXT COLLATE RTRIM",
)


@pytest.mark.parametrize("declared", _DECLARED)
@settings(max_examples=60, deadline=None)
@given(values=st.lists(_VALUES, min_size=1, max_size=20))
def test_text_rules_equal_typeof(declared: str, values: list[object]) -> None:
    """Every stored value, every affinity and collation: the rule holds iff typeof says so."""
    con = sqlite3.connect(":memory:")
    con.execute(f"CREATE TABLE t (v {declared})")
    con.executemany("INSERT INTO t VALUES (?)", [(value,) for value in values])
    rows = con.execute(
        f"SELECT typeof(v), {text('v').holds}, {text_or_null('v').holds} FROM t"
    ).fetchall()
    con.close()
    for kind, is_text, is_text_or_null in rows:
        assert (kind, is_text) == (kind, int(kind == "text"))
        assert (kind, is_text_or_null) == (kind, int(kind in ("text", "null")))


_CHECKED_ON_COLUMNS = [rule for _, rules in TABLE_RULES.values() for rule in rules if rule.types]


@pytest.mark.parametrize("declared", _DECLARED)
@settings(max_examples=60, deadline=None)
@given(
    values=st.lists(
        _VALUES | st.integers(-3, 3) | st.sampled_from(STATES) | st.sampled_from([0.0, 1.0, True]),
        min_size=1,
        max_size=12,
    )
)
def test_rules_on_fetched_columns_equal_the_sql(declared: str, values: list[object]) -> None:
    """Every rule checked on fetched values (the rescore's checked scan) says what its SQL
    says, for the column as a whole and value by value, whatever the column declares."""
    con = sqlite3.connect(":memory:")
    con.execute(f"CREATE TABLE t (v {declared})")
    con.executemany("INSERT INTO t VALUES (?)", [(value,) for value in values])
    for rule in _CHECKED_ON_COLUMNS:
        holds = rule.holds.replace(rule.column, "v")
        rows = con.execute(f"SELECT v, ({holds}) FROM t").fetchall()
        stored = [value for value, _ in rows]
        for value, ok in rows:
            assert column_keeps(rule, [value]) is bool(ok), (rule.column, value)
        assert column_keeps(rule, stored) is all(ok for _, ok in rows), rule.column
    con.close()


def test_an_empty_column_keeps_every_rule_and_sql_only_rules_are_refused() -> None:
    assert all(column_keeps(rule, []) for rule in _CHECKED_ON_COLUMNS)
    (finite,) = [rule for rule in TABLE_RULES["runs"][1] if rule.column == "temperature"]
    with pytest.raises(ValueError, match="checked in SQL only"):
        column_keeps(finite, [1.0])
