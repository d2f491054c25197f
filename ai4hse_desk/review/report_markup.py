"""The review report's HTML building blocks: escaping, facts, figures and the style sheet
(its tables are :mod:`ai4hse_desk.display.html_table`'s, as every report's).

Every value passes through :func:`text` (:func:`~ai4hse_desk.display.html_text.html_text`,
the one helper every report uses): invisible and bidi characters are made
visible (:func:`~ai4hse_desk.display.text_sanitize.make_visible`), then the text is
escaped, so nothing a reviewer or the audit file wrote is ever markup or hidden.
Markup a report built is an :class:`~ai4hse_desk.display.html_table.Html` and is
inserted as it is.

The style sheet prints on A4: page margins, table headers repeated on each page,
no row split across pages, sections kept with their heading, and words never broken
inside (only an overlong word, such as a hash, wraps where it must).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ai4hse_desk.display.format import option_letter
from ai4hse_desk.display.html_table import Html
from ai4hse_desk.display.html_text import html_text

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

CSS: Final = """
@page { size: A4; margin: 14mm 12mm 16mm; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, "DejaVu Sans", sans-serif; color: #111; background: #fff;
  margin: 0 auto; padding: 1.5em 2em 3em; max-width: 72em; }
h1 { font-size: 1.7em; margin: 0 0 .2em; } .lead { margin: 0 0 1em; color: #333; }
h2 { font-size: 1.25em; border-bottom: 2px solid #444; margin: 1.8em 0 .5em; }
h3 { font-size: 1.05em; margin: 1.2em 0 .4em; } h4 { margin: 1em 0 .3em; }
table { border-collapse: collapse; margin: .4em 0 1em; font-size: 12.5px; }
th, td { border: 1px solid #bbb; padding: 3px 6px; text-align: left; vertical-align: top; }
th { background: #e8ecf4; font-weight: 600; }
td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.t { white-space: pre-wrap; overflow-wrap: break-word; word-break: normal; hyphens: none; }
td.c { text-align: center; white-space: nowrap; font-variant-numeric: tabular-nums; }
td.d { font-weight: 700; background: #fde68a; text-decoration: underline; }
td.id { white-space: nowrap; }
code, .code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .92em;
  white-space: nowrap; }
.hash { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .9em;
  overflow-wrap: anywhere; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .15em 1em;
  margin: .4em 0 1em; }
dl.facts dt { font-weight: 600; } dl.facts dd { margin: 0; }
dl.terms dt { font-weight: 600; margin-top: .4em; } dl.terms dd { margin-left: 1.2em; }
.note { color: #333; max-width: 60em; } .muted { color: #555; }
.official { font-weight: bold; } .wide { width: 100%; }
ul.options { margin: .3em 0; padding-left: 1.4em; }
.exploration { border: 3px dashed #b45309; background: #fffbeb; padding: .2em 1em 1em;
  margin-top: 1.8em; }
.exploration h2, .exploration h3 { color: #92400e; border-color: #b45309; }
.evidence { border-top: 1px solid #999; padding-top: .3em; margin-top: 1em; }
h2.appendix { margin-top: 2.4em; }
.evidence h3 { margin-top: .3em; }
.badge { display: inline-block; padding: 0 .45em; border: 1px solid #555; border-radius: 3px;
  font-size: .85em; font-weight: 600; white-space: nowrap; }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  table { font-size: 8.5pt; page-break-inside: auto; }
  tr, .evidence table tr { page-break-inside: avoid; break-inside: avoid; }
  thead { display: table-header-group; }
  h2, h3, h4, dt { page-break-after: avoid; break-after: avoid; }
  .evidence { break-inside: avoid-page; } h2.appendix { break-before: page; }
  th, td.d, .exploration { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  .exploration { background: #fff; }
}
"""


#: ``value`` as safe HTML text: invisible characters made visible, then escaped.
text = html_text


def pct(value: Any) -> str:
    """A share as a percentage with one decimal; ``"—"`` when undefined."""
    return "—" if value is None else f"{float(value) * 100:.1f}%"


def interval(low: Any, high: Any) -> str:
    """A 95 % interval as ``"22.8%–40.6%"``; ``"—"`` when undefined."""
    return "—" if low is None or high is None else f"{pct(low)}–{pct(high)}"


def facts(pairs: Iterable[tuple[str, object]], kind: str = "facts") -> str:
    """A definition list of (term, value) pairs (a value may be :class:`Html`)."""
    items = "".join(
        f"<dt>{text(k)}</dt><dd>{v if isinstance(v, Html) else text(v)}</dd>" for k, v in pairs
    )
    return f'<dl class="{kind}">{items}</dl>'


def when(at: object) -> str:
    """A stored UTC time (``2026-12-06T05:44:10.123456Z``) as ``2026-12-06 05:44 UTC``."""
    shown = str(at or "")
    if len(shown) >= 16 and shown[10] == "T":
        return f"{shown[:10]} {shown[11:16]} UTC"
    return shown or "—"


def duration(seconds: Any) -> str:
    """Seconds as ``"1 h 05 min"``, ``"4 min 20 s"`` or ``"35 s"``; ``"—"`` when unknown."""
    if seconds is None:
        return "—"
    whole = round(float(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours} h {minutes:02d} min"
    if minutes:
        return f"{minutes} min {secs:02d} s"
    return f"{secs} s"


def private_block(item: Mapping[str, Any]) -> Html:
    """The question text and lettered options of ``item`` (private fields)."""
    shown = f"<div>{text(item['question_text'])}</div>" if item.get("question_text") else ""
    options = "".join(
        f"<li>{option_letter(i)}. {text(o)}</li>" for i, o in enumerate(item.get("options") or ())
    )
    return Html(shown + (f'<ul class="options">{options}</ul>' if options else ""))


def sentence(value: object) -> str:
    """``value`` as text starting with a capital letter (definitions read as sentences)."""
    shown = str(value or "")
    return shown[:1].upper() + shown[1:]
