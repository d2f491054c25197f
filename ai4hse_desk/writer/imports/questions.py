"""Import the AI4HSE question-input CSV into a NEW audit database.

The format (README, "Public benchmarks: imports"): UTF-8 CSV with a header

    question_id,question,option,correct[,topic][,label:FACET]…

and one record per option. ``correct`` is ``TRUE`` or ``FALSE`` (any case,
surrounding spaces ignored). A question's options are its records in file
order (usually consecutive, not required); its text is on its first record
and may be repeated or left empty on the others. A record whose ``option`` and
``correct`` are both empty only states the question (text, labels). ``topic``
and ``label:FACET`` give label facets (an empty cell gives none).

A question with any problem is left out whole, and each problem is reported
with its line: a bad correctness token, an empty option with a token, no
options at all, no text, two different texts or label values, a record with
the wrong number of cells. A record without ``question_id`` is left out
alone. Unknown columns are reported and ignored. Nothing valid → WriterError.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ai4hse_desk.writer.imports.report import (
    ImportedQuestion,
    Problem,
    SourceImport,
    csv_records,
    digest_id,
)
from ai4hse_desk.writer.new_db import WriterError

if TYPE_CHECKING:
    from pathlib import Path

REQUIRED: tuple[str, ...] = ("question_id", "question", "option", "correct")
LABEL_PREFIX = "label:"
TOKENS = {"true": True, "false": False}
DEFAULT_BENCHMARK = "AI4HSE-Bench v1"
HEADER_HELP = "question_id,question,option,correct[,topic][,label:FACET]..."


@dataclass
class _Draft:
    """A question as its records are read."""

    qid: str
    line: int
    text: str = ""
    options: list[str] = field(default_factory=list)
    key: list[bool] = field(default_factory=list)
    labels: dict[str, str] = field(default_factory=dict)
    broken: bool = False


def _header(
    cells: list[str], name: str, problems: list[Problem]
) -> tuple[list[int], dict[str, int]]:
    """Column numbers of :data:`REQUIRED` and of each label facet."""
    columns: dict[str, int] = {}
    facets: dict[str, int] = {}
    for number, raw in enumerate(cells):
        cell = raw.strip()
        lower = cell.lower()
        if lower in REQUIRED or lower == "topic":
            target, label = columns, lower
        elif lower.startswith(LABEL_PREFIX) and cell[len(LABEL_PREFIX) :].strip():
            target, label = facets, cell[len(LABEL_PREFIX) :].strip()
        else:
            problems.append(
                Problem(
                    name,
                    1,
                    "unknown_column",
                    f"column {raw!r} is not part of the format; ignored",
                    False,
                )
            )
            continue
        if label in columns or label in facets:
            raise WriterError(f"{name}: line 1: column {raw!r} appears twice")
        target[label] = number
    missing = [column for column in REQUIRED if column not in columns]
    if missing:
        raise WriterError(
            f"{name}: line 1: missing column(s) {', '.join(missing)}; expected {HEADER_HELP}"
        )
    if "topic" in columns:
        facets = {"topic": columns["topic"], **facets}
    return [columns[column] for column in REQUIRED], facets


class _Reader:
    """Groups records into drafts and collects problems."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.drafts: dict[str, _Draft] = {}
        self.problems: list[Problem] = []

    def fail(self, draft: _Draft | None, line: int, kind: str, message: str) -> None:
        qid = None if draft is None else draft.qid
        left_out = "record left out" if draft is None else f"question {qid!r} left out"
        self.problems.append(Problem(self.name, line, kind, f"{message}; {left_out}", False, qid))
        if draft is not None:
            draft.broken = True

    def record(
        self, line: int, cells: list[str], width: int, required: list[int], facets: dict[str, int]
    ) -> None:
        """Add one record (``width`` = number of header cells)."""
        qid = cells[required[0]].strip() if required[0] < len(cells) else ""
        draft = self.drafts.setdefault(qid, _Draft(qid, line)) if qid else None
        if len(cells) != width:
            self.fail(draft, line, "bad_columns", f"{len(cells)} cells, expected {width}")
            return
        if draft is None:
            self.fail(None, line, "missing_question_id", "no question_id")
            return
        text, option, token = (cells[i] for i in required[1:])
        if text.strip():
            if draft.text and text != draft.text:
                self.fail(draft, line, "question_text_differs", "another text for this question")
            draft.text = draft.text or text
        for facet, column in facets.items():
            value = cells[column].strip()
            if value and draft.labels.setdefault(facet, value) != value:
                self.fail(draft, line, "label_differs", f"another {facet} for this question")
        if not option.strip() and not token.strip():
            return
        correct = TOKENS.get(token.strip().lower())
        if correct is None:
            self.fail(draft, line, "bad_token", f"correct is {token!r}, not TRUE or FALSE")
        elif not option.strip():
            self.fail(draft, line, "empty_option", "the option text is empty")
        else:
            draft.options.append(option)
            draft.key.append(correct)

    def finish(self, result: SourceImport) -> None:
        for draft in self.drafts.values():
            if not draft.text.strip():
                self.fail(draft, draft.line, "empty_question", "the question has no text")
            if not draft.options:
                self.fail(draft, draft.line, "no_options", "the question has no options")
            if draft.broken:
                continue
            result.questions.append(_question(draft, self.name))
        result.problems.extend(sorted(self.problems, key=lambda p: p.line or 0))


def _question(draft: _Draft, name: str) -> ImportedQuestion:
    return ImportedQuestion(
        draft.qid, draft.text, tuple(draft.options), tuple(draft.key), draft.labels, name,
        draft.line,
    )  # fmt: skip


def read_questions(
    path: Path,
    *,
    benchmark: str = DEFAULT_BENCHMARK,
    corpus_id: str | None = None,
    consistency_facet: str = "topic",
) -> SourceImport:
    """Read an AI4HSE question-input CSV (nothing is written).

    Args:
        path: the CSV file.
        benchmark: ``audit_meta.benchmark``.
        corpus_id: ``audit_meta.corpus_id``; default ``questions-`` and a
            digest of the file.
        consistency_facet: facet whose slices feed ``consistency_index``.

    Raises:
        WriterError: the file cannot be read, has no header or lacks a required column.
    """
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise WriterError(f"cannot read {path}: {exc.strerror}") from None
    reader = _Reader(path.name)
    records = csv_records(data, path.name, reader.problems)
    header = next(records, None)
    if header is None:
        raise WriterError(f"{path.name}: empty file; expected the header {HEADER_HELP}")
    required, facets = _header(header[1], path.name, reader.problems)
    for line, cells in records:
        reader.record(line, cells, len(header[1]), required, facets)
    result = SourceImport(
        "questions", benchmark, corpus_id or digest_id("questions", [(path.name, data)]),
        consistency_facet, extra_meta={"source_name": path.name},
    )  # fmt: skip
    reader.finish(result)
    return result
