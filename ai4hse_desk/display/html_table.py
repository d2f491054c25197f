"""Tables in the desk's HTML reports: one way to write them, every value made safe.

A cell's value passes through :func:`~ai4hse_desk.display.html_text.html_text`
(invisible and bidi characters made visible, then escaped) unless it is :class:`Html`,
markup a report built itself. Numbers sit right-aligned (class ``n``; a percentage or a
count written as text too), texts left (``t``); the report's style sheet says what the
classes look like. A table without rows is a sentence instead (``empty``), never a
header alone.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Final

from ai4hse_desk.display.html_text import html_text

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence


class Html(str):
    """Markup a report built itself (its parts already escaped), written as it is."""


#: A number written as text: ``1,234``, ``64.0%``, ``-0.71 pp``, ``0.913`` (not a date,
#: an interval or an id).
_NUMBER: Final = re.compile(r"[-−+]?\d[\d,]*(\.\d+)?( ?%| pp)?")


def is_number(value: object) -> bool:
    """True for a number, or a text that is one written out (:data:`_NUMBER`)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    return isinstance(value, str) and _NUMBER.fullmatch(value) is not None


def cell(value: object, kind: str | None = None) -> str:
    """One ``<td>``: numbers right-aligned (class ``n``, also when written as text),
    texts left (``t``)."""
    if kind is None:
        kind = "n" if is_number(value) else "t"
    shown = value if isinstance(value, Html) else html_text("—" if value is None else value)
    return f'<td class="{kind}">{shown}</td>'


def id_cell(value: object) -> Html:
    """A ``<td>`` for an id (a run, a model): left, and never wrapped at its hyphens
    (class ``t id``)."""
    return Html(cell(value, "t id"))


def grid(
    header: Sequence[str],
    lines: Iterable[Sequence[object]],
    *,
    wide: bool = False,
    empty: str = "None.",
) -> str:
    """A table: one header row, then one row per line (a cell may be a pre-built
    ``<td>`` as :class:`Html` starting with ``<td``); without lines, the sentence
    ``empty`` instead of a table of headers alone."""
    head = "".join(f"<th>{html_text(h)}</th>" for h in header)
    rows = []
    for line in lines:
        cells = [c if isinstance(c, Html) and c.startswith("<td") else cell(c) for c in line]
        rows.append(f"<tr>{''.join(cells)}</tr>")
    if not rows:
        return f'<p class="note muted">{html_text(empty)}</p>'
    kind = ' class="wide"' if wide else ""
    return f"<table{kind}><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


__all__ = ["Html", "cell", "grid", "id_cell", "is_number"]
