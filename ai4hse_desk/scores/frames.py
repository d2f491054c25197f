"""The scores as tables: the exports' frames and the analysis frame of runs, columns declared once.

* :func:`table_frame` — a track table as the CSV/XLSX exports write it: the columns
  of :data:`~.table_rows.COLUMNS`, each cell its :func:`export_value` (the exact
  number, or the text saying why there is none), formula-guarded.
* :func:`runs_frame` — one row per run with every figure of ``rescore``'s run
  object, exactly as reported, ``errors`` and ``baselines`` flattened
  (:data:`RUN_COLUMNS`); what ``ai4hse_desk.analysis.runs_df`` returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final

from ai4hse_desk.display.cells import guard_cell
from ai4hse_desk.display.format import setting_text
from ai4hse_desk.display.frames import DType, FrameColumn, build_frame
from ai4hse_desk.protocol.outcome import Status
from ai4hse_desk.scores.table_rows import COLUMNS, RATE_KINDS, Column, R, ScoreRow, unscored_text

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    import pandas as pd


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


def _exported(column: Column[ScoreRow]) -> FrameColumn[ScoreRow]:
    return FrameColumn(column.key, "object", column.header, lambda row: export_value(column, row))


#: The export columns of a track table (the table's, in display order).
EXPORT_COLUMNS: Final = tuple(_exported(column) for column in COLUMNS)


def table_frame(
    rows: Sequence[ScoreRow], extra: Mapping[str, Sequence[object]] | None = None
) -> pd.DataFrame:
    """A track table (or several) as an export writes it, one row per run.

    Args:
        extra: columns put first, one value per row (e.g. the CSV's ``track`` and
            ``rank_in_track``), formula-guarded like the rest.
    """
    frame = build_frame(rows, EXPORT_COLUMNS, cell=lambda value: value)
    for position, (name, values) in enumerate((extra or {}).items()):
        frame.insert(position, name, [guard_cell(value) for value in values])
    return frame


def _at(path: str) -> Callable[[ScoreRow], object]:
    keys = path.split(".")

    def get(row: ScoreRow) -> object:
        value: object = row.run
        for key in keys:
            value = value.get(key) if isinstance(value, Mapping) else None
        return value

    return get


def _setting(name: str) -> Callable[[ScoreRow], object]:
    return lambda row: None if row.settings is None else getattr(row.settings, name)


_RATE = "; <NA> when undefined or unscored"
#: (column, dtype, where in the run object, what it holds): every figure of ``rescore``.
_FIGURES: tuple[tuple[str, DType, str, str], ...] = (
    ("run_id", "string", "run_id", "the run"),
    ("model", "string", "model", "the model"),
    ("track", "string", "track", "answer_only, reasoning_assisted, structured_output, …"),
    ("protocol_version", "Int64", "protocol_version", "the run's protocol version"),
    ("status", "string", "status", "complete or unfinished (the runner's)"),
    ("scored", "boolean", "scored", "complete and no attempt pending: rates are defined"),
    ("attempts", "Int64", "attempts", "N: every attempt of the run"),
    ("correct", "Int64", "correct", "correct attempts (the desk's verdict)"),
    ("valid", "Int64", "valid", "attempts with status valid"),
    ("exact_accuracy", "Float64", "exact_accuracy", "correct / N, the primary score" + _RATE),
    ("coverage", "Float64", "coverage", "valid / N" + _RATE),
    ("valid_accuracy", "Float64", "valid_accuracy", "correct / valid" + _RATE),
    ("option_accuracy", "Float64", "option_accuracy", "(TP + TN) / options, valid" + _RATE),
    ("precision", "Float64", "precision", "TRUE the positive class, micro-averaged" + _RATE),
    ("recall", "Float64", "recall", "as precision" + _RATE),
    ("f1", "Float64", "f1", "of precision and recall" + _RATE),
    ("hamming_loss", "Float64", "hamming_loss", "(FP + FN) / options, valid" + _RATE),
    ("strict_format_rate", "Float64", "strict_format_rate", "strict_format / N" + _RATE),
    ("provider_error", "Int64", "errors.provider_error", "attempts the provider failed"),
    ("parse_error", "Int64", "errors.parse_error", "attempts with a parse-error status"),
    ("incomplete", "Int64", "errors.incomplete", "attempts cut off"),
    *(
        (
            f"status_{s.value}",
            "Int64",
            f"errors.by_status.{s.value}",
            f"attempts with status {s.value}",
        )
        for s in Status
    ),
    ("always_true", "Float64", "baselines.always_true", "share of all-TRUE keys" + _RATE),
    ("always_false", "Float64", "baselines.always_false", "share of all-FALSE keys" + _RATE),
    ("repetitions", "object", "repetitions", "a list: per repetition its accuracy, Wilson 95%"),
    ("slices", "object", "slices", "a mapping: exact_accuracy per label facet and value"),
    ("consistency_index", "object", "consistency_index", 'a number, "void" or None'),
    ("disagreements", "Int64", "disagreements", "attempts the runner recorded otherwise"),
)
#: (column, dtype, what it holds): the run's settings (table ``runs``).
_SETTINGS: tuple[tuple[str, DType, str], ...] = (
    ("provider", "string", "setting: the provider"),
    ("provider_routing", "string", "setting: the provider routing"),
    ("max_tokens", "Int64", "setting: the token cap (<NA>: not set)"),
    ("temperature", "Float64", "setting: the temperature (<NA>: provider default)"),
    ("reasoning_effort", "string", "setting: the reasoning effort"),
    ("concurrency", "Int64", "setting: the runner's concurrency"),
    ("prompt_template", "string", "setting: the prompt template"),
)

#: One row per run: every figure of its ``rescore`` run object (``errors`` and
#: ``baselines`` flattened), then its settings.
RUN_COLUMNS: Final[tuple[FrameColumn[ScoreRow], ...]] = (
    *(FrameColumn(name, dtype, doc, _at(path)) for name, dtype, path, doc in _FIGURES),
    *(FrameColumn(name, dtype, doc, _setting(name)) for name, dtype, doc in _SETTINGS),
)


def runs_frame(rows: Sequence[ScoreRow]) -> pd.DataFrame:
    """One row per run of ``rows`` (kept in their order) with :data:`RUN_COLUMNS`."""
    return build_frame(rows, RUN_COLUMNS)


__all__ = ["EXPORT_COLUMNS", "RUN_COLUMNS", "export_value", "runs_frame", "table_frame"]
