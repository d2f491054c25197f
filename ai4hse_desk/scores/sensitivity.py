"""Sensitivity, not official: the same metrics without some questions, beside the official ones.

A :class:`SensitivityRow` pairs a run's official object (rescore's, which
never changes) with the object of a rescore that left some questions out
(``rescore(..., exclude_questions=...)``). :data:`SENSITIVITY_COLUMNS` sets
the main metrics side by side with their difference; cells read as in
:mod:`.table_rows` ("undefined", no aggregate score for unscored runs).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ai4hse_desk.scores.table_rows import Column, Kind, track_title

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping


@dataclass(frozen=True, slots=True)
class SensitivityRow:
    """One run's official figures beside the same metrics without some questions."""

    official: Mapping[str, Any]
    explored: Mapping[str, Any] | None

    @property
    def run_id(self) -> str:
        return str(self.official["run_id"])

    @property
    def track(self) -> str:
        return str(self.official["track"])


#: Metrics the sensitivity table sets side by side (official, exploration, difference).
SENSITIVITY_METRICS: tuple[tuple[str, str], ...] = (
    ("exact_accuracy", "Exact accuracy"),
    ("valid_accuracy", "Valid accuracy"),
    ("coverage", "Coverage"),
    ("f1", "F1"),
)


def _difference(key: str) -> Callable[[SensitivityRow], object]:
    def raw(row: SensitivityRow) -> object:
        before = row.official.get(key)
        after = None if row.explored is None else row.explored.get(key)
        if isinstance(before, int | float) and isinstance(after, int | float):
            return after - before
        return None

    return raw


def _official(row: SensitivityRow) -> Mapping[str, Any]:
    return row.official


def _explored(row: SensitivityRow) -> Mapping[str, Any] | None:
    return row.explored


def _before(key: str) -> Callable[[SensitivityRow], object]:
    return lambda row: row.official.get(key)


def _after(key: str) -> Callable[[SensitivityRow], object]:
    return lambda row: None if row.explored is None else row.explored.get(key)


def _sensitivity_columns() -> tuple[Column[SensitivityRow], ...]:
    columns: list[Column[SensitivityRow]] = [
        Column("track", "Track", "text", lambda row: track_title(row.track), _official),
        Column("model", "Model", "text", _before("model"), _official),
        Column("run_id", "Run", "text", _before("run_id"), _official),
        Column("attempts", "Attempts (official)", "count", _before("attempts"), _official),
        Column(
            "explored_attempts", "Attempts (exploration)", "count", _after("attempts"), _explored
        ),
    ]
    for key, header in SENSITIVITY_METRICS:
        kind: Kind = "score" if key == "f1" else "percent"
        columns += [
            Column(key, f"{header} (official)", kind, _before(key), _official),
            Column(f"explored_{key}", f"{header} (exploration)", kind, _after(key), _explored),
            Column(
                f"delta_{key}",
                f"Δ {header}",
                "delta" if key == "f1" else "points",
                _difference(key),
                _explored,
            ),
        ]
    return tuple(columns)


#: Columns of the sensitivity table: official figures beside the exploration's.
SENSITIVITY_COLUMNS: tuple[Column[SensitivityRow], ...] = _sensitivity_columns()


def sensitivity_rows(
    official: Iterable[Mapping[str, Any]], explored: Iterable[Mapping[str, Any]] | None
) -> list[SensitivityRow]:
    """Pair each official run (in the official order) with its exploration figures."""
    by_id = {str(run["run_id"]): run for run in explored or ()}
    return [SensitivityRow(run, by_id.get(str(run["run_id"]))) for run in official]
