"""The schema's value rules, one per column the desk reads, as SQL that can be checked.

``audit-db-v1.sql`` declares types, ``NOT NULL`` and ``CHECK`` constraints, but an
SQLite file does not have to keep them: a column declared ``INTEGER`` still
stores the text ``'x'`` or the real ``1.5``; ``PRAGMA ignore_check_constraints``
lets ``key = 2`` in; a table made without the declarations (the "untyped
schema") accepts anything. The desk therefore checks the *values* it reads.

Each :class:`Rule` is an SQL expression over one column that is true for an
allowed value and never ``NULL`` (so ``NOT (r1 AND r2 …)`` finds exactly the bad
rows), with the words for the message. The rules are written here once, in SQL, and
SQLite alone evaluates them. :data:`TABLE_RULES` lists them per table
in the order of ``audit-db-v1.sql``; :func:`bad_rows_sql` builds the one query
per table that finds the first bad rows in a single scan.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NamedTuple

from ai4hse_desk.protocol.outcome import Track

if TYPE_CHECKING:
    from collections.abc import Mapping

#: The attempt states of the schema (``attempts.state``).
STATES: Final = ("answered", "provider_error", "pending")
#: The run statuses of the schema (``runs.status``).
RUN_STATUSES: Final = ("complete", "unfinished")


class Rule(NamedTuple):
    """One column's rule: ``holds`` is true (never NULL) for every allowed value."""

    column: str
    holds: str
    expected: str


def _quoted(values: tuple[str, ...]) -> str:
    return ", ".join(f"'{value}'" for value in values)


def _is_text(column: str) -> str:
    """True exactly for a text value (NULL for NULL), with no function call per row.

    SQLite orders NULL < numbers < text < blobs, whatever the column's affinity
    (``''`` and ``x''`` stay text and a blob under any affinity, and the explicit
    ``COLLATE BINARY`` sets the collation), so a value at least ``''`` and below
    the smallest blob is text: ``typeof(column) = 'text'`` evaluated about a
    fifth faster on a million attempts.
    """
    return f"({column} >= '' COLLATE BINARY AND {column} < x'')"


def text(column: str) -> Rule:
    """Text, not NULL."""
    return Rule(column, f"({column} IS NOT NULL AND {_is_text(column)})", "text")


def text_or_null(column: str) -> Rule:
    """Text or NULL."""
    holds = f"({column} IS NULL OR {_is_text(column)})"
    return Rule(column, holds, "text or NULL")


def whole(column: str, minimum: int | None = None) -> Rule:
    """An integer (at least ``minimum``), not NULL."""
    holds = f"typeof({column}) = 'integer'"
    expected = "a whole number"
    if minimum is not None:
        holds += f" AND {column} >= {minimum}"
        expected += f" of at least {minimum}"
    return Rule(column, holds, expected)


def whole_or_null(column: str) -> Rule:
    """An integer or NULL."""
    holds = f"typeof({column}) IN ('integer', 'null')"
    return Rule(column, holds, "a whole number or NULL")


def flag(column: str, nullable: bool) -> Rule:
    """0 or 1 (or NULL when ``nullable``)."""
    holds = f"(typeof({column}) = 'integer' AND {column} IN (0, 1))"
    if nullable:
        return Rule(column, f"({column} IS NULL OR {holds})", "0, 1 or NULL")
    return Rule(column, holds, "0 or 1")


def number_or_null(column: str) -> Rule:
    """A finite number or NULL."""
    holds = (
        f"(typeof({column}) = 'null' OR (typeof({column}) IN ('integer', 'real') "
        f"AND {column} BETWEEN -1e308 AND 1e308))"
    )
    return Rule(column, holds, "a finite number or NULL")


def one_of(column: str, values: tuple[str, ...]) -> Rule:
    """One of ``values`` (text)."""
    holds = f"(typeof({column}) = 'text' AND {column} IN ({_quoted(values)}))"
    expected = "one of " + ", ".join(values)
    return Rule(column, holds, expected)


#: Per table: an SQL label naming the row in messages, and the rules of its columns.
TABLE_RULES: Mapping[str, tuple[str, tuple[Rule, ...]]] = {
    "audit_meta": ("'key ' || quote(key)", (text("key"), text("value"))),
    "questions": (
        "'question ' || quote(question_id)",
        (text("question_id"), whole("ordinal"), text("text")),
    ),
    "question_labels": (
        "'label ' || quote(facet) || ' of question ' || quote(question_id)",
        (text("question_id"), text("facet"), text("value")),
    ),
    "options": (
        "'option ' || quote(position) || ' of question ' || quote(question_id)",
        (text("question_id"), whole("position", 0), text("text"), flag("key", False)),
    ),
    "runs": (
        "'run ' || quote(run_id)",
        (
            text("run_id"),
            text("model"),
            text_or_null("provider"),
            text_or_null("provider_routing"),
            one_of("track", tuple(track.value for track in Track)),
            whole("protocol_version", 1),
            whole("repetitions", 1),
            whole_or_null("max_tokens"),
            number_or_null("temperature"),
            text_or_null("reasoning_effort"),
            whole_or_null("concurrency"),
            one_of("status", RUN_STATUSES),
            text_or_null("prompt_template"),
            text_or_null("started_at"),
            text_or_null("finished_at"),
        ),
    ),
    "attempts": (
        "'attempt ' || quote(attempt_id)",
        (
            whole("attempt_id"),
            text("run_id"),
            text("question_id"),
            whole("repetition", 1),
            one_of("state", STATES),
            text_or_null("raw_response"),
            text_or_null("finish_reason"),
            text_or_null("error"),
            text_or_null("parse_status"),
            text_or_null("extracted"),
            flag("strict_format", True),
            flag("correct", True),
            whole_or_null("prompt_tokens"),
            whole_or_null("completion_tokens"),
            whole_or_null("reasoning_tokens"),
            whole_or_null("latency_ms"),
            text_or_null("created_at"),
        ),
    ),
}

#: Characters of a bad value shown in a message (a bad value can be megabytes).
SHOWN_VALUE_LENGTH: Final = 40


def bad_rows_sql(table: str, limit: int) -> str:
    """``SELECT label, (value, ok) per rule FROM table WHERE a rule fails LIMIT limit``.

    The value columns are ``quote()``-d and cut to :data:`SHOWN_VALUE_LENGTH`
    characters; they are computed only for the rows that fail.
    """
    label, rules = TABLE_RULES[table]
    shown = ", ".join(
        f"substr(quote({rule.column}), 1, {SHOWN_VALUE_LENGTH + 1}), ({rule.holds})"
        for rule in rules
    )
    every = " AND ".join(f"({rule.holds})" for rule in rules)
    return f"SELECT {label}, {shown} FROM {table} WHERE NOT ({every}) LIMIT {limit}"
