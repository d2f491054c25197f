"""Import HSE-Bench (CC BY-NC 4.0) into a NEW audit database.

Layout read: ``DIR/results/<source>/<irac_phase>/m1.csv`` (``DIR`` may also be
the ``results`` folder itself), 4 sources × 4 IRAC phases = 16 files. Each CSV
has no header and 7 columns: question (scenario and question), options A–D,
the correct letter, and a reference (a case citation, a regulation, or an
explanation citing the rule).

Every record becomes one question with 4 options and a one-hot key:

* id ``<source>/<irac_phase>/<NNN>`` (NNN = the record's 1-based number in its
  file, blank records not counted, left-out ones counted);
* ordinal: sources in the paper's order (regulation, court_case, safety_exam,
  video), phases in IRAC order, records in file order;
* labels ``source``, ``irac_phase`` and ``source_phase``
  (``court_case/rule_recall``, for slices by both);
* the reference in the extra table ``question_sources`` (not a label: its
  hundreds of distinct long values would swamp slices and filters).

Problems (file and line) are reported, never silently dropped: a record with
other than 7 columns, an empty question or a bad answer letter is left out; an
empty option, an empty reference or U+FFFD replacement characters (three
court-case files have them) are imported as they are and reported. A missing
file of the 16 and any other CSV under ``results`` are reported too.
``consistency_index`` is computed over ``source_phase``. The check of one
single-answer record, :func:`single_choice_question`, is shared with EnviroExam.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

from ai4hse_desk.writer.imports.report import (
    ImportedQuestion,
    Problem,
    SourceImport,
    csv_records,
    digest_id,
    replacement_problem,
)
from ai4hse_desk.writer.new_db import WriterError

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from pathlib import Path

BENCHMARK = "HSE-Bench"
LICENSE = "CC BY-NC 4.0"
SOURCES: tuple[str, ...] = ("regulation", "court_case", "safety_exam", "video")
PHASES: tuple[str, ...] = ("issue_spotting", "rule_recall", "rule_application", "rule_conclusion")
FILE_NAME = "m1.csv"
COLUMNS = 7  # question, A, B, C, D, answer letter, reference
CONSISTENCY_FACET = "source_phase"


def single_choice_question(
    file: str,
    line: int,
    qid: str,
    text: str,
    options: Sequence[str],
    answer: str,
    labels: Mapping[str, str],
    reference: str | None = None,
) -> tuple[ImportedQuestion | None, list[Problem]]:
    """A single-answer question (options ``A``, ``B``, … and one answer letter), checked.

    Left out (``None``): an empty question text, or an answer that is not one
    of the option letters (after trimming and upper-casing, which is reported
    as ``answer_normalized``). Imported but reported: empty options (kept, so
    the letters keep their places), U+FFFD characters (kept verbatim), an
    empty reference (only when ``reference`` is not ``None``).
    """
    letters = [chr(ord("A") + i) for i in range(len(options))]
    letter = answer.strip().upper()
    ok = bool(text.strip()) and letter in letters
    found: list[tuple[str, str]] = []
    if not text.strip():
        found.append(("empty_question", "the question text is empty"))
    if letter not in letters:
        found.append(("bad_answer", f"answer {answer!r} is not one of {', '.join(letters)}"))
    elif letter != answer:
        found.append(("answer_normalized", f"answer {answer!r} read as {letter}"))
    for option_letter, option in zip(letters, options, strict=True):
        if not option.strip():
            keyed = " (the key points at it)" if option_letter == letter else ""
            found.append(("empty_option", f"option {option_letter} is empty{keyed}; kept as empty"))
    if reference is not None and not reference.strip():
        found.append(("missing_reference", "the reference column is empty"))
    problems = [Problem(file, line, kind, message, ok, qid) for kind, message in found]
    cells = {"question": text, **{f"option {x}": o for x, o in zip(letters, options, strict=True)}}
    if reference is not None:
        cells["reference"] = reference
    fffd = replacement_problem(file, line, qid, cells)
    if fffd is not None:
        problems.append(fffd if ok else dataclasses.replace(fffd, imported=False))
    if not ok:
        return None, problems
    question = ImportedQuestion(
        question_id=qid,
        text=text,
        options=tuple(options),
        key=tuple(x == letter for x in letters),
        labels=dict(labels),
        source_file=file,
        source_line=line,
        reference=reference or None,
    )
    return question, problems


def _results_folder(folder: Path) -> Path:
    if not folder.is_dir():
        raise WriterError(f"not a folder: {folder}")
    results = folder / "results"
    if results.is_dir():
        return results
    if any((folder / source).is_dir() for source in SOURCES):
        return folder
    raise WriterError(
        f"{folder} has no HSE-Bench layout (results/<source>/<irac_phase>/{FILE_NAME})"
    )


def _read_file(data: bytes, name: str, source: str, phase: str, result: SourceImport) -> None:
    """Append the questions and problems of one CSV file to ``result``."""
    labels = {"source": source, "irac_phase": phase, "source_phase": f"{source}/{phase}"}
    for number, (line, cells) in enumerate(csv_records(data, name, result.problems), start=1):
        qid = f"{source}/{phase}/{number:03d}"
        if len(cells) != COLUMNS:
            result.problems.append(
                Problem(
                    name,
                    line,
                    "bad_columns",
                    f"{len(cells)} columns, expected {COLUMNS} (question, A-D, answer, reference)",
                    False,
                    qid,
                )
            )
            continue
        text, *options, answer, reference = cells
        question, problems = single_choice_question(
            name, line, qid, text, options, answer, labels, reference
        )
        result.problems.extend(problems)
        if question is not None:
            result.questions.append(question)


def read_hse_bench(folder: Path) -> SourceImport:
    """Read HSE-Bench's 16 CSV files under ``folder`` (nothing is written).

    Raises:
        WriterError: ``folder`` is not a folder with the HSE-Bench layout.
    """
    results = _results_folder(folder)
    base = results.parent if results.name == "results" else results
    result = SourceImport("hse-bench", BENCHMARK, "", CONSISTENCY_FACET)
    sources: list[tuple[str, bytes]] = []
    expected = set()
    for source in SOURCES:
        for phase in PHASES:
            path = results / source / phase / FILE_NAME
            expected.add(path)
            name = path.relative_to(base).as_posix()
            if not path.is_file():
                result.problems.append(
                    Problem(name, None, "missing_file", "one of the 16 files is missing", False)
                )
                continue
            data = path.read_bytes()
            sources.append((name, data))
            _read_file(data, name, source, phase, result)
    for path in sorted(results.rglob("*.csv")):
        if path not in expected:
            result.problems.append(
                Problem(
                    path.relative_to(base).as_posix(),
                    None,
                    "unexpected_file",
                    "not one of the 16 HSE-Bench files (results/<source>/<irac_phase>/m1.csv)",
                    False,
                )
            )
    result.corpus_id = digest_id("hse-bench", sources)
    result.extra_meta = {"source_license": LICENSE, "source_name": "HSE-Bench results/*/*/m1.csv"}
    return result
