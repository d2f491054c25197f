"""Errors that headless commands report as one ``error:`` line."""

from __future__ import annotations

import os
import sys
import traceback

from ai4hse_desk.errors import InputProblem, one_line


class InputError(InputProblem):
    """A problem with the user's input: exit status 2, one ``error:`` line, no traceback."""


def report_internal_error(exc: BaseException) -> int:
    """Report an unexpected failure as one ``error:`` line (the traceback only with
    ``AI4HSE_DEBUG`` set); return cli.md's exit status for it, 1."""
    if os.environ.get("AI4HSE_DEBUG"):
        traceback.print_exception(exc)
    sys.stderr.write(f"error: internal error: {type(exc).__name__}: {one_line(str(exc))}\n")
    return 1
