"""The scores view's exports: tables (CSV, XLSX), plots (PNG, SVG), the HTML report.

Mixed into :class:`~ai4hse_desk.gui.scores_view.ScoresView`. Every file
dialog goes through :meth:`ScoresExportsMixin._ask_save_path`, which tests
replace; the ``export_*`` methods take a path and write without asking.

Every file is written through :mod:`ai4hse_desk.filewrite` (a temporary file
beside the target, then renamed), so the audit database, the notes store, their
side files, folders, devices and SQLite databases are refused
(:class:`~ai4hse_desk.filewrite.WriteRefused`) and nothing is written. From the
toolbar, a refused or failed export is said in a plain-text message box.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QFileDialog, QLabel

from ai4hse_desk.audit import AuditDB
from ai4hse_desk.errors import InputProblem
from ai4hse_desk.filewrite import check_target, write_text
from ai4hse_desk.gui.plain_text import Icon, plain_message
from ai4hse_desk.gui.scores_plots import TrackPlots
from ai4hse_desk.gui.scores_table_model import ScoresTableModel
from ai4hse_desk.gui.sensitivity_panel import SensitivityPanel
from ai4hse_desk.scores import track_title, write_csv, write_xlsx
from ai4hse_desk.scores.cache import ScoresData
from ai4hse_desk.scores.plot_data import PLOT_TITLES
from ai4hse_desk.scores.report_html import (
    ReportPlot,
    SensitivityReport,
    build_report,
    excluded_questions,
)
from ai4hse_desk.scores.table_rows import ScoreRow


class ScoresExportsMixin:
    """Export actions of the scores view (which provides the attributes below)."""

    models: dict[str, ScoresTableModel]
    plots: dict[str, TrackPlots]
    data: ScoresData | None
    sensitivity: SensitivityPanel
    status: QLabel
    action_map: dict[str, QAction]
    _db: AuditDB | None
    current_track: Callable[[], str | None]

    def _ask_save_path(self, caption: str, suggested: str, filters: str) -> Path | None:
        """The file dialog (tests replace this method)."""
        parent: Any = self
        path, _ = QFileDialog.getSaveFileName(parent, caption, suggested, filters)
        return Path(path) if path else None

    def _tables(self) -> dict[str, list[ScoreRow]]:
        return {track: model.rows for track, model in self.models.items()}

    def export_tables(self, path: str | Path) -> Path:
        """Write the tables to ``path`` (``.xlsx``: a sheet per track; else one CSV)."""
        target = Path(path)
        if target.suffix.lower() == ".xlsx":
            return write_xlsx(target, self._tables())
        return write_csv(target, self._tables())

    def export_plot(
        self, path: str | Path, track: str | None = None, name: str | None = None
    ) -> Path:
        """Write one plot (default: the one shown) as PNG or SVG, by the suffix."""
        if not self.plots:
            raise RuntimeError("no plots to export")
        chosen = track or self.current_track() or next(iter(self.plots))
        plots = self.plots[chosen]
        plot_name = name or list(PLOT_TITLES)[plots.tabs.currentIndex()]
        return plots.export_image(plot_name, path)

    def report_html(self, *, include_private: bool = False, with_plots: bool = True) -> str:
        """The HTML review report of what is shown (aggregates only unless asked)."""
        if self.data is None or self._db is None:
            raise RuntimeError("no scores to report")
        db = self._db
        audit = {
            "file": db.path.name,
            "sha256": db.fingerprint(),
            "benchmark": db.meta.get("benchmark", ""),
            "corpus_id": db.meta.get("corpus_id", ""),
            "schema version": db.schema_version,
        }
        plots = [
            ReportPlot(f"{track_title(track)} — {title}", "image/png", view.png_bytes(name))
            for track, view in self.plots.items()
            for name, title in PLOT_TITLES.items()
            if with_plots
        ]
        return build_report(
            audit=audit,
            tables=self._tables(),
            consistency_facet=self.data.consistency_facet,
            plots=plots,
            sensitivity=self._sensitivity_report(include_private),
            include_private=include_private,
            generated_at=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        )

    def _sensitivity_report(self, include_private: bool) -> SensitivityReport | None:
        panel = self.sensitivity
        if panel.explored is None:
            return None
        excluded = excluded_questions(panel.excluded(), panel.question_records, include_private)
        return SensitivityReport(panel.reason_text, excluded, panel.model.rows)

    def export_report(self, path: str | Path, *, include_private: bool = False) -> Path:
        """Write the HTML review report to ``path`` (refused targets: see the module doc)."""
        target = Path(path)
        check_target(target)  # before the plots are rendered into it
        write_text(target, self.report_html(include_private=include_private))
        return target

    # -- the toolbar's actions ---------------------------------------------------

    def _export_tables(self, kind: str) -> None:
        filters = "Excel workbook (*.xlsx)" if kind == "xlsx" else "CSV (*.csv)"
        path = self._ask_save_path("Export scores tables", f"scores.{kind}", filters)
        if path is not None:
            self._write(lambda: self.export_tables(path.with_suffix(f".{kind}")))

    def _export_plot(self, kind: str) -> None:
        filters = "PNG image (*.png)" if kind == "png" else "SVG image (*.svg)"
        path = self._ask_save_path("Export plot", f"scores-plot.{kind}", filters)
        if path is not None:
            self._write(lambda: self.export_plot(path.with_suffix(f".{kind}")))

    def _export_report(self) -> None:
        path = self._ask_save_path("Export review report", "scores-report.html", "HTML (*.html)")
        if path is not None:
            private = self.action_map["private"].isChecked()
            self._write(lambda: self.export_report(path, include_private=private))

    def _write(self, write: Callable[[], Path]) -> None:
        try:
            written = write()
        except (InputProblem, OSError, ValueError, RuntimeError) as exc:
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            self.status.setText(f"Could not export: {reason}")
            parent: Any = self
            plain_message(parent, Icon.Critical, "Could not export", reason)
            return
        self.status.setText(f"Exported {written}")


__all__ = ["ScoresExportsMixin"]
