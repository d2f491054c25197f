"""A self-contained HTML review report of the scores (no Qt; one file, inline CSS).

The report holds aggregates only: per track, the runs' columns in rescore's order as
three tables (the scores, the attempts counted, the run settings: :func:`column_groups`,
so that each fits a printed A4 landscape page), per-repetition accuracy with its 95%
Wilson interval, status counts, label slices with the consistency index, optional plot
images (embedded as base64 ``data:`` URIs, so an SVG can never run script), and,
clearly apart, the sensitivity exploration, which is not official. No question text, option
text or raw response appears unless ``include_private`` is set (then only the
excluded questions' text and options, in the sensitivity section).

Every value is passed through :func:`~ai4hse_desk.display.html_text.html_text`
(invisible and bidi characters made visible, then escaped); nothing from the audit
file is ever written as markup.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from ai4hse_desk import __version__
from ai4hse_desk.display.html_table import grid
from ai4hse_desk.display.html_text import html_text
from ai4hse_desk.protocol.outcome import Status
from ai4hse_desk.scores.sensitivity import SENSITIVITY_COLUMNS, SensitivityRow
from ai4hse_desk.scores.table_rows import (
    COLUMNS,
    FROZEN_KEYS,
    Column,
    R,
    ScoreRow,
    display,
    exact_text,
    percent_text,
    track_title,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from ai4hse_desk.audit import Question

_CSS = """
@page { size: A4 landscape; margin: 12mm 12mm 14mm; }
body { font: 14px/1.45 system-ui, "DejaVu Sans", sans-serif; margin: 2em; color: #111;
  background: #fff; }
h1 { font-size: 1.6em; } h2 { border-bottom: 2px solid #444; margin-top: 2em; }
table { border-collapse: collapse; margin: .6em 0 1.2em; font-size: 12.5px; }
th, td { border: 1px solid #bbb; padding: 3px 6px; text-align: left; vertical-align: top; }
th { background: #eef; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
td.id { white-space: nowrap; }
.note { color: #333; max-width: 60em; } .muted { color: #666; }
.exploration { border: 3px dashed #b45309; background: #fffbeb; padding: .2em 1em 1em; }
.exploration h2 { color: #92400e; border-color: #b45309; }
figure { margin: 1em 0; } figure img { max-width: 100%; border: 1px solid #ccc; }
@media print {
  body { margin: 0; font-size: 10pt; }
  table { font-size: 8pt; page-break-inside: auto; }
  tr { page-break-inside: avoid; break-inside: avoid; }
  thead { display: table-header-group; }
  h2, h3, h4 { page-break-after: avoid; break-after: avoid; }
  figure { break-inside: avoid; }
  th, .exploration { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""
_NUMERIC = frozenset({"count", "percent", "score", "points", "delta"})


@dataclass(frozen=True, slots=True)
class ReportPlot:
    """A plot image: ``mime`` is ``image/png`` or ``image/svg+xml``."""

    title: str
    mime: str
    data: bytes


@dataclass(frozen=True, slots=True)
class ExcludedQuestion:
    """A question left out of the exploration; ``text``/``options`` are private."""

    question_id: str
    text: str | None = None
    options: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SensitivityReport:
    """The exploration: which questions were left out, why, and the figures."""

    reason: str
    excluded: Sequence[ExcludedQuestion]
    rows: Sequence[SensitivityRow]
    notes: Sequence[str] = field(default_factory=tuple)


def excluded_questions(
    ids: Iterable[str], questions: Mapping[str, Question], include_private: bool
) -> list[ExcludedQuestion]:
    """The excluded questions, by id; their text and options only if ``include_private``."""
    excluded = []
    for question_id in sorted(ids):
        question = questions.get(question_id)
        if include_private and question is not None:
            options = tuple(option.text for option in question.options)
            excluded.append(ExcludedQuestion(question_id, question.text, options))
        else:
            excluded.append(ExcludedQuestion(question_id))
    return excluded


#: Every value written: invisible characters made visible, then escaped.
_e = html_text


#: A track's columns as the report prints them: who ran it (every table), then one
#: table per kind — the scores, the attempts counted, the run's settings — so that no
#: table is wider than a printed page (all :data:`COLUMNS`, each once).
_GROUPS: Final = (
    ("", frozenset({"percent", "score"})),
    ("Attempts", frozenset({"count"})),
    ("Run settings", frozenset({"setting"})),
)


def column_groups() -> list[tuple[str, list[Column[ScoreRow]]]]:
    """(heading, columns) per table of a track, each led by :data:`FROZEN_KEYS`' columns."""
    lead = [c for c in COLUMNS if c.key in FROZEN_KEYS]
    return [(title, [*lead, *(c for c in COLUMNS if c.kind in kinds)]) for title, kinds in _GROUPS]


def _class(column: Column[R]) -> str:
    if column.kind in _NUMERIC:
        return "n"
    return "t id" if column.key in FROZEN_KEYS or column.key == "track" else "t"


def _table(rows: Sequence[R], columns: Sequence[Column[R]]) -> str:
    head = "".join(f'<th title="{_e(c.tip)}">{_e(c.header)}</th>' for c in columns)
    body = []
    for row in rows:
        cells = "".join(
            f'<td class="{_class(c)}" title="{_e(exact_text(c, row))}">{_e(display(c, row))}</td>'
            for c in columns
        )
        body.append(f"<tr>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"


def _rate(value: Any) -> str:
    return "undefined" if value is None else percent_text(float(value))


def _repetitions(rows: Sequence[ScoreRow]) -> str:
    lines = []
    for row in rows:
        for rep in row.run.get("repetitions", []):
            scored = row.run.get("scored")
            interval = (
                f"{_rate(rep['wilson_low'])} – {_rate(rep['wilson_high'])}"
                if scored and rep.get("wilson_low") is not None
                else "—"
            )
            accuracy = _rate(rep["exact_accuracy"]) if scored else "no aggregate score"
            lines.append(
                (row.run_id, rep["repetition"], rep["attempts"], rep["correct"], accuracy, interval)
            )
    header = ("run", "repetition", "attempts", "correct", "exact accuracy", "95% Wilson")
    return grid(header, lines)


def _statuses(rows: Sequence[ScoreRow]) -> str:
    counts = [row.run.get("errors", {}).get("by_status", {}) for row in rows]
    shown = [s.value for s in Status if any(c.get(s.value, 0) for c in counts)]
    lines = [
        (row.run_id, *(c.get(s, 0) for s in shown)) for row, c in zip(rows, counts, strict=True)
    ]
    return grid(("run", *shown), lines)


def _slices(rows: Sequence[ScoreRow], consistency_facet: str) -> str:
    facets = sorted({facet for row in rows for facet in row.run.get("slices", {})})
    parts = []
    for facet in facets:
        values = sorted({v for row in rows for v in row.run.get("slices", {}).get(facet, {})})
        lines = []
        for value in values:
            cells = []
            for row in rows:
                if not row.run.get("scored"):
                    cells.append("no aggregate score")
                    continue
                slice_values = row.run.get("slices", {}).get(facet, {})
                cells.append(_rate(slice_values[value]) if value in slice_values else "—")
            lines.append((value, *cells))
        parts.append(f"<h4>{_e(facet)}</h4>" + grid((facet, *(r.run_id for r in rows)), lines))
        if facet == consistency_facet:
            index = "; ".join(f"{r.run_id}: {display(_CONSISTENCY, r)}" for r in rows)
            parts.append(f'<p class="note">Consistency index ({_e(facet)}): {_e(index)}</p>')
    return "".join(parts)


_CONSISTENCY = next(c for c in COLUMNS if c.key == "consistency_index")


def _plots(plots: Sequence[ReportPlot]) -> str:
    figures = []
    for plot in plots:
        if plot.mime not in ("image/png", "image/svg+xml"):
            raise ValueError(f"unsupported plot type: {plot.mime}")
        data = base64.b64encode(plot.data).decode("ascii")
        figures.append(
            f'<figure><img alt="{_e(plot.title)}" src="data:{plot.mime};base64,{data}">'
            f"<figcaption>{_e(plot.title)}</figcaption></figure>"
        )
    return "".join(figures)


def _sensitivity(report: SensitivityReport, include_private: bool) -> str:
    parts = [
        '<section class="exploration" aria-label="Sensitivity, not official">',
        "<h2>Sensitivity — not official, exploration</h2>",
        '<p class="note">The same metrics recomputed without the questions below. '
        "The official figures above never change; these are for discussion only.</p>",
        f"<p><strong>Reason:</strong> {_e(report.reason)}</p>",
        f"<p><strong>Questions left out ({len(report.excluded)}):</strong> "
        f"{_e(', '.join(q.question_id for q in report.excluded) or 'none')}</p>",
    ]
    if include_private:
        for question in report.excluded:
            options = "".join(f"<li>{_e(text)}</li>" for text in question.options)
            text = _e(question.text or "")
            parts.append(
                f"<p><strong>{_e(question.question_id)}</strong>: {text}</p>"
                f'<ol start="0">{options}</ol>'
            )
    parts += [f'<p class="note">{_e(note)}</p>' for note in report.notes]
    parts += [_table(report.rows, SENSITIVITY_COLUMNS), "</section>"]
    return "".join(parts)


def build_report(
    *,
    audit: Mapping[str, object],
    tables: Mapping[str, Sequence[ScoreRow]],
    consistency_facet: str = "topic",
    plots: Sequence[ReportPlot] = (),
    sensitivity: SensitivityReport | None = None,
    include_private: bool = False,
    generated_at: str = "",
) -> str:
    """The whole report as one HTML document.

    Args:
        audit: facts about the audit file (e.g. ``file``, ``sha256``,
            ``benchmark``, ``corpus_id``), shown as given.
        tables: track → its rows in rescore's order (see ``track_tables``).
        plots: images placed after the tables.
        sensitivity: the exploration, shown apart; ``None`` leaves it out.
        include_private: also show the excluded questions' text and options.
    """
    facts = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in audit.items())
    body = [
        "<h1>AI4HSE-Bench scores — review report</h1>",
        f"<table>{facts}</table>",
        '<p class="note">Exact accuracy (end-to-end) is the primary score: every attempt '
        "counts, and provider errors, unparsable and cut-off answers count as incorrect. "
        "Valid accuracy is read together with coverage; it is undefined, not zero, when no "
        "response is valid. Each track has its own table, ordered by exact accuracy; tracks "
        "are never combined. Intervals are 95% Wilson intervals per repetition; there is no "
        "pooled interval. Check each run's settings when comparing runs.</p>",
    ]
    for track, rows in tables.items():
        body.append(f"<h2>{_e(track_title(track))}</h2>")
        for title, columns in column_groups():
            body += [f"<h3>{_e(title)}</h3>" if title else "", _table(rows, columns)]
        body += [
            "<h3>Exact accuracy per repetition</h3>",
            _repetitions(rows),
            "<h3>Attempts per status</h3>",
            _statuses(rows),
            "<h3>Label slices (descriptive; every question weighs the same)</h3>",
            _slices(rows, consistency_facet),
        ]
    if plots:
        body += ["<h2>Plots</h2>", _plots(plots)]
    if sensitivity is not None:
        body.append(_sensitivity(sensitivity, include_private))
    privacy = (
        "This report includes private question text."
        if include_private and sensitivity is not None and sensitivity.excluded
        else "This report holds aggregates only: no question text, option text or response."
    )
    stamp = f" on {generated_at}" if generated_at else ""
    body.append(
        f'<p class="muted">{_e(privacy)} Made by AI4HSE Desk {_e(__version__)}{_e(stamp)}.</p>'
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        "<title>AI4HSE-Bench scores — review report</title>"
        f"<style>{_CSS}</style></head><body>{''.join(body)}</body></html>\n"
    )
