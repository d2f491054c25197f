"""The value rules hold exactly for the values they allow, under any column declaration."""

from __future__ import annotations

import sqlite3

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai4hse_desk.audit.value_rules import text, text_or_null

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
