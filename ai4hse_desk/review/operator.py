"""Who is at the desk when no name was given: the operating-system user, as a person's name.

A plan records who made it (``created_by``). The CLI's ``review plan --created-by
NAME`` names that person; without it, and in a window that knows no name yet, the
operating-system user name is taken — never the plan's first reviewer.
"""

from __future__ import annotations

import getpass
from typing import Final

from ai4hse_desk.notes.errors import ReviewError
from ai4hse_desk.notes.people import clean_reviewer

#: Recorded when the operating system gives no usable user name.
UNKNOWN_OPERATOR: Final = "unknown"


def operator_name() -> str:
    """The operating-system user name, cleaned as a reviewer's name is
    (:func:`~ai4hse_desk.notes.people.clean_reviewer`); :data:`UNKNOWN_OPERATOR` when
    there is none or it is not usable as a name."""
    try:
        name = getpass.getuser()
    except (OSError, KeyError, ImportError):  # no LOGNAME/USER and no password entry
        return UNKNOWN_OPERATOR
    try:
        return clean_reviewer(name)
    except ReviewError:
        return UNKNOWN_OPERATOR
