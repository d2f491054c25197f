"""The attempt list's filters: runs, models, tracks, repetitions, statuses, labels …

Every choice becomes one immutable :class:`~ai4hse_desk.index.AttemptQuery`;
the panel does no filtering itself (the review index does, in SQL).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QGroupBox,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ai4hse_desk.display.status_style import status_label
from ai4hse_desk.gui.widgets.check_list import QtCheckList
from ai4hse_desk.index import PARSE_ERROR_STATUSES, AttemptQuery
from ai4hse_desk.protocol.outcome import Status

if TYPE_CHECKING:
    from collections.abc import Sequence


class FilterPanel(QScrollArea):
    """All filters of the attempt list; emits the resulting query."""

    query_changed = Signal(object)  # AttemptQuery

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Filters")
        self.setWidgetResizable(True)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(6, 6, 6, 6)
        self._emitting = True

        status_box = QGroupBox("Desk status")
        status_layout = QVBoxLayout(status_box)
        buttons = QHBoxLayout()
        self.parse_errors_button = QPushButton("All parse errors")
        self.parse_errors_button.setToolTip("Show every attempt with a parse-error status")
        self.parse_errors_button.clicked.connect(self.show_parse_errors)
        self.clear_button = QPushButton("Clear filters")
        self.clear_button.clicked.connect(self.clear)
        buttons.addWidget(self.parse_errors_button)
        buttons.addWidget(self.clear_button)
        status_layout.addLayout(buttons)
        self.statuses = QtCheckList("Desk status filter", max_rows=len(Status))
        self.statuses.set_values([(status_label(s), s.value) for s in Status])
        status_layout.addWidget(self.statuses)
        layout.addWidget(status_box)

        verdict_box = QGroupBox("Verdict")
        verdict_layout = QVBoxLayout(verdict_box)
        self.correct = QComboBox()
        self.correct.setAccessibleName("Correctness filter")
        for label, value in (("Correct or not", None), ("Correct", True), ("Incorrect", False)):
            self.correct.addItem(label, value)
        self.disagreements = QCheckBox("Runner ≠ desk only")
        self.disagreements.setToolTip(
            "Only attempts whose recorded verdict differs from the desk's"
        )
        verdict_layout.addWidget(self.correct)
        verdict_layout.addWidget(self.disagreements)
        layout.addWidget(verdict_box)

        self.runs = QtCheckList("Run filter")
        self.run_search = QLineEdit()
        self.run_search.setAccessibleName("Search the runs")
        self.run_search.setPlaceholderText("Find a run or model…")
        self.run_search.setToolTip("Lists only the runs whose name or model contains this text")
        self.run_search.setClearButtonEnabled(True)
        self.run_search.textChanged.connect(self.runs.set_filter_text)
        self.models = QtCheckList("Model filter")
        self.tracks = QtCheckList("Track filter")
        self.repetitions = QtCheckList("Repetition filter")
        groups: tuple[tuple[str, tuple[QWidget, ...]], ...] = (
            ("Run", (self.run_search, self.runs)),  # the search box above its list
            ("Model", (self.models,)),
            ("Track", (self.tracks,)),
            ("Repetition", (self.repetitions,)),
        )
        for title, widgets in groups:
            layout.addWidget(self._group(title, *widgets))
        self._facet_lists: dict[str, QtCheckList] = {}
        self._facet_layout = QVBoxLayout()
        layout.addLayout(self._facet_layout)
        layout.addStretch(1)
        self.setWidget(body)

        for widget in (self.statuses, self.runs, self.models, self.tracks, self.repetitions):
            widget.changed.connect(self._emit)
        self.correct.currentIndexChanged.connect(self._emit)
        self.disagreements.toggled.connect(self._emit)
        self._text: str | None = None
        self._flagged: tuple[str, ...] | None = None

    @staticmethod
    def _group(title: str, *widgets: QWidget) -> QGroupBox:
        box = QGroupBox(title)
        box_layout = QVBoxLayout(box)
        box_layout.setContentsMargins(4, 4, 4, 4)
        for widget in widgets:
            box_layout.addWidget(widget)
        return box

    def set_choices(
        self,
        runs: Sequence[tuple[str, str]],
        models: Sequence[str],
        tracks: Sequence[str],
        repetitions: Sequence[int],
        facets: dict[str, list[str]],
    ) -> None:
        """Offer the values of an opened database (resets every filter, no signal)."""
        self._emitting = False
        self.run_search.clear()
        self.runs.set_values([(f"{run_id}  ({model})", run_id) for run_id, model in runs])
        self.models.set_values([(m, m) for m in models])
        self.tracks.set_values([(t, t) for t in tracks])
        self.repetitions.set_values([(str(r), r) for r in repetitions])
        while self._facet_layout.count():
            item = self._facet_layout.takeAt(0)
            widget = None if item is None else item.widget()
            if widget is not None:
                widget.deleteLater()
        self._facet_lists = {}
        for facet, values in facets.items():
            checklist = QtCheckList(f"Label filter: {facet}")
            checklist.set_values([(v, v) for v in values])
            checklist.changed.connect(self._emit)
            self._facet_lists[facet] = checklist
            self._facet_layout.addWidget(self._group(f"Label: {facet}", checklist))
        self.statuses.set_checked(())
        self.correct.setCurrentIndex(0)
        self.disagreements.setChecked(False)
        self._emitting = True

    def facet(self, name: str) -> QtCheckList:
        """The check list of label facet ``name`` (``KeyError`` if the file has none)."""
        return self._facet_lists[name]

    def set_text(self, text: str | None) -> None:
        """The search text (from the search bar)."""
        self._text = text or None
        self._emit()

    def set_flagged_only(self, question_ids: Sequence[str] | None) -> None:
        """Restrict to flagged questions (None: no restriction)."""
        self._flagged = None if question_ids is None else tuple(question_ids)
        self._emit()

    def query(self) -> AttemptQuery:
        """The query the current choices describe."""
        labels: list[tuple[str, str]] = []
        for facet, checklist in self._facet_lists.items():
            for value in checklist.checked() or ():
                labels.append((facet, str(value)))
        runs = self.runs.checked()
        models = self.models.checked()
        tracks = self.tracks.checked()
        repetitions = self.repetitions.checked()
        statuses = self.statuses.checked()
        return AttemptQuery(
            run_ids=None if runs is None else tuple(str(v) for v in runs),
            models=None if models is None else tuple(str(v) for v in models),
            tracks=None if tracks is None else tuple(str(v) for v in tracks),
            repetitions=None if repetitions is None else tuple(int(str(v)) for v in repetitions),
            statuses=None if statuses is None else tuple(str(v) for v in statuses),
            correct=self.correct.currentData(),
            disagreements_only=self.disagreements.isChecked(),
            labels=tuple(labels) or None,
            flagged_question_ids=self._flagged,
            text=self._text,
        )

    def apply_query(self, query: AttemptQuery) -> None:
        """Set every filter widget from ``query`` (e.g. a click on a plotted bar); one signal.

        Values the panel does not offer (an unknown run) are ignored; the search
        text and the flagged-only restriction are taken over as they are.
        """
        self._emitting = False
        choices = (
            (self.runs, query.run_ids),
            (self.models, query.models),
            (self.tracks, query.tracks),
            (self.repetitions, query.repetitions),
            (self.statuses, query.statuses),
        )
        for checklist, values in choices:
            checklist.set_checked(values or ())
        wanted_labels = query.labels or ()
        for facet, checklist in self._facet_lists.items():
            checklist.set_checked([value for f, value in wanted_labels if f == facet])
        self.correct.setCurrentIndex(max(0, self.correct.findData(query.correct)))
        self.disagreements.setChecked(query.disagreements_only)
        self._flagged = query.flagged_question_ids
        self._text = query.text
        self._emitting = True
        self._emit()

    def show_parse_errors(self) -> None:
        """One click: every parse-error status, nothing else."""
        self.statuses.set_checked(PARSE_ERROR_STATUSES)

    def clear(self) -> None:
        """Remove every filter (search text stays with the search bar)."""
        self._emitting = False
        for checklist in (self.statuses, self.runs, self.models, self.tracks, self.repetitions):
            checklist.set_checked(())
        for checklist in self._facet_lists.values():
            checklist.set_checked(())
        self.correct.setCurrentIndex(0)
        self.disagreements.setChecked(False)
        self._flagged = None
        self._emitting = True
        self._emit()

    def _emit(self, *_: object) -> None:
        if self._emitting:
            self.query_changed.emit(self.query())


__all__ = ["FilterPanel"]
