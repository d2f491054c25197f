"""What the review table shows: which attempts (:class:`AttemptQuery`, and its
SQL) and what one line holds (:class:`ListRow`).

SQL text is assembled only from fixed fragments, the sort whitelist
:data:`SORT_COLUMNS` and generated ``?`` placeholders; every user value is a
bound parameter. Short lists (runs, statuses, ...) get one placeholder per value
so the planner sees them; long ones (question ids) travel as one JSON array
expanded with ``json_each``. Conditions are over the index's ``rows`` table.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any, Literal

from ai4hse_desk.index.stored import decode_selection
from ai4hse_desk.protocol.outcome import PARSE_ERRORS, Selection, Status, Track

TextMode = Literal["auto", "fts", "like"]
#: A value of a sort column (text or integer; index columns are never NULL).
SortValue = str | int
#: A position in a sorted listing: (sort value, attempt_id); attempt_id breaks ties.
SortKey = tuple[SortValue, int]

#: Columns :meth:`ReviewIndex.page_keys` can sort by ("ordinal" is the question order).
SORT_COLUMNS: tuple[str, ...] = (
    "attempt_id",
    "ordinal",
    "model",
    "run_id",
    "track",
    "repetition",
    "status",
    "correct",
    "strict",
    "disagrees",
)
#: The parse-error statuses, in protocol order: the "all parse errors" filter.
PARSE_ERROR_STATUSES: tuple[str, ...] = tuple(s.value for s in Status if s in PARSE_ERRORS)
#: ``SELECT`` list (table ``rows``) for :meth:`ListRow.from_row`.
ROW_COLUMNS = (
    "attempt_id, ordinal, question_id, run_id, model, track, repetition, state, status, "
    "correct, strict, disagrees, recorded_status, selection"
)
_TEXT_MODES = ("auto", "fts", "like")
#: Where a search looks (see :mod:`.search`), in this order; a query's default is all three.
SEARCH_SCOPES: tuple[str, ...] = ("responses", "questions", "options")
_PLACEHOLDER_LIMIT = 64


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


@dataclass(frozen=True, slots=True)
class AttemptQuery:
    """Conditions on attempts; every given field must hold (AND).

    A tuple field matches any of its values; ``None`` means "no condition" and
    an empty tuple matches nothing.

    Attributes:
        run_ids, models, tracks, repetitions: allowed values.
        statuses: allowed *desk* statuses (see :data:`PARSE_ERROR_STATUSES`).
        correct: the desk's verdict, ``None`` for either.
        disagreements_only: only attempts where the runner's recorded verdict
            differs from the desk's.
        labels: ``(facet, value)`` pairs; values of one facet are ORed,
            different facets ANDed.
        question_ids: allowed questions.
        flagged_question_ids: questions with a reviewer's flag (an allow-list
            like ``question_ids``; the notes feature fills it).
        excluded_question_ids: questions whose attempts are left out (the window
            leaves a blind reviewer's questions out of a listing that filters or
            sorts by correctness).
        text: search (see :mod:`.search`); ``None`` or blank for none.
        text_mode: ``"auto"`` (full-text index when ready, else ``LIKE``),
            ``"fts"`` (the index must be ready) or ``"like"``.
        text_scope: where ``text`` is looked for, some of :data:`SEARCH_SCOPES`
            (kept in that order; the window's search bar starts with responses only).
    """

    run_ids: tuple[str, ...] | None = None
    models: tuple[str, ...] | None = None
    tracks: tuple[str, ...] | None = None
    repetitions: tuple[int, ...] | None = None
    statuses: tuple[str, ...] | None = None
    correct: bool | None = None
    disagreements_only: bool = False
    labels: tuple[tuple[str, str], ...] | None = None
    question_ids: tuple[str, ...] | None = None
    flagged_question_ids: tuple[str, ...] | None = None
    excluded_question_ids: tuple[str, ...] | None = None
    text: str | None = None
    text_mode: TextMode = "auto"
    text_scope: tuple[str, ...] = SEARCH_SCOPES

    def __post_init__(self) -> None:
        normalise_filter_fields(self)
        if self.text_mode not in _TEXT_MODES:
            raise ValueError(f"text_mode must be one of {_TEXT_MODES}, not {self.text_mode!r}")
        scope = tuple(s for s in SEARCH_SCOPES if s in self.text_scope)
        if not scope or len(scope) != len(set(self.text_scope)):
            raise ValueError(f"text_scope must be some of {SEARCH_SCOPES}, not {self.text_scope!r}")
        object.__setattr__(self, "text_scope", scope)


@dataclass(frozen=True, slots=True)
class ListRow:
    """One line of the review table: an attempt and the desk's verdict on it.

    Attributes:
        ordinal: the question's position in the corpus (the "question" column).
        status: the desk's status; ``recorded_status`` is the runner's.
        disagrees: the runner's recorded verdict differs from the desk's.
        flagged: the question is in the ``flagged`` set given to :meth:`~.query.ReviewIndex.rows`.
        selection: the desk's extracted selection (``None`` when nothing was extracted).
    """

    attempt_id: int
    ordinal: int
    question_id: str
    run_id: str
    model: str
    track: Track
    repetition: int
    state: str
    status: Status
    correct: bool
    strict: bool
    disagrees: bool
    recorded_status: str | None
    flagged: bool = False
    selection: Selection | None = None

    @classmethod
    def from_row(cls, row: Sequence[Any], flagged: bool = False) -> ListRow:
        """Build from a row selected with ``ROW_COLUMNS`` (in its order)."""
        (attempt_id, ordinal, question_id, run_id, model, track, repetition, state, status,
         correct, strict, disagrees, recorded_status, selection) = row  # fmt: skip
        return cls(
            attempt_id=int(attempt_id), ordinal=int(ordinal), question_id=str(question_id),
            run_id=str(run_id), model=str(model), track=Track(track),
            repetition=int(repetition), state=str(state), status=Status(status),
            correct=bool(correct), strict=bool(strict), disagrees=bool(disagrees),
            recorded_status=None if recorded_status is None else str(recorded_status),
            flagged=flagged, selection=decode_selection(selection),
        )  # fmt: skip


def sort_column(name: str) -> str:
    """``name`` if it is in :data:`SORT_COLUMNS` (``ValueError`` otherwise)."""
    if name not in SORT_COLUMNS:
        raise ValueError(f"cannot sort by {name!r} (one of: {', '.join(SORT_COLUMNS)})")
    return name


def in_values(column: str, values: Sequence[Any], params: list[Any]) -> str:
    """``column IN (…)`` for ``values`` (``"0"`` when empty), appending to ``params``."""
    if not values:
        return "0"
    if len(values) <= _PLACEHOLDER_LIMIT:
        params.extend(values)
        return f"{column} IN ({', '.join('?' for _ in values)})"
    params.append(json.dumps(list(values)))
    return f"{column} IN (SELECT value FROM json_each(?))"


def _questions_in(question_ids: Sequence[str], params: list[Any]) -> str:
    inner = in_values("question_id", [str(q) for q in question_ids], params)
    return f"ordinal IN (SELECT ordinal FROM questions WHERE {inner})"


def where_sql(
    query: AttemptQuery | None, text: tuple[str, list[Any]] | None = None
) -> tuple[str, list[Any]]:
    """The ``WHERE`` condition over ``rows`` for ``query`` and its parameters.

    Args:
        text: the condition for ``query.text`` and its parameters, made by
            :class:`~.search.TextSearch` (which needs a connection); ``None``
            when the query has no text.
    """
    if query is None:
        return "1", []
    conds: list[str] = []
    params: list[Any] = []
    for column, allowed, kind in (
        ("run_id", query.run_ids, str),
        ("model", query.models, str),
        ("track", query.tracks, str),
        ("repetition", query.repetitions, int),
        ("status", query.statuses, str),
    ):
        if allowed is not None:
            conds.append(in_values(column, [kind(v) for v in allowed], params))
    if query.correct is not None:
        conds.append("correct = ?")
        params.append(int(query.correct))
    if query.disagreements_only:
        conds.append("disagrees = 1")
    if query.labels is not None:
        conds.extend(_label_conditions(query.labels, params))
    for allowed_questions in (query.question_ids, query.flagged_question_ids):
        if allowed_questions is not None:
            conds.append(_questions_in(allowed_questions, params))
    if query.excluded_question_ids:
        conds.append("NOT " + _questions_in(query.excluded_question_ids, params))
    if text is not None:
        conds.append(text[0])
        params.extend(text[1])
    return (" AND ".join(conds) or "1"), params


def _label_conditions(labels: tuple[tuple[str, str], ...], params: list[Any]) -> list[str]:
    """One condition per facet: the values of a facet ORed, the facets ANDed."""
    by_facet: dict[str, list[str]] = {}
    for facet, value in labels:
        by_facet.setdefault(str(facet), []).append(str(value))
    if not by_facet:
        return ["0"]
    conds = []
    for facet, values in by_facet.items():
        params.append(facet)
        inner = in_values("value", values, params)
        conds.append(
            "ordinal IN (SELECT q.ordinal FROM questions AS q JOIN labels AS l "
            f"ON l.question_id = q.question_id WHERE l.facet = ? AND l.{inner})"
        )
    return conds
