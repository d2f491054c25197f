"""Short texts are made visible without numpy, with the same result as the vectorised path."""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from ai4hse_desk.display.stand_ins import stand_in_table
from ai4hse_desk.display.text_sanitize import (
    display_text,
    make_visible,
    visible_text_of,
)

STAND_INS = stand_in_table()

_SPECIAL = [*sorted(STAND_INS)[::7], 0xFE00, 0xFE0F, 0xFFFD, 0xD800, 0xDFFF, 0x1F600, 0x0A, 0x09]
_texts = st.text(
    alphabet=st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from([chr(cp) for cp in _SPECIAL]),
        st.sampled_from("ab \n"),
    ),
    max_size=60,
)


@settings(max_examples=600, deadline=None)
@given(_texts)
def test_the_translate_path_gives_the_vectorised_text(text: str) -> None:
    assert visible_text_of(text) == make_visible(text).text


@settings(max_examples=200, deadline=None)
@given(_texts, st.integers(min_value=1, max_value=40))
def test_display_text_cuts_what_make_visible_shows(text: str, limit: int) -> None:
    shown = display_text(text, limit)
    assert shown.startswith(make_visible(text[:limit]).text)


def _printed(*lines: str) -> list[str]:
    """What a fresh interpreter prints running ``lines`` (nothing imported before)."""
    done = subprocess.run(
        [sys.executable, "-c", "\n".join(lines)], capture_output=True, text=True, check=True
    )
    return done.stdout.split()


def test_labels_and_lists_do_not_load_numpy() -> None:
    printed = _printed(
        "import sys",
        "from ai4hse_desk.display.text_sanitize import display_text",
        "assert display_text('a\\u202eb\\x00c\\n') == 'a⟨RLO⟩b⟨NUL⟩c\\n'",
        "print('numpy' in sys.modules)",
        "from ai4hse_desk.display.text_sanitize import make_visible",
        "make_visible('x\\u200b')",
        "print('numpy' in sys.modules)",
    )
    assert printed == ["False", "True"]


def test_the_stand_in_table_is_made_only_when_a_text_needs_it() -> None:
    """Its 6,400 entries take milliseconds: plain ids and labels never need them."""
    printed = _printed(
        "from ai4hse_desk.display.stand_ins import stand_in_table",
        "from ai4hse_desk.display.text_sanitize import display_text",
        "assert display_text('Q001 gpt-x run-1') == 'Q001 gpt-x run-1'",
        "print(stand_in_table.cache_info().currsize)",
        "assert display_text('a\\u202eb') == 'a⟨RLO⟩b'",
        "print(stand_in_table.cache_info().currsize)",
    )
    assert printed == ["0", "1"]
