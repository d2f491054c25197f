"""The desk's figures as pandas DataFrames, for notebooks: read-only, typed, columns declared.

    >>> from ai4hse_desk.analysis import attempts_df, runs_df
    >>> runs = runs_df("audit.sqlite")            # one row per run, every rescore figure
    >>> attempts_df("audit.sqlite").query("not agrees")   # where the runner differs

* :func:`runs_df` — one row per run: every figure of ``ai4hse-desk rescore``
  (:data:`RUN_COLUMNS`), exactly as it prints them, ``errors`` and ``baselines``
  flattened, then the run's settings.
* :func:`attempts_df` — one row per attempt: ``rescore --per-attempt`` (the
  desk's status, selection, strict format and verdict, the runner's recorded
  status and whether they agree) with the run's model and track and the
  question's ordinal (:data:`ATTEMPT_COLUMNS`); the response and question texts
  only with ``private=True``.
* :func:`notes_df` — one row per flag and attempt note of the notes store, as it
  stands now, with the option letter beside its position (:data:`NOTE_COLUMNS`).

Each declaration is a tuple of :class:`FrameColumn` (name, pandas dtype, what it
holds, private or not); :func:`column_docs` prints one. Missing values are
``<NA>`` (nullable dtypes), never 0. The audit file is opened read-only and no
cache is filled; a notes store that does not exist is not created, and an existing
one is opened as the desk opens it (brought to the current schema if it is older).
pandas is imported when a frame is built, not with this package.
"""

from ai4hse_desk.analysis._attempts import ATTEMPT_COLUMNS
from ai4hse_desk.analysis._frames import attempts_df, notes_df, runs_df
from ai4hse_desk.display.frames import FrameColumn, column_docs
from ai4hse_desk.notes.frames import NOTE_COLUMNS
from ai4hse_desk.scores.frames import RUN_COLUMNS

__all__ = [
    "ATTEMPT_COLUMNS",
    "NOTE_COLUMNS",
    "RUN_COLUMNS",
    "FrameColumn",
    "attempts_df",
    "column_docs",
    "notes_df",
    "runs_df",
]
