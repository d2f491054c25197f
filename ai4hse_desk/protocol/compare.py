"""The runner's recorded verdict against the desk's, for one attempt (cli.md).

An attempt *disagrees* when any recorded verdict — ``parse_status``,
``extracted``, ``strict_format``, ``correct`` — is present (not NULL) and
differs from the desk's. :func:`disagrees` is the hot-loop predicate used by
``rescore``; :func:`differences` explains the same decision for the window.

Comparison rules:

* ``parse_status`` is compared as text with the desk's status value.
* ``extracted`` is the runner's JSON text. It is parsed strictly: only a JSON
  array whose elements are all JSON Booleans is a selection (``[1, 0]``,
  ``["true"]``, ``null`` and unparseable text are not, and always differ). It
  agrees only with an equal desk selection; a desk without a selection
  disagrees with any recorded text.
* ``strict_format`` and ``correct`` are 0/1 integers: 1 agrees with ``True``
  and 0 with ``False``; any other integer differs.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ai4hse_desk.protocol.outcome import Selection, Status

#: Parsed ``extracted`` texts (``None`` = not a Boolean array). A rescore sees
#: only a handful of distinct texts (``2 ** n`` canonical ones), so the common
#: path is a single dict hit; the bound only guards against pathological data.
_PARSED: dict[str, Selection | None] = {}
_PARSED_LIMIT = 4096
#: Read-only view for hot loops: the parsed ``extracted`` texts seen so far.
PARSED_EXTRACTED: Mapping[str, Selection | None] = _PARSED
_SHOWN_TEXT = 60


def parse_extracted(text: str) -> Selection | None:
    """The selection in a recorded ``extracted`` text, or ``None`` if not one.

    Args:
        text: JSON text as the runner stored it, e.g. ``"[true, false]"``.

    Returns:
        The Booleans as a tuple when ``text`` is a JSON array of JSON Booleans
        (surrounding JSON whitespace allowed); ``None`` otherwise.
    """
    try:
        return _PARSED[text]
    except KeyError:
        pass
    parsed: Selection | None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        parsed = None
    else:
        is_selection = isinstance(value, list) and all(type(item) is bool for item in value)
        parsed = tuple(value) if is_selection else None
    if len(_PARSED) >= _PARSED_LIMIT:
        _PARSED.clear()
    _PARSED[text] = parsed
    return parsed


def disagrees(
    desk_status: Status,
    desk_selection: Selection | None,
    desk_strict: bool,
    desk_correct: bool,
    recorded_status: str | None,
    recorded_extracted: str | None,
    recorded_strict: int | None,
    recorded_correct: int | None,
) -> bool:
    """True when any recorded verdict is present and differs from the desk's.

    Args:
        desk_status: the desk's status.
        desk_selection: the desk's extracted selection, ``None`` if none.
        desk_strict: the desk's strict-format verdict.
        desk_correct: the desk's correctness verdict.
        recorded_status: the runner's ``parse_status`` (``None`` = NULL).
        recorded_extracted: the runner's ``extracted`` JSON text (``None`` = NULL).
        recorded_strict: the runner's ``strict_format`` 0/1 (``None`` = NULL).
        recorded_correct: the runner's ``correct`` 0/1 (``None`` = NULL).
    """
    if recorded_status is not None and recorded_status != desk_status:
        return True
    if recorded_strict is not None and recorded_strict != desk_strict:
        return True
    if recorded_correct is not None and recorded_correct != desk_correct:
        return True
    if recorded_extracted is not None:
        try:
            recorded = _PARSED[recorded_extracted]
        except KeyError:
            recorded = parse_extracted(recorded_extracted)
        return recorded is None or recorded != desk_selection
    return False


def differences(
    desk_status: Status,
    desk_selection: Selection | None,
    desk_strict: bool,
    desk_correct: bool,
    recorded_status: str | None,
    recorded_extracted: str | None,
    recorded_strict: int | None,
    recorded_correct: int | None,
) -> list[str]:
    """Human-readable reasons why :func:`disagrees` is true (empty if it is not).

    Same arguments as :func:`disagrees`. One line per differing field, in the
    order parse_status, extracted, strict_format, correct, e.g.
    ``"parse_status: runner 'valid', desk 'malformed'"``.
    """
    reasons: list[str] = []
    if recorded_status is not None and recorded_status != desk_status:
        reasons.append(f"parse_status: runner {recorded_status!r}, desk {desk_status.value!r}")
    if recorded_extracted is not None:
        recorded = parse_extracted(recorded_extracted)
        desk = _show_selection(desk_selection)
        if recorded is None:
            text = recorded_extracted
            if len(text) > _SHOWN_TEXT:
                text = text[: _SHOWN_TEXT - 1] + "…"
            reasons.append(
                f"extracted: runner {text!r} is not a JSON array of booleans, desk {desk}"
            )
        elif recorded != desk_selection:
            reasons.append(f"extracted: runner {_show_selection(recorded)}, desk {desk}")
    if recorded_strict is not None and recorded_strict != desk_strict:
        reasons.append(
            f"strict_format: runner {_show_flag(recorded_strict)}, desk {_show_flag(desk_strict)}"
        )
    if recorded_correct is not None and recorded_correct != desk_correct:
        reasons.append(
            f"correct: runner {_show_flag(recorded_correct)}, desk {_show_flag(desk_correct)}"
        )
    return reasons


def _show_selection(selection: Selection | None) -> str:
    """``[true, false]`` as JSON, or ``nothing`` when there is no selection."""
    return "nothing" if selection is None else json.dumps(list(selection))


def _show_flag(value: int) -> str:
    """``true``/``false`` for 1/0 (and Booleans); any other integer as is."""
    if value == 1:
        return "true"
    if value == 0:
        return "false"
    return str(value)
