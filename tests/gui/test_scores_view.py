"""The scores dashboard on a real demo database: numbers, plots, clicks, sensitivity, exports."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from typing import TYPE_CHECKING, Any
from xml.dom import minidom

import numpy as np
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtSvg import QSvgRenderer
from PySide6.QtTest import QTest

from ai4hse_desk.audit import AuditDB, open_audit
from ai4hse_desk.cli.main import main as cli_main
from ai4hse_desk.gui.models.scores_table import RAW_ROLE
from ai4hse_desk.gui.views.scores import ScoresView
from ai4hse_desk.index import AttemptQuery, ensure_index
from ai4hse_desk.scores import COLUMNS, read_cached
from ai4hse_desk.verdicts.rescore import RescoreCancelled, rescore

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from pytestqt.qtbot import QtBot

    from ai4hse_desk.gui.views.scores_plots import TrackPlots
    from ai4hse_desk.gui.workers.runner import TaskRunner

UNFINISHED_RUN = "ra-cirrus-mini-2026-09-20"
METRIC_KEYS = [c.key for c in COLUMNS if c.kind in ("percent", "score", "count")]


@pytest.fixture(scope="module")
def demo_path(pristine: Path) -> Path:
    return pristine


@pytest.fixture(scope="module")
def printed(demo_path: Path) -> list[dict[str, Any]]:
    """The run objects ``ai4hse-desk rescore`` prints (its JSON, parsed)."""
    out = subprocess.run(
        [sys.executable, "-m", "ai4hse_desk", "rescore", str(demo_path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    runs: list[dict[str, Any]] = json.loads(out)["runs"]
    return runs


@pytest.fixture
def db(demo_path: Path) -> Iterator[AuditDB]:
    with open_audit(demo_path) as audit:
        yield audit


@pytest.fixture
def view(qtbot: QtBot, db: AuditDB, tasks: TaskRunner) -> Iterator[ScoresView]:
    widget = ScoresView(tasks)
    qtbot.addWidget(widget)
    widget.resize(1400, 1000)
    widget.show()
    widget.load_now(db)
    yield widget
    widget.clear()


def _value(run: dict[str, Any], key: str) -> Any:
    for group in ("errors", "baselines"):
        if key in run[group]:
            return run[group][key]
    return run[key]


def _status_count(run: dict[str, Any], key: str) -> int:
    """A run's attempts in a statuses-plot series: valid split into correct and wrong."""
    if key == "correct":
        return int(run["correct"])
    count = int(run["errors"]["by_status"][key])
    return count - int(run["correct"]) if key == "valid" else count


def _show_plot(view: ScoresView, track: str, name: str) -> TrackPlots:
    plots = view.plots[track]
    view.tabs.setCurrentIndex(list(view.plots).index(track))
    plots.tabs.setCurrentIndex(list(plots.widgets).index(name))
    QGuiApplication.processEvents()
    return plots


def _scene_point(plots: TrackPlots, name: str, x: float, y: float) -> QPointF:
    box = plots.widgets[name].getPlotItem().getViewBox()
    point: QPointF = box.mapViewToScene(QPointF(x, y))
    return point


class _Click:
    """A left click at a scene position, as pyqtgraph's scene hands it to handlers."""

    def __init__(self, scene_pos: QPointF) -> None:
        self._pos = scene_pos
        self.accepted = False

    def button(self) -> Qt.MouseButton:
        return Qt.MouseButton.LeftButton

    def double(self) -> bool:
        return False

    def scenePos(self) -> QPointF:
        return self._pos

    def accept(self) -> None:
        self.accepted = True


def test_tables_equal_the_rescore_json_to_the_last_digit(
    view: ScoresView, printed: list[dict[str, Any]], db: AuditDB
) -> None:
    assert printed == rescore(db).runs
    for track, model in view.models.items():
        expected = [run for run in printed if run["track"] == track]
        assert [row.run_id for row in model.rows] == [run["run_id"] for run in expected]
        for r, run in enumerate(expected):
            for key in METRIC_KEYS:
                raw = model.index(r, model.column_index(key)).data(RAW_ROLE)
                assert raw == _value(run, key), (run["run_id"], key)
                assert repr(raw) == repr(_value(run, key))
    assert list(view.models) == ["answer_only", "reasoning_assisted", "structured_output"]
    assert view.tabs.tabText(3) == "Sensitivity — not official"


