"""Rows of the demo's ``attempts`` table, streamed run by run.

How an attempt is made up:

* the model's selection: per run and question a *usual* answer (repetitions
  agree about 70 % of the time), correct with a probability that depends on
  the model's skill, the question's difficulty, a per-question latent and the
  track; weak models drift towards "all TRUE"; on two questions strong models
  agree on an answer that differs from the key (evidence for the key audit);
* the provider may fail (``provider_error``), and an unfinished run stops
  with a burst of errors and leaves its last attempts ``pending``;
* otherwise a weighted behaviour of the track renders the response, and the
  recorded verdict is the protocol's (cached per distinct response), except
  the deliberate disagreements of :mod:`ai4hse_desk.writer.demo.specials`.
"""

from __future__ import annotations

import random
import time
from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import accumulate
from typing import TYPE_CHECKING

from ai4hse_desk.protocol import Track
from ai4hse_desk.writer.demo.corpus import DemoQuestion, render_prompt
from ai4hse_desk.writer.demo.pool import (
    BEHAVIOURS,
    ResponsePool,
    Verdict,
    behaviour_weights,
    finish_reason,
    judge,
    selection_of,
    token_count,
)
from ai4hse_desk.writer.demo.replies import VARIANTS
from ai4hse_desk.writer.demo.specials import DISAGREEMENT_RATE, Special, disagreement

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping

    from ai4hse_desk.writer.demo.runs import RunSpec

COLUMNS: tuple[str, ...] = (
    "attempt_id", "run_id", "question_id", "repetition", "state", "raw_response",
    "finish_reason", "error", "parse_status", "extracted", "strict_format", "correct",
    "prompt_tokens", "completion_tokens", "reasoning_tokens", "latency_ms", "created_at",
)  # fmt: skip
INSERT_ATTEMPT = (
    f"INSERT INTO attempts ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})"
)
Row = tuple[object, ...]

STICKINESS = 0.7
DIFFICULTY = {"easy": 0.18, "medium": 0.0, "hard": -0.22}
DISPUTED = {"Q060": 0, "Q072": 1}  # question -> option strong models read the other way
EFFORT_TOKENS = {"low": 350, "medium": 1200, "high": 3200}
DEFAULT_CAP = 4096  # the providers' cap when a run sets no max_tokens
STOP_AFTER = 55  # an unfinished run fails at this ordinal of its last repetition
OUTAGE = "HTTP 503 Service Unavailable: upstream overloaded, scheduling stopped"


@dataclass
class Tally:
    """What was written: counts, the desk's statuses, and each run's end time."""

    attempts: int = 0
    disagreements: int = 0
    statuses: dict[str, int] = field(default_factory=dict)
    finished_at: dict[str, str] = field(default_factory=dict)

    def count(self, status: str) -> None:
        """Count one attempt with the desk's ``status``."""
        self.attempts += 1
        self.statuses[status] = self.statuses.get(status, 0) + 1


class _Clock:
    """Deterministic wall clock of a run, advanced by each attempt."""

    def __init__(self, run: RunSpec) -> None:
        self.ms = int(run.started_at.timestamp() * 1000)
        self._second = -1
        self._prefix = ""

    def advance(self, ms: float) -> str:
        self.ms += int(ms)
        second, milli = divmod(self.ms, 1000)
        if second != self._second:
            self._second = second
            self._prefix = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        return f"{self._prefix}.{milli:03d}Z"


