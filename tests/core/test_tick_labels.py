"""Tick labels that fit: none overlaps the next, every tick keeps its mark (no Qt)."""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from ai4hse_desk.scores.tick_labels import LABEL_GAP, spaced_labels


def width(label: str) -> float:
    return 7.0 * len(label)  # a monospace-like measure


def test_crowded_labels_are_thinned_left_to_right() -> None:
    ticks = [(float(i), f"rep {i % 10 + 1}") for i in range(400)]
    written, bare = spaced_labels(ticks, 3.0, width)  # 400 ticks on 1,200 pixels
    assert 0 < len(written) < 60
    assert written[0] == ticks[0]
    assert sorted(written + bare) == sorted(ticks)
    lefts = [x * 3.0 - width(label) / 2 for x, label in written]
    rights = [x * 3.0 + width(label) / 2 for x, label in written]
    assert all(left >= right + LABEL_GAP for right, left in zip(rights, lefts[1:], strict=False))


def test_labels_with_room_are_all_written() -> None:
    ticks = [(float(i), name) for i, name in enumerate(["gpt", "claude", "gemini", "llama"])]
    assert spaced_labels(ticks, 200.0, width) == (ticks, [])


def test_no_scale_writes_nothing() -> None:
    ticks = [(0.0, "a"), (1.0, "b")]
    assert spaced_labels(ticks, 0.0, width) == ([], ticks)


@given(
    st.lists(st.tuples(st.floats(-50, 50), st.text(max_size=12)), max_size=60),
    st.floats(0.5, 500),
)
def test_written_labels_never_overlap(ticks: list[tuple[float, str]], scale: float) -> None:
    written, bare = spaced_labels(ticks, scale, width)
    assert sorted(written + bare) == sorted(ticks)
    spans = [(x * scale - width(s) / 2, x * scale + width(s) / 2) for x, s in written]
    assert all(b[0] >= a[1] + LABEL_GAP - 1e-6 for a, b in itertools.pairwise(spans))


def test_a_label_that_would_stick_out_of_the_axis_is_not_written() -> None:
    """The plot cuts a label past its ends: the next one is written in its place."""
    ticks = [(0.0, "first-run-name"), (1.0, "second"), (9.0, "last-run-name")]
    written, bare = spaced_labels(ticks, 40.0, width, within=(-0.6, 9.4))
    assert written == [(1.0, "second")]
    assert bare == [(0.0, "first-run-name"), (9.0, "last-run-name")]
    assert spaced_labels(ticks, 40.0, width)[0] == [ticks[0], ticks[2]]  # no bounds given
