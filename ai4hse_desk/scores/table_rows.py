"""The scores tables' columns, declared once, and how each cell reads.

A row is one run object of ``rescore`` (cli.md) with the run's settings
(:class:`ScoreRow`). Every column (:data:`COLUMNS`) names its raw value, which
is exactly the rescore JSON value (tests compare it to the last digit), and
:func:`display` turns it into text for people:

* rates as percentages with one decimal (two below 1%, so that a small
  rate never reads 0.0%), F1 and the consistency index as numbers with three decimals;
* a rate that is ``null`` in a scored run reads ``"undefined"``, never 0;
* a run without an aggregate score reads ``"unfinished — no aggregate
  score"`` (``"pending attempts — …"`` when marked complete but with a pending
  attempt) in its exact-accuracy cell and ``"—"`` in its other rate cells;
  its counts are shown as they are;
* settings are written by :func:`~ai4hse_desk.display.format.setting_text` (one
  formatter for this table, the detail panel and the report): a temperature of
  ``None`` reads ``"provider default"``; other settings the runner did not record
  read ``"not set"``.

:func:`exact_text` gives the full number (tooltips, "copy exact value").
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, Literal, TypeVar

from ai4hse_desk.display.format import setting_text
from ai4hse_desk.protocol.outcome import TRACK_ORDER

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

    from ai4hse_desk.audit.records import Run

UNFINISHED = "unfinished — no aggregate score"
PENDING = "pending attempts — no aggregate score"
UNDEFINED = "undefined"
NO_SCORE_CELL = "—"
_TIP_WIDTH = 70

#: ``text``, ``setting`` and ``count`` cells show their value; ``percent`` and
#: ``score`` cells are rates (``null`` when undefined or unscored); ``points``
#: (percentage points) and ``delta`` (a score) are differences of two of them.
Kind = Literal["text", "setting", "count", "percent", "score", "points", "delta"]
RATE_KINDS: frozenset[str] = frozenset({"percent", "score", "points", "delta"})
R = TypeVar("R")

_TRACK_TITLES = {
    "answer_only": "Answer only",
    "reasoning_assisted": "Reasoning assisted",
    "structured_output": "Structured output",
    "single_choice": "Single choice",
}


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One run of a track table: its rescore run object and its settings."""

    run: Mapping[str, Any]
    settings: Run | None

    @property
    def run_id(self) -> str:
        return str(self.run["run_id"])

    @property
    def track(self) -> str:
        return str(self.run["track"])


@dataclass(frozen=True, slots=True)
class Column(Generic[R]):
    """One column: a stable key (export header), a header and the raw value.

    ``run`` picks the run object that decides whether the cell has a score
    (its ``scored`` and ``status``).
    """

    key: str
    header: str
    kind: Kind
    raw: Callable[[R], object]
    run: Callable[[R], Mapping[str, Any] | None]
    tip: str = ""


def track_title(track: str) -> str:
    """``"Answer only"`` for ``answer_only``; unknown tracks by their name."""
    return _TRACK_TITLES.get(track, track)


def unscored_text(run: Mapping[str, Any]) -> str:
    """Why a run has no aggregate score."""
    return UNFINISHED if run.get("status") != "complete" else PENDING


def percent_text(value: float) -> str:
    """``0.64`` → ``"64.0%"``; below 1% two decimals (``0.0005`` → ``"0.05%"``)."""
    scaled = value * 100
    if 0 < abs(scaled) < 1:
        return f"{scaled:.2f}%"
    return f"{scaled:.1f}%"


def display(column: Column[R], row: R) -> str:
    """The cell text of ``column`` in ``row``."""
    value = column.raw(row)
    if column.kind == "setting":
        return setting_text(column.key, value)
    if column.kind not in RATE_KINDS:
        return "" if value is None else f"{value:,}" if isinstance(value, int) else str(value)
    run = column.run(row)
    if run is None or not run.get("scored"):
        if column.key == "exact_accuracy" and run is not None:
            return unscored_text(run)
        return NO_SCORE_CELL
    if value is None:
        return UNDEFINED
    if isinstance(value, str):
        return value
    number = float(value)  # type: ignore[arg-type]
    if column.kind == "percent":
        return percent_text(number)
    if column.kind == "points":
        return f"{number * 100:+.2f} pp"
    if column.kind == "delta":
        return f"{number:+.3f}"
    return f"{number:.3f}"


