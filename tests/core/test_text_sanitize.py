"""make_visible: untrusted text made visible, with exact offset maps (no Qt)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ai4hse_desk.display.stand_ins import stand_in_table
from ai4hse_desk.display.text_sanitize import (
    WRAP_MARK,
    VisibleText,
    make_visible,
    utf16_offset,
)

STAND_INS = stand_in_table()

WIDEST = max(map(len, STAND_INS.values()))
#: Characters that must never reach the display (variation selectors excepted:
#: they are kept after an ordinary character).
ALWAYS_REPLACED = frozenset(chr(cp) for cp in STAND_INS if not 0xFE00 <= cp <= 0xFE0F)
#: The classes the viewer promises to make visible, spelled out independently.
PROMISED = frozenset(
    [chr(c) for c in range(0x20) if c not in (0x09, 0x0A)]
    + ["\x7f"]
    + [chr(c) for c in range(0x80, 0xA0)]
    + [chr(c) for c in range(0x200B, 0x2010)]
    + [chr(c) for c in range(0x202A, 0x202F)]
    + [chr(c) for c in range(0x2066, 0x206A)]
    + ["\ufeff", "\u00ad", "\u2060", "\u180e", "\u2028", "\u2029"]
    + ["\u00a0", "\u3000", *map(chr, range(0x2000, 0x200B))]
    + [chr(c) for c in range(0xD800, 0xE000)]
)
SAMPLES = [
    *"\x00\x1b\r\x7f\x85\u200b\u200d\u202e\u2066\ufeff\u00ad\u00a0\u3000\u2028",
    *"\ud800\udfff\ufffd\ufe0f\ufe0e\n\t😀\U000e0041\U0010ffff\ufdd0é<>",
]
texts = st.text(
    st.one_of(
        st.characters(exclude_categories=()),
        st.characters(categories=["Cs"]),
        st.sampled_from(SAMPLES),
    ),
    max_size=60,
)


def check_offset_maps(raw: str, vis: VisibleText) -> None:
    display = [vis.to_display(i) for i in range(len(raw) + 1)]
    assert display[0] == 0
    assert display[-1] == len(vis.text)
    assert all(a < b for a, b in itertools.pairwise(display))
    wraps = set(vis.wrap_marks.tolist())
    for i, char in enumerate(raw):
        assert vis.to_original(display[i]) == i
        shown = vis.text[display[i] : display[i + 1]]
        if display[i + 1] - 2 in wraps:  # a display-only break follows this character
            assert shown.endswith(WRAP_MARK + "\n")
            shown = shown[:-2]
        assert shown in (char, STAND_INS.get(ord(char)))
    for d in range(len(vis.text) + 1):
        assert vis.display_to_qt(d) == utf16_offset(vis.text, d)
        assert vis.qt_to_display(vis.display_to_qt(d)) == d


# -- what is shown -----------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("a\x00b", "a⟨NUL⟩b"),
        ("\x1b[31mred", "⟨ESC⟩[31mred"),
        ("line\r\nnext", "line⟨CR⟩\nnext"),
        ("old\rmac", "old⟨CR⟩mac"),
        ("\x07\x08\x0b\x0c\x7f", "⟨BEL⟩⟨BS⟩⟨VT⟩⟨FF⟩⟨DEL⟩"),
        ("\x01\x1a\x1f", "⟨SOH⟩⟨SUB⟩⟨US⟩"),
        ("keep\ttabs\nand newlines", "keep\ttabs\nand newlines"),
        ("\x85\x9f", "⟨U+0085⟩⟨U+009F⟩"),
        ("a\u200bb", "a⟨ZWSP⟩b"),
        ("\u200c\u200d\u200e\u200f", "⟨ZWNJ⟩⟨ZWJ⟩⟨LRM⟩⟨RLM⟩"),
        ("\u202a\u202b\u202c\u202d\u202e", "⟨LRE⟩⟨RLE⟩⟨PDF⟩⟨LRO⟩⟨RLO⟩"),
        ("\u2066\u2067\u2068\u2069", "⟨LRI⟩⟨RLI⟩⟨FSI⟩⟨PDI⟩"),
        ("\ufeffhi", "⟨BOM⟩hi"),
        ("soft\u00adhyphen", "soft⟨SHY⟩hyphen"),
        ("\u2060\u180e\u061c", "⟨WJ⟩⟨MVS⟩⟨ALM⟩"),
        ("5\u00a0%", "5⟨NBSP⟩%"),
        ("\u2003\u2009\u202f\u3000", "⟨EMSP⟩⟨THSP⟩⟨NNBSP⟩⟨IDSP⟩"),
        ("a\u2028b\u2029c", "a⟨LSEP⟩b⟨PSEP⟩c"),
        ("x\ud800y\udfff", "x⟨U+D800⟩y⟨U+DFFF⟩"),
        ("tag\U000e0041\U000e007f", "tag⟨U+E0041⟩⟨U+E007F⟩"),
        ("\ufdd0\ufffc\U0010ffff", "⟨U+FDD0⟩⟨U+FFFC⟩⟨U+10FFFF⟩"),
        (
            "<b>x</b><img src=y><script>alert(1)</script>",
            "<b>x</b><img src=y><script>alert(1)</script>",
        ),
        ("émoji 😀 and 日本語", "émoji 😀 and 日本語"),
    ],
)
def test_shows(raw: str, shown: str) -> None:
    vis = make_visible(raw)
    assert vis.text == shown
    check_offset_maps(raw, vis)


def test_variation_selectors_kept_after_an_ordinary_character_only() -> None:
    assert make_visible("❤\ufe0f").text == "❤\ufe0f"
    assert make_visible("\ufe0fx").text == "⟨U+FE0F⟩x"
    assert make_visible("a\ufe0f\ufe0e\ufe01").text == "a\ufe0f⟨U+FE0E⟩⟨U+FE01⟩"
    assert make_visible("\u200b\ufe0f").text == "⟨ZWSP⟩⟨U+FE0F⟩"


def test_counts_made_visible_characters_and_replacement_characters() -> None:
    vis = make_visible("a\x00\u200b\ufeffb\ufffd\ufffdc\ufffd")
    assert vis.made_visible == 3
    assert vis.replacement_count == 3
    assert vis.text == "a⟨NUL⟩⟨ZWSP⟩⟨BOM⟩b\ufffd\ufffdc\ufffd"
    assert vis.replacement_spans() == [(18, 20), (21, 22)]
    assert vis.marker_spans() == [(1, 17)]


def test_controls_never_show_as_control_pictures() -> None:
    """Common fonts lack U+2400–U+2426 (every one drew as the same box): names instead."""
    controls = "".join(chr(c) for c in [*range(0x20), 0x7F, *range(0x80, 0xA0)])
    vis = make_visible(controls)
    assert not any(0x2400 <= ord(char) <= 0x243F for char in vis.text)
    # only ASCII letters, digits and "+" inside the brackets
    assert set(vis.text) - {"⟨", "⟩", "\t", "\n"} <= set("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+")
    assert vis.text.startswith("⟨NUL⟩⟨SOH⟩⟨STX⟩")
    assert "⟨BS⟩\t\n⟨VT⟩" in vis.text  # a tab and a newline stay layout
    assert "⟨US⟩⟨DEL⟩⟨U+0080⟩" in vis.text
    assert vis.text.endswith("⟨U+009F⟩")
    check_offset_maps(controls, vis)


def test_a_span_after_escape_sequences_still_lines_up() -> None:
    raw = "\x1b[1m\x07FINAL_ANSWER:\r [A, C]\x1b[0m\x00"
    start = raw.index("[A, C]")
    vis = make_visible(raw)
    low, high = vis.span_to_display((start, start + 6))
    assert vis.text[low:high] == "[A, C]"
    assert vis.text[: low - 1].endswith("⟨CR⟩")
    assert vis.span_to_display((0, 1)) == (0, len("⟨ESC⟩"))
    assert (vis.to_original(2), vis.to_original(2, round_up=True)) == (0, 1)  # inside ⟨ESC⟩


def test_plain_text_is_returned_unchanged() -> None:
    raw = "The answer is (B).\n" * 1000
    vis = make_visible(raw)
    assert vis.text is raw
    assert vis.made_visible == 0
    assert vis.to_display(len(raw)) == len(raw)


def test_empty_text() -> None:
    vis = make_visible("")
    assert (vis.text, vis.made_visible, vis.raw_length) == ("", 0, 0)
    assert vis.to_display(0) == 0
    assert vis.span_to_qt((0, 0)) == (0, 0)


# -- offset maps -------------------------------------------------------------


def test_span_after_emoji_and_zero_width_space() -> None:
    raw = "😀\u200b the answer is (B)."
    start = raw.index("(B)")
    vis = make_visible(raw)
    low, high = vis.span_to_display((start, start + 3))
    assert vis.text[low:high] == "(B)"
    qt_low, qt_high = vis.span_to_qt((start, start + 3))
    assert (qt_low, qt_high) == (low + 1, high + 1)  # the emoji is two UTF-16 units
    assert vis.qt_to_original(qt_low) == start
    assert vis.qt_to_original(qt_high) == start + 3


def test_span_over_an_invisible_character_covers_its_whole_stand_in() -> None:
    vis = make_visible("a\u202eb")
    low, high = vis.span_to_display((1, 2))
    assert vis.text[low:high] == "⟨RLO⟩"


def test_offsets_inside_a_stand_in_round_down_or_up() -> None:
    vis = make_visible("a\u200bb")  # a⟨ZWSP⟩b
    assert vis.to_original(3) == 1
    assert vis.to_original(3, round_up=True) == 2
    assert vis.to_original(7) == 2


def test_qt_position_inside_a_surrogate_pair_maps_to_the_character() -> None:
    vis = make_visible("x😀y")
    assert [vis.display_to_qt(d) for d in range(4)] == [0, 1, 3, 4]
    assert [vis.qt_to_display(q) for q in range(5)] == [0, 1, 1, 2, 3]
    assert vis.qt_length == 4


def test_out_of_range_offsets_raise() -> None:
    vis = make_visible("abc\u200b")
    for bad in (-1, 5):
        with pytest.raises(IndexError):
            vis.to_display(bad)
    with pytest.raises(IndexError):
        vis.to_original(len(vis.text) + 1)
    with pytest.raises(IndexError):
        vis.qt_to_display(len(vis.text) + 1)
    with pytest.raises(ValueError, match="start > end"):
        vis.span_to_display((2, 1))


def test_utf16_offset() -> None:
    assert utf16_offset("a😀b", 2) == 3
    assert utf16_offset("\ud800x", 2) == 2


# -- display-only line breaks ------------------------------------------------


def test_long_lines_are_broken_for_display_only() -> None:
    raw = "abcdefghij\nfour"
    vis = make_visible(raw, max_line=4)
    assert vis.text == "abcd↩\nefgh↩\nij\nfour"
    assert vis.wrap_marks.tolist() == [4, 10]
    assert vis.wrap_spans() == [(4, 5), (10, 11)]
    assert vis.made_visible == 0
    check_offset_maps(raw, vis)
    start = raw.index("ghi")
    low, high = vis.span_to_display((start, start + 3))
    assert vis.text[low:high] == "gh↩\ni"


def test_breaks_never_split_a_stand_in() -> None:
    vis = make_visible("ab\u200bcd", max_line=4)
    assert vis.text == "ab⟨ZWSP⟩↩\ncd"


def test_max_line_must_be_positive() -> None:
    with pytest.raises(ValueError, match="max_line"):
        make_visible("abc", max_line=0)


def test_spans_near_a_display_range() -> None:
    vis = make_visible("\u200ba\u200bb\u200bc")  # runs at 0, 7, 14 (6 wide each)
    assert vis.marker_spans() == [(0, 6), (7, 13), (14, 20)]
    assert vis.marker_spans(6, 14) == [(7, 13)]
    assert vis.marker_spans(5, 15) == [(0, 6), (7, 13), (14, 20)]
    assert vis.marker_spans(0, None, limit=2) == [(0, 6), (7, 13)]


def test_large_text_with_many_stand_ins() -> None:
    raw = ("word\u00a0word\u200b\x00 😀\n" * 20_000) + "x" * 30_000
    vis = make_visible(raw, max_line=10_000)
    assert vis.made_visible == 60_000
    assert len(vis.wrap_marks) == 2
    target = raw.rindex("😀")
    low, high = vis.span_to_display((target, len(raw)))
    assert vis.text[low : low + 1] == "😀"
    assert vis.text[low:high].replace("↩\n", "") == raw[target:]


# -- properties --------------------------------------------------------------


@settings(max_examples=300)
@given(texts)
def test_any_text_is_made_safe(raw: str) -> None:
    vis = make_visible(raw)
    assert not ALWAYS_REPLACED & set(vis.text)
    assert not PROMISED & set(vis.text)
    check_offset_maps(raw, vis)


@settings(max_examples=200)
@given(texts, st.integers(min_value=1, max_value=12))
def test_breaks_keep_lines_short_and_maps_exact(raw: str, max_line: int) -> None:
    vis = make_visible(raw, max_line=max_line)
    check_offset_maps(raw, vis)
    for line in vis.text.split("\n"):
        assert len(line) <= max_line + WIDEST
    unbroken = vis.text
    for mark in reversed(vis.wrap_marks.tolist()):
        assert unbroken[mark : mark + 2] == WRAP_MARK + "\n"
        unbroken = unbroken[:mark] + unbroken[mark + 2 :]
    assert unbroken == make_visible(raw).text


@settings(max_examples=200)
@given(texts, st.data())
def test_spans_map_to_their_display_text(raw: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(raw)))
    end = data.draw(st.integers(start, len(raw)))
    vis = make_visible(raw)
    low, high = vis.span_to_display((start, end))
    part = raw[start:end]
    if not (part and 0xFE00 <= ord(part[0]) <= 0xFE0F):  # a selector depends on what precedes
        assert vis.text[low:high] == make_visible(part).text
    qt_low, qt_high = vis.span_to_qt((start, end))
    assert vis.qt_to_original(qt_low) == start
    assert vis.qt_to_original(qt_high, round_up=True) == end


FIELDS = ("seg_orig", "seg_disp", "seg_width", "marker_starts", "marker_ends",
          "replacement_starts", "replacement_ends", "astral", "wrap_marks")  # fmt: skip


def same_display(a: VisibleText, b: VisibleText) -> None:
    assert (a.text, a.made_visible, a.raw_length) == (b.text, b.made_visible, b.raw_length)
    for name in FIELDS:
        assert getattr(a, name).tolist() == getattr(b, name).tolist(), name
    for position in range(a.qt_length + 1):
        assert a.qt_to_display(position) == b.qt_to_display(position)


@given(texts, st.one_of(st.none(), st.integers(min_value=1, max_value=12)))
def test_the_plain_text_short_cut_gives_what_the_vectorised_rules_give(
    raw: str, max_line: int | None
) -> None:
    """Whether or not a text takes the short cut, its display form and maps are those
    of the full rules (the short cut only skips numpy)."""
    from ai4hse_desk.display.text_sanitize import _vectorised

    same_display(make_visible(raw, max_line=max_line), _vectorised(raw, max_line))


@pytest.mark.parametrize("raw", ["plain words\nand lines", "x" * 30, "🙂 astral", "a\u200bb"])
def test_plain_text_short_cut_only_where_nothing_changes(raw: str) -> None:
    from ai4hse_desk.display.text_sanitize import _plain, _vectorised

    assert _plain(raw, None) == raw.isascii()  # the astral and the zero-width space are not
    assert _plain(raw, 100) == raw.isascii()
    assert not _plain("x" * 30, 12)  # a line to break
    same_display(make_visible(raw, max_line=12), _vectorised(raw, 12))


def test_a_plain_response_is_shown_without_numpy() -> None:
    """The window's first response (plain text) is laid out without importing numpy."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from ai4hse_desk.display.text_sanitize import make_visible\n"
        "v = make_visible('FINAL_ANSWER: A, C\\nplain reasoning', max_line=200)\n"
        "assert v.to_qt(5) == 5 and v.span_to_qt((0, 3)) == (0, 3) and v.marker_spans() == []\n"
        "assert v.wrap_spans() == [] and v.replacement_count == 0\n"
        "print('numpy' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
