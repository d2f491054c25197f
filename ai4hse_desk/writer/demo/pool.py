"""Responses and verdicts for the demo, cached so that millions of rows stay cheap.

The runner's recorded verdict (``parse_status``, ``extracted``,
``strict_format``) is the desk's own :func:`~ai4hse_desk.protocol.derive` on
the response, computed once per distinct response and reused; only the
deliberate disagreements of :mod:`ai4hse_desk.writer.demo.specials` differ.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from ai4hse_desk.protocol import Extraction, Track, derive
from ai4hse_desk.writer.demo import replies_answer_only, replies_reasoning, replies_structured
from ai4hse_desk.writer.demo.replies import Behaviour, Kind, Rendered, Selection

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ai4hse_desk.writer.demo.corpus import DemoQuestion
    from ai4hse_desk.writer.demo.runs import RunSpec

BEHAVIOURS: dict[Track, tuple[Behaviour, ...]] = {
    Track.ANSWER_ONLY: replies_answer_only.BEHAVIOURS,
    Track.REASONING_ASSISTED: replies_reasoning.BEHAVIOURS,
    Track.STRUCTURED_OUTPUT: replies_structured.BEHAVIOURS,
}


class Verdict(NamedTuple):
    """A verdict as stored in ``attempts`` (``extracted`` as JSON text)."""

    status: str
    extracted: str | None
    strict: int
    bits: int  # the extracted selection as bits; -1 when nothing was extracted

    def correct(self, key_bits: int) -> int:
        """1 when the status is valid and the selection equals the key."""
        return int(self.status == "valid" and self.bits == key_bits)


class PoolEntry(NamedTuple):
    """One cached response with the finish reason it came with and its verdict."""

    text: str
    finish_reason: str | None
    verdict: Verdict
    tokens: int  # visible completion tokens


def selection_of(bits: int, n: int) -> Selection:
    """The selection whose bit ``i`` is option ``i``."""
    return tuple(bool(bits >> i & 1) for i in range(n))


def bits_of(selection: Sequence[bool]) -> int:
    """Inverse of :func:`selection_of`."""
    return sum(1 << i for i, value in enumerate(selection) if value)


def extracted_json(selection: Sequence[bool] | None) -> str | None:
    """The runner's ``extracted`` text, e.g. ``[true,false]``; None for no selection."""
    if selection is None:
        return None
    return "[" + ",".join("true" if value else "false" for value in selection) + "]"


def to_verdict(extraction: Extraction) -> Verdict:
    """The stored form of an extraction."""
    sel = extraction.selection
    return Verdict(
        extraction.status.value,
        extracted_json(sel),
        int(extraction.strict_format),
        -1 if sel is None else bits_of(sel),
    )


def token_count(text: str) -> int:
    """A rough token count for a response (about four characters a token)."""
    return len(text) // 4 + 1


def cut_off_weight(run: RunSpec) -> float:
    """How much more often than average generations hit this run's token cap."""
    cap = run.max_tokens
    if run.track is Track.REASONING_ASSISTED:
        tiers = ((1024, 3.0), (2048, 1.5), (8192, 0.8))
        fallback = 0.4
    else:
        tiers = ((32, 2.5), (64, 1.2), (256, 0.6))
        fallback = 0.3
    if cap is None:
        return fallback
    return next((weight for limit, weight in tiers if cap <= limit), fallback)


def behaviour_weights(run: RunSpec) -> list[float]:
    """The run's weight per behaviour of its track (model noise, token cap)."""
    scale = {Kind.CLEAN: 1.0, Kind.NOISE: run.model.noise, Kind.CUT_OFF: cut_off_weight(run)}
    return [b.weight * scale[b.kind] for b in BEHAVIOURS[run.track]]


def finish_reason(run: RunSpec, rendered: Rendered) -> str | None:
    """What the run's provider reports for a rendered response."""
    return run.provider.cut_reason if rendered.cut_off else run.provider.stop_reason


def judge(run: RunSpec, question: DemoQuestion, rendered: Rendered) -> Verdict:
    """The protocol's verdict on a rendered response (uncached)."""
    extraction = derive(
        run.track,
        rendered.text,
        question.n,
        protocol_version=run.protocol_version,
        finish_reason=finish_reason(run, rendered),
    )
    return to_verdict(extraction)


class ResponsePool:
    """Renders responses and derives their verdicts once per distinct response.

    Three caches: the entry per (run settings, behaviour, variant, question or
    option count, selection) for the hot path; the rendered text, shared by
    runs of every provider and protocol version; and the verdict per distinct
    ``(track, n, protocol_version, finish_reason, response)``, the only place
    :func:`~ai4hse_desk.protocol.derive` is called.
    """

    def __init__(self) -> None:
        self._entries: dict[tuple[object, ...], PoolEntry] = {}
        self._rendered: dict[tuple[object, ...], Rendered] = {}
        self._verdicts: dict[tuple[object, ...], Verdict] = {}

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def derive_calls(self) -> int:
        """How many times the protocol was applied (distinct responses)."""
        return len(self._verdicts)

    def get(
        self, run: RunSpec, question: DemoQuestion, bits: int, behaviour: int, variant: int
    ) -> PoolEntry:
        """The response of ``behaviour``/``variant`` for a selection, with its verdict."""
        b = BEHAVIOURS[run.track][behaviour]
        scope = question.ordinal if b.per_question else -question.n
        key = (run.track, run.protocol_version, run.provider.name, behaviour, variant, scope, bits)
        entry = self._entries.get(key)
        if entry is None:
            text_key = (run.track, behaviour, variant, scope, bits)
            rendered = self._rendered.get(text_key)
            if rendered is None:
                rendered = b.render(selection_of(bits, question.n), question.options, variant)
                self._rendered[text_key] = rendered
            entry = self._entries[key] = self._entry(run, question, rendered)
        return entry

    def _entry(self, run: RunSpec, question: DemoQuestion, rendered: Rendered) -> PoolEntry:
        reason = finish_reason(run, rendered)
        verdict_key = (run.track, question.n, run.protocol_version, reason, rendered.text)
        verdict = self._verdicts.get(verdict_key)
        if verdict is None:
            verdict = self._verdicts[verdict_key] = judge(run, question, rendered)
        return PoolEntry(rendered.text, reason, verdict, token_count(rendered.text))
