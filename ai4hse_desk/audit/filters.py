"""Two SQL helpers the review index's attempt query builds on.

The attempt query language itself is the review index's
(:class:`ai4hse_desk.index.AttemptQuery`); these helpers are plain enough to sit
below it, with the audit reader.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any


def normalise_filter_fields(flt: Any) -> None:
    """Freeze a filter dataclass's list fields into tuples; check its ``labels`` pairs.

    Called from ``__post_init__`` of a frozen dataclass such as the review index's
    ``AttemptQuery``, so that a query built from lists is hashable and compares
    equal to one built from tuples.

    Raises:
        ValueError: ``labels`` holds something other than (facet, value) pairs.
    """
    for spec in fields(flt):
        value = getattr(flt, spec.name)
        if isinstance(value, Sequence) and not isinstance(value, str | tuple):
            object.__setattr__(flt, spec.name, tuple(value))
    labels = getattr(flt, "labels", None)
    if labels is not None:
        pairs = tuple(tuple(pair) for pair in labels)
        if any(len(pair) != 2 for pair in pairs):
            raise ValueError("labels must be (facet, value) pairs")
        object.__setattr__(flt, "labels", pairs)


def escape_like(text: str) -> str:
    """Escape ``text`` for ``LIKE … ESCAPE '\\'`` so it matches literally."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


@dataclass(frozen=True, slots=True)
class AttemptFilter:
    """TRANSITIONAL: the run ids ``verdicts/rescore.py`` still wraps for its progress total.

    Remove it once that module calls ``db.count_attempts(runs)`` with the run ids
    themselves (its owner was asked to); nothing else may use it.

    Attributes:
        run_ids: the runs whose attempts are counted; ``None`` for every attempt.
    """

    run_ids: tuple[str, ...] | None = None
