"""The demo's runs: fictional models and providers, settings, prompt templates.

Every model and provider name here is invented. The default demo has eight
hand-picked runs over the three tracks; :func:`scaled_runs` generates as many
runs as a benchmark database needs, cycling models, tracks and settings.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from ai4hse_desk.protocol import Track


@dataclass(frozen=True, slots=True)
class Model:
    """A fictional model: knowledge, format discipline and speed."""

    name: str
    skill: float  # base probability of a fully correct selection (medium question)
    noise: float  # multiplier of format-slip weights (1 = average)
    reasoner: bool  # better on the reasoning track, emits reasoning tokens
    first_token_ms: int
    ms_per_token: float


@dataclass(frozen=True, slots=True)
class Provider:
    """A fictional provider: its finish reasons and how often it fails."""

    name: str
    stop_reason: str | None
    cut_reason: str
    error_rate: float
    errors: tuple[str, ...]


MODELS: dict[str, Model] = {
    m.name: m
    for m in (
        Model("aurora-7b", 0.40, 1.4, False, 180, 9.0),
        Model("borealis-large", 0.70, 0.35, False, 420, 22.0),
        Model("cirrus-mini", 0.26, 1.9, False, 120, 6.0),
        Model("delta-reasoner", 0.62, 0.6, True, 900, 14.0),
        Model("echo-13b", 0.48, 1.1, False, 220, 11.0),
        Model("fjord-70b", 0.64, 0.5, False, 380, 19.0),
        Model("glacier-nano", 0.18, 2.6, False, 90, 4.0),
        Model("halo-thinker", 0.56, 1.0, True, 700, 12.0),
    )
}

_COMMON_ERRORS = ("HTTP 429 Too Many Requests: rate limited, retry after 20 s", "upstream timeout")
PROVIDERS: dict[str, Provider] = {
    p.name: p
    for p in (
        Provider(
            "nimbus-cloud", "stop", "length", 0.010, (*_COMMON_ERRORS, "HTTP 502 Bad Gateway")
        ),
        Provider(
            "stratus-api",
            "end_turn",
            "max_tokens",
            0.006,
            (*_COMMON_ERRORS, "HTTP 529 overloaded_error: the model is overloaded"),
        ),
        Provider(
            "cumulus-gateway",
            "completed",
            "max_output_tokens",
            0.015,
            (*_COMMON_ERRORS, "HTTP 503 Service Unavailable", "connection reset by peer"),
        ),
        Provider("local-vllm", None, "length", 0.004, ("upstream timeout", "CUDA out of memory")),
    )
}

_BASE = (
    "You are answering one multiple-select question on health, safety and the environment.\n\n"
    "Question: {question}\n\nOptions:\n{options}\n\n"
)
TEMPLATES: dict[tuple[str, int], str] = {
    ("answer_only", 10): _BASE
    + "Reply with one TRUE or FALSE per option, in the order given, as a list such as "
    "[TRUE, FALSE, TRUE, FALSE]. Return the list only.",
    ("answer_only", 9): _BASE
    + "Return exactly one list of {n} values, TRUE or FALSE, in option order, "
    "e.g. [TRUE, FALSE, TRUE, FALSE]. Output nothing else.",
    ("reasoning_assisted", 10): _BASE
    + "Explain briefly, then end with exactly one final line:\nFINAL_ANSWER: [TRUE, FALSE, ...]\n"
    "with one TRUE or FALSE per option, in order.",
    ("structured_output", 10): _BASE
    + 'Respond with a JSON object {{"answers": [...]}} holding one JSON boolean per option, '
    "in order, and nothing else. Schema: answers is an array of exactly {n} booleans.",
}


@dataclass(frozen=True, slots=True)
class RunSpec:
    """One run to generate (a row of ``runs`` plus how its attempts behave)."""

    run_id: str
    model: Model
    provider: Provider
    provider_routing: str | None
    track: Track
    protocol_version: int
    repetitions: int
    max_tokens: int | None
    temperature: float | None
    reasoning_effort: str | None
    concurrency: int
    started_at: datetime
    unfinished: bool = False

    @property
    def template(self) -> str:
        """The prompt template recorded for the run."""
        version = 9 if self.protocol_version < 10 else 10
        return TEMPLATES[(self.track.value, version)]


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def default_runs() -> tuple[RunSpec, ...]:
    """The eight runs of the default demo (one unfinished, one under protocol v9)."""
    ao, ra, so = Track.ANSWER_ONLY, Track.REASONING_ASSISTED, Track.STRUCTURED_OUTPUT
    m, p = MODELS, PROVIDERS
    return (
        RunSpec("ao-aurora-7b-2026-09-03", m["aurora-7b"], p["nimbus-cloud"], None,
                ao, 10, 3, 64, 0.0, None, 8, _at("2026-09-03T08:12:05")),
        RunSpec("ao-borealis-large-2026-09-04", m["borealis-large"], p["stratus-api"],
                "order=stratus-api; allow_fallbacks=false", ao, 10, 3, 256, None, None, 16,
                _at("2026-09-04T13:40:00")),
        RunSpec("ao-cirrus-mini-2026-06-12", m["cirrus-mini"], p["local-vllm"], None,
                ao, 9, 3, 32, 0.2, None, 4, _at("2026-06-12T09:00:31")),
        RunSpec("ra-delta-reasoner-2026-09-10", m["delta-reasoner"], p["cumulus-gateway"],
                "provider=cumulus-gateway; quantization=bf16", ra, 10, 3, 65536, None, "high", 4,
                _at("2026-09-10T07:55:12")),
        RunSpec("ra-borealis-large-2026-09-11", m["borealis-large"], p["stratus-api"],
                "order=stratus-api; allow_fallbacks=false", ra, 10, 3, 2048, 0.3, "medium", 8,
                _at("2026-09-11T10:02:44")),
        RunSpec("so-aurora-7b-2026-09-15", m["aurora-7b"], p["nimbus-cloud"], None,
                so, 10, 3, 128, 0.0, None, 8, _at("2026-09-15T16:20:09")),
        RunSpec("so-delta-reasoner-2026-09-16", m["delta-reasoner"], p["cumulus-gateway"],
                "provider=cumulus-gateway; quantization=bf16", so, 10, 3, 4096, None, "low", 4,
                _at("2026-09-16T11:11:11")),
        RunSpec("ra-cirrus-mini-2026-09-20", m["cirrus-mini"], p["local-vllm"], None,
                ra, 10, 3, 1024, 0.7, None, 2, _at("2026-09-20T18:30:00"), unfinished=True),
    )  # fmt: skip


_TRACK_CAPS = {
    Track.ANSWER_ONLY: (32, 64, 256, None),
    Track.REASONING_ASSISTED: (1024, 2048, 8192, 32768),
    Track.STRUCTURED_OUTPUT: (64, 128, 1024, None),
}
_TEMPERATURES = (None, 0.0, 0.2, 0.7, 1.0)
_EFFORTS = ("low", "medium", "high")
_ROUTINGS = (None, "order={p}; allow_fallbacks=false", "provider={p}", None)
_ABBREVIATION = {
    Track.ANSWER_ONLY: "ao",
    Track.REASONING_ASSISTED: "ra",
    Track.STRUCTURED_OUTPUT: "so",
}


def scaled_runs(count: int, repetitions: int) -> tuple[RunSpec, ...]:
    """``count`` generated runs cycling tracks, models, providers and settings.

    Run ``k`` has track ``k mod 3``, so any three consecutive runs cover all
    tracks. Every seventh answer-only run is recorded under protocol v9 and
    the last run is unfinished.
    """
    tracks = (Track.ANSWER_ONLY, Track.REASONING_ASSISTED, Track.STRUCTURED_OUTPUT)
    models = tuple(MODELS.values())
    providers = tuple(PROVIDERS.values())
    start = _at("2026-01-05T08:00:00")
    runs = []
    for k in range(count):
        track = tracks[k % 3]
        model = models[(k // 3) % len(models)]
        provider = providers[(k // 3 + k // 24) % len(providers)]
        routing = _ROUTINGS[k % len(_ROUTINGS)]
        caps = _TRACK_CAPS[track]
        version = 9 if track is Track.ANSWER_ONLY and (k // 3) % 7 == 6 else 10
        runs.append(
            RunSpec(
                run_id=f"{_ABBREVIATION[track]}-{model.name}-{k + 1:05d}",
                model=model,
                provider=provider,
                provider_routing=routing.format(p=provider.name) if routing else None,
                track=track,
                protocol_version=version,
                repetitions=repetitions,
                max_tokens=caps[(k // 5) % len(caps)],
                temperature=_TEMPERATURES[(k // 2) % len(_TEMPERATURES)],
                reasoning_effort=_EFFORTS[k % 3] if model.reasoner else None,
                concurrency=(2, 4, 8, 16, 32)[k % 5],
                started_at=start + timedelta(hours=7 * k),
                unfinished=k == count - 1,
            )
        )
    return tuple(runs)
