"""What the scores plots draw (Qt-free): exact heights and the attempts behind every mark."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from ai4hse_desk.audit import open_audit
from ai4hse_desk.index import AttemptQuery
from ai4hse_desk.scores.plot_data import (
    NOTE_CENTRED_RUNS,
    consistency_caption,
    disagreements_plot,
    facets,
    note_anchor,
    repetitions_plot,
    run_label,
    slices_plot,
    statuses_plot,
)
from ai4hse_desk.verdicts.rescore import rescore

if TYPE_CHECKING:
    from pathlib import Path


@pytest.fixture
def runs(audit_db: Path) -> list[dict[str, Any]]:
    with open_audit(audit_db) as db:
        return rescore(db).runs


def test_repetitions_are_points_with_their_own_wilson_interval(runs: list[dict[str, Any]]) -> None:
    r1 = [run for run in runs if run["run_id"] == "r1"]
    data = repetitions_plot(r1)
    assert data.points is not None
    reps = r1[0]["repetitions"]
    assert list(data.points.y) == [rep["exact_accuracy"] for rep in reps]
    assert list(data.points.low) == [rep["wilson_low"] for rep in reps]
    assert list(data.points.high) == [rep["wilson_high"] for rep in reps]
    assert [hit.query for hit in data.hits] == [
        AttemptQuery(run_ids=("r1",), repetitions=(1,)),
        AttemptQuery(run_ids=("r1",), repetitions=(2,)),
    ]
    assert data.ticks == ((data.points.x[0], "rep 1"), (data.points.x[1], "rep 2"))
    assert data.group_ticks == ((0.0, run_label(r1[0], r1)),)
    first = data.hits[0]
    assert first.contains(data.points.x[0], data.points.y[0])
    assert repr(reps[0]["wilson_low"]) in first.tip


def test_unscored_runs_get_a_note_and_no_point(runs: list[dict[str, Any]]) -> None:
    r3 = [run for run in runs if run["run_id"] == "r3"]
    assert not r3[0]["scored"]
    data = repetitions_plot(r3)
    assert data.points is not None
    assert data.points.y == ()
    assert data.notes == ((0.0, 0.5, "no aggregate score"),)
    assert data.hits == ()
    assert slices_plot(r3, "topic").bars == ()


def test_status_bars_stack_every_status_of_every_run(runs: list[dict[str, Any]]) -> None:
    data = statuses_plot(runs)
    by_key = {bars.key: bars for bars in data.bars}
    for i, run in enumerate(runs):
        counts = dict(run["errors"]["by_status"])
        counts["correct"], counts["valid"] = run["correct"], counts["valid"] - run["correct"]
        for key, count in counts.items():
            if count:
                assert by_key[key].height[i] == count
        tops = [bars.y0[i] + bars.height[i] for bars in data.bars]
        assert max(tops) == run["attempts"]
    r1 = runs.index(next(run for run in runs if run["run_id"] == "r1"))
    hit = next(h for h in data.hits if h.key == ("r1", "wrong_length"))
    assert hit.query == AttemptQuery(run_ids=("r1",), statuses=("wrong_length",))
    assert hit.x0 < r1 < hit.x1
    assert data.ticks[r1] == (float(r1), run_label(runs[r1], runs))
    wrong = next(h for h in data.hits if h.key == ("r1", "valid"))
    assert wrong.query == AttemptQuery(run_ids=("r1",), statuses=("valid",), correct=False)


def test_slices_split_each_bar_into_correct_and_incorrect(runs: list[dict[str, Any]]) -> None:
    track = [run for run in runs if run["track"] == "answer_only"]
    data = slices_plot(track, "topic")
    correct = next(bars for bars in data.bars if bars.key == "r1 correct")
    rest = next(bars for bars in data.bars if bars.key == "r1 incorrect")
    values = [label for _, label in data.ticks]
    assert values == sorted(track[0]["slices"]["topic"])
    assert list(correct.height) == [track[0]["slices"]["topic"][v] for v in values]
    assert rest.y0 == correct.height
    ppe = next(h for h in data.hits if h.key == ("r1", "topic", "PPE", False))
    assert ppe.query == AttemptQuery(run_ids=("r1",), labels=(("topic", "PPE"),), correct=False)
    assert ppe.y0 == track[0]["slices"]["topic"]["PPE"]
    assert ppe.y1 == 1.0
    assert "Consistency index over topic" in data.caption
    assert facets(track) == ["source", "topic"]
    source = slices_plot(track, "source")
    assert {label for _, label in source.ticks} == {"manual", "exam"}


def test_disagreements_per_run(runs: list[dict[str, Any]]) -> None:
    data = disagreements_plot(runs)
    assert list(data.bars[0].height) == [run["disagreements"] for run in runs]
    assert [hit.query for hit in data.hits] == [
        AttemptQuery(run_ids=(run["run_id"],), disagreements_only=True) for run in runs
    ]


def test_consistency_caption_says_void_and_undefined() -> None:
    runs = [
        {"run_id": "a", "scored": True, "consistency_index": "void"},
        {"run_id": "b", "scored": True, "consistency_index": None},
        {"run_id": "c", "scored": True, "consistency_index": 0.41234},
        {"run_id": "d", "scored": False, "consistency_index": None},
    ]
    caption = consistency_caption(runs, "topic")
    assert caption.endswith("a: void; b: undefined; c: 0.412")


def test_run_labels_use_the_run_id_when_a_model_appears_twice() -> None:
    runs = [
        {"model": "m", "run_id": "x"},
        {"model": "m", "run_id": "y"},
        {"model": "n", "run_id": "z"},
    ]
    assert [run_label(run, runs) for run in runs] == ["x", "y", "n"]


def _unscored(count: int) -> list[dict[str, Any]]:
    return [{"run_id": f"r{i:03d}", "model": f"m{i}", "scored": False} for i in range(count)]


def test_a_note_stays_inside_a_plot_of_many_runs() -> None:
    """With many runs (narrow slots) the first run's note starts at its run and the
    last one's ends there; with a few, each note is centred on its run."""
    many = repetitions_plot(_unscored(NOTE_CENTRED_RUNS + 8))
    anchors = [note_anchor(many, x) for x, _, _ in many.notes]
    assert (anchors[0], anchors[-1]) == (0.0, 1.0)
    assert anchors == sorted(anchors)
    few = repetitions_plot(_unscored(3))
    assert [note_anchor(few, x) for x, _, _ in few.notes] == [0.5, 0.5, 0.5]


def test_labels_ticks_and_tips_show_invisible_and_bidi_characters() -> None:
    evil = "m\u202eLTR\u200b"  # a right-to-left override and a zero-width space
    runs: list[dict[str, Any]] = [
        {
            "model": evil, "run_id": "r\u202e1", "scored": True, "consistency_index": None,
            "slices": {"top\u200bic": {"fire\u202e": 0.5}},
        }
    ]  # fmt: skip
    assert run_label(runs[0], runs) == "m⟨RLO⟩LTR⟨ZWSP⟩"
    data = slices_plot(runs, "top\u200bic", consistency_facet="top\u200bic")
    assert data.ticks == ((0.0, "fire⟨RLO⟩"),)
    tips = " ".join(hit.tip for hit in data.hits)
    assert "r⟨RLO⟩1 · top⟨ZWSP⟩ic = fire⟨RLO⟩" in tips
    assert "\u202e" not in tips + data.caption
    assert "\u200b" not in tips + data.caption
    assert "over top⟨ZWSP⟩ic" in data.caption
