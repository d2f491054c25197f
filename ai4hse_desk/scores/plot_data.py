"""What the scores plots draw, without Qt: positions, heights and the attempts behind each mark.

Four plots per track (never one for several tracks), from the track's run
objects in rescore's order:

* :func:`repetitions_plot` — each repetition's exact accuracy with its 95%
  Wilson interval (no pooled interval; unscored runs get a note, no point),
  each point's tick naming its repetition ("rep 1" …) and the runs named above;
* :func:`statuses_plot` — stacked attempts per desk status per run, valid ones
  split into correct ("Valid ✓") and valid but wrong ("Valid ✗"), each series
  keyed by its :mod:`~ai4hse_desk.display.status_style` palette key;
* :func:`slices_plot` — accuracy per value of one label facet per run: the
  correct share solid, the rest pale, up to 1; the caption gives the
  consistency index;
* :func:`disagreements_plot` — attempts per run where the runner ≠ the desk.

Every mark a reviewer can click is a :class:`Hit`: its rectangle in data
coordinates, the :class:`~ai4hse_desk.index.AttemptQuery` of the attempts
behind it and its hover text. Heights are the exact rescore values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ai4hse_desk.display.status_style import CORRECT, PALETTE_KEYS
from ai4hse_desk.display.text_sanitize import display_text
from ai4hse_desk.index import AttemptQuery
from ai4hse_desk.protocol.outcome import Status
from ai4hse_desk.scores.table_rows import percent_text

#: Plot names (keys of every per-plot mapping) and their titles.
PLOT_TITLES: dict[str, str] = {
    "repetitions": "Exact accuracy per repetition (95% Wilson)",
    "statuses": "Attempts per status",
    "slices": "Accuracy per label value",
    "disagreements": "Runner ≠ desk",
}
BAR_WIDTH = 0.6
_MARGIN = 0.02

Runs = Sequence[Mapping[str, Any]]


@dataclass(frozen=True, slots=True)
class Hit:
    """A clickable bar or point: its rectangle in data coordinates and its attempts."""

    x0: float
    x1: float
    y0: float
    y1: float
    query: AttemptQuery
    tip: str
    key: tuple[object, ...]

    def contains(self, x: float, y: float) -> bool:
        return self.x0 <= x <= self.x1 and self.y0 <= y <= self.y1


@dataclass(frozen=True, slots=True)
class Bars:
    """One series of bars: ``key`` names it (a status, ``"<run> correct"`` …)."""

    key: str
    x: tuple[float, ...]
    height: tuple[float, ...]
    y0: tuple[float, ...]
    width: float
    series: int = 0
    legend: str | None = None
    pale: bool = False


@dataclass(frozen=True, slots=True)
class Points:
    """Points with an interval each (repetitions and their Wilson bounds)."""

    x: tuple[float, ...]
    y: tuple[float, ...]
    low: tuple[float, ...]
    high: tuple[float, ...]


@dataclass(frozen=True, slots=True)
class PlotData:
    """Everything one plot draws, and its clickable marks in drawing order."""

    ticks: tuple[tuple[float, str], ...]
    bars: tuple[Bars, ...] = ()
    #: Labels of the groups the ticks belong to (the runs, above the repetitions).
    group_ticks: tuple[tuple[float, str], ...] = ()
    points: Points | None = None
    notes: tuple[tuple[float, float, str], ...] = ()
    hits: tuple[Hit, ...] = ()
    caption: str = ""


#: Runs a plot holds before a note stops being centred on its run (slots get too narrow).
NOTE_CENTRED_RUNS = 12


def note_anchor(data: PlotData, x: float) -> float:
    """The horizontal anchor of the note at ``x`` (0 left, 1 right of its text): centred
    on its run in a plot of a few runs; in a plot of many (narrow slots) moved along
    with the run's place, so a note at either end stays inside the plot."""
    runs = data.group_ticks or data.ticks
    last = max((position for position, _ in runs), default=0.0)
    if len(runs) <= NOTE_CENTRED_RUNS or last <= 0:
        return 0.5
    return min(max(x / last, 0.0), 1.0)