class AttemptWriter:
    """Generates attempt rows for runs over one corpus (deterministic for a seed)."""

    def __init__(
        self,
        questions: tuple[DemoQuestion, ...],
        seed: int,
        specials: Mapping[tuple[str, int, int], Special] | None = None,
    ) -> None:
        self.questions = questions
        self.rng = random.Random(seed)
        latent = random.Random(f"{seed}-questions")
        self.latent = [latent.uniform(-0.12, 0.12) for _ in questions]
        self.specials = specials or {}
        self.pool = ResponsePool()
        self.tally = Tally()
        self._next_id = 1

    def rows(self, runs: tuple[RunSpec, ...]) -> Iterator[Row]:
        """All attempt rows of ``runs``, run by run, repetition by repetition."""
        for run in runs:
            yield from self._run(run)

    def _chance(self, run: RunSpec, q: DemoQuestion, i: int) -> float:
        bonus = {Track.REASONING_ASSISTED: 0.05, Track.STRUCTURED_OUTPUT: -0.02}.get(run.track, 0)
        if run.model.reasoner:
            bonus += 0.08 if run.track is Track.REASONING_ASSISTED else -0.02
        p = run.model.skill + DIFFICULTY[q.difficulty] + bonus + self.latent[i]
        return min(0.97, max(0.02, p))

    def _draw(self, run: RunSpec, q: DemoQuestion, p_ok: float) -> int:
        r = self.rng.random
        key, n = q.key_bits, q.n
        if r() < p_ok:
            if q.question_id in DISPUTED and run.model.skill >= 0.55 and r() < 0.75:
                return key ^ 1 << DISPUTED[q.question_id]
            return key
        if run.model.skill < 0.3 and r() < 0.15 and key != (1 << n) - 1:
            return (1 << n) - 1
        bits = key ^ 1 << int(r() * n)
        if r() < 0.3:
            bits ^= 1 << int(r() * n)
        return bits if bits != key else key ^ 1

    def _run(self, run: RunSpec) -> Iterator[Row]:
        r = self.rng.random
        qs, tally = self.questions, self.tally
        cum = list(accumulate(behaviour_weights(run)))
        total = cum[-1]
        names = {b.name: i for i, b in enumerate(BEHAVIOURS[run.track])}
        p_ok = [self._chance(run, q, i) for i, q in enumerate(qs)]
        prompt = [token_count(render_prompt(run.template, q)) for q in qs]
        usual: list[int | None] = [None] * len(qs)
        provider, clock = run.provider, _Clock(run)
        for rep in range(1, run.repetitions + 1):
            last = run.unfinished and rep == run.repetitions
            for i, q in enumerate(qs):
                aid, self._next_id = self._next_id, self._next_id + 1
                head = (aid, run.run_id, q.question_id, rep)
                if last and q.ordinal > STOP_AFTER + 2:
                    tally.count("pending")
                    yield (*head, "pending", *(None,) * 12)
                    continue
                if (last and q.ordinal >= STOP_AFTER) or r() < provider.error_rate:
                    error = OUTAGE if last else provider.errors[int(r() * len(provider.errors))]
                    latency = 120_000 if "timeout" in error else int(150 + 2500 * r())
                    stamp = clock.advance(latency / run.concurrency)
                    tally.count("provider_error")
                    yield (*head, "provider_error", None, None, error, "provider_error",
                           None, 0, 0, None, None, None, latency, stamp)  # fmt: skip
                    continue
                bits = usual[i]
                if bits is None:
                    bits = usual[i] = self._draw(run, q, p_ok[i])
                elif r() >= STICKINESS:
                    bits = self._draw(run, q, p_ok[i])
                special = self.specials.get((run.run_id, rep, q.ordinal))
                if special is None and r() >= DISAGREEMENT_RATE:
                    behaviour = bisect_right(cum, r() * total)
                    entry = self.pool.get(run, q, bits, behaviour, int(r() * VARIANTS))
                    text, reason, recorded = entry.text, entry.finish_reason, entry.verdict
                    desk, visible = recorded, entry.tokens
                else:
                    text, reason, recorded, desk = self._special(run, q, bits, special, names)
                    visible = token_count(text)
                correct = recorded.correct(q.key_bits)
                tally.count(desk.status)
                if recorded != desk or correct != desk.correct(q.key_bits):
                    tally.disagreements += 1
                completion, reasoning, latency = self._usage(run, visible, reason)
                yield (*head, "answered", text, reason, None, recorded.status, recorded.extracted,
                       recorded.strict, correct, prompt[i], completion, reasoning, latency,
                       clock.advance(latency / run.concurrency))  # fmt: skip
        if not run.unfinished:
            tally.finished_at[run.run_id] = clock.advance(0)

    def _usage(
        self, run: RunSpec, visible: int, finish_reason: str | None
    ) -> tuple[int, int | None, int]:
        """Completion tokens, reasoning tokens and latency of one answered attempt."""
        r = self.rng.random
        model, cap = run.model, run.max_tokens or DEFAULT_CAP
        reasoning = None
        if model.reasoner:
            effort = EFFORT_TOKENS.get(run.reasoning_effort or "", 800)
            reasoning = int(effort * (0.4 + 1.2 * r()))
        elif run.track is Track.REASONING_ASSISTED:
            reasoning = 0
        completion = visible + (reasoning or 0)
        if finish_reason == run.provider.cut_reason:
            completion = cap
            reasoning = None if reasoning is None else max(0, min(reasoning, cap - visible))
        latency = int(model.first_token_ms + completion * model.ms_per_token * (0.75 + r() / 2))
        return completion, reasoning, latency

    def _special(
        self,
        run: RunSpec,
        q: DemoQuestion,
        bits: int,
        special: Special | None,
        names: dict[str, int],
    ) -> tuple[str, str | None, Verdict, Verdict]:
        """A hand-placed attempt, or a random deliberate disagreement (``special`` None)."""
        variant = int(self.rng.random() * VARIANTS)
        if special is not None and special.behaviour is not None:
            entry = self.pool.get(run, q, bits, names[special.behaviour], variant)
            return entry.text, entry.finish_reason, entry.verdict, entry.verdict
        selection = selection_of(bits, q.n)
        if special is not None and special.render is not None:
            rendered = special.render(selection, q.options, variant)
            verdict = judge(run, q, rendered)
            return rendered.text, finish_reason(run, rendered), verdict, verdict
        rendered, recorded, desk = disagreement(run, q, selection, int(self.rng.random() * 6))
        return rendered.text, finish_reason(run, rendered), recorded, desk