def test_display_tooltip_and_exact_copy(view: ScoresView, printed: list[dict[str, Any]]) -> None:
    model = view.models["answer_only"]
    run = printed[0]
    cell = model.index(0, model.column_index("valid_accuracy"))
    assert cell.data() == f"{run['valid_accuracy'] * 100:.1f}%"
    assert repr(run["valid_accuracy"]) in cell.data(Qt.ItemDataRole.ToolTipRole)
    view.tabs.setCurrentIndex(0)
    view.table_views["answer_only"].setCurrentIndex(cell)
    view.action_map["copy"].trigger()
    assert QGuiApplication.clipboard().text() == repr(run["valid_accuracy"])
    settings = model.index(0, model.column_index("temperature")).data()
    assert settings in ("provider default", "0", "0.2", "0.3", "0.7")


def test_unfinished_run_has_no_aggregate_score(view: ScoresView) -> None:
    model = view.models["reasoning_assisted"]
    row = next(i for i, r in enumerate(model.rows) if r.run_id == UNFINISHED_RUN)
    assert row == len(model.rows) - 1  # unscored runs last
    text = model.index(row, model.column_index("exact_accuracy")).data()
    assert text == "unfinished — no aggregate score"
    for key in ("valid_accuracy", "coverage", "f1", "always_true", "consistency_index"):
        assert model.index(row, model.column_index(key)).data() == "—"
        assert model.index(row, model.column_index(key)).data(RAW_ROLE) is None
    assert int(model.index(row, model.column_index("attempts")).data(RAW_ROLE)) > 0
    plots = view.plots["reasoning_assisted"]
    assert f"note {row:g}" in plots.items["repetitions"]
    assert all(hit.key[0] != UNFINISHED_RUN for hit in plots.hits("repetitions"))


def test_undefined_values_read_undefined(
    qtbot: QtBot, demo_path: Path, tmp_path: Path, tasks: TaskRunner
) -> None:
    path = tmp_path / "all-errors.sqlite"
    shutil.copy(demo_path, path)
    run_id = "so-aurora-7b-2026-09-15"
    with sqlite3.connect(path) as conn:
        conn.execute(
            "UPDATE attempts SET state = 'provider_error', raw_response = NULL, "
            "finish_reason = NULL, error = 'HTTP 500' WHERE run_id = ?",
            (run_id,),
        )
    conn.close()
    widget = ScoresView(tasks)
    qtbot.addWidget(widget)
    with open_audit(path) as db:
        widget.load_now(db)
        model = widget.models["structured_output"]
        row = next(i for i, r in enumerate(model.rows) if r.run_id == run_id)
        for key in ("valid_accuracy", "precision", "recall", "f1", "option_accuracy"):
            assert model.index(row, model.column_index(key)).data() == "undefined"
            assert model.index(row, model.column_index(key)).data(RAW_ROLE) is None
        assert model.index(row, model.column_index("exact_accuracy")).data() == "0.0%"
        assert model.index(row, model.column_index("coverage")).data() == "0.0%"
        widget.clear()


def test_plot_items_hold_the_metrics(view: ScoresView, printed: list[dict[str, Any]]) -> None:
    for track, plots in view.plots.items():
        runs = [run for run in printed if run["track"] == track]
        items = plots.items["statuses"]
        base = np.zeros(len(runs))
        for key, bars in items.items():
            _, heights = bars.getData()
            assert list(heights) == [_status_count(run, key) for run in runs]
            assert list(bars.opts["y0"]) == list(base)
            base += np.array(heights, dtype=float)
        assert list(base) == [run["attempts"] for run in runs]
        scored = [run for run in runs if run["scored"]]
        reps = [rep for run in scored for rep in run["repetitions"]]
        _, ys = plots.items["repetitions"]["accuracy"].getData()
        assert list(ys) == [rep["exact_accuracy"] for rep in reps]
        wilson = plots.items["repetitions"]["wilson"].opts
        assert list(wilson["y"] + wilson["top"]) == pytest.approx([r["wilson_high"] for r in reps])
        assert list(wilson["y"] - wilson["bottom"]) == pytest.approx(
            [r["wilson_low"] for r in reps]
        )
        _, disagreements = plots.items["disagreements"]["disagreements"].getData()
        assert list(disagreements) == [run["disagreements"] for run in runs]
        assert plots.facet.currentText() == "topic"
        for run in scored:
            _, heights = plots.items["slices"][f"{run['run_id']} correct"].getData()
            assert list(heights) == list(run["slices"]["topic"].values())
            assert f"{run['run_id']}: {run['consistency_index']:.3f}" in plots.consistency.text()


