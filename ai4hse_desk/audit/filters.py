"""Which attempts to show: :class:`AttemptFilter` and its translation into SQL.

All SQL text built here comes from fixed fragments and the whitelist
:data:`ATTEMPT_FIELDS`; every user-supplied value travels as a bound parameter.
Lists of values are bound as *one* JSON array and expanded with ``json_each``,
so an allow-list of 100,000 attempt ids neither hits SQLite's variable limit nor
writes a temporary table into the audit file.

Filters on runs, labels and question text are ``IN (subquery)`` conditions on
``attempts`` columns, so a filtered count needs no join; a join with ``runs`` or
``questions`` is added only to sort or group by one of their columns.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any

#: A value of a sort column: whatever SQLite stored (text, integer, real or NULL).
SortValue = str | int | float | None
#: A position in a sorted listing: (sort value, attempt_id); attempt_id breaks ties.
SortKey = tuple[SortValue, int]


def normalise_filter_fields(flt: Any) -> None:
    """Freeze a filter dataclass's list fields into tuples; check its ``labels`` pairs.

    Shared by :class:`AttemptFilter` and the review index's ``AttemptQuery``.

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
class Field:
    """A whitelisted attempt column usable for sorting and grouping.

    Attributes:
        expr: the SQL expression (over ``attempts AS a``, ``runs AS r``,
            ``questions AS q``).
        join: the extra join the expression needs, or ``""``.
        nullable: whether the column may hold NULL (changes keyset predicates).
    """

    expr: str
    join: str = ""
    nullable: bool = False


_RUNS = "JOIN runs AS r ON r.run_id = a.run_id"
_QUESTIONS = "JOIN questions AS q ON q.question_id = a.question_id"

#: Whitelist of sort/group columns (names are public; SQL is never user text).
ATTEMPT_FIELDS: Mapping[str, Field] = {
    "attempt_id": Field("a.attempt_id"),
    "ordinal": Field("q.ordinal", _QUESTIONS),
    "question_id": Field("a.question_id"),
    "run_id": Field("a.run_id"),
    "model": Field("r.model", _RUNS),
    "track": Field("r.track", _RUNS),
    "repetition": Field("a.repetition"),
    "state": Field("a.state"),
    "parse_status": Field("a.parse_status", nullable=True),
    "finish_reason": Field("a.finish_reason", nullable=True),
    "strict_format": Field("a.strict_format", nullable=True),
    "correct": Field("a.correct", nullable=True),
    "latency_ms": Field("a.latency_ms", nullable=True),
}


@dataclass(frozen=True, slots=True)
class AttemptFilter:
    """Conditions on attempts; every field is optional and all given fields are ANDed.

    A tuple field matches any of its values; ``None`` means "no condition" while an
    empty tuple matches nothing (an empty allow-list).

    Attributes:
        run_ids, models, tracks, repetitions, states, question_ids: allowed values.
        recorded_statuses: allowed recorded ``parse_status`` values; ``None`` inside
            the tuple matches attempts without one (e.g. pending attempts).
        labels: ``(facet, value)`` pairs; values of the same facet are ORed,
            different facets ANDed.
        correct: the runner's recorded ``correct`` verdict.
        attempt_ids: explicit allow-list (e.g. from a verdict cache).
        text: case-insensitive (ASCII) substring of the raw response or of the
            question text; ``%``, ``_`` and ``\\`` match literally. ``""`` = no condition.
    """

    run_ids: tuple[str, ...] | None = None
    models: tuple[str, ...] | None = None
    tracks: tuple[str, ...] | None = None
    repetitions: tuple[int, ...] | None = None
    states: tuple[str, ...] | None = None
    recorded_statuses: tuple[str | None, ...] | None = None
    question_ids: tuple[str, ...] | None = None
    labels: tuple[tuple[str, str], ...] | None = None
    correct: bool | None = None
    attempt_ids: tuple[int, ...] | None = None
    text: str | None = None

    def __post_init__(self) -> None:
        normalise_filter_fields(self)


