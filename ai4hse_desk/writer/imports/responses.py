"""Add one run from a responses file to an audit database the desk itself made.

Only a database whose ``audit_meta.created_by`` starts with ``ai4hse-desk
import`` is accepted. The file (JSON lines or CSV, one record per attempt,
fields as in :class:`_Row`) is checked completely first; any problem stops
with ``file:line`` and nothing is written. A database with a ``split`` label
needs a split, and the run covers only that split; pairs missing from the file
become ``pending``. The recorded verdict is the desk's own ``derive``. The
database is replaced atomically by an updated copy, and only if it did not
change meanwhile. README, "Public benchmarks: imports", has the details.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import shutil
import sqlite3
from collections import Counter
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

from ai4hse_desk.audit import AuditError, open_audit, sha256_file
from ai4hse_desk.filewrite import StagedFile
from ai4hse_desk.protocol import CURRENT_PROTOCOL_VERSION, Selection, Status, Track, derive
from ai4hse_desk.protocol import STATE_ANSWERED as ANSWERED
from ai4hse_desk.protocol import STATE_PENDING as PENDING
from ai4hse_desk.protocol import STATE_PROVIDER_ERROR as PROVIDER_ERROR
from ai4hse_desk.writer.demo.attempts import INSERT_ATTEMPT
from ai4hse_desk.writer.imports.report import CREATED_BY_PREFIX, utc_now
from ai4hse_desk.writer.new_db import WriterError

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

JSON_SUFFIXES = (".jsonl", ".ndjson", ".json")
RUN_IMPORTS_SQL = """CREATE TABLE IF NOT EXISTS run_imports (
    run_id TEXT PRIMARY KEY REFERENCES runs(run_id), prompt_setting TEXT NOT NULL, split TEXT,
    source_file TEXT NOT NULL, source_sha256 TEXT NOT NULL, imported_at TEXT NOT NULL,
    imported_by TEXT NOT NULL)"""
INSERT_RUN = (
    "INSERT INTO runs (run_id, model, provider, provider_routing, track, protocol_version,"
    " repetitions, max_tokens, temperature, reasoning_effort, concurrency, status,"
    " prompt_template, started_at, finished_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"
)
_SETTING = re.compile(r"[a-z][a-z0-9_]*")
_WHOLE = re.compile(r"\s*\d+\s*")
Record = dict[str, object]


@dataclass(frozen=True, slots=True)
class RunSettings:
    """The new run's row of ``runs`` (``None``: not recorded, or the provider default)."""

    run_id: str
    model: str
    track: str
    protocol_version: int = CURRENT_PROTOCOL_VERSION
    repetitions: int | None = None  # default: the largest repetition in the file
    prompt_setting: str = "zero_shot"
    split: str | None = None
    provider: str | None = None
    provider_routing: str | None = None
    temperature: float | None = None
    max_tokens: int | None = None
    reasoning_effort: str | None = None
    concurrency: int | None = None
    started_at: str | None = None
    finished_at: str | None = None


@dataclass(frozen=True, slots=True)
class ResponsesSummary:
    """What :func:`import_responses` added: attempts, pending ones added, run status, statuses."""

    run_id: str
    attempts: int
    pending_added: int
    status: str
    statuses: dict[str, int]


@dataclass(frozen=True, slots=True)
class _Row:
    """The fields of one record, declared once: question_id and repetition (≥ 1) are
    required; the ``*_tokens`` and ``latency_ms`` are whole numbers ≥ 0 or null; the
    rest text or null. Other fields of a record are ignored."""

    question_id: str
    repetition: int
    state: str = PENDING  # default when read: provider_error if error and no response
    response: str | None = None
    finish_reason: str | None = None
    error: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    reasoning_tokens: int | None = None
    latency_ms: int | None = None
    created_at: str | None = None


_NUMBERS = frozenset(
    {"repetition", "prompt_tokens", "completion_tokens", "reasoning_tokens", "latency_ms"}
)
_TEXTS = frozenset(f.name for f in fields(_Row)) - _NUMBERS