def test_facet_choice_replots_the_slices(view: ScoresView, printed: list[dict[str, Any]]) -> None:
    plots = view.plots["answer_only"]
    plots.facet.setCurrentText("difficulty")
    run = printed[0]
    _, heights = plots.items["slices"][f"{run['run_id']} correct"].getData()
    assert list(heights) == list(run["slices"]["difficulty"].values())
    assert {hit.key[1] for hit in plots.hits("slices")} == {"difficulty"}


def test_clicking_a_status_bar_asks_for_its_attempts(qtbot: QtBot, view: ScoresView) -> None:
    plots = _show_plot(view, "answer_only", "statuses")
    index, hit = next(
        (i, h) for i, h in enumerate(plots.hits("statuses")) if h.key[1] == "wrong_length"
    )
    run_id = hit.key[0]
    assert isinstance(run_id, str)
    expected = AttemptQuery(run_ids=(run_id,), statuses=("wrong_length",))
    assert view.query_for("answer_only/statuses", index) == expected
    centre = _scene_point(plots, "statuses", (hit.x0 + hit.x1) / 2, (hit.y0 + hit.y1) / 2)
    click = _Click(centre)
    with qtbot.waitSignal(view.filter_requested, timeout=10_000) as signal:
        plots.scene_clicked("statuses", click)
    assert signal.args == [expected]
    assert click.accepted


