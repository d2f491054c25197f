"""Outcome of one attempt: protocol.md section 2's order, then the track's rule.

``derive`` is what the desk uses for every recorded attempt; ``extract_text``
is step 4 alone (the track rule on a text), for callers that already know the
attempt ran to completion.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

from ai4hse_desk.protocol.answer_only import extract_answer_only
from ai4hse_desk.protocol.outcome import (
    CURRENT_PROTOCOL_VERSION,
    CUT_OFF_REASONS,
    STATE_ANSWERED,
    STATE_PENDING,
    STATE_PROVIDER_ERROR,
    Extraction,
    Status,
    Track,
)
from ai4hse_desk.protocol.reasoning import extract_reasoning, reasoning_verdict
from ai4hse_desk.protocol.single_choice import extract_single_choice, single_choice_verdict
from ai4hse_desk.protocol.structured import extract_structured

Rule = Callable[[str, int, int], Extraction]
"""A track's rule: ``rule(text, n, protocol_version)`` (step 4 of section 2)."""


#: Track rule per track name; a ``Track`` member hashes like its value.
_RULES: dict[str, Rule] = {
    Track.ANSWER_ONLY.value: extract_answer_only,
    Track.REASONING_ASSISTED.value: extract_reasoning,
    Track.STRUCTURED_OUTPUT.value: extract_structured,
    Track.SINGLE_CHOICE.value: extract_single_choice,
}
#: The rules that leave out the character spans where that saves time.
_VERDICT_RULES: dict[Rule, Rule] = {
    extract_reasoning: reasoning_verdict,
    extract_single_choice: single_choice_verdict,
}

_PENDING = Extraction(Status.PENDING, None, False, (), "the attempt has not run")
_PROVIDER_ERROR = Extraction(
    Status.PROVIDER_ERROR, None, False, (), "the provider failed; there is no response"
)


def _reject(track: object, n: int) -> NoReturn:
    """Raise the ValueError for an unknown track or ``n < 1``."""
    if not (isinstance(track, str) and track in _RULES):
        raise ValueError(
            f"unknown track {track!r}; expected one of: {', '.join(t.value for t in Track)}"
        )
    raise ValueError(f"a question has at least 1 option; got n={n}")


def _rule(track: Track | str, n: int) -> Rule:
    """The track's rule, after checking the arguments every caller must get right."""
    rule = _RULES.get(track) if isinstance(track, str) else None
    if rule is None or n < 1:
        _reject(track, n)
    return rule


def track_rule(track: Track | str) -> Rule:
    """The rule of ``track`` itself (step 4 only), for hot loops.

    ``track_rule(track)(text, n, version)`` equals ``extract_text(track, text, n,
    protocol_version=version)`` for ``n >= 1``; the caller checks ``n``.

    Raises:
        ValueError: for an unknown track.
    """
    return _rule(track, 1)


def verdict_rule(track: Track | str) -> Rule:
    """Like :func:`track_rule`, for loops that keep no character spans: the same
    status, selection, strict flag and reason, the spans possibly left out (single
    choice: :func:`~.single_choice.single_choice_verdict`; reasoning-assisted:
    :func:`~.reasoning.reasoning_verdict`).

    Raises:
        ValueError: for an unknown track.
    """
    rule = track_rule(track)
    return _VERDICT_RULES.get(rule, rule)


def extract_text(
    track: Track | str,
    response: str,
    n: int,
    *,
    protocol_version: int = CURRENT_PROTOCOL_VERSION,
) -> Extraction:
    """Apply the track's extraction rule to one response (section 2, step 4 only).

    Args:
        track: ``answer_only``, ``reasoning_assisted``, ``structured_output`` or
            ``single_choice`` (a :class:`Track` or its value).
        response: the raw response text.
        n: number of options of the question, at least 1.
        protocol_version: the run's recorded version; only the answer-only
            rule differs before version 10.

    Returns:
        The verdict; never ``pending``, ``provider_error`` or ``incomplete``.

    Raises:
        ValueError: for an unknown track or ``n < 1``.
    """
    return _rule(track, n)(response, n, protocol_version)


def derive(
    track: Track | str,
    response: str | None,
    n: int,
    *,
    protocol_version: int = CURRENT_PROTOCOL_VERSION,
    state: str = STATE_ANSWERED,
    finish_reason: str | None = None,
) -> Extraction:
    """The desk's verdict on one recorded attempt, in protocol.md section 2's order.

    1. state ``pending`` → ``pending``;
    2. state ``provider_error`` → ``provider_error``;
    3. ``finish_reason`` in :data:`CUT_OFF_REASONS` → ``incomplete``, which
       keeps the selection the track rule would have extracted when that
       would be valid (shown, never scored) and that extraction's spans;
    4. otherwise the track's rule.

    Args:
        track: the run's track (a :class:`Track` or its value).
        response: the raw response; ``None`` for an answered attempt reads as "".
        n: number of options of the question, at least 1.
        protocol_version: the run's recorded protocol version.
        state: the attempt's recorded state: ``answered``, ``provider_error``
            or ``pending``.
        finish_reason: as the provider reported it (compared exactly).

    Raises:
        ValueError: for an unknown track or state, or ``n < 1``.
    """
    rule = _RULES.get(track) if isinstance(track, str) else None
    if rule is None or n < 1:
        _reject(track, n)
    if state != STATE_ANSWERED:
        if state == STATE_PENDING:
            return _PENDING
        if state == STATE_PROVIDER_ERROR:
            return _PROVIDER_ERROR
        raise ValueError(
            f"unknown attempt state {state!r}; expected one of: "
            f"{STATE_ANSWERED}, {STATE_PROVIDER_ERROR}, {STATE_PENDING}"
        )
    result = rule("" if response is None else response, n, protocol_version)
    if finish_reason in CUT_OFF_REASONS:
        return Extraction(
            Status.INCOMPLETE,
            result.selection if result.status is Status.VALID else None,
            False,
            result.spans,
            f"the generation was cut off (finish_reason {finish_reason!r}); "
            f"the track rule would give {result.status.value}: {result.reason}",
        )
    return result