def _records(path: Path, data: bytes) -> Iterator[tuple[str, Record]]:
    """``(file:line, record)`` of a JSON-lines or CSV file; empty CSV cells are null."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise WriterError(f"{path.name}: not UTF-8 (byte {exc.start})") from None
    suffix = path.suffix.lower()
    if suffix in JSON_SUFFIXES:
        for number, raw in enumerate(text.split("\n"), start=1):
            if raw.strip():
                try:
                    record = json.loads(raw)
                except ValueError as exc:
                    raise WriterError(f"{path.name}:{number}: not JSON ({exc})") from None
                if not isinstance(record, dict):
                    raise WriterError(f"{path.name}:{number}: not a JSON object")
                yield f"{path.name}:{number}", record
    elif suffix == ".csv":
        reader = csv.DictReader(io.StringIO(text, newline=""))
        start = 2
        for cells in reader:
            if None in cells:
                raise WriterError(f"{path.name}:{start}: more cells than header columns")
            row: Record = {k.strip(): v or None for k, v in cells.items() if k}
            for name in _NUMBERS & row.keys():
                cell = row[name]
                if isinstance(cell, str) and _WHOLE.fullmatch(cell):
                    row[name] = int(cell)
            yield f"{path.name}:{start}", row
            start = reader.line_num + 1
    else:
        raise WriterError(f"{path.name}: unknown format; use .jsonl (JSON lines) or .csv")


def _row(record: Record, where: str) -> _Row:
    """Check and convert one record."""
    values: dict[str, object] = {}
    for name in _TEXTS | _NUMBERS:
        value = values[name] = record.get(name)
        if name in _NUMBERS:
            least = int(name == "repetition")
            kind, bad = f"a whole number ≥ {least}", type(value) is not int or value < least
        else:
            kind, bad = "text", not isinstance(value, str)
        if value is not None and bad:
            raise WriterError(f"{where}: {name} must be {kind}, not {json.dumps(value)}")
    if not values["question_id"] or values["repetition"] is None:
        raise WriterError(f"{where}: question_id and repetition are required")
    if values["state"] is None:
        no_reply = values["error"] and values["response"] is None
        values["state"] = PROVIDER_ERROR if no_reply else ANSWERED
    if values["state"] not in (ANSWERED, PROVIDER_ERROR, PENDING):
        raise WriterError(f"{where}: state {values['state']!r} is not answered, "
                          "provider_error or pending")  # fmt: skip
    if values["state"] == PENDING and values["response"] is not None:
        raise WriterError(f"{where}: a pending attempt cannot have a response")
    return _Row(**values)  # type: ignore[arg-type]  # types checked above


@dataclass(frozen=True, slots=True)
class _Scope:
    """Questions the run covers (id → ordinal, key), every question's split, the file."""

    keys: dict[str, tuple[int, Selection]]
    split_of: dict[str, str]
    fingerprint: str
    last_attempt_id: int


def _scope(audit: Path, settings: RunSettings) -> _Scope:
    """Check the database and the settings; the questions the run covers."""
    if not settings.run_id.strip() or not settings.model.strip():
        raise WriterError("the run id and the model must not be empty")
    if settings.track not in {track.value for track in Track}:
        raise WriterError(f"unknown track {settings.track!r}")
    if not _SETTING.fullmatch(settings.prompt_setting):
        raise WriterError(f"prompt setting {settings.prompt_setting!r} must be a lower-case "
                          "word such as zero_shot or five_shot")  # fmt: skip
    try:
        with open_audit(audit) as db:
            if not db.meta.get("created_by", "").startswith(CREATED_BY_PREFIX):
                raise WriterError(
                    f"{audit} was not made by 'ai4hse-desk import' (no audit_meta created_by); "
                    "responses are only added to databases the desk made"
                )
            if db.snapshot:
                raise WriterError(f"{audit} has a -wal or -journal file beside it; refusing")
            if any(run.run_id == settings.run_id for run in db.runs()):
                raise WriterError(f"run {settings.run_id!r} already exists in {audit}")
            questions, fingerprint = db.questions(), db.fingerprint()
            last = (db.attempt_id_bounds() or (0, 0))[1]
    except AuditError as exc:
        raise WriterError(str(exc)) from None
    split_of = {q.question_id: q.labels["split"] for q in questions if "split" in q.labels}
    splits = sorted(set(split_of.values()))
    if settings.split is None and splits:
        raise WriterError(f"this database has splits ({', '.join(splits)}); give --split")
    if settings.split is not None and settings.split not in splits:
        known = ", ".join(splits) or "none"
        raise WriterError(f"unknown split {settings.split!r} (this database has: {known})")
    keys = {
        q.question_id: (q.ordinal, q.key)
        for q in questions
        if settings.split is None or split_of.get(q.question_id) == settings.split
    }
    return _Scope(keys, split_of, fingerprint, last)


def _read_rows(path: Path, data: bytes, scope: _Scope, settings: RunSettings) -> list[_Row]:
    rows: list[_Row] = []
    seen: dict[tuple[str, int], str] = {}
    for where, record in _records(path, data):
        row = _row(record, where)
        qid, rep = row.question_id, row.repetition
        if qid in scope.split_of and qid not in scope.keys:
            raise WriterError(f"{where}: question {qid!r} is in split {scope.split_of[qid]!r}, "
                              f"not {settings.split!r}; a run covers one split")  # fmt: skip
        if qid not in scope.keys:
            raise WriterError(f"{where}: unknown question id {qid!r}")
        if (qid, rep) in seen:
            raise WriterError(f"{where}: {qid!r} repetition {rep} again ({seen[qid, rep]})")
        if settings.repetitions is not None and rep > settings.repetitions:
            raise WriterError(f"{where}: repetition {rep} > --repetitions {settings.repetitions}")
        seen[qid, rep] = where
        rows.append(row)
    if not rows:
        raise WriterError(f"{path.name}: no responses")
    return rows


