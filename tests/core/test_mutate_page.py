"""``make mutate`` keeps its page: without every group's last run in ``build/mutate``,
``docs/dev/mutation.md`` is not rewritten (its table would lose those groups' rows), and
the command says so in one ``error:`` line."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import ModuleType

    import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def _mutate(monkeypatch: pytest.MonkeyPatch, root: Path) -> ModuleType:
    monkeypatch.syspath_prepend(str(SCRIPTS))
    mutate = importlib.import_module("mutate")
    monkeypatch.setattr(mutate, "ROOT", root)
    monkeypatch.setattr(mutate, "WORK", root / "build" / "mutate")
    monkeypatch.setattr(mutate, "DOC", root / "mutation.md")
    return mutate


def _ran(root: Path, group: str) -> None:
    (root / "build" / "mutate" / group).mkdir(parents=True)
    (root / "build" / "mutate" / group / "summary.json").write_text("{}", encoding="utf-8")


def test_a_report_without_every_groups_run_leaves_the_page_as_it_is(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mutate = _mutate(monkeypatch, tmp_path)
    (tmp_path / "mutation.md").write_text("the table of every group\n", encoding="utf-8")
    _ran(tmp_path, "chain")
    monkeypatch.setattr(sys, "argv", ["mutate.py", "--report", "chain"])
    assert mutate.main() == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no run of extraction, metrics, compare, ")
    assert err.count("\n") == 1
    assert "chain in build" not in err  # the group that ran is not named
    assert (tmp_path / "mutation.md").read_text(encoding="utf-8") == "the table of every group\n"


def test_with_every_groups_run_the_page_may_be_written(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    mutate = _mutate(monkeypatch, tmp_path)
    for group in mutate.GROUPS:
        assert mutate._page_problem() is not None
        _ran(tmp_path, group.name)
    assert mutate._page_problem() is None