def exact_text(column: Column[R], row: R) -> str:
    """The full value of a cell (tooltip): every digit rescore reported."""
    value = column.raw(row)
    run = column.run(row)
    if column.kind in RATE_KINDS and (run is None or not run.get("scored")):
        return "no aggregate score" if run is None else unscored_text(run)
    if value is None:
        return UNDEFINED if column.kind in RATE_KINDS else setting_text(column.key, None)
    if isinstance(value, float):
        exact = repr(value)
        share = _shares.get(column.key)
        if share is not None and run is not None:
            numerator, denominator = share
            return f"{exact} ({run[numerator]:,} of {run[denominator]:,})"
        return exact
    return str(value)


_shares = {
    "exact_accuracy": ("correct", "attempts"),
    "valid_accuracy": ("correct", "valid"),
    "coverage": ("valid", "attempts"),
}


def _get(key: str) -> Callable[[ScoreRow], object]:
    return lambda row: row.run.get(key)


def _nested(group: str, key: str) -> Callable[[ScoreRow], object]:
    return lambda row: (row.run.get(group) or {}).get(key)


def _setting(name: str) -> Callable[[ScoreRow], object]:
    return lambda row: None if row.settings is None else getattr(row.settings, name)


def _own(row: ScoreRow) -> Mapping[str, Any]:
    return row.run


def _col(
    key: str, header: str, kind: Kind, raw: Callable[[ScoreRow], object], tip: str = ""
) -> Column[ScoreRow]:
    return Column(key, header, kind, raw, _own, tip)


_N = "all attempts N (every question × every repetition)"
_VALID_OPTIONS = "over all options of valid attempts"
_MICRO = f"TRUE is the positive class, micro-averaged {_VALID_OPTIONS}; undefined when 0 / 0"
_SETTING = "Run setting: "

