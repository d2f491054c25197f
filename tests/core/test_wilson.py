"""Wilson score interval (protocol.md section 6)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ai4hse_desk.protocol.wilson import Z_95, wilson_interval

Z = 1.959964


def quadratic_roots(k: int, m: int, z: float = Z) -> tuple[float, float]:
    """Wilson bounds derived independently: roots in π of (p − π)² = z²·π(1 − π)/m."""
    p = k / m
    a = 1 + z * z / m
    b = -(2 * p + z * z / m)
    c = p * p
    root = math.sqrt(b * b - 4 * a * c)
    return (-b - root) / (2 * a), (-b + root) / (2 * a)


# Published 95% Wilson intervals (4 decimals), e.g. Newcombe (1998) / standard tables.
PUBLISHED = [
    (31, 100, 0.2278, 0.4063),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (5, 10, 0.2366, 0.7634),
    (1, 4, 0.0456, 0.6994),
]


@pytest.mark.parametrize(("k", "m", "low", "high"), PUBLISHED)
def test_published_values(k: int, m: int, low: float, high: float) -> None:
    interval = wilson_interval(k, m)
    assert interval is not None
    assert interval[0] == pytest.approx(low, abs=1e-4)
    assert interval[1] == pytest.approx(high, abs=1e-4)


@pytest.mark.parametrize(("k", "m"), [(31, 100), (0, 10), (10, 10), (5, 10), (1, 4), (7, 13)])
def test_matches_independent_derivation(k: int, m: int) -> None:
    interval = wilson_interval(k, m)
    assert interval is not None
    expected = quadratic_roots(k, m)
    assert interval[0] == pytest.approx(expected[0], abs=1e-12)
    assert interval[1] == pytest.approx(expected[1], abs=1e-12)


def test_protocol_z_is_the_default() -> None:
    assert Z_95 == Z
    assert wilson_interval(3, 9) == wilson_interval(3, 9, Z)
    assert wilson_interval(3, 9) != wilson_interval(3, 9, 1.0)


def test_no_interval_without_attempts() -> None:
    assert wilson_interval(0, 0) is None


@pytest.mark.parametrize("m", [1, 10, 21751, 10**6])
def test_edges_are_exactly_zero_and_one(m: int) -> None:
    none_right, all_right = wilson_interval(0, m), wilson_interval(m, m)
    assert none_right is not None
    assert all_right is not None
    assert none_right[0] == 0.0
    assert all_right[1] == 1.0


def test_z_zero_collapses_to_the_point_estimate() -> None:
    assert wilson_interval(3, 4, 0.0) == (0.75, 0.75)


@pytest.mark.parametrize(("k", "m"), [(-1, 3), (4, 3), (0, -1)])
def test_rejects_impossible_counts(k: int, m: int) -> None:
    with pytest.raises(ValueError, match="0 <= k <= m"):
        wilson_interval(k, m)


@st.composite
def counts(draw: st.DrawFn) -> tuple[int, int]:
    m = draw(st.integers(min_value=1, max_value=100_000))
    return draw(st.integers(min_value=0, max_value=m)), m


@given(counts())
def test_interval_contains_the_estimate_within_unit_range(km: tuple[int, int]) -> None:
    k, m = km
    interval = wilson_interval(k, m)
    assert interval is not None
    low, high = interval
    assert 0.0 <= low <= k / m <= high <= 1.0


@given(counts())
def test_interval_is_symmetric_under_swapping_correct_and_wrong(km: tuple[int, int]) -> None:
    k, m = km
    interval, mirrored = wilson_interval(k, m), wilson_interval(m - k, m)
    assert interval is not None
    assert mirrored is not None
    assert interval[0] == pytest.approx(1 - mirrored[1], abs=1e-12)
    assert interval[1] == pytest.approx(1 - mirrored[0], abs=1e-12)
