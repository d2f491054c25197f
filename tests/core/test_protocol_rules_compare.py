"""The runner's recorded verdict against the desk's (cli.md), one rule per test (issue 36)."""

from __future__ import annotations

import pytest

from ai4hse_desk.protocol.compare import differences, disagrees
from ai4hse_desk.protocol.outcome import Status

DESK = (Status.VALID, (True, False), True, True)


@pytest.mark.parametrize(
    ("recorded", "shown"),
    [
        ("x" * 60, "x" * 60),
        ("y" * 61, "y" * 59 + "…"),
        ("[true, " + "z" * 100, "[true, " + "z" * 52 + "…"),
    ],
)
def test_recorded_text_that_is_no_selection_is_quoted_up_to_60_characters(
    recorded: str, shown: str
) -> None:
    assert disagrees(*DESK, "valid", recorded, 1, 1) is True
    assert differences(*DESK, "valid", recorded, 1, 1) == [
        f"extracted: runner {shown!r} is not a JSON array of booleans, desk [true, false]"
    ]