#: The columns of a track table (and of the table exports, and the HTML report), in
#: display order: who ran it (kept in view, :data:`FROZEN_KEYS`), the primary score,
#: valid accuracy beside coverage, the other metrics and counts, the settings last.
#: Each ``tip`` is the protocol's definition (section 6), shown in the header tooltip.
COLUMNS: tuple[Column[ScoreRow], ...] = (
    _col("model", "Model", "text", _get("model"), "The model this run called"),
    _col(
        "run_id", "Run", "text", _get("run_id"),
        "The run's id: one model × one track × its repetitions",
    ),
    _col(
        "exact_accuracy", "Exact accuracy", "percent", _get("exact_accuracy"),
        f"The primary score, end-to-end: correct / {_N}. Parse errors, provider errors and "
        "cut-off generations count as wrong",
    ),
    _col(
        "valid_accuracy", "Valid accuracy", "percent", _get("valid_accuracy"),
        "Correct / valid attempts; undefined (not 0) when none is valid. Read it with coverage",
    ),
    _col(
        "coverage", "Coverage", "percent", _get("coverage"),
        f"Valid / {_N}: the share whose answer could be read",
    ),
    _col(
        "strict_format_rate", "Strict format", "percent", _get("strict_format_rate"),
        f"Attempts in the track's strict answer format / {_N}",
    ),
    _col(
        "option_accuracy", "Option accuracy", "percent", _get("option_accuracy"),
        f"(TP + TN) / options, {_VALID_OPTIONS}",
    ),
    _col("precision", "Precision", "percent", _get("precision"), f"TP / (TP + FP); {_MICRO}"),
    _col("recall", "Recall", "percent", _get("recall"), f"TP / (TP + FN); {_MICRO}"),
    _col(
        "f1", "F1", "score", _get("f1"),
        "2 × precision × recall / (precision + recall); undefined when either is, "
        "0 when both are 0",
    ),
    _col(
        "hamming_loss", "Hamming loss", "percent", _get("hamming_loss"),
        f"(FP + FN) / options, {_VALID_OPTIONS} (lower is better)",
    ),
    _col(
        "consistency_index", "Consistency index", "score", _get("consistency_index"),
        "EnviroExam-style composite over the topic slices: M = mean of the slice accuracies, "
        "CV = population σ / M; M × (1 − CV) when 0 ≤ CV ≤ 1, else void (also when M = 0)",
    ),
    _col(
        "always_true", "Always-TRUE baseline", "percent", _nested("baselines", "always_true"),
        "Share of the run's questions (each once) whose key is all TRUE: what answering TRUE "
        "everywhere would score",
    ),
    _col(
        "always_false", "Always-FALSE baseline", "percent",
        _nested("baselines", "always_false"),
        "Share of the run's questions (each once) whose key is all FALSE: what answering FALSE "
        "everywhere would score",
    ),
    _col("attempts", "Attempts", "count", _get("attempts"), f"Count of {_N}"),
    _col(
        "correct", "Correct", "count", _get("correct"),
        "Attempts that are valid and whose selection equals the key at every option",
    ),
    _col(
        "provider_error", "Provider errors", "count", _nested("errors", "provider_error"),
        "Attempts the provider failed (no response); counted wrong",
    ),
    _col(
        "parse_error", "Parse errors", "count", _nested("errors", "parse_error"),
        "Attempts with any parse-error status (missing, multiple, ambiguous, not final, "
        "malformed, wrong length, invalid JSON, schema violation); counted wrong",
    ),
    _col(
        "incomplete", "Incomplete", "count", _nested("errors", "incomplete"),
        "Attempts whose generation was cut off (finish reason length or max tokens); counted "
        "wrong even when a list could be read",
    ),
    _col(
        "disagreements", "Runner ≠ desk", "count", _get("disagreements"),
        "Attempts whose recorded verdict differs from the desk's re-derivation",
    ),
    _col(
        "repetitions", "Repetitions", "setting", _setting("repetitions"),
        f"{_SETTING}how many times each question was asked",
    ),
    _col(
        "max_tokens", "Token cap", "setting", _setting("max_tokens"),
        f"{_SETTING}the output token limit of each call",
    ),
    _col(
        "temperature", "Temperature", "setting", _setting("temperature"),
        f"{_SETTING}the sampling temperature sent (provider default when none was sent)",
    ),
    _col(
        "reasoning_effort", "Reasoning effort", "setting", _setting("reasoning_effort"),
        f"{_SETTING}the reasoning effort asked of the provider",
    ),
    _col(
        "provider", "Provider", "setting", _setting("provider"),
        f"{_SETTING}the provider the runner called",
    ),
    _col(
        "provider_routing", "Provider routing", "setting", _setting("provider_routing"),
        f"{_SETTING}the routing preferences sent to the provider",
    ),
    _col(
        "concurrency", "Concurrency", "setting", _setting("concurrency"),
        f"{_SETTING}how many calls the runner made at once",
    ),
    _col(
        "protocol_version", "Protocol", "setting", _get("protocol_version"),
        "The protocol version the run was made under (before 10: the stricter desk rule)",
    ),
)  # fmt: skip
#: The leading columns a table keeps in view while the rest scroll: who ran it.
FROZEN_KEYS: tuple[str, ...] = ("model", "run_id")


def header_tip(column: Column[R]) -> str:
    """A header's tooltip: its full text (a narrow header is elided), then what it means.

    The meaning is wrapped at about 70 characters (a plain tooltip does not wrap).
    """
    if not column.tip:
        return column.header
    return f"{column.header}\n{textwrap.fill(column.tip, _TIP_WIDTH)}"


def column(key: str) -> Column[ScoreRow]:
    """The column of :data:`COLUMNS` with this key."""
    for candidate in COLUMNS:
        if candidate.key == key:
            return candidate
    raise KeyError(key)


def track_tables(
    runs: Iterable[Mapping[str, Any]], settings: Mapping[str, Run]
) -> dict[str, list[ScoreRow]]:
    """One table per track, tracks in report order, runs in rescore's order.

    ``runs`` must already be in rescore's order (it is kept, never re-sorted).
    """
    tables: dict[str, list[ScoreRow]] = {}
    for run in runs:
        row = ScoreRow(run, settings.get(str(run["run_id"])))
        tables.setdefault(row.track, []).append(row)
    rank = {track.value: i for i, track in enumerate(TRACK_ORDER)}
    return dict(sorted(tables.items(), key=lambda item: (rank.get(item[0], len(rank)), item[0])))
