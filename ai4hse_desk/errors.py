"""The base of every "problem with the input" exception in the desk.

Each layer raises its own one-line exception (``AuditError``, ``ReviewError``,
``WriterError``, ``WriteRefused``, the CLI's ``InputError``); all of them derive
from :class:`InputProblem`, so the command line maps every one of them to
``error: <message>`` and exit status 2 (cli.md) without importing the layers
that define them, and the window shows them as a plain-text message.
"""

from __future__ import annotations

from ai4hse_desk.display.terminal import terminal_safe


def one_line(message: str) -> str:
    """``message`` as one safe line: line breaks, controls and invisible characters
    spelled out (see :func:`~ai4hse_desk.display.terminal.terminal_safe`)."""
    return terminal_safe(message)


class InputProblem(Exception):
    """A problem the user can fix: a file, an argument, a value. ``str()`` is one line."""

    def __init__(self, message: str) -> None:
        super().__init__(one_line(message))


def first_line(exc: BaseException) -> str:
    """The first line of an error's message: the driver's own for a wrapped database
    error (SQLAlchemy's ``orig``), the exception's type when it has no message."""
    orig = getattr(exc, "orig", None)
    shown = orig if isinstance(orig, BaseException) else exc
    lines = str(shown).strip().splitlines()
    return lines[0] if lines else type(shown).__name__