def _attempt(attempt_id: int, row: _Row, key: Selection, s: RunSettings) -> tuple[object, ...]:
    """One ``attempts`` row, with the desk's verdict as the recorded one."""
    verdict: tuple[object, ...] = (None, None, None, None)
    if row.state != PENDING:
        outcome = derive(s.track, row.response, len(key), protocol_version=s.protocol_version,
                         state=row.state, finish_reason=row.finish_reason)  # fmt: skip
        sel = outcome.selection
        correct = outcome.status is Status.VALID and sel == key
        extracted = None if sel is None else json.dumps(list(sel))
        verdict = (outcome.status.value, extracted, int(outcome.strict_format), int(correct))
    return (attempt_id, s.run_id, row.question_id, row.repetition, row.state, row.response,
            row.finish_reason, row.error, *verdict, row.prompt_tokens, row.completion_tokens,
            row.reasoning_tokens, row.latency_ms, row.created_at)  # fmt: skip


def _replace_with_copy(
    audit: Path, fingerprint: str, write: Callable[[sqlite3.Connection], None]
) -> None:
    """Copy ``audit``, ``write`` into the copy in one transaction, then replace ``audit``.

    The copy is a :class:`~ai4hse_desk.filewrite.StagedFile` beside the database
    (``desk_made``: this is the one write that replaces an audit database, and only
    one the desk made, checked by the caller); it is published only if the
    original still has the fingerprint read.
    """
    staged = StagedFile(audit, allow_sqlite=True, desk_made=True)
    try:
        digest = hashlib.sha256()
        with open(audit, "rb") as source, open(staged.temp, "wb") as copy:
            while chunk := source.read(1 << 20):
                digest.update(chunk)
                copy.write(chunk)
        if digest.hexdigest() != fingerprint:
            raise WriterError(f"{audit} changed while it was read; nothing written")
        shutil.copymode(audit, staged.temp)
        conn = sqlite3.connect(staged.temp, isolation_level=None)
        try:
            conn.execute("BEGIN IMMEDIATE")
            write(conn)
            conn.execute("COMMIT")
        finally:
            conn.close()
        if sha256_file(audit) != fingerprint:
            raise WriterError(f"{audit} changed during the import; nothing written")
    except OSError as exc:
        staged.discard()
        raise WriterError(f"cannot write beside {audit}: {exc.strerror or exc}") from None
    except BaseException:
        staged.discard()
        raise
    staged.commit()


def import_responses(audit: Path, responses: Path, settings: RunSettings) -> ResponsesSummary:
    """Add the run ``settings`` with the attempts in ``responses`` to the desk-made ``audit``.

    Raises:
        WriterError: anything wrong with the database, the settings or the file
            (with ``file:line``); then nothing was written.
    """
    scope = _scope(audit, settings)
    try:
        data = responses.read_bytes()
    except OSError as exc:
        raise WriterError(f"cannot read {responses}: {exc.strerror}") from None
    rows = _read_rows(responses, data, scope, settings)
    reps = settings.repetitions or max(row.repetition for row in rows)
    given = {(row.question_id, row.repetition): row for row in rows}
    order = sorted((rep, ordinal, qid) for qid, (ordinal, _) in scope.keys.items()
                   for rep in range(1, reps + 1))  # fmt: skip
    plan = [given.get((qid, rep)) or _Row(qid, rep) for rep, _, qid in order]
    attempts = [
        _attempt(scope.last_attempt_id + n, row, scope.keys[row.question_id][1], settings)
        for n, row in enumerate(plan, start=1)
    ]
    statuses = Counter(str(attempt[8] or attempt[4]) for attempt in attempts)
    status = "unfinished" if statuses[PENDING] else "complete"
    s = settings
    run = (s.run_id, s.model, s.provider, s.provider_routing, s.track, s.protocol_version, reps,
           s.max_tokens, s.temperature, s.reasoning_effort, s.concurrency, status,
           s.prompt_setting, s.started_at, s.finished_at)  # fmt: skip
    sha = hashlib.sha256(data).hexdigest()
    provenance = (s.run_id, s.prompt_setting, s.split, responses.name, sha, utc_now(),
                  "ai4hse-desk import responses")  # fmt: skip

    def write(conn: sqlite3.Connection) -> None:
        conn.execute(INSERT_RUN, run)
        conn.executemany(INSERT_ATTEMPT, attempts)
        conn.execute(RUN_IMPORTS_SQL)
        conn.execute("INSERT INTO run_imports VALUES (?, ?, ?, ?, ?, ?, ?)", provenance)

    _replace_with_copy(audit, scope.fingerprint, write)
    added = statuses[PENDING] - sum(row.state == PENDING for row in rows)
    return ResponsesSummary(s.run_id, len(attempts), added, status, dict(sorted(statuses.items())))