def escape_like(text: str) -> str:
    """Escape ``text`` for ``LIKE … ESCAPE '\\'`` so it matches literally."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def where_sql(flt: AttemptFilter | None) -> tuple[str, dict[str, Any]]:
    """The ``WHERE`` condition over ``attempts AS a`` for ``flt``, and its parameters."""
    if flt is None:
        return "1", {}
    conds: list[str] = []
    params: dict[str, Any] = {}

    def bind(value: Any) -> str:
        name = f"f{len(params)}"
        params[name] = value
        return f":{name}"

    def each(values: Sequence[Any]) -> str:
        return f"(SELECT value FROM json_each({bind(json.dumps(list(values)))}))"

    def run_subset(column: str, values: Sequence[str]) -> str:
        return f"a.run_id IN (SELECT run_id FROM runs WHERE {column} IN {each(values)})"

    if flt.run_ids is not None:
        conds.append(f"a.run_id IN {each(flt.run_ids)}")
    if flt.models is not None:
        conds.append(run_subset("model", flt.models))
    if flt.tracks is not None:
        conds.append(run_subset("track", [str(track) for track in flt.tracks]))
    if flt.repetitions is not None:
        conds.append(f"a.repetition IN {each([int(rep) for rep in flt.repetitions])}")
    if flt.states is not None:
        conds.append(f"a.state IN {each(flt.states)}")
    if flt.recorded_statuses is not None:
        named = [status for status in flt.recorded_statuses if status is not None]
        cond = f"a.parse_status IN {each(named)}"
        if None in flt.recorded_statuses:
            cond = f"({cond} OR a.parse_status IS NULL)"
        conds.append(cond)
    if flt.question_ids is not None:
        conds.append(f"a.question_id IN {each(flt.question_ids)}")
    if flt.labels is not None:
        by_facet: dict[str, list[str]] = {}
        for facet, value in flt.labels:
            by_facet.setdefault(facet, []).append(value)
        if not by_facet:
            conds.append("0")
        for facet, values in by_facet.items():
            conds.append(
                "a.question_id IN (SELECT question_id FROM question_labels "
                f"WHERE facet = {bind(facet)} AND value IN {each(values)})"
            )
    if flt.correct is not None:
        conds.append(f"a.correct = {bind(int(flt.correct))}")
    if flt.attempt_ids is not None:
        conds.append(f"a.attempt_id IN {each([int(i) for i in flt.attempt_ids])}")
    if flt.text:
        pattern = bind(f"%{escape_like(flt.text)}%")
        conds.append(
            f"(a.raw_response LIKE {pattern} ESCAPE '\\' OR a.question_id IN "
            f"(SELECT question_id FROM questions WHERE text LIKE {pattern} ESCAPE '\\'))"
        )
    return (" AND ".join(conds) or "1"), params


def field_for(name: str) -> Field:
    """The whitelisted :class:`Field` called ``name`` (``ValueError`` otherwise)."""
    try:
        return ATTEMPT_FIELDS[name]
    except KeyError:
        known = ", ".join(ATTEMPT_FIELDS)
        raise ValueError(f"unknown attempt column {name!r} (one of: {known})") from None


def _after_sql(spec: Field, descending: bool, after: SortKey) -> tuple[str, dict[str, Any]]:
    """Keyset predicate: rows strictly after ``after`` in the listing's order.

    SQLite sorts NULL first ascending and last descending; row values
    ``(x, id) > (:v, :id)`` keep the predicate index-friendly.
    """
    value, last_id = after
    params: dict[str, Any] = {"k_id": int(last_id)}
    x = spec.expr
    if spec.expr == "a.attempt_id":
        return ("a.attempt_id < :k_id" if descending else "a.attempt_id > :k_id"), params
    if value is None:
        if not spec.nullable:
            raise ValueError(f"sort key value must not be None for {x}")
        if descending:
            return f"({x} IS NULL AND a.attempt_id < :k_id)", params
        return f"(({x} IS NULL AND a.attempt_id > :k_id) OR {x} IS NOT NULL)", params
    params["k_value"] = value
    if descending:
        cond = f"({x}, a.attempt_id) < (:k_value, :k_id)"
        return (f"({cond} OR {x} IS NULL)" if spec.nullable else cond), params
    return f"({x}, a.attempt_id) > (:k_value, :k_id)", params


def keys_sql(
    flt: AttemptFilter | None,
    sort: str,
    descending: bool,
    after: SortKey | None,
    limit: int,
) -> tuple[str, dict[str, Any]]:
    """SQL and parameters for one page of sort keys (see ``AuditDB.attempt_keys``)."""
    if limit < 1:
        raise ValueError(f"limit must be positive, not {limit}")
    spec = field_for(sort)
    where, params = where_sql(flt)
    if after is not None:
        predicate, keyset_params = _after_sql(spec, descending, after)
        where = f"{where} AND {predicate}"
        params.update(keyset_params)
    direction = "DESC" if descending else "ASC"
    order = f"a.attempt_id {direction}"
    if spec.expr != "a.attempt_id":
        order = f"{spec.expr} {direction}, {order}"
    params["limit"] = int(limit)
    sql = (
        f"SELECT {spec.expr}, a.attempt_id FROM attempts AS a {spec.join} "
        f"WHERE {where} ORDER BY {order} LIMIT :limit"
    )
    return sql, params


def count_by_sql(flt: AttemptFilter | None, column: str) -> tuple[str, dict[str, Any]]:
    """SQL and parameters counting filtered attempts per value of ``column``."""
    spec = field_for(column)
    where, params = where_sql(flt)
    sql = (
        f"SELECT {spec.expr}, count(*) FROM attempts AS a {spec.join} "
        f"WHERE {where} GROUP BY {spec.expr} ORDER BY {spec.expr}"
    )
    return sql, params
