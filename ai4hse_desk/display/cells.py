"""Spreadsheet cells that cannot run: the one formula guard of every CSV and XLSX export.

A text cell that starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return
is read by spreadsheet programs as a formula (OWASP "CSV injection"); the desk
writes it with a leading ``'``, which the spreadsheet shows as text.
"""

from __future__ import annotations

from typing import Final, TypeVar

#: First characters that make a spreadsheet read a cell as a formula.
FORMULA_PREFIXES: Final = ("=", "+", "-", "@", "\t", "\r")

V = TypeVar("V")


def guard_cell(value: V) -> V | str:
    """``value``, with a leading ``'`` if it is text a spreadsheet would run."""
    if isinstance(value, str) and value.startswith(FORMULA_PREFIXES):
        return "'" + value
    return value
