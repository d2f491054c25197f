"""What an import produced, how it becomes a NEW audit database, and its problem report.

Every question importer (HSE-Bench, EnviroExam, the AI4HSE questions CSV)
turns its source into :class:`ImportedQuestion` records plus :class:`Problem`
notes, gathered in an :class:`SourceImport`. Nothing is dropped silently: a
record that cannot be imported, or is imported with a defect, has a problem
with its file and line. :func:`write_import` writes the new database (schema v1
plus the desk's extra tables below, which the schema tolerates);
:meth:`SourceImport.report_lines` and :meth:`SourceImport.report_json` are the
readable and the machine-readable report.

Extra tables of a desk-made database:

* ``question_sources`` — per question the source file (relative to the
  imported folder), the line where its record starts, and HSE-Bench's
  ``reference`` column (NULL elsewhere);
* ``import_problems`` — the problem report;
* ``run_imports`` — written by ``import responses`` (see there).
"""

from __future__ import annotations

import csv
import dataclasses
import hashlib
import io
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from ai4hse_desk import __version__
from ai4hse_desk.display.format import plural
from ai4hse_desk.writer.new_db import WriterError, new_audit_db

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from pathlib import Path

#: ``audit_meta.created_by`` of a desk-made database starts with this.
CREATED_BY_PREFIX = "ai4hse-desk import "
REPLACEMENT_CHARACTER = "\ufffd"

EXTRA_TABLES_SQL = """
CREATE TABLE question_sources (
    question_id TEXT PRIMARY KEY REFERENCES questions(question_id),
    source_file TEXT NOT NULL,
    source_line INTEGER NOT NULL,
    reference   TEXT
);
CREATE TABLE import_problems (
    problem_id  INTEGER PRIMARY KEY,
    source_file TEXT NOT NULL,
    source_line INTEGER,
    question_id TEXT,
    kind        TEXT NOT NULL,
    message     TEXT NOT NULL,
    imported    INTEGER NOT NULL CHECK (imported IN (0, 1)),
    count       INTEGER
);
"""


def utc_now() -> str:
    """The current UTC time as ISO-8601 with a ``Z``, to the second."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(frozen=True, slots=True)
class ImportedQuestion:
    """One question ready to be written (its key holds its correct options)."""

    question_id: str
    text: str
    options: tuple[str, ...]
    key: tuple[bool, ...]
    labels: Mapping[str, str]
    source_file: str
    source_line: int
    reference: str | None = None


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong in the source, at ``file:line``.

    Attributes:
        imported: True when the record was still imported (as is, or with the
            normalisation the message names); False when it was left out.
        count: how many occurrences, when that is meaningful (e.g. U+FFFD).
    """

    file: str
    line: int | None
    kind: str
    message: str
    imported: bool
    question_id: str | None = None
    count: int | None = None

    def text(self) -> str:
        """One readable line: ``file:line: kind: message (imported | NOT imported)``."""
        where = self.file if self.line is None else f"{self.file}:{self.line}"
        outcome = "imported" if self.imported else "NOT imported"
        return f"{where}: {self.kind}: {self.message} ({outcome})"

    def to_json(self) -> dict[str, object]:
        """The problem as a JSON object (its fields by name)."""
        return dataclasses.asdict(self)


def replacement_problem(file: str, line: int, qid: str, cells: Mapping[str, str]) -> Problem | None:
    """A ``replacement_character`` problem when any cell holds U+FFFD (kept verbatim)."""
    counts = {name: text.count(REPLACEMENT_CHARACTER) for name, text in cells.items()}
    hit = {name: count for name, count in counts.items() if count}
    if not hit:
        return None
    total = sum(hit.values())
    where = ", ".join(name if len(hit) == 1 else f"{name} ({count})" for name, count in hit.items())
    found = plural(total, "U+FFFD replacement character")
    message = f"{found} in {where}; text kept as in the source"
    return Problem(file, line, "replacement_character", message, True, qid, total)


