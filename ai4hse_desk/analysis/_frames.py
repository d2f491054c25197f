"""``runs_df``, ``attempts_df`` and ``notes_df``: open a file read-only, return a frame."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from ai4hse_desk.analysis._attempts import ATTEMPT_COLUMNS, AttemptRow
from ai4hse_desk.audit import open_audit
from ai4hse_desk.display.frames import build_frame, selected
from ai4hse_desk.notes.frames import NOTE_COLUMNS, entries, notes_frame
from ai4hse_desk.notes.location import resolve_location
from ai4hse_desk.notes.store import NotesStore
from ai4hse_desk.scores import ScoreRow, runs_frame
from ai4hse_desk.verdicts.rescore import rescore

if TYPE_CHECKING:
    import pandas as pd

    from ai4hse_desk.verdicts.rescore import AttemptVerdict

PathLike = str | os.PathLike[str]


def runs_df(path: PathLike) -> pd.DataFrame:
    """One row per run of the audit database at ``path``, with every figure of ``rescore``.

    Rows are in ``rescore``'s order (by track, then exact accuracy). Columns:
    :data:`~ai4hse_desk.scores.frames.RUN_COLUMNS` — the run object's values exactly
    as ``ai4hse-desk rescore`` prints them, ``errors`` and ``baselines`` flattened
    (``parse_error``, ``status_missing``, ``always_true`` …), then the run's settings.
    Nothing is written: not the audit file, not a cache.

    Raises:
        AuditError: the file cannot be read as an audit database.
    """
    with open_audit(path) as db:
        settings = {run.run_id: run for run in db.runs()}
        result = rescore(db)
    rows = [ScoreRow(run, settings.get(str(run["run_id"]))) for run in result.runs]
    return runs_frame(rows)


def attempts_df(path: PathLike, private: bool = False) -> pd.DataFrame:
    """One row per attempt (attempt_id order): the desk's verdict beside the runner's.

    Columns: :data:`ATTEMPT_COLUMNS` — what ``rescore --per-attempt`` prints for the
    attempt (its values exactly), with the run's model and track and the question's
    ordinal. The private columns ``raw_response`` and ``question_text`` only when
    ``private`` is true.

    Raises:
        AuditError: the file cannot be read as an audit database.
    """
    verdicts: list[AttemptVerdict] = []
    with open_audit(path) as db:
        runs = {run.run_id: run for run in db.runs()}
        questions = {question.question_id: question for question in db.questions()}
        rescore(db, on_attempt=verdicts.append)
        responses = {row[0]: row[5] for row in db.iter_rescore_rows()} if private else {}
    rows = [
        AttemptRow(
            v.to_json(), runs[v.run_id], questions[v.question_id], responses.get(v.attempt_id)
        )
        for v in verdicts
    ]
    return build_frame(rows, selected(ATTEMPT_COLUMNS, private))


def notes_df(path: PathLike, notes: str | None = None, *, private: bool = False) -> pd.DataFrame:
    """One row per flag and attempt note of the notes store, as it stands now (oldest first).

    Args:
        path: the audit database the notes are about.
        notes: the store (a file path or SQLAlchemy URL), as ``--notes`` takes it;
            ``None`` for the default (``AUDIT_DB.review.sqlite``, or the data folder).
        private: also the question, option and response texts (read from the
            audit file, never kept in the store).

    Columns: :data:`~ai4hse_desk.notes.NOTE_COLUMNS`, the columns of
    ``notes export`` with the option's letter beside its 0-based position. A store
    that does not exist yet is not created: the frame is then empty. An existing
    one is opened as the desk opens it (an older schema is migrated first).

    Raises:
        AuditError: the audit file cannot be read; ReviewError: the store cannot.
    """
    columns = selected(NOTE_COLUMNS, private)
    with open_audit(path) as db:
        where = resolve_location(db.path, notes)
        if where.path is not None and not Path(where.path).exists():
            return notes_frame([], columns)
        with NotesStore.open(db, notes) as store:
            return notes_frame(entries(store, private), columns)
