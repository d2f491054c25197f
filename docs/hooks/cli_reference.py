"""MkDocs hook: the command-line reference, rendered from the argparse parsers at build time.

``docs/reference/cli.md`` holds a short introduction and the marker
``<!-- cli-reference -->``; :func:`on_page_markdown` replaces the marker with every command
and sub-command of ``ai4hse-desk`` (usage, description, arguments with their help), read
from :func:`ai4hse_desk.cli.main.build_parser` (the headless commands) and
:func:`ai4hse_desk.gui.app.window_parser` (the window's own options). Neither imports Qt,
and :func:`render_reference` fails the build if Qt was loaded all the same.
"""

from __future__ import annotations

import argparse
import html
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterator

MARKER = "<!-- cli-reference -->"
PAGE = "reference/cli.md"
#: Width of the rendered usage lines (argparse would take the terminal's).
USAGE_WIDTH = 88
_QT_MODULES = ("PySide6", "shiboken6", "pyqtgraph")


def on_page_markdown(markdown: str, page: Any, **_: Any) -> str:
    """MkDocs event: put the reference in place of :data:`MARKER` on :data:`PAGE`."""
    if page.file.src_uri != PAGE:
        return markdown
    if MARKER not in markdown:
        from mkdocs.exceptions import PluginError

        raise PluginError(f"{PAGE} has lost its marker {MARKER!r}: the reference has no place")
    return markdown.replace(MARKER, render_reference())


def render_reference() -> str:
    """The whole reference as Markdown: the window's options, then every headless command."""
    before = set(sys.modules)
    from ai4hse_desk.cli.main import build_parser
    from ai4hse_desk.gui.app import window_parser

    loaded = sorted(m for m in set(sys.modules) - before if m.split(".")[0] in _QT_MODULES)
    if loaded:
        raise RuntimeError(f"the CLI reference loaded {', '.join(loaded)}: it must not need Qt")
    window = window_parser()
    headless = build_parser()
    parts = [
        "## The window\n",
        "`ai4hse-desk` without a command opens the window; these are its own options "
        "(Qt's standard ones, such as `-style Fusion` or `-reverse`, are handed to Qt).\n",
        _usage(window),
        _arguments_table(window),
        "## Headless commands\n",
        _text(headless.description or "") + "\n",
        _usage(headless),
        _arguments_table(headless),
    ]
    for path, parser, summary in walk_commands(headless):
        level = "#" * min(len(path) + 1, 6)
        parts.append(f"{level} {' '.join(path)}\n")
        about = parser.description or (_sentence(summary) if summary else "")
        if about:
            parts.append(_text(about) + "\n")
        parts.append(_usage(parser))
        parts.append(_arguments_table(parser))
        if parser.epilog:
            parts.append(_text(parser.epilog) + "\n")
    return "\n".join(parts)


def walk_commands(
    parser: argparse.ArgumentParser, path: tuple[str, ...] | None = None
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser, str]]:
    """Every sub-command below ``parser``, depth first in help order: (path, parser, help).

    A path starts with the program's name: ``("ai4hse-desk", "review", "verdict")``.
    """
    path = (parser.prog,) if path is None else path
    for action in parser._actions:
        if not isinstance(action, argparse._SubParsersAction):
            continue
        helps = {choice.dest: choice.help or "" for choice in action._choices_actions}
        for name, sub in action.choices.items():
            if name not in helps:  # an alias: listed under its command's name
                continue
            yield (*path, name), sub, helps[name]
            yield from walk_commands(sub, (*path, name))


def _usage(parser: argparse.ArgumentParser) -> str:
    formatter = argparse.HelpFormatter(parser.prog, width=USAGE_WIDTH)
    formatter.add_usage(parser.usage, parser._actions, parser._mutually_exclusive_groups)
    return "```text\n" + formatter.format_help().strip() + "\n```\n"


def _arguments_table(parser: argparse.ArgumentParser) -> str:
    rows = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction) or action.help == argparse.SUPPRESS:
            continue
        rows.append(f"| {_names(action)} | {_cell(_description(parser, action))} |")
    if not rows:
        return ""
    return "| argument | meaning |\n| --- | --- |\n" + "\n".join(rows) + "\n"


def _names(action: argparse.Action) -> str:
    if isinstance(action, argparse._SubParsersAction):
        return f"`{_metavar(action, 'COMMAND')}`"
    if not action.option_strings:
        return f"`{_metavar(action, action.dest.upper())}`"
    value = ""
    if action.nargs != 0:
        default = action.dest.upper()
        if action.metavar is None and action.choices is not None:
            default = "{" + ",".join(map(str, action.choices)) + "}"
        value = " " + _metavar(action, default)
    return ", ".join(f"`{option}{value}`" for option in action.option_strings)


def _metavar(action: argparse.Action, default: str) -> str:
    metavar = action.metavar
    if metavar is None:
        return default
    return metavar if isinstance(metavar, str) else " ".join(metavar)


def _description(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    if isinstance(action, argparse._SubParsersAction):
        names = [choice.dest for choice in action._choices_actions]
        return "one of: " + ", ".join(names) + " (each below)"
    text = ""
    if action.help:
        text = argparse.HelpFormatter(parser.prog)._expand_help(action)
    extras = []
    if action.required and action.option_strings:
        extras.append("required")
    if action.choices is not None and not isinstance(action.choices, dict):
        listed = ", ".join(str(choice) for choice in action.choices)
        if listed not in text:
            extras.append(f"one of {listed}")
    default = action.default
    if (
        action.option_strings
        and action.nargs != 0
        and default not in (None, argparse.SUPPRESS, "", [], ())
        and "default" not in text
    ):
        extras.append(f"default {_default(default)}")
    for group in parser._mutually_exclusive_groups:
        if action in group._group_actions:
            others = [
                other.option_strings[0]
                for other in group._group_actions
                if other is not action and other.option_strings
            ]
            need = "one of" if group.required else "at most one of"
            extras.append(f"{need} this and {', '.join(others)}")
    if extras:
        text = "; ".join([text, *extras] if text else extras)
    return text


def _default(value: object) -> str:
    if isinstance(value, tuple) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return f"{value[0]}x{value[1]}"  # a WxH size
    return str(value)


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", ")")) else ".")


def _text(text: str) -> str:
    """Plain help text as Markdown: nothing in it is read as markup."""
    escaped = html.escape(text, quote=False)
    for char in "\\`*_[]|#":
        escaped = escaped.replace(char, "\\" + char)
    return escaped


def _cell(text: str) -> str:
    return _text(" ".join(text.split()))
