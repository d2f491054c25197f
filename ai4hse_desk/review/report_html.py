"""The review report (cli.md, "Review") as one self-contained, printable HTML page.

No Qt, no script, no image, no external resource: inline CSS only. Every value
from the report is passed through :func:`html.escape`, and every text (notes,
names, ids, question and option texts) first has its invisible and bidi
characters made visible (:func:`~ai4hse_desk.display.text_sanitize.make_visible`),
so nothing a reviewer or the audit file wrote is ever markup or hidden.

Besides the cli.md shape it renders, when present: ``agreement.category`` (like
``agreement.concern``), ``agreement.definition``, each sensitivity row's
``model`` and per-repetition ``repetitions``, ``questions_concerned``, and the
private ``question_text`` / ``options`` of decisions and concerned questions.
"""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING, Any, Final

from ai4hse_desk import __version__
from ai4hse_desk.display.format import option_letter
from ai4hse_desk.display.text_sanitize import make_visible
from ai4hse_desk.review.values import VERDICTS

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

TITLE: Final = "AI4HSE-Bench review report"
NOT_OFFICIAL: Final = "Sensitivity — NOT OFFICIAL"
_STATISTICS: Final = {
    "cohen_kappa": "Cohen's κ",
    "krippendorff_alpha": "Krippendorff's α (nominal)",
    "krippendorff_alpha_nominal": "Krippendorff's α (nominal)",
}
_MEASURES: Final = (
    ("concern", "concern vs key_ok"),
    ("category", "verdict category"),
    ("blind_options", "blind answers per option"),
)
_VARIANTS: Final = (
    ("official", "official (rescore)"),
    ("without_excluded", "without excluded questions"),
    ("with_corrected_keys", "with corrected keys"),
)
_CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em; color: #111; background: #fff; }
h1 { font-size: 1.6em; } h2 { border-bottom: 2px solid #444; margin-top: 2em; }
table { border-collapse: collapse; margin: .6em 0 1.2em; font-size: 12.5px; }
th, td { border: 1px solid #bbb; padding: 3px 6px; text-align: left; vertical-align: top; }
th { background: #eef; } td.n { text-align: right; font-variant-numeric: tabular-nums; }
td.t { white-space: pre-wrap; overflow-wrap: anywhere; } dt { font-weight: bold; }
.note { color: #333; max-width: 60em; } .muted { color: #666; } .official { font-weight: bold; }
ul.options { margin: .3em 0; padding-left: 1.2em; }
.exploration { border: 3px dashed #b45309; background: #fffbeb; padding: .2em 1em 1em; }
.exploration h2, .exploration h3 { color: #92400e; border-color: #b45309; }
@media print {
  body { margin: 0; font-size: 10.5pt; } table { font-size: 9pt; page-break-inside: auto; }
  tr { page-break-inside: avoid; } thead { display: table-header-group; }
  h2, h3 { page-break-after: avoid; } th { background: #eee !important; }
  .exploration { background: #fff; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"""


class _Html(str):
    """Markup this module built (its parts already escaped)."""


def _t(value: object) -> str:
    """``value`` as safe HTML text: invisible characters made visible, then escaped."""
    text = str(value)
    if not (text.isascii() and text.isprintable()):
        text = make_visible(text).text
    return html.escape(text, quote=True)


def _pct(value: Any) -> str:
    return "—" if value is None else f"{float(value) * 100:.1f}%"


def _interval(low: Any, high: Any) -> str:
    return "—" if low is None or high is None else f"{_pct(low)}–{_pct(high)}"


def _grid(header: Sequence[str], lines: Iterable[Sequence[object]]) -> str:
    head = "".join(f"<th>{_t(h)}</th>" for h in header)
    rows = []
    for line in lines:
        cells = []
        for cell in line:
            numeric = isinstance(cell, (int, float)) and not isinstance(cell, bool)
            text = cell if isinstance(cell, _Html) else _t("—" if cell is None else cell)
            cells.append(f'<td class="{"n" if numeric else "t"}">{text}</td>')
        rows.append(f"<tr>{''.join(cells)}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _facts(pairs: Iterable[tuple[str, object]]) -> str:
    return "<dl>" + "".join(f"<dt>{_t(k)}</dt><dd>{_t(v)}</dd>" for k, v in pairs) + "</dl>"


def _key_text(key: Sequence[Any] | None) -> str:
    """``[true, false]`` → ``"A TRUE, B FALSE"``; ``"—"`` without a key."""
    if not key:
        return "—"
    flags = (v if isinstance(v, bool) else str(v).upper() == "TRUE" for v in key)
    return ", ".join(f"{option_letter(i)} {'TRUE' if f else 'FALSE'}" for i, f in enumerate(flags))


def _private(item: Mapping[str, Any]) -> _Html:
    """The question text and lettered options of ``item`` (private fields)."""
    text = f"<div>{_t(item['question_text'])}</div>" if item.get("question_text") else ""
    options = "".join(
        f"<li>{option_letter(i)}. {_t(o)}</li>" for i, o in enumerate(item.get("options") or ())
    )
    return _Html(text + (f'<ul class="options">{options}</ul>' if options else ""))


def _with_private(
    header: Sequence[str], items: Sequence[Mapping[str, Any]], lines: list[list[object]]
) -> str:
    if any("question_text" in i or "options" in i for i in items):
        header = (*header, "question text and options")
        lines = [[*line, _private(item)] for line, item in zip(lines, items, strict=True)]
    return _grid(header, lines)


def _pick(item: Mapping[str, Any], keys: Iterable[str], missing: object = "—") -> list[object]:
    return [item.get(k, missing) for k in keys]


def _status(status: Mapping[str, Any]) -> list[str]:
    plan = status.get("plan")
    plan_text = (
        "no plan"
        if plan is None
        else f"K = {plan.get('per_question')} reviewers per question, order "
        f"{plan.get('order')}, seed {plan.get('seed')}, {plan.get('questions')} questions"
    )
    cover = {**(status.get("coverage") or {}), **(status.get("adjudication") or {})}
    keys = ("questions", "fully_reviewed", "partly_reviewed", "unreviewed", "needed", "decided")
    header = ("reviewer", "assigned", "submitted", "drafts", "remaining")
    coverage = ("questions", "fully reviewed", "partly reviewed", "unreviewed",
                "adjudication needed", "adjudicated")  # fmt: skip
    reviewers = [_pick(r, header) for r in status.get("reviewers", [])]
    return [
        "<h2>Plan and coverage</h2>",
        _facts([("Plan", plan_text)]),
        _grid(coverage, [_pick(cover, keys, 0)]),
        "<h2>Reviewers</h2>",
        _grid(header, reviewers),
    ]


def _measure(measure: str, figure: Mapping[str, Any]) -> list[object]:
    value, stat = figure.get("value"), figure.get("statistic")
    shown = f"{value:.3f}" if value is not None else f"undefined: {figure.get('undefined_reason')}"
    name = _STATISTICS.get(str(stat), str(stat))
    return [measure, name, shown, *_pick(figure, ("units", "reviewers"))]


def _share(label: str, share: Mapping[str, Any]) -> list[object]:
    interval = _interval(share.get("wilson_low"), share.get("wilson_high"))
    return [label, *_pick(share, ("agree", "of")), _pct(share.get("share")), interval]


def _agreement(agreement: Mapping[str, Any]) -> list[str]:
    lines = [_measure(m, agreement[k]) for k, m in _MEASURES if agreement.get(k)]
    blind = agreement.get("blind_vs_key") or {}
    named = (("options answered", "options"), ("whole answers (no UNSURE)", "questions"))
    shares = [_share(label, blind[k]) for label, k in named if blind.get(k)]
    definition = agreement.get("definition")
    return [
        "<h2>Agreement</h2>",
        f'<p class="note">{_t(definition)}</p>' if definition else "",
        _grid(("measure", "statistic", "value", "units", "reviewers"), lines),
        "<h3>Blind answers vs key</h3>",
        _grid(("counted", "agree", "of", "share", "95% Wilson interval"), shares),
    ]


def _variant(rep: Mapping[str, Any] | None) -> str:
    if rep is None or rep.get("exact_accuracy") is None:
        return "—"
    interval = _interval(rep.get("wilson_low"), rep.get("wilson_high"))
    counts = f"({rep.get('correct')}/{rep.get('attempts')})"
    return f"{_pct(rep['exact_accuracy'])} [{interval}] {counts}"


def _repetitions(run: Mapping[str, Any]) -> list[list[object]]:
    given = run.get("repetitions") or {}
    by = {k: {x.get("repetition"): x for x in given.get(k) or ()} for k, _ in _VARIANTS}
    numbers = dict.fromkeys(n for k, _ in _VARIANTS for n in by[k])
    return [
        [run.get("run_id"), n, *(_variant(by[k].get(n)) for k, _ in _VARIANTS)] for n in numbers
    ]


def _sensitivity(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    tracks: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        tracks.setdefault(str(row.get("track")), []).append(row)
    parts = [
        '<section class="exploration" aria-label="Sensitivity, not official">',
        f"<h2>{_t(NOT_OFFICIAL)}</h2>",
        '<p class="note"><span class="official">Only the "official (rescore)" figures are '
        "official.</span> The other columns rescore the runs without the excluded questions "
        "or against the corrected keys, for discussion only; they never change rescore.</p>",
    ]
    labels = [label for _, label in _VARIANTS]
    for track, runs in tracks.items():
        lines = [[r.get("run_id"), r.get("model") or "—", *(_pct(r.get(k)) for k, _ in _VARIANTS)]
                 for r in runs]  # fmt: skip
        reps = [line for run in runs for line in _repetitions(run)]
        parts += [f"<h3>{_t(NOT_OFFICIAL)} — track {_t(track)}</h3>",
                  _grid(("run", "model", *labels), lines)]  # fmt: skip
        if reps:
            parts += ["<h4>Exact accuracy per repetition [95% Wilson] (correct/attempts)</h4>",
                      _grid(("run", "repetition", *labels), reps)]  # fmt: skip
    return [*parts, "</section>"]


def _decision(d: Mapping[str, Any]) -> list[object]:
    key = _key_text(d.get("key"))
    return [d.get("question_id"), d.get("decision"), key, d.get("adjudicator"), d.get("note") or ""]


def _concerned(q: Mapping[str, Any]) -> list[object]:
    verdicts = ", ".join(f"{v}: {n}" for v, n in (q.get("verdicts") or {}).items())
    return [q.get("question_id"), verdicts, "yes" if q.get("in_adjudication") else "no"]


def render_review_html(report: Mapping[str, Any]) -> str:
    """The review report as one self-contained, printable HTML document.

    Args:
        report: the ``review report --format json`` object (cli.md, "Review"),
            with the optional extensions listed in the module docstring.

    Returns:
        The whole page, ending with a newline.
    """
    audit = report.get("audit") or {}
    name = re.split(r"[\\/]", str(audit.get("path") or ""))[-1]
    counts = report.get("verdicts") or {}
    order = [*VERDICTS, *(v for v in counts if v not in VERDICTS)]
    decisions = report.get("decisions") or []
    concerned = report.get("questions_concerned")
    private = any("question_text" in i or "options" in i for i in [*decisions, *(concerned or [])])
    decided = ("question", "decision", "corrected key", "adjudicator", "note")
    body = [
        f"<h1>{_t(TITLE)}</h1>",
        _facts([("Audit file", name), ("sha256", audit.get("sha256"))]),
        *_status(report.get("status") or {}),
        "<h2>Verdicts per category</h2>",
        _grid(("verdict", "count"), [[v, counts.get(v, 0)] for v in order]),
        *_agreement(report.get("agreement") or {}),
        "<h2>Decisions</h2>",
        _with_private(decided, decisions, [_decision(d) for d in decisions]),
    ]
    if concerned is not None:
        header = ("question", "verdicts", "in adjudication")
        body += ["<h2>Questions concerned</h2>",
                 _with_private(header, concerned, [_concerned(q) for q in concerned])]  # fmt: skip
    body += _sensitivity(report.get("sensitivity") or [])
    privacy = "includes private question and option text" if private else "holds no question text"
    body.append(
        f'<p class="muted">This report {privacy}. Made by AI4HSE Desk {_t(__version__)}.</p>'
    )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{_t(TITLE)}</title><style>{_CSS}</style></head>"
        f"<body>{''.join(body)}</body></html>\n"
    )
