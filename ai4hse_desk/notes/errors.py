"""The one exception of the notes layer.

Every problem a reviewer can fix — an unknown question, attempt or option, a
bad category or state, a notes store that cannot be opened, a malformed
import file — is a :class:`ReviewError` with a one-line message. It is a
:class:`ValueError`, so callers that only know "bad value" still catch it; the
command line prints it as ``error: <message>`` and exits with status 2.
"""

from __future__ import annotations

from ai4hse_desk.errors import InputProblem


class ReviewError(InputProblem, ValueError):
    """A problem with a reviewer's input or notes store, as one user-readable line."""