def test_a_real_mouse_click_on_a_slice_bar(qtbot: QtBot, view: ScoresView) -> None:
    plots = _show_plot(view, "answer_only", "slices")
    run_id = view.models["answer_only"].rows[1].run_id
    hit = next(h for h in plots.hits("slices") if h.key == (run_id, "topic", "PPE", False))
    widget = plots.widgets["slices"]
    scene = _scene_point(plots, "slices", (hit.x0 + hit.x1) / 2, (hit.y0 + hit.y1) / 2)
    pos = widget.mapFromScene(scene)
    expected = AttemptQuery(run_ids=(run_id,), labels=(("topic", "PPE"),), correct=False)
    with qtbot.waitSignal(view.filter_requested, timeout=10_000) as signal:
        QTest.mouseClick(widget.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    assert signal.args == [expected]


def test_clicking_a_repetition_point_and_hovering(qtbot: QtBot, view: ScoresView) -> None:
    plots = _show_plot(view, "structured_output", "repetitions")
    hit = plots.hits("repetitions")[4]
    run_id, repetition = hit.key
    assert isinstance(run_id, str)
    assert isinstance(repetition, int)
    _, ys = plots.items["repetitions"]["accuracy"].getData()
    xs, _ = plots.items["repetitions"]["accuracy"].getData()
    scene = _scene_point(plots, "repetitions", xs[4], ys[4])
    expected = AttemptQuery(run_ids=(run_id,), repetitions=(repetition,))
    with qtbot.waitSignal(view.filter_requested, timeout=10_000) as signal:
        plots.scene_clicked("repetitions", _Click(scene))
    assert signal.args == [expected]
    plots.scene_moved("repetitions", scene)
    assert plots.widgets["repetitions"].toolTip() == hit.tip
    assert plots.last_tip == hit.tip
    assert "95% Wilson" in hit.tip
    assert repr(float(ys[4])) in hit.tip
    with qtbot.assertNotEmitted(view.filter_requested):
        plots.scene_clicked("repetitions", _Click(_scene_point(plots, "repetitions", 0, -5)))


def test_sensitivity_differs_and_the_official_table_does_not_change(
    qtbot: QtBot, view: ScoresView, db: AuditDB, printed: list[dict[str, Any]]
) -> None:
    before = {
        track: [
            [model.index(r, c).data(RAW_ROLE) for c in range(model.columnCount())]
            for r in range(model.rowCount())
        ]
        for track, model in view.models.items()
    }
    excluded = {"Q001", "Q002", "Q003", "Q010"}
    with qtbot.waitSignal(view.sensitivity.recomputed, timeout=10_000):
        view.set_excluded_questions(excluded, "questions with an open key_incorrect flag")
    explored = {run["run_id"]: run for run in rescore(db, exclude_questions=excluded).runs}
    rows = view.sensitivity.model.rows
    assert [row.run_id for row in rows] == [run["run_id"] for run in printed]
    assert all(row.explored == explored[row.run_id] for row in rows)
    assert any(
        row.explored is not None
        and row.explored["exact_accuracy"] != row.official["exact_accuracy"]
        for row in rows
    )
    assert view.sensitivity.excluded() == excluded
    assert "key_incorrect" in view.sensitivity.reason.text()
    assert "Not official" in view.sensitivity.banner.text()
    after = {
        track: [
            [model.index(r, c).data(RAW_ROLE) for c in range(model.columnCount())]
            for r in range(model.rowCount())
        ]
        for track, model in view.models.items()
    }
    assert after == before
    assert [row.official for row in rows] == printed


def test_ticking_a_question_recomputes_in_the_background(qtbot: QtBot, view: ScoresView) -> None:
    panel = view.sensitivity
    item = panel.questions.item(0)
    with qtbot.waitSignal(panel.recomputed, timeout=10_000):
        item.setCheckState(Qt.CheckState.Checked)
    assert panel.excluded() == {item.data(Qt.ItemDataRole.UserRole)}
    assert panel.reason_text == "questions ticked by the reviewer"
    explored = panel.explored
    assert explored is not None
    panel.set_excluded_questions(set(), "", wait=True)
    assert panel.explored is None
    assert all(row.explored is None for row in panel.model.rows)


def test_background_load_caches_per_fingerprint(
    qtbot: QtBot, db: AuditDB, printed: list[dict[str, Any]], tasks: TaskRunner
) -> None:
    widget = ScoresView(tasks)
    qtbot.addWidget(widget)
    with qtbot.waitSignal(widget.loaded, timeout=20_000):
        widget.load(db)
    assert [row.run for model in widget.models.values() for row in model.rows] == printed
    cached = read_cached(db.fingerprint())
    assert cached is not None
    assert cached.runs == printed
    assert not widget.busy()
    widget.clear()
    assert widget.tabs.count() == 0
    assert widget.models == {}


def test_cancelling_the_background_load(
    qtbot: QtBot, db: AuditDB, monkeypatch: pytest.MonkeyPatch, tasks: TaskRunner
) -> None:
    def slow(_audit: AuditDB, progress: Any, **_options: object) -> Any:
        while progress(0, 1):
            QTest.qWait(5)
        raise RescoreCancelled

    monkeypatch.setattr("ai4hse_desk.scores.cache.load_scores", slow)  # read when a load starts
    widget = ScoresView(tasks)
    qtbot.addWidget(widget)
    widget.show()
    widget.load(db)
    assert widget.cancel_button.isVisible()  # a long computation can be stopped
    task = widget.task
    assert task is not None
    with qtbot.waitSignal(task.finished, timeout=10_000):
        widget.cancel_button.click()
    assert "Stopped" in widget.status.text()
    assert not widget.cancel_button.isVisible()
    assert not widget.progress.isVisible()
    assert widget.models == {}
    assert widget.action_map["recompute"].isEnabled()
    widget.clear()
    assert not widget.busy()


def test_the_scores_from_the_stored_verdicts_are_rescores(
    qtbot: QtBot, db: AuditDB, printed: list[dict[str, Any]], tasks: TaskRunner
) -> None:
    widget = ScoresView(tasks)
    qtbot.addWidget(widget)
    with ensure_index(db) as index:
        widget.load(db, index=index, use_cache=False)
        assert tasks.wait_idle()
        assert [row.run for model in widget.models.values() for row in model.rows] == printed
        widget.clear()


def test_exports_write_files(
    view: ScoresView, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, db: AuditDB
) -> None:
    import openpyxl

    answers = iter(
        [
            tmp_path / "t.csv",
            tmp_path / "t.xlsx",
            tmp_path / "p.png",
            tmp_path / "p.svg",
            tmp_path / "r.html",
        ]
    )
    monkeypatch.setattr(view.exports, "ask_save_path", lambda *_args: next(answers))
    _show_plot(view, "answer_only", "statuses")
    for key in ("csv", "xlsx", "png", "svg", "html"):
        view.action_map[key].trigger()
        assert "Exported" in view.status.text()
    assert (tmp_path / "t.csv").read_text(encoding="utf-8").startswith("track,rank_in_track,model")
    assert openpyxl.load_workbook(tmp_path / "t.xlsx").sheetnames == [
        "Answer only",
        "Reasoning assisted",
        "Structured output",
    ]
    assert (tmp_path / "p.png").read_bytes().startswith(b"\x89PNG")
    assert QSvgRenderer(str(tmp_path / "p.svg")).isValid()
    groups = minidom.parse(str(tmp_path / "p.svg")).getElementsByTagName("g")
    bars = [g for g in groups if g.getElementsByTagName("rect")]
    assert len(bars) > 3  # the stacked status bars, baked into page coordinates
    for group in bars:
        scale = group.getAttribute("transform").removeprefix("matrix(").split(",")[0]
        assert not scale or abs(float(scale)) < 10
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "data:image/png;base64," in page
    for question in db.questions()[:20]:
        assert question.text not in page


@pytest.mark.parametrize("kind", ["csv", "xlsx", "png", "svg", "html"])
def test_file_dialog_cancel_writes_nothing(
    view: ScoresView,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    kind: str,
    message_boxes: list[object],
) -> None:
    folder = tmp_path / "exports"
    folder.mkdir()
    monkeypatch.chdir(folder)  # where a relative default name would land
    asked: list[str] = []

    def cancel(caption: str, suggested: str, _filters: str) -> None:
        asked.append(f"{caption}: {suggested}")

    monkeypatch.setattr(view.exports, "ask_save_path", cancel)
    status = view.status.text()
    view.action_map[kind].trigger()
    assert len(asked) == 1  # the dialog was shown, and cancelled
    assert list(folder.iterdir()) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == ["exports"]
    assert view.status.text() == status
    assert message_boxes == []


def test_report_with_private_text_only_when_asked(
    view: ScoresView, db: AuditDB, tmp_path: Path
) -> None:
    question = db.question("Q001")
    view.sensitivity.set_excluded_questions({"Q001"}, "flag", wait=True)
    public = view.exports.report_html(with_plots=False)
    assert "Q001" in public
    assert question.text not in public
    private = view.exports.export_report(tmp_path / "private.html", include_private=True)
    assert question.text in private.read_text(encoding="utf-8")


def test_the_view_is_accessible_and_loads_no_heavy_module_at_import() -> None:
    code = (
        "import sys\nimport ai4hse_desk.gui.views.scores\n"
        "print(sorted(m for m in ('pyqtgraph', 'pandas') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_accessible_names(view: ScoresView) -> None:
    assert view.accessibleName() == "Scores dashboard"
    assert view.tabs.accessibleName() == "Scores per track"
    assert view.sensitivity.accessibleName() == "Sensitivity, not official"
    assert view.table_views["answer_only"].accessibleName() == "Scores table: Answer only"
    assert view.plots["answer_only"].facet.accessibleName() == "Label facet"


def test_cli_json_and_view_agree(
    view: ScoresView, demo_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli_main(["rescore", str(demo_path)]) == 0
    runs = json.loads(capsys.readouterr().out)["runs"]
    shown = [row.run for model in view.models.values() for row in model.rows]
    assert json.dumps(shown) == json.dumps(runs)


def test_exclusions_handed_over_before_the_scores_arrive(
    qtbot: QtBot, db: AuditDB, printed: list[dict[str, Any]], tasks: TaskRunner
) -> None:
    widget = ScoresView(tasks)
    qtbot.addWidget(widget)
    with qtbot.waitSignal(widget.loaded, timeout=20_000):
        widget.load(db)
        widget.set_excluded_questions({"Q005"}, "open key_incorrect flags")
    panel = widget.sensitivity
    qtbot.waitUntil(lambda: panel.explored is not None, timeout=10_000)
    assert panel.excluded() == {"Q005"}
    assert panel.reason_text == "open key_incorrect flags"
    assert all(row.official == run for row, run in zip(panel.model.rows, printed, strict=True))
    with qtbot.waitSignal(widget.loaded, timeout=20_000):
        widget.recompute()  # computing again keeps the exploration
    qtbot.waitUntil(lambda: panel.explored is not None, timeout=10_000)
    assert panel.excluded() == {"Q005"}
    widget.clear()


def test_loading_again_rebuilds_the_tabs(view: ScoresView, db: AuditDB) -> None:
    view.load_now(db)
    assert [view.tabs.tabText(i) for i in range(view.tabs.count())] == [
        "Answer only",
        "Reasoning assisted",
        "Structured output",
        "Sensitivity — not official",
    ]
    assert view.tabs.widget(3) is view.sensitivity


def test_nothing_to_export_before_scores(
    qtbot: QtBot,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    tasks: TaskRunner,
    message_boxes: list[object],
) -> None:
    widget = ScoresView(tasks)
    qtbot.addWidget(widget)
    assert not widget.action_map["csv"].isEnabled()
    with pytest.raises(RuntimeError, match="no plots"):
        widget.exports.export_plot(tmp_path / "p.png")
    with pytest.raises(RuntimeError, match="no scores"):
        widget.exports.report_html()
    monkeypatch.setattr(widget.exports, "ask_save_path", lambda *_args: tmp_path / "r.html")
    widget.exports.ask_report(include_private=False)
    assert widget.status.text().startswith("Could not export")
    assert len(message_boxes) == 1
    assert not (tmp_path / "r.html").exists()


def test_the_exploration_can_be_cancelled_and_keeps_the_ticks(
    qtbot: QtBot, view: ScoresView, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The exploration rescores every run (long on a large file): it shows its progress
    and a Cancel button, and Cancel stops it without touching the ticks."""

    def slow(_db: object, _index: object, _excluded: object, progress: Any) -> Any:
        while progress(1, 4):
            QTest.qWait(5)
        raise RescoreCancelled

    monkeypatch.setattr("ai4hse_desk.gui.panels.sensitivity.explore", slow)
    panel = view.sensitivity
    panel.set_excluded_questions({"Q001"}, "flag")
    assert panel.busy()
    assert panel.state.text() == "Recomputing without 1 question…"
    assert panel.cancel_button.isVisibleTo(panel)
    qtbot.waitUntil(lambda: panel.progress.isVisibleTo(panel), timeout=10_000)
    task = panel.task
    assert task is not None
    with qtbot.waitSignal(task.finished, timeout=10_000):
        panel.cancel_button.click()
    assert not panel.busy()
    assert "stopped" in panel.state.text()
    assert "start again" in panel.state.text()
    assert not panel.cancel_button.isVisibleTo(panel)
    assert not panel.progress.isVisibleTo(panel)
    assert panel.excluded() == {"Q001"}
    assert panel.explored is None


@pytest.mark.usefixtures("qapp")
def test_model_names_and_settings_show_invisible_and_bidi_characters_by_name(
    db: AuditDB, printed: list[dict[str, Any]]
) -> None:
    from ai4hse_desk.gui.models.scores_table import ScoresTableModel
    from ai4hse_desk.scores import track_tables

    settings = {run.run_id: run for run in db.runs()}
    evil = "m\u202eLTR\u200b"  # would show as "mRTL" with the rest of the cell reversed
    runs = [{**printed[0], "model": evil}, *printed[1:]]
    run_id = printed[0]["run_id"]
    tables = track_tables(runs, settings).values()
    rows = next(rows for rows in tables if any(row.run_id == run_id for row in rows))
    model = ScoresTableModel()
    model.set_rows(rows)
    cell = model.index([row.run_id for row in rows].index(run_id), model.column_index("model"))
    assert cell.data() == "m⟨RLO⟩LTR⟨ZWSP⟩"
    assert cell.data(RAW_ROLE) == evil, "the value itself"
    tip = cell.data(Qt.ItemDataRole.ToolTipRole)
    assert "⟨RLO⟩" in tip
    assert "\u202e" not in tip


def test_the_questions_to_leave_out_show_bidi_characters_by_name(
    qtbot: QtBot, db: AuditDB, printed: list[dict[str, Any]], tasks: TaskRunner
) -> None:
    import dataclasses

    from ai4hse_desk.gui.panels.sensitivity import SensitivityPanel

    panel = SensitivityPanel(tasks)
    qtbot.addWidget(panel)
    first, *rest = db.questions()
    hostile = dataclasses.replace(first, text="Which \u202eevil\u202c option?")  # shows 'live'
    panel.set_source(db, printed, [hostile, *rest])
    assert panel.questions.item(0).text() == f"{first.question_id} — Which ⟨RLO⟩evil⟨PDF⟩ option?"
    panel.stop()
