"""Import EnviroExam (MIT) into a NEW audit database.

Layout read: ``DIR/dev/<course>.csv`` and ``DIR/test/<course>.csv`` (42
courses; dev has 5 questions per course, 210 in all, test 726). Each CSV has
the header ``,Question,A,B,C,D,Answer`` (an unnamed 0-based row index first)
and Chinese text; columns are found by name, option columns are the
single-letter columns ``A``, ``B``, … in order.

Every record becomes one question with a one-hot key:

* id ``<split>/<course>/<NNN>`` (NNN = the record's 0-based position among the
  file's records, which is the file's own index column);
* ordinal: dev before test, courses by name, records in file order;
* labels ``course`` (the file name without ``.csv``) and ``split``.

Problems are reported with file and line as for HSE-Bench (see
:func:`~ai4hse_desk.writer.imports.hse_bench.single_choice_question`); besides, a
file without the needed header columns is left out, a record with a wrong
number of cells is left out, and an index column that disagrees with the
record's position is reported (the id follows the position).
``consistency_index`` is computed over ``course``, as EnviroExam's composite
index is.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.writer.imports.hse_bench import single_choice_question
from ai4hse_desk.writer.imports.report import Problem, SourceImport, csv_records, digest_id
from ai4hse_desk.writer.new_db import WriterError

if TYPE_CHECKING:
    from pathlib import Path

BENCHMARK = "EnviroExam"
LICENSE = "MIT"
SPLITS: tuple[str, ...] = ("dev", "test")
CONSISTENCY_FACET = "course"


def _columns(header: list[str]) -> tuple[int, int, list[int], int | None] | None:
    """``(question, answer, option columns, index column)`` from a header, or None."""
    names = [cell.strip() for cell in header]
    if "Question" not in names or "Answer" not in names:
        return None
    options: list[int] = []
    while (letter := chr(ord("A") + len(options))) in names:
        options.append(names.index(letter))
    if len(options) < 2:
        return None
    index = 0 if names[0] == "" else None
    return names.index("Question"), names.index("Answer"), options, index


def _read_file(data: bytes, name: str, split: str, course: str, result: SourceImport) -> None:
    """Append the questions and problems of one CSV file to ``result``."""
    records = csv_records(data, name, result.problems)
    header = next(records, None)
    columns = None if header is None else _columns(header[1])
    if columns is None:
        result.problems.append(
            Problem(
                name,
                1,
                "bad_header",
                "no header with Question, A, B, … and Answer columns; file left out",
                False,
            )
        )
        return
    question_col, answer_col, option_cols, index_col = columns
    width = len(header[1]) if header is not None else 0
    labels = {"course": course, "split": split}
    for position, (line, cells) in enumerate(records):
        qid = f"{split}/{course}/{position:03d}"
        if len(cells) != width:
            result.problems.append(
                Problem(
                    name, line, "bad_columns", f"{len(cells)} cells, expected {width}", False, qid
                )
            )
            continue
        if index_col is not None and cells[index_col].strip() != str(position):
            result.problems.append(
                Problem(
                    name,
                    line,
                    "index_mismatch",
                    f"index column says {cells[index_col]!r}, the record is number {position}",
                    True,
                    qid,
                )
            )
        question, problems = single_choice_question(
            name, line, qid, cells[question_col], [cells[i] for i in option_cols],
            cells[answer_col], labels,
        )  # fmt: skip
        result.problems.extend(problems)
        if question is not None:
            result.questions.append(question)


def read_enviroexam(folder: Path) -> SourceImport:
    """Read EnviroExam's ``dev`` and ``test`` CSV files under ``folder`` (nothing written).

    Raises:
        WriterError: ``folder`` is not a folder with a ``dev`` or ``test`` folder.
    """
    if not folder.is_dir():
        raise WriterError(f"not a folder: {folder}")
    if not any((folder / split).is_dir() for split in SPLITS):
        raise WriterError(
            f"{folder} has no EnviroExam layout (dev/<course>.csv, test/<course>.csv)"
        )
    result = SourceImport("enviroexam", BENCHMARK, "", CONSISTENCY_FACET)
    sources: list[tuple[str, bytes]] = []
    for split in SPLITS:
        if not (folder / split).is_dir():
            result.problems.append(
                Problem(split, None, "missing_split", f"no {split}/ folder", False)
            )
            continue
        for path in sorted((folder / split).glob("*.csv")):
            name = f"{split}/{path.name}"
            data = path.read_bytes()
            sources.append((name, data))
            _read_file(data, name, split, path.stem, result)
    result.corpus_id = digest_id("enviroexam", sources)
    result.extra_meta = {"source_license": LICENSE, "source_name": "EnviroExam dev/ test/"}
    return result