def run_label(run: Mapping[str, Any], runs: Runs) -> str:
    """The model name, or the run id when the track has that model twice (as shown:
    invisible and bidi characters made visible)."""
    model = str(run["model"])
    twice = sum(1 for other in runs if other["model"] == model) > 1
    return display_text(str(run["run_id"]) if twice else model)


def _ticks(runs: Runs) -> tuple[tuple[float, str], ...]:
    return tuple((float(i), run_label(run, runs)) for i, run in enumerate(runs))


def repetitions_plot(runs: Runs) -> PlotData:
    """One point per repetition of each scored run, spread around the run's position."""
    xs: list[float] = []
    ys: list[float] = []
    lows: list[float] = []
    highs: list[float] = []
    hits: list[Hit] = []
    notes: list[tuple[float, float, str]] = []
    ticks: list[tuple[float, str]] = []
    for i, run in enumerate(runs):
        run_id = str(run["run_id"])
        reps = [r for r in run.get("repetitions", []) if r.get("exact_accuracy") is not None]
        if not run.get("scored") or not reps:
            notes.append((float(i), 0.5, "no aggregate score"))
            continue
        step = BAR_WIDTH / len(reps)
        for j, rep in enumerate(reps):
            x = i + (j - (len(reps) - 1) / 2) * step
            y, low, high = rep["exact_accuracy"], rep["wilson_low"], rep["wilson_high"]
            xs.append(x)
            ys.append(y)
            lows.append(low)
            highs.append(high)
            tip = (
                f"{display_text(run_id)} · repetition {rep['repetition']}: "
                f"exact accuracy {percent_text(y)} "
                f"({rep['correct']} of {rep['attempts']}); 95% Wilson {percent_text(low)} – "
                f"{percent_text(high)}; exact {y!r} [{low!r}, {high!r}]"
            )
            query = AttemptQuery(run_ids=(run_id,), repetitions=(int(rep["repetition"]),))
            hits.append(
                Hit(
                    x - step / 2,
                    x + step / 2,
                    low - _MARGIN,
                    high + _MARGIN,
                    query,
                    tip,
                    (run_id, rep["repetition"]),
                )
            )
            ticks.append((x, f"rep {rep['repetition']}"))
    points = Points(tuple(xs), tuple(ys), tuple(lows), tuple(highs))
    return PlotData(
        tuple(ticks),
        points=points,
        notes=tuple(notes),
        hits=tuple(hits),
        group_ticks=_ticks(runs),
    )


def _status_counts(run: Mapping[str, Any]) -> dict[str, float]:
    """Attempts per palette key: ``valid`` split into ``correct`` and valid but wrong."""
    counts = {k: float(v) for k, v in run.get("errors", {}).get("by_status", {}).items()}
    valid = counts.get(Status.VALID.value, 0.0)
    correct = min(float(run.get("correct") or 0), valid)
    counts[CORRECT], counts[Status.VALID.value] = correct, valid - correct
    return counts


def _status_query(run_id: str, key: str) -> AttemptQuery:
    if key == CORRECT:
        return AttemptQuery(run_ids=(run_id,), statuses=(Status.VALID.value,), correct=True)
    if key == Status.VALID.value:
        return AttemptQuery(run_ids=(run_id,), statuses=(key,), correct=False)
    return AttemptQuery(run_ids=(run_id,), statuses=(key,))


_STATUS_WORDS = {CORRECT: "valid, correct", Status.VALID.value: "valid, wrong"}


def statuses_plot(runs: Runs) -> PlotData:
    """Stacked bars: one series per palette key that occurs, in the palette's order.

    A series is keyed by its palette key: a status, with ``valid`` split into
    ``correct`` and ``valid`` (valid but wrong, the run's valid attempts less its
    correct ones).
    """
    counts = [_status_counts(run) for run in runs]
    base = [0.0] * len(runs)
    bars: list[Bars] = []
    hits: list[Hit] = []
    half = BAR_WIDTH / 2
    x = tuple(float(i) for i in range(len(runs)))
    for series, key in enumerate(PALETTE_KEYS):
        heights = [c.get(key, 0.0) for c in counts]
        if not any(heights):
            continue
        bars.append(Bars(key, x, tuple(heights), tuple(base), BAR_WIDTH, series))
        for i, (run, height) in enumerate(zip(runs, heights, strict=True)):
            if height:
                run_id = str(run["run_id"])
                words = _STATUS_WORDS.get(key, key)
                tip = f"{display_text(run_id)} · {words}: {int(height):,} attempts"
                top = base[i] + height
                hit = Hit(
                    i - half, i + half, base[i], top, _status_query(run_id, key), tip, (run_id, key)
                )
                hits.append(hit)
            base[i] += height
    return PlotData(_ticks(runs), bars=tuple(bars), hits=tuple(hits))


