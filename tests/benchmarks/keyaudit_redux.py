"""MMLU-Redux (dev subjects) as a desk-made audit database: real keys, real key errors.

``../shared/data/mmlu-redux-dev/`` (CC BY 4.0, Gema et al. 2024) holds, per subject,
``mmlu_redux/mmlu_<subject>.csv`` (the question, its choices, the ORIGINAL key
``answer`` and the experts' ``error_type``) and
``outputs/original_helm_combined/<subject>.csv`` (the answer letters of 10 HELM models
to every MMLU test question of the subject). :func:`load` joins the two on the
question text and its choices (whitespace normalised; when the choices differ in
form, on the text alone if it is unique in the subject); a question found in no
output file is left out and counted.

:func:`build_audit_db` writes the database with the desk's own writer: the
questions through :func:`~ai4hse_desk.writer.imports.report.write_import` (label
``subject``), then each model as a ``single_choice`` run of one repetition through
:func:`~ai4hse_desk.writer.imports.responses.import_responses`, its letters as the
responses (a model's reply that is not a letter, e.g. ``To find …``, stays what it
is: the desk derives ``missing`` for it). The key audit then reads that file as it
reads any other.

Key errors (the positives): ``error_type`` ``wrong_groundtruth``,
``multiple_correct_answers`` and ``no_correct_answer`` (spelling and case vary in
the files: normalised); ``bad_question_clarity``, ``bad_options_clarity`` and
``expert`` are not key errors.
"""

from __future__ import annotations

import ast
import csv
import io
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from ai4hse_desk.writer.imports.report import ImportedQuestion, SourceImport, write_import
from ai4hse_desk.writer.imports.responses import RunSettings, import_responses

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = Path(os.environ.get("AI4HSE_PUBLIC_DATA", ROOT.parent / "shared" / "data"))
DATA = PUBLIC / "mmlu-redux-dev"
KEY_ERRORS = frozenset({"wrong_groundtruth", "multiple_correct_answers", "no_correct_answer"})
LETTERS = "ABCDEFGHIJ"


@dataclass(frozen=True, slots=True)
class ReduxQuestion:
    """One MMLU-Redux question joined with the models' replies."""

    question_id: str
    subject: str
    text: str
    options: tuple[str, ...]
    key: int  # the original (possibly wrong) key, 0-based
    error_type: str  # normalised: ok, wrong_groundtruth, ...
    replies: dict[str, str]  # model -> its reply as recorded (usually one letter)

    @property
    def key_error(self) -> bool:
        return self.error_type in KEY_ERRORS


@dataclass(frozen=True, slots=True)
class Redux:
    questions: list[ReduxQuestion]
    models: list[str]
    unmatched: int


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _choices(cell: str) -> tuple[str, ...]:
    try:
        values = ast.literal_eval(cell)
    except (ValueError, SyntaxError):
        values = json.loads(cell)
    return tuple(str(value) for value in values)


def _read_csv(path: Path) -> list[dict[str, str]]:
    """A CSV whose delimiter is ``;`` or ``,`` (both occur), as dicts."""
    text = path.read_text(encoding="utf-8-sig")
    header = text.split("\n", 1)[0]
    delimiter = ";" if header.count(";") > header.count(",") else ","
    return list(csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter))


def error_kind(raw: str) -> str:
    """``Wrong Groundtruth`` → ``wrong_groundtruth``; ``OK``/``Ok`` → ``ok``."""
    return re.sub(r"\s+", "_", raw.strip().lower())


def available(root: Path = DATA) -> bool:
    return (root / "mmlu_redux").is_dir() and (root / "outputs" / "original_helm_combined").is_dir()


def load(root: Path = DATA) -> Redux:
    """Every dev subject's questions with the 10 models' replies (see the module doc)."""
    questions: list[ReduxQuestion] = []
    models: list[str] = []
    unmatched = 0
    for path in sorted((root / "mmlu_redux").glob("mmlu_*.csv")):
        subject = path.stem.removeprefix("mmlu_")
        outputs = _read_csv(root / "outputs" / "original_helm_combined" / f"{subject}.csv")
        names = [name for name in outputs[0] if name not in ("question", "choices")]
        if not models:
            models = names
        if names != models:
            raise ValueError(f"{subject}: other models than the first subject's")
        exact: dict[tuple[str, tuple[str, ...]], dict[str, str]] = {}
        by_text: dict[str, list[dict[str, str]]] = {}
        for row in outputs:
            text = _norm(row["question"])
            exact.setdefault((text, tuple(map(_norm, _choices(row["choices"])))), row)
            by_text.setdefault(text, []).append(row)
        for number, row in enumerate(_read_csv(path)):
            options = _choices(row["choices"])
            text = _norm(row["question"])
            found = exact.get((text, tuple(map(_norm, options))))
            if found is None and len(by_text.get(text, [])) == 1:
                found = by_text[text][0]
            if found is None:
                unmatched += 1
                continue
            questions.append(
                ReduxQuestion(
                    question_id=f"{subject}/{number:03d}",
                    subject=subject,
                    text=row["question"].strip(),
                    options=options,
                    key=int(row["answer"]),
                    error_type=error_kind(row["error_type"]),
                    replies={m: (found[m] or "") for m in models},
                )
            )
    return Redux(questions, models, unmatched)


def build_audit_db(redux: Redux, folder: Path, models: list[str] | None = None) -> Path:
    """Write ``folder/mmlu-redux-dev.sqlite`` with the desk's writer (see the module doc);
    ``models``: the runs to add (default every model)."""
    result = SourceImport("questions", "MMLU-Redux dev (CC BY 4.0)", "mmlu-redux-dev", "subject")
    for number, q in enumerate(redux.questions, start=1):
        key = tuple(i == q.key for i in range(len(q.options)))
        result.questions.append(ImportedQuestion(
            q.question_id, q.text, q.options, key, {"subject": q.subject},
            f"mmlu_{q.subject}.csv", number))  # fmt: skip
    audit = write_import(result, folder / "mmlu-redux-dev.sqlite")
    for model in models or redux.models:
        replies = folder / f"{model}.jsonl"
        with replies.open("w", encoding="utf-8") as out:
            for q in redux.questions:
                record = {"question_id": q.question_id, "repetition": 1,
                          "response": q.replies[model]}  # fmt: skip
                out.write(json.dumps(record) + "\n")
        import_responses(audit, replies, RunSettings(model, model, "single_choice", repetitions=1))
    return audit


__all__ = ["DATA", "KEY_ERRORS", "Redux", "ReduxQuestion", "available", "build_audit_db", "load"]
