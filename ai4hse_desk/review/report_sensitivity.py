"""The review report's sensitivity section: NOT OFFICIAL, per track.

Each run's official exact accuracy (as ``rescore`` gives it) beside three clearly
named explorations (:data:`VARIANTS`), then each repetition's figure with its 95 %
Wilson interval; a run without an official score says why. The whole section sits in
one dashed box headed :data:`NOT_OFFICIAL`, so no reader takes it for a score.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from ai4hse_desk.display.html_table import grid, id_cell
from ai4hse_desk.review.report_markup import interval, pct, text

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

NOT_OFFICIAL: Final = "Sensitivity — NOT OFFICIAL"
#: The sensitivity columns: the official figure and three named explorations.
VARIANTS: Final = (
    ("official", "Official (rescore)"),
    ("without_excluded", "Without excluded questions"),
    ("corrected_keys_only", "Corrected keys only"),
    ("without_excluded_with_corrected_keys", "Both: without excluded, corrected keys"),
)


def _figure(row: Mapping[str, Any], key: str) -> object:
    if row.get(key) is None and row.get("official") is None:
        reason = row.get("unscored_reason")
        return f"no score: {reason}" if key == "official" and reason else "—"
    return pct(row.get(key))


def _variant(rep: Mapping[str, Any] | None) -> str:
    if rep is None or rep.get("exact_accuracy") is None:
        return "—"
    shown = interval(rep.get("wilson_low"), rep.get("wilson_high"))
    return f"{pct(rep['exact_accuracy'])} [{shown}] ({rep.get('correct')}/{rep.get('attempts')})"


def _repetitions(run: Mapping[str, Any]) -> list[list[object]]:
    given = run.get("repetitions") or {}
    variants = [k for k, _ in VARIANTS if k in given or k == "official"]
    by = {k: {x.get("repetition"): x for x in given.get(k) or ()} for k in variants}
    numbers = dict.fromkeys(n for k in variants for n in by[k])
    return [
        [id_cell(run.get("run_id")), n, *(_variant(by.get(k, {}).get(n)) for k, _ in VARIANTS)]
        for n in numbers
    ]


def sensitivity(rows: Sequence[Mapping[str, Any]]) -> list[str]:
    """The section's parts (markup): the boxed heading and its reading, then per track
    the runs' four figures and, where given, each repetition's."""
    tracks: dict[str, list[Mapping[str, Any]]] = {}
    for row in rows:
        tracks.setdefault(str(row.get("track")), []).append(row)
    parts = [
        '<section class="exploration" aria-label="Sensitivity, not official">',
        f"<h2>{text(NOT_OFFICIAL)}</h2>",
        '<p class="note"><span class="official">Only the "Official (rescore)" figures are '
        "official.</span> The other columns rescore the same runs for discussion only and never "
        "change rescore: <b>without excluded questions</b> leaves out the questions decided "
        "question excluded; <b>corrected keys only</b> scores every question against the "
        "adjudicator's corrected keys; <b>both</b> does both. A run without an official score "
        "says why.</p>",
    ]
    labels = [label for _, label in VARIANTS]
    for track, runs in tracks.items():
        lines = [[id_cell(r.get("run_id")), id_cell(r.get("model") or "—"),
                  *(_figure(r, k) for k, _ in VARIANTS)]
                 for r in runs]  # fmt: skip
        reps = [line for run in runs for line in _repetitions(run)]
        parts += [f"<h3>{text(NOT_OFFICIAL)} — track {text(track)}</h3>",
                  grid(("run", "model", *labels), lines)]  # fmt: skip
        if reps:
            parts += ["<h4>Exact accuracy per repetition [95% Wilson] (correct/attempts)</h4>",
                      grid(("run", "repetition", *labels), reps)]  # fmt: skip
    return [*parts, "</section>"]