def consistency_caption(runs: Runs, facet: str) -> str:
    """The consistency index of each scored run, as one line."""
    parts = []
    for run in runs:
        if run.get("scored"):
            value = run.get("consistency_index")
            text = "undefined" if value is None else str(value)
            if isinstance(value, float):
                text = f"{value:.3f}"
            parts.append(f"{display_text(str(run['run_id']))}: {text}")
    listed = "; ".join(parts) if parts else "no scored run"
    over = display_text(facet)
    return f"Consistency index over {over} (M × (1 − CV), void when CV > 1): {listed}"


def slices_plot(runs: Runs, facet: str, consistency_facet: str = "topic") -> PlotData:
    """Grouped bars per value of ``facet``: one bar per scored run, split correct / not."""
    scored = [run for run in runs if run.get("scored")]
    values = sorted({v for run in scored for v in run.get("slices", {}).get(facet, {})})
    width = BAR_WIDTH / max(len(scored), 1)
    bars: list[Bars] = []
    hits: list[Hit] = []
    for j, run in enumerate(scored):
        run_id = str(run["run_id"])
        accuracy = run.get("slices", {}).get(facet, {})
        shown = [(i, v) for i, v in enumerate(values) if accuracy.get(v) is not None]
        x = tuple(i + (j - (len(scored) - 1) / 2) * width for i, _ in shown)
        heights = tuple(float(accuracy[v]) for _, v in shown)
        zeros = tuple(0.0 for _ in shown)
        legend = run_label(run, scored)
        bars.append(Bars(f"{run_id} correct", x, heights, zeros, width, j, legend))
        rest = tuple(1.0 - h for h in heights)
        bars.append(Bars(f"{run_id} incorrect", x, rest, heights, width, j, pale=True))
        for xi, (_, value), h in zip(x, shown, heights, strict=True):
            for correct, y0, y1 in ((True, 0.0, h), (False, h, 1.0)):
                what = "correct" if correct else "incorrect"
                query = AttemptQuery(run_ids=(run_id,), labels=((facet, value),), correct=correct)
                tip = (
                    f"{display_text(run_id)} · {display_text(facet)} = {display_text(value)}: "
                    f"exact accuracy {percent_text(h)} "
                    f"(exact {h!r}); click for the {what} attempts"
                )
                hits.append(
                    Hit(
                        xi - width / 2,
                        xi + width / 2,
                        y0,
                        y1,
                        query,
                        tip,
                        (run_id, facet, value, correct),
                    )
                )
    ticks = tuple((float(i), display_text(value)) for i, value in enumerate(values))
    caption = consistency_caption(runs, consistency_facet)
    return PlotData(ticks, bars=tuple(bars), hits=tuple(hits), caption=caption)


def disagreements_plot(runs: Runs) -> PlotData:
    """One bar per run: attempts whose recorded verdict differs from the desk's."""
    heights = tuple(float(run.get("disagreements", 0)) for run in runs)
    x = tuple(float(i) for i in range(len(runs)))
    bars = (Bars("disagreements", x, heights, tuple(0.0 for _ in x), BAR_WIDTH),)
    hits = []
    for i, (run, height) in enumerate(zip(runs, heights, strict=True)):
        run_id = str(run["run_id"])
        query = AttemptQuery(run_ids=(run_id,), disagreements_only=True)
        tip = f"{display_text(run_id)}: {int(height):,} attempts where the runner ≠ the desk"
        half = BAR_WIDTH / 2
        hits.append(Hit(i - half, i + half, 0.0, max(height, 0.5), query, tip, (run_id,)))
    return PlotData(_ticks(runs), bars=bars, hits=tuple(hits))


def facets(runs: Runs) -> list[str]:
    """Every label facet any run of the track has slices for, sorted."""
    return sorted({facet for run in runs for facet in run.get("slices", {})})
