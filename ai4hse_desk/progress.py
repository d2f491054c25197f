"""The one progress callback type of every long operation (rescore, index builds, key audit).

A :data:`Progress` is called every few thousand items with (items done, items in
total) and returns False to cancel; the operation then raises its own
"cancelled" exception and leaves nothing half-written behind.
"""

from __future__ import annotations

from collections.abc import Callable

#: ``progress(done, total) -> keep going?``
Progress = Callable[[int, int], bool]
