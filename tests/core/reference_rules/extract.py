"""Outcome of one attempt: protocol.md section 2's order, then the track's rule.

``derive`` is what the desk uses for every recorded attempt; ``extract_text``
is step 4 alone (the track rule on a text), for callers that already know the
attempt ran to completion.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

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
from tests.core.reference_rules.answer_only import extract_answer_only
from tests.core.reference_rules.reasoning import extract_reasoning
from tests.core.reference_rules.single_choice import extract_single_choice
from tests.core.reference_rules.structured import extract_structured

_Rule = Callable[[str, int, int], Extraction]


#: Track rule per track name; a ``Track`` member hashes like its value.
_RULES: dict[str, _Rule] = {
    Track.ANSWER_ONLY.value: extract_answer_only,
    Track.REASONING_ASSISTED.value: extract_reasoning,
    Track.STRUCTURED_OUTPUT.value: extract_structured,
    Track.SINGLE_CHOICE.value: extract_single_choice,
}

#: Results of short responses are memoised: replies such as
#: ``[TRUE, FALSE, TRUE, FALSE]`` recur thousands of times in a rescore, and an
#: :class:`Extraction` is immutable. Longer texts and reasoning-assisted
#: responses (explanations) rarely recur, so they skip the memo rather than
#: churn it.
_MEMO_MAX_TEXT = 100
_MEMO_MAX_ENTRIES = 16_384
_memo: dict[tuple[str, int, int, _Rule], Extraction] = {}

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


def _rule(track: Track | str, n: int) -> _Rule:
    """The track's rule, after checking the arguments every caller must get right."""
    rule = _RULES.get(track) if isinstance(track, str) else None
    if rule is None or n < 1:
        _reject(track, n)
    return rule


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
    return _apply(_rule(track, n), response, n, protocol_version)


def _apply(rule: _Rule, text: str, n: int, protocol_version: int) -> Extraction:
    """``rule(text, n, protocol_version)``, memoised for short texts."""
    if len(text) > _MEMO_MAX_TEXT or rule is extract_reasoning:
        return rule(text, n, protocol_version)
    key = (text, n, protocol_version, rule)
    result = _memo.get(key)
    if result is None:
        result = rule(text, n, protocol_version)
        if len(_memo) >= _MEMO_MAX_ENTRIES:
            _memo.clear()
        _memo[key] = result
    return result


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
    text = "" if response is None else response
    # _apply(), inlined: this is the hot path of a rescore.
    if len(text) > _MEMO_MAX_TEXT or rule is extract_reasoning:
        result = rule(text, n, protocol_version)
    else:
        result = _memo.get((text, n, protocol_version, rule)) or _apply(
            rule, text, n, protocol_version
        )
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
