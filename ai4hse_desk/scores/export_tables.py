"""The scores tables as CSV or XLSX files (pandas, imported only when exporting).

Columns are those of :data:`~ai4hse_desk.scores.table_rows.COLUMNS`, headed by
their stable keys (the rescore JSON names); each table is the frame
:func:`~ai4hse_desk.scores.frames.table_frame` builds. Numbers are written exactly as
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
from typing import TYPE_CHECKING

from ai4hse_desk.filewrite import write_atomic
from ai4hse_desk.scores.frames import table_frame
from ai4hse_desk.scores.table_rows import track_title

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ai4hse_desk.scores.table_rows import ScoreRow

_SHEET_NAME_LIMIT = 31


def write_csv(path: str | Path, tables: Mapping[str, Sequence[ScoreRow]]) -> Path:
    """Write every track's table to one CSV file (UTF-8, header row).

    Raises:
        WriteRefused: ``path`` must not be written (see the module docstring), or
            writing it failed.
    """
    target = Path(path)
    rows = [row for track_rows in tables.values() for row in track_rows]
    tracks = [track for track, track_rows in tables.items() for _ in track_rows]
    ranks = [rank for track_rows in tables.values() for rank in range(1, len(track_rows) + 1)]
    frame = table_frame(rows, {"track": tracks, "rank_in_track": ranks})

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

    def write(temp: Path) -> None:
        used: set[str] = set()
        with pd.ExcelWriter(temp, engine="openpyxl") as writer:
            for track, rows in tables.items():
                frame = table_frame(rows)
                frame.to_excel(writer, sheet_name=sheet_name(track, used), index=False)
            if not tables:
                note = pd.DataFrame({"note": ["no runs"]})
                note.to_excel(writer, sheet_name="Scores", index=False)

    write_atomic(target, write)
    return target
