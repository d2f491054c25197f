"""A single-choice audit database with chain-of-thought replies, for benchmarks.

:func:`write_single_choice_demo` writes what an imported public single-answer
benchmark looks like after eight runs: questions grown from the demo corpus
(:func:`~.corpus.widened_corpus`, 4–6 options) with a one-hot key, eight
fictional models on the ``single_choice`` track, and per attempt a reply from
:mod:`.single_choice_text` (reasoning of 300–3,000 characters that never
repeats, then the letter in one of the common forms, a miss, or a letter
beyond the options), provider errors and generations cut off at the cap. The
recorded verdict is the desk's :func:`~ai4hse_desk.protocol.derive` on each
reply. The same arguments always give a byte-identical file.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import TYPE_CHECKING

from ai4hse_desk.protocol import Track, derive
from ai4hse_desk.writer.demo.attempts import INSERT_ATTEMPT, Row, Tally
from ai4hse_desk.writer.demo.corpus import insert_corpus, load_corpus, widened_corpus
from ai4hse_desk.writer.demo.database import BENCHMARK, CREATED_AT, DEFAULT_SEED, DemoSummary
from ai4hse_desk.writer.demo.pool import to_verdict, token_count
from ai4hse_desk.writer.demo.runs import MODELS, PROVIDERS, RunSpec, _at
from ai4hse_desk.writer.demo.single_choice_text import chain_of_thought, ending
from ai4hse_desk.writer.new_db import WriterError, new_audit_db

if TYPE_CHECKING:
    import os
    from collections.abc import Iterator

    from ai4hse_desk.writer.demo.corpus import DemoCorpus, DemoQuestion

MAX_ATTEMPTS = 1_000_000
RUNS = 8
REPETITIONS = 3
TEMPLATE = (
    "The following is a multiple choice question about health, safety and the environment. "
    'Think step by step and then finish your answer with "The answer is (X)" where X is '
    "the correct letter choice.\n\nQuestion: {question}\nOptions:\n{options}"
)
#: Share of replies cut off at the token cap (``finish_reason`` ``length``).
CUT_OFF_SHARE = 0.015


def _corpus(attempts: int) -> tuple[DemoCorpus, int]:
    """The questions (one-hot keys) and repetitions for about ``attempts`` attempts."""
    base = load_corpus()
    questions = min(10_000, max(len(base.questions), math.ceil(attempts / (RUNS * REPETITIONS))))
    repetitions = max(1, round(attempts / (RUNS * questions)))
    grown = widened_corpus(base, questions) if questions > len(base.questions) else base
    rng = random.Random(f"{DEFAULT_SEED}-single-choice-keys")
    single = []
    for q in grown.questions:
        right = rng.randrange(q.n)
        single.append(replace(q, key=tuple(i == right for i in range(q.n))))
    return replace(
        grown, corpus_id=f"{grown.corpus_id}-single", questions=tuple(single)
    ), repetitions


def _runs(repetitions: int) -> tuple[RunSpec, ...]:
    providers = tuple(PROVIDERS.values())
    return tuple(
        RunSpec(
            run_id=f"sc-{model.name}-{k + 1:02d}",
            model=model,
            provider=providers[k % len(providers)],
            provider_routing=None,
            track=Track.SINGLE_CHOICE,
            protocol_version=10,
            repetitions=repetitions,
            max_tokens=(1024, 2048, 4096, None)[k % 4],
            temperature=(0.0, None, 0.7)[k % 3],
            reasoning_effort="medium" if model.reasoner else None,
            concurrency=8,
            started_at=_at(f"2026-03-{k + 2:02d}T09:00:00"),
        )
        for k, model in enumerate(list(MODELS.values())[:RUNS])
    )


def _rows(runs: tuple[RunSpec, ...], corpus: DemoCorpus, seed: int, tally: Tally) -> Iterator[Row]:
    rng = random.Random(f"{seed}-single-choice")
    r = rng.random
    aid = 0
    for run in runs:
        provider = run.provider
        usual: dict[str, int] = {}
        for rep in range(1, run.repetitions + 1):
            for q in corpus.questions:
                aid += 1
                head = (aid, run.run_id, q.question_id, rep)
                if r() < provider.error_rate:
                    tally.count("provider_error")
                    error = provider.errors[int(r() * len(provider.errors))]
                    yield (*head, "provider_error", None, None, error, "provider_error",
                           None, 0, 0, None, None, None, 2000, CREATED_AT)  # fmt: skip
                    continue
                choice = usual.get(q.question_id)
                if choice is None or r() > 0.7:
                    choice = usual[q.question_id] = _choose(run, q, rng)
                text = chain_of_thought(choice, q.options, ending(rng), rng)
                reason = provider.stop_reason
                if r() < CUT_OFF_SHARE and len(text) > 40:
                    text, reason = text[: int(len(text) * (0.3 + 0.6 * r()))], provider.cut_reason
                extraction = derive(run.track, text, q.n, finish_reason=reason)
                verdict = to_verdict(extraction)
                correct = int(extraction.is_correct(q.key))
                tally.count(verdict.status)
                tokens = token_count(text)
                yield (*head, "answered", text, reason, None, verdict.status, verdict.extracted,
                       verdict.strict, correct, 180 + 4 * q.n, tokens, None,
                       int(run.model.first_token_ms + tokens * run.model.ms_per_token),
                       CREATED_AT)  # fmt: skip


def _choose(run: RunSpec, q: DemoQuestion, rng: random.Random) -> int:
    """The option a model picks: the key with its skill, else another option."""
    right = q.key.index(True)
    if rng.random() < min(0.95, run.model.skill + 0.25):
        return right
    return (right + 1 + rng.randrange(q.n - 1)) % q.n


def write_single_choice_demo(
    path: str | os.PathLike[str], *, attempts: int = 100_000, seed: int = DEFAULT_SEED
) -> DemoSummary:
    """Write the single-choice benchmark database (schema v1) to a new file.

    Args:
        path: destination; must not exist (never overwritten).
        attempts: about this many attempts (1 to 1,000,000; at least 100
            questions × 8 runs are written).
        seed: seed of the replies; the same arguments give the same bytes.

    Raises:
        WriterError: the file exists, its directory is missing, or
            ``attempts`` is out of range.
    """
    if not 1 <= attempts <= MAX_ATTEMPTS:
        raise WriterError(f"attempts must be between 1 and {MAX_ATTEMPTS:,}, not {attempts:,}")
    corpus, repetitions = _corpus(attempts)
    runs = _runs(repetitions)
    tally = Tally()
    meta = {
        "benchmark": BENCHMARK,
        "corpus_id": corpus.corpus_id,
        "created_at": CREATED_AT,
        "generator": "ai4hse-desk single-choice demo",
        "demo_seed": str(seed),
        "note": "Demo data: fictional models and runs; not real benchmark results.",
    }
    with new_audit_db(path, meta) as conn:
        insert_corpus(conn, corpus)
        conn.executemany(
            "INSERT INTO runs (run_id, model, provider, track, protocol_version, repetitions,"
            " max_tokens, temperature, reasoning_effort, concurrency, status, prompt_template,"
            " started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'complete', ?, ?, ?)",
            [
                (run.run_id, run.model.name, run.provider.name, run.track.value,
                 run.protocol_version, run.repetitions, run.max_tokens, run.temperature,
                 run.reasoning_effort, run.concurrency, TEMPLATE,
                 run.started_at.strftime("%Y-%m-%dT%H:%M:%SZ"), CREATED_AT)
                for run in runs
            ],
        )  # fmt: skip
        conn.executemany(INSERT_ATTEMPT, _rows(runs, corpus, seed, tally))
    return DemoSummary(
        path=conn.final_path,
        questions=len(corpus.questions),
        runs=len(runs),
        attempts=tally.attempts,
        disagreements=0,
        statuses=dict(sorted(tally.statuses.items())),
        size_bytes=conn.final_path.stat().st_size,
    )
