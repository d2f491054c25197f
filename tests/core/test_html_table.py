"""The one table writer of the HTML reports: numbers right, texts left, nothing unescaped,
an empty table said in a sentence."""

from __future__ import annotations

import pytest

from ai4hse_desk.display.html_table import Html, cell, grid, id_cell, is_number


@pytest.mark.parametrize(
    "value",
    [0, 12, -3, 0.913, "64.0%", "1,234", "0.505", "-0.71 pp", "−2.0%", "+1.5 pp", "100"],
)
def test_numbers_and_numbers_written_as_text_sit_right(value: object) -> None:
    assert is_number(value)
    assert cell(value).startswith('<td class="n">')


@pytest.mark.parametrize(
    "value",
    [True, None, "", "—", "2026-12-06", "7.8% – 21.0%", "Q001", "A, C", "3 of 20", "1.2.3",
     "64.0%%", "12a", "rep 1"],
)  # fmt: skip
def test_texts_dates_intervals_and_ids_sit_left(value: object) -> None:
    assert not is_number(value)
    assert cell(value).startswith('<td class="t">')


def test_values_are_escaped_and_made_visible_markup_built_is_kept() -> None:
    assert cell("<b>x</b>\u202e") == '<td class="t">&lt;b&gt;x&lt;/b&gt;⟨RLO⟩</td>'
    assert cell(None) == '<td class="t">—</td>'
    assert cell(Html("<i>k</i>")) == '<td class="t"><i>k</i></td>'


def test_a_table_has_its_header_and_rows_and_without_rows_a_sentence() -> None:
    table = grid(("run", "share"), [("r<1>", "50.0%")], wide=True)
    assert table == (
        '<table class="wide"><thead><tr><th>run</th><th>share</th></tr></thead><tbody>'
        '<tr><td class="t">r&lt;1&gt;</td><td class="n">50.0%</td></tr></tbody></table>'
    )
    assert grid(("run",), [], empty="No run <yet>.") == (
        '<p class="note muted">No run &lt;yet&gt;.</p>'
    )


def test_an_id_cell_never_wraps_and_stays_left_even_when_it_looks_like_a_number() -> None:
    assert id_cell("ao-borealis-large-2026-09-04") == (
        '<td class="t id">ao-borealis-large-2026-09-04</td>'
    )
    assert id_cell("2024") == '<td class="t id">2024</td>'
    assert grid(("run",), [[id_cell("r<1>")]]).endswith(
        '<tbody><tr><td class="t id">r&lt;1&gt;</td></tr></tbody></table>'
    )
