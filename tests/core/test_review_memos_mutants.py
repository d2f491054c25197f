"""The mutation test's review groups hold no memo it does not empty (issue 36).

``make mutate`` runs each mutant with every memo of the mutated code emptied
(``scripts/mutate_plugin.py``); a memo it did not know of would let a mutant read
back what unmutated code computed. ``test_protocol_memos.py`` holds this for the
protocol; this test holds it for every other module a group of ``scripts/mutate.py``
mutates (the review rules, values, visibility, queue, final state, plan, people,
chain).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from types import ModuleType

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"

#: Module-level tables of those modules that are constants, not memos: (module, name).
CONSTANT_TABLES = {
    ("ai4hse_desk.review.values", "CONCERN_CATEGORY"),
    ("ai4hse_desk.review.queue", "REASONS"),
    ("ai4hse_desk.review.final_state", "FINAL_STATES"),
    ("ai4hse_desk.review.final_state", "_BY_DECISION"),
}


def _script(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # (dataclasses look their module up)
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


def _mutated_modules() -> list[str]:
    groups = _script("mutate_groups").GROUPS
    paths = {path for group in groups for path in group.modules}
    return sorted(
        path.removesuffix(".py").replace("/", ".")
        for path in paths
        if not path.startswith("ai4hse_desk/protocol/")
    )


def test_the_review_groups_mutate_the_review_rules_people_and_chain() -> None:
    assert set(_mutated_modules()) >= {
        "ai4hse_desk.review.rules",
        "ai4hse_desk.review.values",
        "ai4hse_desk.review.visibility",
        "ai4hse_desk.review.queue",
        "ai4hse_desk.review.final_state",
        "ai4hse_desk.review.plan",
        "ai4hse_desk.notes.people",
        "ai4hse_desk.notes.chain",
    }


def test_every_mutable_table_of_a_mutated_module_is_a_listed_memo_or_a_constant() -> None:
    known = {
        id(getattr(importlib.import_module(module), name))
        for module, name in (*_script("mutate_plugin").MEMOS, *CONSTANT_TABLES)
    }
    unlisted = [
        f"{module_name}.{name}"
        for module_name in _mutated_modules()
        for name, value in vars(importlib.import_module(module_name)).items()
        if not name.startswith("__")
        and (isinstance(value, dict | set | list) or hasattr(value, "cache_clear"))
        and id(value) not in known
    ]
    assert unlisted == []
