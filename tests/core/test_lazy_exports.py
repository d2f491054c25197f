"""The index, audit and protocol packages give their public names on first use.

Each package lists its names twice: as ``TYPE_CHECKING`` imports for the type checker
and in the table its ``__getattr__`` loads from. Both lists must agree with ``__all__``
and give the very objects of the modules named; and a reader of one module of a
package must not be made to import the rest (the window's first rows, a headless read).
"""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGES = ("ai4hse_desk.index", "ai4hse_desk.audit", "ai4hse_desk.protocol")


def _typing_imports(package: str) -> dict[str, str]:
    """name → module, as the package's ``if TYPE_CHECKING:`` block imports them."""
    module = importlib.import_module(package)
    tree = ast.parse(Path(str(module.__file__)).read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom)
                for alias in statement.names:
                    found[alias.asname or alias.name] = str(statement.module)
    return found


@pytest.mark.parametrize("package", PACKAGES)
def test_every_public_name_is_the_object_of_the_module_the_type_checker_reads(
    package: str,
) -> None:
    imports = _typing_imports(package)
    module = importlib.import_module(package)
    assert sorted(imports) == sorted(module.__all__)
    for name, source in imports.items():
        assert getattr(module, name) is getattr(importlib.import_module(source), name), name
    assert set(module.__all__) <= set(dir(module))


@pytest.mark.parametrize("package", PACKAGES)
def test_an_unknown_name_is_an_attribute_error(package: str) -> None:
    module = importlib.import_module(package)
    with pytest.raises(AttributeError, match="no attribute 'not_a_name'"):
        module.not_a_name  # noqa: B018 - the look-up is the test


_LOADED = """
import importlib, json, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
print(json.dumps(sorted(sys.modules)))
"""


def _loaded_after(*modules: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", _LOADED, *modules], capture_output=True, text=True, check=True
    )
    loaded: list[str] = json.loads(done.stdout)
    return set(loaded)


def test_reading_the_review_index_loads_neither_the_rules_nor_the_build() -> None:
    """What the window's first rows need: the index's queries and the audit reader."""
    loaded = _loaded_after("ai4hse_desk.index.query", "ai4hse_desk.index.session")
    assert "ai4hse_desk.audit.queries" in loaded  # (the check can see what it looks for)
    assert not loaded & {
        "ai4hse_desk.index.build",
        "ai4hse_desk.index.build_rows",
        "ai4hse_desk.protocol.extract",
        "ai4hse_desk.protocol.single_choice",
        "ai4hse_desk.verdicts.verdict_loop",
    }


def test_the_protocols_statuses_come_without_its_rules() -> None:
    loaded = _loaded_after("ai4hse_desk.protocol.outcome")
    assert "ai4hse_desk.protocol.outcome" in loaded
    assert not {name for name in loaded if name.startswith("ai4hse_desk.protocol.")} - {
        "ai4hse_desk.protocol.outcome"
    }
