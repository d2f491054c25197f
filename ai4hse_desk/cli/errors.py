"""Errors that headless commands report as one ``error:`` line."""

from __future__ import annotations


class InputError(Exception):
    """A problem with the user's input: exit status 2, one ``error:`` line, no traceback."""
