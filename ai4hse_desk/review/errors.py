"""The one exception of the review layer.

Every problem a reviewer can fix — an unknown question, attempt or option, a
bad category or state, a notes store that cannot be opened, a malformed
import file — is a :class:`ReviewError` with a one-line message. It is a
:class:`ValueError`, so callers that only know "bad value" still catch it; the
command line prints it as ``error: <message>`` and exits with status 2.
"""

from __future__ import annotations


class ReviewError(ValueError):
    """A problem with a reviewer's input or notes store, as one user-readable line."""

    def __init__(self, message: str) -> None:
        super().__init__(message.replace("\r", "\\r").replace("\n", "\\n"))
