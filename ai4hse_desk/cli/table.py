"""A readable, per-track table of rescored runs (``rescore --table``).

Cells read as in the window's scores table (:func:`ai4hse_desk.scores.table_rows.display`):
the same percentages, F1 to three decimals, "undefined", protocol ``10``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.display.terminal import terminal_safe
from ai4hse_desk.scores.table_rows import ScoreRow, column, display

if TYPE_CHECKING:
    from collections.abc import Sequence


def _cell(key: str, run: dict[str, object]) -> str:
    """The cell as the window's scores table writes it."""
    return display(column(key), ScoreRow(run, None))


def _row(run: dict[str, object]) -> list[str]:
    errors = run["errors"]
    assert isinstance(errors, dict)
    if not run["scored"]:
        scores = ["unfinished*", "—", "—", "—"]
    else:
        scores = [
            _cell("exact_accuracy", run),
            f"{_cell('valid_accuracy', run)} @ {_cell('coverage', run)}",
            _cell("strict_format_rate", run),
            _cell("f1", run),
        ]
    return [
        terminal_safe(str(run["run_id"])),
        terminal_safe(str(run["model"])),
        _cell("protocol_version", run),
        str(run["attempts"]),
        *scores,
        f"{errors['provider_error']}/{errors['parse_error']}/{errors['incomplete']}",
        str(run["disagreements"]),
    ]


HEADER = [
    "run", "model", "protocol", "attempts", "exact acc", "valid acc @ coverage",
    "strict", "F1", "prov/parse/incompl", "disagree",
]  # fmt: skip


def render_runs(audit: dict[str, object], runs: Sequence[dict[str, object]]) -> str:
    """One table per track, in cli.md's order; tracks are never combined."""
    head = f"{audit['path']}  ({audit['benchmark']}, sha256 {str(audit['sha256'])[:12]}…)"
    lines = [terminal_safe(head)]
    tracks: dict[str, list[dict[str, object]]] = {}
    for run in runs:
        tracks.setdefault(str(run["track"]), []).append(run)
    for track, members in tracks.items():
        rows = [HEADER, *(_row(run) for run in members)]
        widths = [max(len(r[i]) for r in rows) for i in range(len(HEADER))]
        lines += ["", f"== {terminal_safe(track)} ({len(members)} runs, ordered by exact accuracy)"]
        for i, row in enumerate(rows):
            cells = "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True))
            lines.append(cells.rstrip())
            if i == 0:
                lines.append("  ".join("-" * w for w in widths))
        if any(not run["scored"] for run in members):
            lines.append("* unfinished — no aggregate score (counts only)")
    return "\n".join(lines) + "\n"
