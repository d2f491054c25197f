"""The official scores of one audit state, computed once and kept in the cache folder.

The scores dashboard shows exactly what ``rescore`` prints (cli.md). Computing
them means re-deriving every attempt, so the result is kept as a small JSON
file in the user cache folder (:func:`ai4hse_desk.index.cache_dir`, never
beside the audit file), keyed by the audit fingerprint and the desk version:
a new desk version, or any change to the audit file's bytes, recomputes.

JSON keeps every float exactly (Python writes the shortest repr that reads
back to the same double), so cached numbers equal a fresh rescore's to the
last digit. A damaged or foreign cache file is ignored and replaced.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ai4hse_desk import __version__
from ai4hse_desk.filewrite import WriteRefused, write_text
from ai4hse_desk.index import cache_dir
from ai4hse_desk.verdicts.rescore import RescoreResult, rescore
from ai4hse_desk.verdicts.scoring import score_verdicts, with_progress

if TYPE_CHECKING:
    from pathlib import Path

    from ai4hse_desk.audit import AuditDB, Question, Run
    from ai4hse_desk.index import ReviewIndex
    from ai4hse_desk.progress import Progress

#: ``format`` of a scores cache file.
CACHE_FORMAT = "ai4hse-desk-scores"
#: Layout version of a scores cache file.
CACHE_VERSION = 1
_NAME_LENGTH = 32
_HEX = frozenset("0123456789abcdef")


def scores_cache_path(fingerprint: str) -> Path:
    """``<cache>/scores-<fingerprint[:32]>.json``.

    Raises:
        ValueError: ``fingerprint`` is not a hex SHA-256.
    """
    if len(fingerprint) < _NAME_LENGTH or not set(fingerprint) <= _HEX:
        raise ValueError(f"not a SHA-256 hex fingerprint: {fingerprint!r}")
    return cache_dir() / f"scores-{fingerprint[:_NAME_LENGTH]}.json"


def read_cached(fingerprint: str) -> RescoreResult | None:
    """The cached scores of this audit state by this desk version, or ``None``."""
    path = scores_cache_path(fingerprint)
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    expected = (CACHE_FORMAT, CACHE_VERSION, __version__, fingerprint)
    found = tuple(data.get(key) for key in ("format", "version", "desk_version", "fingerprint"))
    runs, attempts = data.get("runs"), data.get("attempts")
    if found != expected or not isinstance(runs, list) or not isinstance(attempts, int):
        return None
    if not all(isinstance(run, dict) for run in runs):
        return None
    return RescoreResult(runs=runs, attempts=attempts)


def write_cached(fingerprint: str, result: RescoreResult) -> Path:
    """Store ``result`` for this audit state (atomically: temp file, then rename)."""
    path = scores_cache_path(fingerprint)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "format": CACHE_FORMAT,
        "version": CACHE_VERSION,
        "desk_version": __version__,
        "fingerprint": fingerprint,
        "attempts": result.attempts,
        "runs": result.runs,
    }
    return write_text(path, json.dumps(payload, allow_nan=False))


def compute_scores(
    db: AuditDB,
    *,
    progress: Progress | None = None,
    use_cache: bool = True,
    index: ReviewIndex | None = None,
) -> RescoreResult:
    """The official scores of ``db``: from the cache, else scored (and cached).

    Args:
        progress: reports and may cancel (then
            :class:`~ai4hse_desk.verdicts.rescore.RescoreCancelled` is raised and
            nothing is cached).
        use_cache: False to score again even when a cached result exists.
        index: the review index of ``db``: its stored verdicts are scored (no
            second derivation; the figures equal ``rescore``'s). Without it the
            attempts are rescored.
    """
    fingerprint = db.fingerprint()
    if use_cache:
        cached = read_cached(fingerprint)
        if cached is not None:
            return cached
    if index is not None:
        batches = with_progress(index.verdict_batches(), index.total(), progress)
        result = score_verdicts(db, batches)
    else:
        result = rescore(db) if progress is None else rescore(db, progress=progress)
    # A read-only cache folder only costs the next start a recomputation.
    db.verify_unchanged()  # never cache scores of a file that changed while read
    with contextlib.suppress(OSError, WriteRefused):
        write_cached(fingerprint, result)
    return result


@dataclass(frozen=True, slots=True)
class ScoresData:
    """What the scores dashboard shows of one audit state.

    Attributes:
        result: the official scores, exactly ``rescore``'s run objects.
        settings: run id → the run's settings.
        questions: every question (the sensitivity exploration lists them).
        consistency_facet: the facet the consistency index is computed over.
    """

    result: RescoreResult
    settings: dict[str, Run]
    questions: list[Question]
    consistency_facet: str


def load_scores(
    db: AuditDB,
    progress: Progress | None = None,
    *,
    use_cache: bool = True,
    index: ReviewIndex | None = None,
) -> ScoresData:
    """The official scores (see :func:`compute_scores`) and what the tables need beside them."""
    return ScoresData(
        result=compute_scores(db, progress=progress, use_cache=use_cache, index=index),
        settings={run.run_id: run for run in db.runs()},
        questions=db.questions(),
        consistency_facet=db.meta.get("consistency_facet", "topic"),
    )
