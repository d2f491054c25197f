"""The scores view's exports: tables (CSV, XLSX), plots (PNG, SVG), the HTML report.

:class:`ScoresExporter` is held by the :class:`~.scores.ScoresView` and reads
what it shows. Every file dialog goes through :meth:`ScoresExporter.ask_save_path`,
which tests replace; the ``export_*`` methods take a path and write without asking.

Every file is written through :mod:`ai4hse_desk.filewrite` (a temporary file
beside the target, then renamed), so the audit database, the notes store, their
side files, folders, devices and SQLite databases are refused
(:class:`~ai4hse_desk.filewrite.WriteRefused`) and nothing is written. From the
toolbar, a refused or failed export is said in a plain-text message box.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from ai4hse_desk.errors import InputProblem, first_line
from ai4hse_desk.filewrite import check_target, write_text
from ai4hse_desk.gui.dialogs.last_folder import ask_save_file
from ai4hse_desk.gui.plain_text import Icon, plain_message
from ai4hse_desk.scores import track_title, write_csv, write_xlsx
from ai4hse_desk.scores.plot_data import PLOT_TITLES
from ai4hse_desk.scores.report_html import (
    ReportPlot,
    SensitivityReport,
    build_report,
    excluded_questions,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from PySide6.QtWidgets import QWidget

    from ai4hse_desk.audit import AuditDB
    from ai4hse_desk.gui.panels.sensitivity import SensitivityPanel
    from ai4hse_desk.gui.views.scores_plots import TrackPlots
    from ai4hse_desk.scores.cache import ScoresData
    from ai4hse_desk.scores.table_rows import ScoreRow

#: What an export can fail with: a refused target, the disk, a value, nothing shown yet.
EXPORT_ERRORS = (InputProblem, OSError, ValueError, RuntimeError)


class ShownScores(Protocol):
    """What the exporter reads from the scores view."""

    @property
    def db(self) -> AuditDB | None: ...
    @property
    def data(self) -> ScoresData | None: ...
    @property
    def plots(self) -> Mapping[str, TrackPlots]: ...
    @property
    def sensitivity(self) -> SensitivityPanel: ...
    def tables(self) -> dict[str, list[ScoreRow]]: ...
    def current_track(self) -> str | None: ...
    def show_status(self, text: str) -> None: ...


class ScoresExporter:
    """Writes what a scores view shows."""

    def __init__(self, shown: ShownScores, dialogs: QWidget) -> None:
        self._shown = shown
        self._dialogs = dialogs

    def ask_save_path(self, caption: str, suggested: str, filters: str) -> Path | None:
        """The file dialog, in the last folder saved to (tests replace this method)."""
        path, _ = ask_save_file(self._dialogs, caption, suggested, filters)
        return Path(path) if path else None

    def export_tables(self, path: str | Path) -> Path:
        """Write the tables to ``path`` (``.xlsx``: a sheet per track; else one CSV)."""
        target = Path(path)
        if target.suffix.lower() == ".xlsx":
            return write_xlsx(target, self._shown.tables())
        return write_csv(target, self._shown.tables())

    def export_plot(
        self, path: str | Path, track: str | None = None, name: str | None = None
    ) -> Path:
        """Write one plot (default: the one shown) as PNG or SVG, by the suffix."""
        plots = self._shown.plots
        if not plots:
            raise RuntimeError("no plots to export")
        chosen = track or self._shown.current_track() or next(iter(plots))
        track_plots = plots[chosen]
        plot_name = name or list(PLOT_TITLES)[track_plots.tabs.currentIndex()]
        return track_plots.export_image(plot_name, path)

    def report_html(self, *, include_private: bool = False, with_plots: bool = True) -> str:
        """The HTML review report of what is shown (aggregates only unless asked)."""
        data, db = self._shown.data, self._shown.db
        if data is None or db is None:
            raise RuntimeError("no scores to report")
        audit = {
            "file": db.path.name,
            "sha256": db.fingerprint(),
            "benchmark": db.meta.get("benchmark", ""),
            "corpus_id": db.meta.get("corpus_id", ""),
            "schema version": db.schema_version,
        }
        plots = [
            ReportPlot(f"{track_title(track)} — {title}", "image/png", view.png_bytes(name))
            for track, view in self._shown.plots.items()
            for name, title in PLOT_TITLES.items()
            if with_plots
        ]
        return build_report(
            audit=audit,
            tables=self._shown.tables(),
            consistency_facet=data.consistency_facet,
            plots=plots,
            sensitivity=self._sensitivity_report(include_private),
            include_private=include_private,
            generated_at=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        )

    def _sensitivity_report(self, include_private: bool) -> SensitivityReport | None:
        panel = self._shown.sensitivity
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

    # -- the toolbar's actions -------------------------------------------------------

    def ask_tables(self, kind: str) -> None:
        """Export tables as CSV… / XLSX…"""
        filters = "Excel workbook (*.xlsx)" if kind == "xlsx" else "CSV (*.csv)"
        path = self.ask_save_path("Export scores tables", f"scores.{kind}", filters)
        if path is not None:
            self._write(lambda: self.export_tables(path.with_suffix(f".{kind}")))

    def ask_plot(self, kind: str) -> None:
        """Export plot as PNG… / SVG…"""
        filters = "PNG image (*.png)" if kind == "png" else "SVG image (*.svg)"
        path = self.ask_save_path("Export plot", f"scores-plot.{kind}", filters)
        if path is not None:
            self._write(lambda: self.export_plot(path.with_suffix(f".{kind}")))

    def ask_report(self, *, include_private: bool) -> None:
        """Export HTML report…"""
        path = self.ask_save_path("Export review report", "scores-report.html", "HTML (*.html)")
        if path is not None:
            self._write(lambda: self.export_report(path, include_private=include_private))

    def _write(self, write: Callable[[], Path]) -> None:
        try:
            written = write()
        except EXPORT_ERRORS as exc:
            reason = first_line(exc)
            self._shown.show_status(f"Could not export: {reason}")
            plain_message(self._dialogs, Icon.Critical, "Could not export", reason)
            return
        self._shown.show_status(f"Exported {written}")


__all__ = ["EXPORT_ERRORS", "ScoresExporter", "ShownScores"]
