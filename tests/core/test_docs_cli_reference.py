"""The command-line reference is rendered from the parsers: every command, every option.

``docs/hooks/cli_reference.py`` is the MkDocs hook that writes ``docs/reference/cli.md``'s
body at build time; here it is loaded by path and its output is held against the parsers
themselves, walked independently of the hook.
"""

from __future__ import annotations

import argparse
import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

from ai4hse_desk.cli import HEADLESS_COMMANDS
from ai4hse_desk.cli.main import build_parser
from ai4hse_desk.gui.app import window_parser

ROOT = Path(__file__).resolve().parents[2]
HOOK = ROOT / "docs" / "hooks" / "cli_reference.py"
PAGE = ROOT / "docs" / "reference" / "cli.md"


def _load_hook() -> ModuleType:
    spec = importlib.util.spec_from_file_location("cli_reference_hook", HOOK)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def hook() -> ModuleType:
    return _load_hook()


@pytest.fixture(scope="module")
def reference(hook: ModuleType) -> str:
    text = hook.render_reference()
    assert isinstance(text, str)
    return text


def _commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...]
) -> list[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found.append(((*path, name), sub))
                found.extend(_commands(sub, (*path, name)))
    return found


def _sections(reference: str) -> dict[str, str]:
    """Each heading's text → the body up to the next heading."""
    sections: dict[str, str] = {}
    current = ""
    for line in reference.splitlines():
        if line.startswith("#") and not line.startswith("#!"):
            current = line.lstrip("#").strip()
            sections[current] = ""
        else:
            sections[current] = sections.get(current, "") + line + "\n"
    return sections


COMMANDS = _commands(build_parser(), ("ai4hse-desk",))


def test_the_parser_has_the_commands_the_launcher_sends_to_it() -> None:
    top = {path[1] for path, _ in COMMANDS if len(path) == 2}
    assert top == set(HEADLESS_COMMANDS)
    assert any(len(path) == 3 for path, _ in COMMANDS), "sub-commands such as review verdict"


@pytest.mark.parametrize("path", [path for path, _ in COMMANDS], ids=" ".join)
def test_every_command_and_sub_command_has_its_section(
    reference: str, path: tuple[str, ...]
) -> None:
    assert " ".join(path) in _sections(reference)


@pytest.mark.parametrize(("path", "parser"), COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_every_argument_of_a_command_is_in_its_section(
    reference: str, path: tuple[str, ...], parser: argparse.ArgumentParser
) -> None:
    body = _sections(reference)[" ".join(path)]
    assert f"usage: {parser.prog}" in body
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):
            continue
        assert not isinstance(action.metavar, tuple)  # one name per argument
        names = action.option_strings or [action.metavar or action.dest.upper()]
        for name in names:
            assert f"`{name}" in body, f"{name} of {' '.join(path)} is not documented"


def test_the_window_options_are_in_the_reference(reference: str) -> None:
    body = _sections(reference)["The window"]
    options = [
        option
        for action in window_parser()._actions
        if not isinstance(action, argparse._HelpAction)
        for option in action.option_strings
    ]
    assert "--screenshot" in options
    for option in (*options, "AUDIT_DB"):
        assert f"`{option}" in body


def test_help_text_is_not_read_as_markup(hook: ModuleType) -> None:
    text = hook._text("a *b* [c](d) <e> under_score | f")
    assert "*b*" not in text
    assert "<e>" not in text
    assert "\\|" in text


def test_the_page_gets_the_reference_in_place_of_its_marker(hook: ModuleType) -> None:
    source = PAGE.read_text(encoding="utf-8")
    page = SimpleNamespace(file=SimpleNamespace(src_uri="reference/cli.md"))
    built = hook.on_page_markdown(source, page=page, config=None, files=None)
    assert hook.MARKER in source
    assert hook.MARKER not in built
    assert "### ai4hse-desk review" in built
    other = SimpleNamespace(file=SimpleNamespace(src_uri="guide/review.md"))
    assert hook.on_page_markdown(source, page=other, config=None, files=None) == source


def test_a_page_that_lost_its_marker_fails_the_build(hook: ModuleType) -> None:
    from mkdocs.exceptions import PluginError

    page = SimpleNamespace(file=SimpleNamespace(src_uri="reference/cli.md"))
    with pytest.raises(PluginError, match="marker"):
        hook.on_page_markdown("# Command line\n", page=page, config=None, files=None)


def test_the_reference_is_rendered_without_qt(tmp_path: Path) -> None:
    script = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('hook', {str(HOOK)!r})\n"
        "hook = importlib.util.module_from_spec(spec); spec.loader.exec_module(hook)\n"
        "assert 'ai4hse-desk review verdict' in hook.render_reference()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('PySide6', 'shiboken6', 'pyqtgraph')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"
