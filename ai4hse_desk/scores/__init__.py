"""The scores dashboard's core, without Qt: what the tables say and what leaves the desk.

* :mod:`.cache` — the official scores (exactly ``rescore``'s run objects) of
  one audit state, kept per fingerprint and desk version in the cache folder.
* :mod:`.table_rows` — the tables' columns, declared once, and how each cell
  reads ("undefined", "provider default", "unfinished — no aggregate score").
* :mod:`.sensitivity` — official figures beside those without some questions
  (not official; an exploration).
* :mod:`.plot_data` — what each plot draws and the attempts behind each mark.
* :mod:`.svg_bake` — plot SVGs that every viewer draws alike.
* :mod:`.frames` — the scores as pandas frames: the exports' tables and one row per
  run with every figure of ``rescore`` (``ai4hse_desk.analysis.runs_df``).
* :mod:`.export_tables` — CSV / XLSX exports with a formula guard.
* :mod:`.report_html` — the self-contained HTML review report.

Scores are always per track; nothing here combines tracks or pools intervals.
"""

from ai4hse_desk.scores.cache import (
    CACHE_FORMAT,
    compute_scores,
    read_cached,
    scores_cache_path,
    write_cached,
)
from ai4hse_desk.scores.export_tables import write_csv, write_xlsx
from ai4hse_desk.scores.frames import RUN_COLUMNS, export_value, runs_frame, table_frame
from ai4hse_desk.scores.report_html import (
    ExcludedQuestion,
    ReportPlot,
    SensitivityReport,
    build_report,
)
from ai4hse_desk.scores.sensitivity import SENSITIVITY_COLUMNS, SensitivityRow, sensitivity_rows
from ai4hse_desk.scores.table_rows import (
    COLUMNS,
    NO_SCORE_CELL,
    UNDEFINED,
    UNFINISHED,
    Column,
    ScoreRow,
    column,
    display,
    exact_text,
    percent_text,
    track_tables,
    track_title,
    unscored_text,
)

__all__ = [
    "CACHE_FORMAT",
    "COLUMNS",
    "NO_SCORE_CELL",
    "RUN_COLUMNS",
    "SENSITIVITY_COLUMNS",
    "UNDEFINED",
    "UNFINISHED",
    "Column",
    "ExcludedQuestion",
    "ReportPlot",
    "ScoreRow",
    "SensitivityReport",
    "SensitivityRow",
    "build_report",
    "column",
    "compute_scores",
    "display",
    "exact_text",
    "export_value",
    "percent_text",
    "read_cached",
    "runs_frame",
    "scores_cache_path",
    "sensitivity_rows",
    "table_frame",
    "track_tables",
    "track_title",
    "unscored_text",
    "write_cached",
    "write_csv",
    "write_xlsx",
]
