"""The mutation test empties every protocol memo (scripts/mutate_plugin.py, issue 36).

A memo left out of the plugin's list would let a mutant read back verdicts that
unmutated code computed, and survive for that reason alone.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from pathlib import Path
from typing import TYPE_CHECKING

import ai4hse_desk.protocol as protocol
from ai4hse_desk.protocol import Track, derive
from ai4hse_desk.protocol.compare import parse_extracted
from ai4hse_desk.protocol.extract import verdict_rule
from ai4hse_desk.protocol.metrics import RunInfo, RunScorer
from ai4hse_desk.protocol.outcome import Status

if TYPE_CHECKING:
    from types import ModuleType

PLUGIN = Path(__file__).resolve().parents[2] / "scripts" / "mutate_plugin.py"

#: Module-level tables of the protocol that are constants, not memos: (module, name).
CONSTANT_TABLES = {
    ("extract", "_RULES"),
    ("extract", "_VERDICT_RULES"),
    ("lists", "STRICT_TOKENS"),
    ("lists", "_TOKENS"),
    ("metrics", "_TRACK_RANK"),
    ("structured", "_BOOLEANS"),
}


def _plugin() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutate_plugin", PLUGIN)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _modules() -> dict[str, ModuleType]:
    return {
        info.name: importlib.import_module(f"{protocol.__name__}.{info.name}")
        for info in pkgutil.iter_modules(protocol.__path__)
    }


def _size(memo: object) -> int:
    info = getattr(memo, "cache_info", None)
    return info().currsize if info is not None else len(memo)  # type: ignore[arg-type]


def _memos() -> list[object]:
    return [getattr(importlib.import_module(module), name) for module, name in _plugin().MEMOS]


def test_every_mutable_table_of_the_protocol_is_a_listed_memo_or_a_constant() -> None:
    memos = {id(memo) for memo in _memos()}
    modules = _modules()
    constants = {id(getattr(modules[module], name)) for module, name in CONSTANT_TABLES}
    unlisted = [
        f"{module}.{name}"
        for module, loaded in modules.items()
        for name, value in vars(loaded).items()
        if not name.startswith("__")
        and (isinstance(value, dict | set | list) or hasattr(value, "cache_clear"))
        and id(value) not in memos | constants
    ]
    assert unlisted == []


def test_clear_memos_empties_every_memo_the_rules_filled() -> None:
    for track, text in [
        (Track.ANSWER_ONLY, "[TRUE, FALSE]"),
        (Track.REASONING_ASSISTED, "FINAL_ANSWER: [TRUE, FALSE]"),
        (Track.REASONING_ASSISTED, "FINAL_ANSWER: TRUE, FALSE"),
        (Track.STRUCTURED_OUTPUT, '{"answers": [true, false]}'),
        (Track.SINGLE_CHOICE, "B"),
    ]:
        derive(track, text, 2)
        verdict_rule(track)(text, 2, 10)
    parse_extracted("[true, false]")
    scorer = RunScorer(RunInfo("r", "m", "answer_only", 10, "complete"))
    scorer.add("Q1", 1, Status.VALID, (True, True), True, (True, False), False)
    scorer.result({})
    assert all(_size(memo) > 0 for memo in _memos())

    _plugin().clear_memos()
    assert [_size(memo) for memo in _memos()] == [0] * len(_memos())
