"""Tables for notebooks and spreadsheets: columns declared once, built into a pandas frame.

Like inspect_ai's dataframe import, every table the desk hands out declares its
columns up front: a :class:`FrameColumn` gives the name, the pandas dtype, what the
column holds and whether it is *private* (text read from the audit file — question,
option and response texts — which leaves the desk only when asked for).
:func:`build_frame` makes a ``pandas.DataFrame`` from rows and such a declaration;
the analysis API (:mod:`ai4hse_desk.analysis`) and the CSV/XLSX exports of notes and
scores both build their tables with it. pandas is imported there, when a frame is
built, never when the desk starts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Literal, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    import pandas as pd

T = TypeVar("T")
#: The pandas dtypes of declared columns: nullable ones, so a missing value is ``<NA>``
#: (never 0 or ``NaN`` posing as a number); ``object`` for lists, mappings and mixed values.
DType = Literal["string", "Int64", "Float64", "boolean", "object"]


@dataclass(frozen=True, slots=True)
class FrameColumn(Generic[T]):
    """One declared column of a table of ``T`` rows.

    Attributes:
        name: the column's name (a stable key; exports head their columns with it).
        dtype: its pandas dtype in analysis frames.
        doc: what it holds, in one line.
        get: its value in one row.
        private: text read from the audit file, left out unless asked for.
    """

    name: str
    dtype: DType
    doc: str
    get: Callable[[T], object]
    private: bool = False


def selected(columns: Sequence[FrameColumn[T]], private: bool) -> tuple[FrameColumn[T], ...]:
    """``columns`` without the private ones, unless ``private``."""
    return tuple(col for col in columns if private or not col.private)


def build_frame(
    rows: Iterable[T],
    columns: Sequence[FrameColumn[T]],
    *,
    cell: Callable[[object], object] | None = None,
) -> pd.DataFrame:
    """A DataFrame with one row per item of ``rows`` and the declared ``columns``, in order.

    Args:
        cell: for exports: every value is passed through it (e.g. the formula
            guard) and the frame keeps Python objects (dtype ``object``), so a file
            gets exactly those values. Without it each column gets its declared
            dtype.
    """
    import pandas as pd

    if cell is not None:
        data = [[cell(col.get(row)) for col in columns] for row in rows]
        return pd.DataFrame(data, columns=[col.name for col in columns], dtype=object)
    table = [[col.get(row) for col in columns] for row in rows]
    series = {
        col.name: pd.Series([values[i] for values in table], dtype=col.dtype)
        for i, col in enumerate(columns)
    }
    return pd.DataFrame(series, columns=[col.name for col in columns])


def column_docs(columns: Sequence[FrameColumn[T]]) -> str:
    """The declaration as text, one line per column: name, dtype, (private,) what it holds."""
    width = max((len(col.name) for col in columns), default=0)
    return "\n".join(
        f"{col.name:<{width}}  {col.dtype:<7}  {'private; ' if col.private else ''}{col.doc}"
        for col in columns
    )


__all__ = ["DType", "FrameColumn", "build_frame", "column_docs", "selected"]
