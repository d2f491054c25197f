"""The scores tables as CSV or XLSX files (pandas, imported only when exporting).

Columns are those of :data:`~ai4hse_desk.scores.table_rows.COLUMNS`, headed by
their stable keys (the rescore JSON names). Numbers are written exactly as
rescore reported them (full precision); a rate without a value is written as
text, ``"undefined"`` or why the run has no aggregate score, never as 0 or an
empty cell. The tracks are never combined: XLSX has one sheet per track; CSV,
being one table, carries the track in its first column and a ``rank_in_track``,
and keeps each track's rows together in rescore's order.

Both are written through :mod:`ai4hse_desk.filewrite` (a temporary file beside
the target, fsynced, then renamed): the audit database, a notes store, their
``-wal``/``-journal``/``-shm`` names, folders, devices, FIFOs and existing SQLite
databases are refused with :class:`~ai4hse_desk.filewrite.WriteRefused` before
anything is written, and a failed write leaves the old file as it was.

Spreadsheet formula injection: any text cell that starts with ``=``, ``+``,
``-``, ``@``, a tab or a carriage return gets a leading ``'`` (OWASP), so a
model name or label value can never run as a formula when the file is opened.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ai4hse_desk.display.cells import guard_cell
from ai4hse_desk.display.format import setting_text
from ai4hse_desk.filewrite import write_atomic
from ai4hse_desk.scores.table_rows import (
    COLUMNS,
    RATE_KINDS,
    Column,
    R,
    ScoreRow,
    track_title,
    unscored_text,
)

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

_SHEET_NAME_LIMIT = 31


def export_value(column: Column[R], row: R) -> object:
    """A cell as written to a file: the exact number, or explanatory text."""
    value = column.raw(row)
    if column.kind in RATE_KINDS:
        run = column.run(row)
        if run is None or not run.get("scored"):
            return "no aggregate score" if run is None else unscored_text(run)
        if value is None:
            return "undefined"
    elif column.kind == "setting" and value is None:
        return setting_text(column.key, None)
    return guard_cell(value)


def records(
    rows: Sequence[R], columns: Sequence[Column[R]], extra: Mapping[str, object] | None = None
) -> list[dict[str, object]]:
    """One ``{column key: exported value}`` per row (``extra`` keys first)."""
    head = {key: guard_cell(value) for key, value in (extra or {}).items()}
    return [{**head, **{col.key: export_value(col, row) for col in columns}} for row in rows]


def _csv_records(tables: Mapping[str, Sequence[ScoreRow]]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for track, rows in tables.items():
        for rank, row in enumerate(rows, start=1):
            out += records([row], COLUMNS, {"track": track, "rank_in_track": rank})
    return out


def write_csv(path: str | Path, tables: Mapping[str, Sequence[ScoreRow]]) -> Path:
    """Write every track's table to one CSV file (UTF-8, header row).

    Raises:
        WriteRefused: ``path`` must not be written (see the module docstring), or
            writing it failed.
    """
    target = Path(path)
    import pandas as pd

    keys = ["track", "rank_in_track", *(col.key for col in COLUMNS)]
    frame = pd.DataFrame(_csv_records(tables), columns=keys, dtype=object)

    def write(temp: Path) -> None:
        frame.to_csv(temp, index=False, encoding="utf-8", lineterminator="\n")

    write_atomic(target, write)
    return target


def sheet_name(track: str, used: set[str]) -> str:
    """A valid, unique worksheet name for a track (at most 31 characters)."""
    base = "".join("_" if c in "[]:*?/\\" else c for c in track_title(track))
    name = base[:_SHEET_NAME_LIMIT] or "track"
    counter = 2
    while name.lower() in used:
        suffix = f" ({counter})"
        name = base[: _SHEET_NAME_LIMIT - len(suffix)] + suffix
        counter += 1
    used.add(name.lower())
    return name


def write_xlsx(path: str | Path, tables: Mapping[str, Sequence[ScoreRow]]) -> Path:
    """Write one worksheet per track (openpyxl), each in rescore's order.

    Raises:
        WriteRefused: ``path`` must not be written (see the module docstring), or
            writing it failed.
    """
    target = Path(path)
    import pandas as pd

    keys = [col.key for col in COLUMNS]

    def write(temp: Path) -> None:
        used: set[str] = set()
        with pd.ExcelWriter(temp, engine="openpyxl") as writer:
            for track, rows in tables.items():
                frame: Any = pd.DataFrame(records(rows, COLUMNS), columns=keys, dtype=object)
                frame.to_excel(writer, sheet_name=sheet_name(track, used), index=False)
            if not tables:
                note = pd.DataFrame({"note": ["no runs"]})
                note.to_excel(writer, sheet_name="Scores", index=False)

    write_atomic(target, write)
    return target
