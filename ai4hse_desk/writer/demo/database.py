"""The demo audit database: realistic, fictional, deterministic.

``write_demo(path)`` writes the built-in demo: the 100 demo questions, eight
runs of four fictional models over the three tracks (3 repetitions each; one
run under protocol v9, one unfinished with pending attempts), every status of
protocol.md section 2, a few deliberate runner mistakes, and responses that a
window must display safely. ``write_demo(path, attempts=N)`` writes a larger
database of about ``N`` attempts for benchmarks (up to a million), with the
same spread of behaviour but without the 200 KB response.

The same arguments always give a byte-identical file: all randomness comes
from ``random.Random(seed)`` and every timestamp is fixed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ai4hse_desk.writer.demo.attempts import INSERT_ATTEMPT, AttemptWriter
from ai4hse_desk.writer.demo.corpus import insert_corpus, load_corpus, widened_corpus
from ai4hse_desk.writer.demo.realistic import RealisticAttemptWriter
from ai4hse_desk.writer.demo.runs import RunSpec, default_runs, scaled_runs
from ai4hse_desk.writer.demo.specials import plan_specials
from ai4hse_desk.writer.new_db import WriterError, new_audit_db

if TYPE_CHECKING:
    import os
    import sqlite3
    from collections.abc import Mapping

DEFAULT_SEED = 20261001
BENCHMARK = "AI4HSE-Bench v1"
CREATED_AT = "2026-10-01T12:00:00Z"
MAX_ATTEMPTS = 1_000_000
#: Above this many attempts a scaled database uses 10 repetitions per run, not 3.
MANY_ATTEMPTS = 150_000


@dataclass(frozen=True, slots=True)
class DemoSummary:
    """What :func:`write_demo` wrote.

    Attributes:
        path: the new database.
        questions: number of questions.
        runs: number of runs.
        attempts: number of attempts.
        disagreements: attempts whose recorded verdict deliberately differs
            from the protocol's.
        statuses: attempts per status as the protocol derives it.
        size_bytes: size of the file.
    """

    path: Path
    questions: int
    runs: int
    attempts: int
    disagreements: int
    statuses: Mapping[str, int]
    size_bytes: int


def _runs_for(attempts: int | None, questions: int) -> tuple[RunSpec, ...]:
    if attempts is None:
        return default_runs()
    if not 1 <= attempts <= MAX_ATTEMPTS:
        raise WriterError(f"attempts must be between 1 and {MAX_ATTEMPTS:,}, not {attempts:,}")
    repetitions = 10 if attempts > MANY_ATTEMPTS else 3
    count = max(6, round(attempts / (repetitions * questions)))
    return scaled_runs(count, repetitions)


def _run_row(run: RunSpec) -> tuple[object, ...]:
    return (
        run.run_id,
        run.model.name,
        run.provider.name,
        run.provider_routing,
        run.track.value,
        run.protocol_version,
        run.repetitions,
        run.max_tokens,
        run.temperature,
        run.reasoning_effort,
        run.concurrency,
        "unfinished" if run.unfinished else "complete",
        run.template,
        run.started_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
    )


def _insert_runs(conn: sqlite3.Connection, runs: tuple[RunSpec, ...]) -> None:
    conn.executemany(
        "INSERT INTO runs (run_id, model, provider, provider_routing, track, protocol_version,"
        " repetitions, max_tokens, temperature, reasoning_effort, concurrency, status,"
        " prompt_template, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [_run_row(run) for run in runs],
    )


def write_demo(
    path: str | os.PathLike[str],
    *,
    attempts: int | None = None,
    seed: int = DEFAULT_SEED,
    questions: int | None = None,
    realistic: bool = False,
) -> DemoSummary:
    """Write the demo audit database (schema v1) to a new file.

    Args:
        path: destination; must not exist (never overwritten).
        attempts: ``None`` for the built-in demo; otherwise scale to about
            this many attempts (1 to 1,000,000; at least 6 runs of 100
            questions are always written).
        seed: seed of all randomness; the same arguments give the same bytes.
        questions: ``None`` for the 100 written questions; otherwise the corpus
            grown to this many (:func:`~.corpus.widened_corpus`).
        realistic: True for responses with the length and variety of real
            runs (:mod:`.realistic`); the same outcomes, other texts.

    Returns:
        A summary of what was written.

    Raises:
        WriterError: the file exists, its directory is missing, or
            ``attempts`` is out of range.
    """
    corpus = load_corpus() if questions is None else widened_corpus(load_corpus(), questions)
    runs = _runs_for(attempts, len(corpus.questions))
    specials = plan_specials(runs) if attempts is None and questions is None else None
    writer_class = RealisticAttemptWriter if realistic else AttemptWriter
    writer = writer_class(corpus.questions, seed, specials)
    meta = {
        "benchmark": BENCHMARK,
        "corpus_id": corpus.corpus_id,
        "created_at": CREATED_AT,
        "generator": "ai4hse-desk demo",
        "demo_seed": str(seed),
        "note": "Demo data: fictional models, providers and runs; not real benchmark results.",
    }
    if realistic:
        meta["demo_realistic"] = "1"
    with new_audit_db(path, meta) as conn:
        insert_corpus(conn, corpus)
        _insert_runs(conn, runs)
        conn.executemany(INSERT_ATTEMPT, writer.rows(runs))
        conn.executemany(
            "UPDATE runs SET finished_at = ? WHERE run_id = ?",
            [(stamp, run_id) for run_id, stamp in writer.tally.finished_at.items()],
        )
    final = Path(path)
    tally = writer.tally
    return DemoSummary(
        path=final,
        questions=len(corpus.questions),
        runs=len(runs),
        attempts=tally.attempts,
        disagreements=tally.disagreements,
        statuses=dict(sorted(tally.statuses.items())),
        size_bytes=final.stat().st_size,
    )
