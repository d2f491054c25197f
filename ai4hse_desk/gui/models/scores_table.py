"""Qt table models over the scores rows: adapters, no computing of their own.

A model shows a list of rows (rescore run objects with their settings, or
the sensitivity pairs) through the columns declared in
:mod:`ai4hse_desk.scores.table_rows`. The display text is formatted there;
a header's tooltip gives its full text and the protocol's definition; a cell's
tooltip gives the full number (escaped where Qt would read it as HTML: a
model name or run id is shown as it is); :data:`RAW_ROLE` returns the exact value
rescore reported (tests compare it to the rescore JSON to the last digit).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Generic

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QObject, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor, QFont

from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.gui.plain_text import plain_tooltip
from ai4hse_desk.gui.qt_guard import guarded
from ai4hse_desk.scores.sensitivity import SENSITIVITY_COLUMNS, SensitivityRow
from ai4hse_desk.scores.table_rows import (
    COLUMNS,
    NO_SCORE_CELL,
    RATE_KINDS,
    UNDEFINED,
    Column,
    R,
    ScoreRow,
    display,
    exact_text,
    header_tip,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

#: The exact rescore value of a cell (float, int, str or ``None``).
RAW_ROLE = int(Qt.ItemDataRole.UserRole) + 1
#: The run id of a row (any column).
RUN_ID_ROLE = int(Qt.ItemDataRole.UserRole) + 2

_Index = QModelIndex | QPersistentModelIndex
_UNSCORED_BACKGROUND = "#f3f4f6"
_MUTED = "#4b5563"
#: The primary score's column, its header in bold.
PRIMARY = "exact_accuracy"
_NUMERIC = frozenset({"count", *RATE_KINDS})


class ColumnsTableModel(QAbstractTableModel, Generic[R]):
    """Rows shown through declared columns (read-only)."""

    def __init__(self, columns: Sequence[Column[R]], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.columns: tuple[Column[R], ...] = tuple(columns)
        self._rows: list[R] = []
        self._italic = QFont()
        self._italic.setItalic(True)
        self._bold = QFont()
        self._bold.setBold(True)

    @property
    def rows(self) -> list[R]:
        """The rows shown, in order."""
        return list(self._rows)

    def set_rows(self, rows: Sequence[R]) -> None:
        """Show ``rows`` (in the order given; the model never re-sorts)."""
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def column_index(self, key: str) -> int:
        """Position of the column with this key."""
        for position, candidate in enumerate(self.columns):
            if candidate.key == key:
                return position
        raise KeyError(key)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    @guarded(None)
    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.columns):
            column = self.columns[section]
            if role == Qt.ItemDataRole.DisplayRole:
                return column.header
            if role == Qt.ItemDataRole.ToolTipRole:
                return plain_tooltip(header_tip(column))
            if role == Qt.ItemDataRole.FontRole and column.key == PRIMARY:
                return self._bold
        elif orientation == Qt.Orientation.Vertical and role == Qt.ItemDataRole.DisplayRole:
            return str(section + 1)
        return None

    @guarded(None)
    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        column = self.columns[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:  # a model name, an id, a setting: as shown
            return display_text(display(column, row))
        if role == RAW_ROLE:
            return column.raw(row)
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tooltip(f"{column.header}: {display_text(exact_text(column, row))}")
        if role == RUN_ID_ROLE:
            return getattr(row, "run_id", None)
        if role == Qt.ItemDataRole.TextAlignmentRole and column.kind in _NUMERIC:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role in (Qt.ItemDataRole.FontRole, Qt.ItemDataRole.ForegroundRole):
            if not self._muted(column, row):
                return None
            return self._italic if role == Qt.ItemDataRole.FontRole else QBrush(QColor(_MUTED))
        if role == Qt.ItemDataRole.BackgroundRole:
            run = column.run(row) if column.kind in RATE_KINDS else None
            if run is not None and not run.get("scored"):
                return QBrush(QColor(_UNSCORED_BACKGROUND))
        return None

    @staticmethod
    def _muted(column: Column[R], row: R) -> bool:
        """A rate that is no score: undefined, or of a run that has no aggregate score."""
        if column.kind not in RATE_KINDS:
            return False
        if display(column, row) in (UNDEFINED, NO_SCORE_CELL):
            return True
        run = column.run(row)
        return run is None or not run.get("scored")


class ScoresTableModel(ColumnsTableModel[ScoreRow]):
    """One track's runs, in rescore's order, through :data:`COLUMNS`."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(COLUMNS, parent)


class SensitivityTableModel(ColumnsTableModel[SensitivityRow]):
    """Official figures beside the exploration's, through :data:`SENSITIVITY_COLUMNS`."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(SENSITIVITY_COLUMNS, parent)