@dataclass
class SourceImport:
    """Questions and problems of one import, and the ``audit_meta`` it will write."""

    command: str
    benchmark: str
    corpus_id: str
    consistency_facet: str
    questions: list[ImportedQuestion] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    extra_meta: dict[str, str] = field(default_factory=dict)

    def label_counts(self) -> dict[str, dict[str, int]]:
        """Questions per facet and value, both sorted."""
        counts: dict[str, Counter[str]] = {}
        for question in self.questions:
            for facet, value in question.labels.items():
                counts.setdefault(facet, Counter())[value] += 1
        return {facet: dict(sorted(counts[facet].items())) for facet in sorted(counts)}

    def meta(self) -> dict[str, str]:
        """``audit_meta`` rows besides ``format`` and ``schema_version``."""
        return {
            "benchmark": self.benchmark,
            "corpus_id": self.corpus_id,
            "created_at": utc_now(),
            "created_by": CREATED_BY_PREFIX + self.command,
            "desk_version": __version__,
            "consistency_facet": self.consistency_facet,
            "import_problems": str(len(self.problems)),
            **self.extra_meta,
        }

    def report_lines(self, out: Path | None) -> list[str]:
        """The readable report: one ``warning:`` line per problem, then a summary."""
        lines = [f"warning: {problem.text()}" for problem in self.problems]
        left_out = sum(1 for problem in self.problems if not problem.imported)
        target = f" into {out}" if out is not None else ""
        lines.append(
            f"imported {plural(len(self.questions), 'question')}{target}; "
            f"{plural(len(self.problems), 'problem')}, "
            f"{plural(left_out, 'record or file', 'records or files')} left out"
        )
        for kind, count in sorted(Counter(p.kind for p in self.problems).items()):
            files = len({p.file for p in self.problems if p.kind == kind})
            lines.append(f"  problems: {kind} {count} in {plural(files, 'file')}")
        for facet, values in self.label_counts().items():
            if len(values) <= 16:
                shown = ", ".join(f"{value} {count}" for value, count in values.items())
            else:
                shown = f"{len(values)} values"
            lines.append(f"  {facet}: {shown}")
        return lines

    def report_json(self, out: Path | None, source: str) -> dict[str, object]:
        """The machine-readable report (``--report FILE``)."""
        return {
            "command": f"import {self.command}",
            "source": source,
            "out": None if out is None else str(out),
            "benchmark": self.benchmark,
            "corpus_id": self.corpus_id,
            "written": out is not None,
            "questions": len(self.questions),
            "labels": self.label_counts(),
            "problem_counts": dict(sorted(Counter(p.kind for p in self.problems).items())),
            "problems": [problem.to_json() for problem in self.problems],
        }


def digest_id(prefix: str, parts: list[tuple[str, bytes]]) -> str:
    """A corpus id from the sources read: ``prefix-`` and 16 hex digits of their SHA-256."""
    digest = hashlib.sha256()
    for name, data in parts:
        digest.update(name.encode("utf-8") + b"\0" + len(data).to_bytes(8, "big") + data)
    return f"{prefix}-{digest.hexdigest()[:16]}"


def csv_records(data: bytes, file: str, problems: list[Problem]) -> Iterator[tuple[int, list[str]]]:
    """``(line where the record starts, cells)`` of a CSV file, blank records skipped.

    The bytes are read as UTF-8 (a BOM is dropped). Bytes that are not UTF-8
    become U+FFFD and a ``not_utf8`` problem; a CSV syntax error ends the file
    with a ``csv_error`` problem.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8-sig", errors="replace")
        problems.append(
            Problem(
                file,
                None,
                "not_utf8",
                f"not UTF-8 ({exc.reason} at byte {exc.start}); bad bytes read as U+FFFD",
                True,
            )
        )
    reader = csv.reader(io.StringIO(text, newline=""))
    line = 1
    try:
        for cells in reader:
            start, line = line, reader.line_num + 1
            if any(cell.strip() for cell in cells):
                yield start, cells
    except csv.Error as exc:
        problems.append(
            Problem(file, line, "csv_error", f"{exc}; the rest of the file is left out", False)
        )


def write_import(result: SourceImport, out: Path) -> Path:
    """Write the questions of ``result`` into a NEW audit database at ``out``.

    Raises:
        WriterError: nothing to import, ``out`` exists or its folder is missing.
    """
    if not result.questions:
        raise WriterError(f"nothing to import: {_first_problems(result.problems)}")
    questions = result.questions
    with new_audit_db(out, result.meta()) as conn:
        conn.executescript(EXTRA_TABLES_SQL)
        conn.executemany(
            "INSERT INTO questions (question_id, ordinal, text) VALUES (?, ?, ?)",
            [(q.question_id, ordinal, q.text) for ordinal, q in enumerate(questions, start=1)],
        )
        conn.executemany(
            "INSERT INTO options (question_id, position, text, key) VALUES (?, ?, ?, ?)",
            [
                (q.question_id, position, text, int(value))
                for q in questions
                for position, (text, value) in enumerate(zip(q.options, q.key, strict=True))
            ],
        )
        conn.executemany(
            "INSERT INTO question_labels (question_id, facet, value) VALUES (?, ?, ?)",
            [(q.question_id, facet, value) for q in questions for facet, value in q.labels.items()],
        )
        conn.executemany(
            "INSERT INTO question_sources VALUES (?, ?, ?, ?)",
            [(q.question_id, q.source_file, q.source_line, q.reference) for q in questions],
        )
        conn.executemany(
            "INSERT INTO import_problems (source_file, source_line, question_id, kind, message,"
            " imported, count) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (p.file, p.line, p.question_id, p.kind, p.message, int(p.imported), p.count)
                for p in result.problems
            ],
        )
    return out


def _first_problems(problems: list[Problem], shown: int = 3) -> str:
    if not problems:
        return "no questions found"
    text = "; ".join(problem.text() for problem in problems[:shown])
    more = len(problems) - shown
    return text + (f"; and {plural(more, 'more problem', 'more problems')}" if more > 0 else "")
