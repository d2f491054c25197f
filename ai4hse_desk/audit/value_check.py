"""Checking the values of an audit database before anything is scored.

Three kinds of check, all in SQL and each a single pass (or an index walk):

* :func:`check_structure` — the tables the desk reads are real tables (not views,
  whose rows could change between two reads of the same bytes, nor virtual
  tables), without generated columns (computed when read);
* :func:`check_tables` — every row of the small tables (``audit_meta``,
  ``questions``, ``question_labels``, ``options``, ``runs``) against
  :data:`~.value_rules.TABLE_RULES`, plus what no single row shows: unique ids,
  unique ordinals, option positions ``0..n-1`` without gaps or repeats, labels and
  options of known questions. Cheap: it runs on every open;
* :func:`check_attempts` — every attempt row against its rules (one scan of the
  table, the costly one, run beside the first scan of the file and recorded in the
  cache once passed: see :meth:`~.queries.AuditDB.check_attempts`), then
  :func:`check_attempt_links`: attempts of known runs and questions, repetitions
  ``1..R`` of their run, unique ``attempt_id`` and unique run × question ×
  repetition (skipped where a real ``UNIQUE``/``PRIMARY KEY`` index guarantees it).

Each raises :class:`AuditError` naming the first problems (at most three) in one
line: ``attempts: attempt 17: repetition is 'x' (must be a whole number of at
least 1)``. A file that fails is never scored.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from typing import TYPE_CHECKING, Final

from ai4hse_desk.audit.errors import AuditError
from ai4hse_desk.audit.value_rules import SHOWN_VALUE_LENGTH, TABLE_RULES, bad_rows_sql

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping
    from pathlib import Path

#: Problems named in one message.
SHOWN_PROBLEMS: Final = 3
_SMALL_TABLES: Final = ("audit_meta", "questions", "question_labels", "options", "runs")


def lenient_text(data: bytes) -> str:
    """Decode text for checks and messages even when it is not valid UTF-8."""
    return data.decode("utf-8", "backslashreplace")


def _refuse(path: Path, problems: Iterable[str]) -> None:
    found = list(problems)
    if found:
        raise AuditError(f"{path}: values break the audit schema: {'; '.join(found)}", path)


def check_structure(conn: sqlite3.Connection, path: Path, tables: Iterable[str]) -> None:
    """Refuse views, virtual tables and generated columns among ``tables``."""
    for table in tables:
        row = conn.execute(
            "SELECT type, sql FROM sqlite_master WHERE lower(name) = ? AND type IN "
            "('table', 'view') ORDER BY type = 'table' LIMIT 1",
            (table,),
        ).fetchone()
        kind, sql = (row[0], str(row[1] or "")) if row else ("table", "")
        if kind == "view":
            raise AuditError(
                f"{path}: {table!r} is a view, not a table; its rows could change between "
                "two reads of the same file, so the desk refuses it",
                path,
            )
        if sql.lstrip().upper().startswith("CREATE VIRTUAL"):
            raise AuditError(f"{path}: {table!r} is a virtual table, not a table", path)
        generated = [
            str(name)
            for name, hidden in conn.execute(
                "SELECT name, hidden FROM pragma_table_xinfo(?)", (table,)
            )
            if hidden in (2, 3)
        ]
        if generated:
            raise AuditError(
                f"{path}: table {table!r} has generated columns ({', '.join(generated)}), "
                "computed when read; the desk refuses them",
                path,
            )


def _shown(value: object) -> str:
    text = str(value)
    return text if len(text) <= SHOWN_VALUE_LENGTH else text[:SHOWN_VALUE_LENGTH] + "…"


def bad_values(conn: sqlite3.Connection, table: str) -> list[str]:
    """The first rows of ``table`` that break a value rule, one phrase each."""
    _, rules = TABLE_RULES[table]
    found = []
    for row in conn.execute(bad_rows_sql(table, SHOWN_PROBLEMS)):
        label = _shown(row[0])
        for number, rule in enumerate(rules):
            value, holds = row[1 + 2 * number], row[2 + 2 * number]
            if not holds:
                found.append(f"{table}: {label}: {rule.column} is {_shown(value)} "
                             f"(must be {rule.expected})")  # fmt: skip
                break
    return found


def _duplicates(conn: sqlite3.Connection, table: str, columns: tuple[str, ...]) -> list[str]:
    names = ", ".join(columns)
    rows = conn.execute(
        f"SELECT {', '.join(f'quote({c})' for c in columns)}, count(*) FROM {table} "
        f"GROUP BY {names} HAVING count(*) > 1 LIMIT {SHOWN_PROBLEMS}"
    )
    return [
        f"{table}: {' × '.join(_shown(v) for v in row[:-1])} appears {row[-1]} times "
        f"({names} must be unique)"
        for row in rows
    ]


def _unknown_questions(conn: sqlite3.Connection, table: str) -> list[str]:
    rows = conn.execute(
        f"SELECT DISTINCT quote(question_id) FROM {table} WHERE question_id NOT IN "
        f"(SELECT question_id FROM questions) LIMIT {SHOWN_PROBLEMS}"
    )
    return [f"{table}: question {_shown(qid)} is not in questions" for (qid,) in rows]


#: The groups of options whose positions are not 0 to n-1, each once.
_BAD_POSITIONS = (
    "HAVING min(position) != 0 OR max(position) != count(*) - 1 "
    "OR count(DISTINCT position) != count(*)"
)


def _option_positions(conn: sqlite3.Connection) -> list[str]:
    # Found first by a GROUP BY that walks the primary key's index in its order (about
    # half the time of the query below, whose ordered subquery SQLite groups in a
    # temporary B-tree); only a file with such a question pays for the message's
    # positions in order.
    found = f"SELECT 1 FROM options GROUP BY question_id {_BAD_POSITIONS} LIMIT 1"
    if conn.execute(found).fetchone() is None:
        return []
    rows = conn.execute(
        "SELECT quote(question_id), group_concat(position, ', ') FROM "
        "(SELECT question_id, position FROM options ORDER BY question_id, position) "
        f"GROUP BY question_id {_BAD_POSITIONS} LIMIT {SHOWN_PROBLEMS}"
    )
    return [
        f"options: question {_shown(qid)} has positions {{{_shown(positions)}}} "
        "(must be 0 to n-1, each once)"
        for qid, positions in rows
    ]


def check_tables(conn: sqlite3.Connection, path: Path) -> None:
    """Check the small tables (module docstring); raises :class:`AuditError`."""
    for table in _SMALL_TABLES:
        _refuse(path, bad_values(conn, table))
    _refuse(
        path,
        [
            *_duplicates(conn, "audit_meta", ("key",)),
            *_duplicates(conn, "questions", ("question_id",)),
            *_duplicates(conn, "questions", ("ordinal",)),
            *_duplicates(conn, "runs", ("run_id",)),
            *_duplicates(conn, "question_labels", ("question_id", "facet")),
            *_unknown_questions(conn, "question_labels"),
            *_unknown_questions(conn, "options"),
        ][:SHOWN_PROBLEMS],
    )
    _refuse(path, _option_positions(conn))


def _guaranteed_unique(conn: sqlite3.Connection, table: str, columns: set[str]) -> bool:
    """True if a real (not partial) unique index of ``table`` is on exactly ``columns``."""
    for _seq, name, unique, _origin, partial in conn.execute(
        'SELECT seq, name, "unique", origin, partial FROM pragma_index_list(?)', (table,)
    ):
        if not unique or partial:
            continue
        indexed = {str(row[0]).lower() for row in conn.execute(
            "SELECT name FROM pragma_index_info(?)", (name,))}  # fmt: skip
        if indexed == columns:
            return True
    return False


def is_rowid_alias(conn: sqlite3.Connection, table: str, column: str) -> bool:
    """True if ``column`` is ``table``'s INTEGER PRIMARY KEY, i.e. its rowid (so never
    NULL and always an integer).

    Not for ``INTEGER PRIMARY KEY DESC`` (SQLite's documented exception: an ordinary
    column, which may hold NULL, with an index of its own) nor ``WITHOUT ROWID``: both
    have an index made for the primary key.
    """
    if any(
        origin == "pk"
        for (origin,) in conn.execute("SELECT origin FROM pragma_index_list(?)", (table,))
    ):
        return False
    keys = [
        (str(name).lower(), str(kind).upper())
        for name, kind, pk in conn.execute(
            "SELECT name, type, pk FROM pragma_table_info(?)", (table,)
        )
        if pk
    ]
    return keys == [(column, "INTEGER")]


def check_attempts(
    conn: sqlite3.Connection, path: Path, repetitions: Mapping[str, int], questions: set[str]
) -> None:
    """Check every attempt (module docstring); raises :class:`AuditError`.

    Args:
        repetitions: run id → the run's number of repetitions.
        questions: every question id.
    """
    _refuse(path, bad_values(conn, "attempts"))
    check_attempt_links(conn, path, repetitions, questions)


def check_attempt_links(
    conn: sqlite3.Connection, path: Path, repetitions: Mapping[str, int], questions: set[str]
) -> None:
    """What :func:`check_attempts` checks beyond each row's values (index walks, mostly).

    Attempts of known runs and questions, repetitions within their run's, unique
    ids and unique run x question x repetition; raises :class:`AuditError`.
    """
    problems: list[str] = []
    for run_id, highest in conn.execute(
        "SELECT run_id, max(repetition) FROM attempts GROUP BY run_id"
    ):
        if run_id not in repetitions:
            problems.append(f"attempts: run {_shown(repr(run_id))} is not in runs")
        elif isinstance(highest, int) and highest > repetitions[run_id]:
            (attempt_id,) = conn.execute(
                "SELECT attempt_id FROM attempts WHERE run_id = ? AND repetition > ? LIMIT 1",
                (run_id, repetitions[run_id]),
            ).fetchone()
            problems.append(
                f"attempts: attempt {attempt_id}: repetition {highest} of run "
                f"{_shown(repr(run_id))}, which has {repetitions[run_id]} repetitions"
            )
    for (question_id,) in conn.execute("SELECT DISTINCT question_id FROM attempts"):
        if question_id not in questions:
            problems.append(f"attempts: question {_shown(repr(question_id))} is not in questions")
    _refuse(path, problems[:SHOWN_PROBLEMS])
    check_attempt_ids_unique(conn, path)


def check_attempt_ids_unique(conn: sqlite3.Connection, path: Path) -> None:
    """Unique ``attempt_id`` and unique run x question x repetition (skipped where a real
    ``UNIQUE``/``PRIMARY KEY`` index guarantees it); raises :class:`AuditError`."""
    if not (
        is_rowid_alias(conn, "attempts", "attempt_id")
        or _guaranteed_unique(conn, "attempts", {"attempt_id"})
    ):
        _refuse(path, _duplicates(conn, "attempts", ("attempt_id",)))
    if not _guaranteed_unique(conn, "attempts", {"run_id", "question_id", "repetition"}):
        _refuse(path, _duplicates(conn, "attempts", ("run_id", "question_id", "repetition")))


class OnceCheck:
    """Run a check at most once, possibly on a background thread, and remember its verdict.

    :meth:`start` begins it on a daemon thread (so it can run beside a scan: SQLite
    releases the GIL while it works); :meth:`wait` starts it if needed, waits and
    raises the check's :class:`AuditError` (every later call raises it again).
    :meth:`cancel` interrupts a running check and waits for its thread.
    """

    def __init__(
        self, connect: Callable[[], sqlite3.Connection], check: Callable[[sqlite3.Connection], None]
    ) -> None:
        self._connect = connect
        self._check = check
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._inline = False  # run by wait() in a caller's thread
        self._runner: int | None = None  # the ident of the thread running the check
        self._conn: sqlite3.Connection | None = None
        self._done = threading.Event()
        self._error: BaseException | None = None

    @property
    def passed(self) -> bool:
        """True once the check has run and found nothing."""
        return self._done.is_set() and self._error is None

    def mark_passed(self) -> None:
        """Record that these very bytes were checked before (a review index built from them)."""
        with self._lock:
            if self._thread is None:
                self._done.set()

    def _run(self) -> None:
        self._runner = threading.get_ident()
        try:
            conn = self._conn = self._connect()
            try:
                self._check(conn)
            finally:
                self._conn = None
                conn.close()
        except BaseException as exc:  # noqa: BLE001 - kept, and re-raised by wait() in the caller
            self._error = exc
        finally:
            self._done.set()

    def start(self) -> None:
        """Begin the check on a background thread (once; no-op when begun or done)."""
        with self._lock:
            if self._thread is not None or self._done.is_set():
                return
            self._thread = threading.Thread(target=self._run, name="audit-value-check", daemon=True)
            self._thread.start()

    def wait(self) -> None:
        """Run (or finish) the check; raise its error, if any."""
        with self._lock:
            begun = self._thread is not None or self._inline or self._done.is_set()
            self._inline = self._inline or not begun
        if not begun:
            self._run()  # in the caller's thread, which may be a Qt thread (not joinable)
        self._done.wait()
        if self._error is not None:
            raise self._error

    def cancel(self) -> None:
        """Interrupt a running background check and wait for its thread to end."""
        conn, thread = self._conn, self._thread
        if conn is not None:
            with contextlib.suppress(sqlite3.Error):
                conn.interrupt()
        if thread is not None and thread is not threading.current_thread() and thread.is_alive():
            thread.join()
        elif thread is None and self._inline and self._runner != threading.get_ident():
            self._done.wait()  # run by a caller's thread: it ends once interrupted
