"""Real audit databases for tests, built from the schema SQL: plain builders, no fixtures.

:func:`build_audit_db` writes a fresh SQLite audit database
(``resources/schema/audit-db-v1.sql`` plus inserts) to a path: broken variants
(schema version, meta, dropped tables/columns), tolerated extras, WAL mode, more
questions, untyped tables for hostile values, or entirely custom content
(an :class:`AuditContent`, e.g. :func:`build_content` changed with
``dataclasses.replace``). The fixtures over it (``make_audit_db``, ``audit_db``,
``audit_content``, ``make_audit_content``) are in ``tests/conftest.py``, so the
core and the window tests share them; import this module (``import audit_factory``)
for the types and builders themselves.

Default content (deterministic):

* 5 questions; ordinal order Q001, Q002, Q003, Q005, Q004 (ids and ordinals
  deliberately disagree). Q003 and Q005 have 5 options, the others 4; Q004's
  key is all TRUE, Q005's all FALSE. Facet ``topic`` on every question (PPE, Fire
  Safety, Chemicals); facet ``source`` (manual, exam) on all but Q004. Q004's
  text contains a literal ``%``.
* 3 runs: ``r1`` model-a answer_only (complete), ``r2`` model-b
  reasoning_assisted (complete), ``r3`` model-a structured_output (unfinished).
* 2 repetitions: 30 attempts with ids 1..30 in order run, repetition, ordinal.
  Mostly strict valid answers, some wrong. Special attempts (run, rep, question):
  (r1,1,Q002) "100% sure" valid non-strict; (r1,1,Q003) "100 reasons" (no ``%``);
  (r1,2,Q001) ``snake_case``, wrong_length; (r1,2,Q002) ``snakeXcase``;
  (r1,2,Q003) cut off (finish_reason length, incomplete); (r2,1,Q005) multiple;
  (r2,2,Q003) provider_error; (r3,2,Q005) and (r3,2,Q004) pending (all NULL);
  (r3,1,Q001) a fenced JSON answer the runner recorded as valid although the
  protocol says invalid_json (a deliberate recorded/derived disagreement).
* ``latency_ms`` repeats values (ties) and is NULL for pending attempts.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ai4hse_desk.display.format import option_letter

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping, Sequence

SCHEMA_SQL = Path(__file__).resolve().parents[1] / "resources" / "schema" / "audit-db-v1.sql"

T, F = True, False
META = {
    "format": "ai4hse-audit",
    "schema_version": "1",
    "benchmark": "AI4HSE-Bench v1",
    "corpus_id": "test-corpus-1",
    "created_at": "2025-01-01T09:00:00Z",
}
_QUESTIONS: tuple[tuple[str, int, str, tuple[tuple[str, bool], ...], dict[str, str]], ...] = (
    ("Q001", 1, "Which PPE is required when grinding metal?",
     (("Safety glasses", T), ("Open-toe sandals", F), ("Hearing protection", T),
      ("Loose necktie", F)), {"topic": "PPE", "source": "manual"}),
    ("Q002", 2, "When must hearing protection be worn?",
     (("Only at night", F), ("Never", F), ("Only when asked", F),
      ("Above the exposure action value", T)), {"topic": "PPE", "source": "exam"}),
    ("Q003", 3, "Which are suitable fire extinguishing agents?",
     (("Water", T), ("CO2", T), ("Gasoline", F), ("Paper", F), ("Foam", T)),
     {"topic": "Fire Safety", "source": "manual"}),
    ("Q004", 5, "Which statements about a 50% LEL reading are true?",
     (("Atmosphere is hazardous", T), ("Evacuate", T), ("Ventilate", T),
      ("Investigate the source", T)), {"topic": "Chemicals"}),
    ("Q005", 4, "Which are safe ways to store flammable liquids?",
     (("Near an open flame", F), ("In an unlabeled bottle", F), ("Next to oxidizers", F),
      ("In a hallway", F), ("On a hot plate", F)), {"topic": "Fire Safety", "source": "exam"}),
)  # fmt: skip
_RUN_DEFAULTS: dict[str, Any] = {
    "provider": "openrouter", "provider_routing": None, "protocol_version": 10,
    "repetitions": 2, "max_tokens": 512, "temperature": 0.0, "reasoning_effort": None,
    "concurrency": 8, "status": "complete", "prompt_template": "default-v10",
    "started_at": "2025-01-01T10:00:00Z", "finished_at": "2025-01-01T11:00:00Z",
}  # fmt: skip
_RUNS: tuple[dict[str, Any], ...] = (
    {"run_id": "r1", "model": "model-a", "track": "answer_only", "provider_routing": "fast"},
    {"run_id": "r2", "model": "model-b", "track": "reasoning_assisted", "temperature": None,
     "reasoning_effort": "medium", "max_tokens": 4096},
    {"run_id": "r3", "model": "model-a", "track": "structured_output", "status": "unfinished",
     "finished_at": None},
)  # fmt: skip
_NULL_VERDICT = {"parse_status": None, "extracted": None, "strict_format": None, "correct": None}
_SPECIAL: dict[tuple[str, int, str], dict[str, Any]] = {
    ("r1", 1, "Q002"): {"raw_response": "I am 100% sure: [FALSE, FALSE, FALSE, TRUE]",
                        "strict_format": 0},
    ("r1", 1, "Q003"): {"raw_response": "100 reasons: [TRUE, TRUE, FALSE, FALSE, TRUE]",
                        "strict_format": 0},
    ("r1", 2, "Q001"): {"raw_response": "see snake_case notes [TRUE, FALSE, TRUE]",
                        "parse_status": "wrong_length", "extracted": None, "strict_format": 0,
                        "correct": 0},
    ("r1", 2, "Q002"): {"raw_response": "see snakeXcase notes [FALSE, FALSE, FALSE, TRUE]",
                        "strict_format": 0},
    ("r1", 2, "Q003"): {"raw_response": "[TRUE, TRUE, FAL", "finish_reason": "length",
                        "parse_status": "incomplete", "extracted": None, "strict_format": 0,
                        "correct": 0},
    ("r2", 1, "Q005"): {"raw_response": "FINAL_ANSWER: [TRUE]\nFINAL_ANSWER: [FALSE]",
                        "parse_status": "multiple", "extracted": None, "strict_format": 0,
                        "correct": 0},
    ("r2", 2, "Q003"): {"state": "provider_error", "raw_response": None, "finish_reason": None,
                        "error": "HTTP 502 Bad Gateway", "parse_status": "provider_error",
                        "extracted": None, "strict_format": 0, "correct": 0,
                        "completion_tokens": None, "reasoning_tokens": None},
    ("r3", 1, "Q001"): {"raw_response": '```json\n{"answers": [true, false, true, false]}\n```'},
    ("r3", 2, "Q005"): {"state": "pending", "raw_response": None, "finish_reason": None,
                        **_NULL_VERDICT, "prompt_tokens": None, "completion_tokens": None,
                        "reasoning_tokens": None, "latency_ms": None, "created_at": None},
}  # fmt: skip
_SPECIAL[("r3", 2, "Q004")] = _SPECIAL[("r3", 2, "Q005")]


@dataclass(frozen=True)
class AuditContent:
    """Rows of an audit database as plain dicts keyed by column name.

    ``questions`` items have ``question_id``, ``ordinal``, ``text``, ``options``
    (a tuple of ``(text, key)`` in position order) and ``labels`` (facet → value).
    """

    meta: Mapping[str, str]
    questions: tuple[dict[str, Any], ...]
    runs: tuple[dict[str, Any], ...]
    attempts: tuple[dict[str, Any], ...]

    def keys(self) -> dict[str, tuple[bool, ...]]:
        """Answer key per question id."""
        return {q["question_id"]: tuple(key for _, key in q["options"]) for q in self.questions}

    def attempt_ids(self, where: Callable[[dict[str, Any]], bool] = lambda _: True) -> list[int]:
        """Ids of the attempts for which ``where(attempt)`` holds, ascending."""
        return [a["attempt_id"] for a in self.attempts if where(a)]


def render_response(track: str, selection: Sequence[bool]) -> str:
    """A strict, valid response of ``track`` that selects ``selection``."""
    words = ", ".join("TRUE" if value else "FALSE" for value in selection)
    if track == "reasoning_assisted":
        return f"The options were checked one by one.\nFINAL_ANSWER: [{words}]"
    if track == "structured_output":
        return json.dumps({"answers": list(selection)})
    if track == "single_choice":
        return option_letter(list(selection).index(True))
    return f"[{words}]"


def build_content(extra_questions: int = 0) -> AuditContent:
    """The default content, plus ``extra_questions`` generated 4-option questions
    (ids ``G0001``…, ordinals from 101, topic cycling) answered by every run."""
    questions: list[dict[str, Any]] = [
        {"question_id": q, "ordinal": o, "text": t, "options": opts, "labels": dict(lab)}
        for q, o, t, opts, lab in _QUESTIONS
    ]
    topics = ("PPE", "Fire Safety", "Chemicals")
    for i in range(1, extra_questions + 1):
        opts = tuple((f"Option {p} of G{i:04d}", (i >> p) & 1 == 1) for p in range(4))
        questions.append({"question_id": f"G{i:04d}", "ordinal": 100 + i,
                          "text": f"Generated question {i}", "options": opts,
                          "labels": {"topic": topics[i % 3]}})  # fmt: skip
    questions.sort(key=lambda q: q["ordinal"])
    runs = tuple({**_RUN_DEFAULTS, **run} for run in _RUNS)
    attempts: list[dict[str, Any]] = []
    for run_index, run in enumerate(runs):
        for rep in (1, 2):
            for q_index, q in enumerate(questions):
                key = [k for _, k in q["options"]]
                selection = list(key)
                if (q_index + rep + run_index) % 4 == 0:
                    selection[0] = not selection[0]
                attempt_id = len(attempts) + 1
                row: dict[str, Any] = {
                    "attempt_id": attempt_id, "run_id": run["run_id"],
                    "question_id": q["question_id"], "repetition": rep, "state": "answered",
                    "raw_response": render_response(run["track"], selection),
                    "finish_reason": "stop",
                    "error": None, "parse_status": "valid", "extracted": json.dumps(selection),
                    "strict_format": 1, "correct": int(selection == key),
                    "prompt_tokens": 100 + q["ordinal"], "completion_tokens": 10 + rep,
                    "reasoning_tokens": 50 if run["track"] == "reasoning_assisted" else 0,
                    "latency_ms": 1000 + 100 * (attempt_id * 7 % 5),
                    "created_at": f"2025-01-01T10:{attempt_id % 60:02d}:00Z",
                }  # fmt: skip
                row.update(_SPECIAL.get((run["run_id"], rep, q["question_id"]), {}))
                attempts.append(row)
    return AuditContent(dict(META), tuple(questions), runs, tuple(attempts))


def _insert(conn: sqlite3.Connection, table: str, rows: Iterable[Mapping[str, Any]]) -> None:
    for row in rows:
        columns = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        conn.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})", tuple(row.values()))


def untyped_schema() -> str:
    """The official tables and columns without any type, constraint, key or index."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(SCHEMA_SQL.read_text(encoding="utf-8"))
        tables = [name for (name,) in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY rowid")]  # fmt: skip
        statements = []
        for table in tables:
            columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
            statements.append(f"CREATE TABLE {table} ({', '.join(columns)});")
        return "\n".join(statements)
    finally:
        conn.close()


def _drop_columns(conn: sqlite3.Connection, table: str, drop: Sequence[str]) -> None:
    kept = [r[1] for r in conn.execute(f"PRAGMA table_info({table})") if r[1] not in drop]
    conn.execute(f"CREATE TABLE _rebuilt AS SELECT {', '.join(kept)} FROM {table}")
    conn.execute(f"DROP TABLE {table}")
    conn.execute(f"ALTER TABLE _rebuilt RENAME TO {table}")


def build_audit_db(
    path: Path,
    *,
    content: AuditContent | None = None,
    extra_questions: int = 0,
    schema_version: str | None = None,
    meta: Mapping[str, str | None] | None = None,
    drop_tables: Sequence[str] = (),
    drop_columns: Mapping[str, Sequence[str]] | None = None,
    extras: bool = False,
    journal_mode: str | None = None,
    untyped: bool = False,
    after: Sequence[str] = (),
) -> Path:
    """Write an audit database to ``path`` (which must not exist) and return it.

    Args:
        content: rows to write; default ``build_content(extra_questions)``.
        extra_questions: generated questions added to the default content.
        schema_version: value of ``audit_meta.schema_version`` (default "1").
        meta: ``audit_meta`` overrides; a ``None`` value removes the key.
        drop_tables: tables to drop after filling (e.g. ``["runs"]``).
        drop_columns: table → columns to remove (the table is rebuilt without them).
        extras: add tolerated extras: table ``runner_log``, columns
            ``attempts.cost_usd``, ``runs.notes``, ``questions.difficulty``.
        journal_mode: e.g. ``"wal"``; the file is closed cleanly (WAL checkpointed).
        untyped: the official tables and columns with no types, checks, keys or
            unique constraints (what a hostile or careless writer can make), so that
            any value can be stored.
        after: SQL statements run last (to plant hostile values).
    """
    data = content or build_content(extra_questions)
    values: dict[str, str | None] = {**data.meta, **(meta or {})}
    if schema_version is not None:
        values["schema_version"] = schema_version
    conn = sqlite3.connect(path)
    try:
        if journal_mode:
            conn.execute(f"PRAGMA journal_mode = {journal_mode}")
        conn.executescript(untyped_schema() if untyped else SCHEMA_SQL.read_text(encoding="utf-8"))
        if extras:
            conn.executescript(
                "CREATE TABLE runner_log (id INTEGER PRIMARY KEY, line TEXT);"
                "INSERT INTO runner_log (line) VALUES ('started');"
                "ALTER TABLE attempts ADD COLUMN cost_usd REAL DEFAULT 0.001;"
                "ALTER TABLE runs ADD COLUMN notes TEXT DEFAULT 'extra';"
                "ALTER TABLE questions ADD COLUMN difficulty INTEGER DEFAULT 3;"
            )
        _insert(conn, "audit_meta", ({"key": k, "value": v} for k, v in values.items() if v))
        for q in data.questions:
            _insert(conn, "questions", [{k: q[k] for k in ("question_id", "ordinal", "text")}])
            qid = q["question_id"]
            options = [
                {"question_id": qid, "position": p, "text": t, "key": int(k)}
                for p, (t, k) in enumerate(q["options"])
            ]
            _insert(conn, "options", reversed(options))  # rows in non-position order
            labels = [{"question_id": qid, "facet": f, "value": v} for f, v in q["labels"].items()]
            _insert(conn, "question_labels", labels)
        _insert(conn, "runs", data.runs)
        _insert(conn, "attempts", data.attempts)
        for table in drop_tables:
            conn.execute(f"DROP TABLE {table}")
        for table, columns in (drop_columns or {}).items():
            _drop_columns(conn, table, columns)
        for statement in after:
            conn.execute(statement)
        conn.commit()
    finally:
        conn.close()
    return path
