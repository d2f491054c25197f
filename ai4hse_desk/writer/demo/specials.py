"""Hand-placed attempts: deliberate runner mistakes and hostile-looking responses.

*Deliberate disagreements* are attempts whose recorded verdict is wrong on
purpose, so the desk has something to find (about 0.5 % of answered attempts):

* ``tolerated_trailing_comma`` — answer-only ``[TRUE, FALSE,]`` recorded
  ``valid`` (the protocol says ``malformed``);
* ``pre10_verdict`` — a v10 answer-only run recording prose around the list as
  ``malformed``, the stricter pre-10 rule (the protocol says ``valid``);
* ``cut_off_scored`` — a generation cut off at the token cap recorded
  ``valid`` and correct (the protocol says ``incomplete``, incorrect);
* ``non_final_accepted`` — reasoning, text after the ``FINAL_ANSWER:`` line
  recorded ``valid`` (the protocol says ``non_final``);
* ``repaired_strings`` — structured, ``"true"`` strings repaired and recorded
  ``valid`` (the protocol says ``schema_violation``).

The default demo also holds responses a window must display safely: HTML
and ``<script>``, control and bidirectional characters, and one ~200 KB
runaway generation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ai4hse_desk.protocol import Track, derive
from ai4hse_desk.writer.demo.pool import (
    BEHAVIOURS,
    Verdict,
    bits_of,
    extracted_json,
    judge,
    to_verdict,
)
from ai4hse_desk.writer.demo.replies import (
    Render,
    Rendered,
    Selection,
    bracket,
    explanation,
    strict_list,
    tokens,
)
from ai4hse_desk.writer.demo.replies_answer_only import prose_answer
from ai4hse_desk.writer.demo.replies_reasoning import FIELD, final_answer, not_final
from ai4hse_desk.writer.demo.replies_structured import clean_json, string_booleans

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ai4hse_desk.writer.demo.corpus import DemoQuestion
    from ai4hse_desk.writer.demo.runs import RunSpec

#: Share of answered attempts given a deliberately wrong recorded verdict.
DISAGREEMENT_RATE = 0.005
LONG_RESPONSE_CHARS = 200_000

_KINDS: dict[tuple[Track, bool], tuple[str, ...]] = {
    (Track.ANSWER_ONLY, True): ("tolerated_trailing_comma", "pre10_verdict", "cut_off_scored"),
    (Track.ANSWER_ONLY, False): ("tolerated_trailing_comma", "cut_off_scored"),
    (Track.REASONING_ASSISTED, True): ("non_final_accepted", "cut_off_scored"),
    (Track.STRUCTURED_OUTPUT, True): ("repaired_strings", "cut_off_scored"),
}


def disagreement(
    run: RunSpec, question: DemoQuestion, selection: Selection, pick: int
) -> tuple[Rendered, Verdict, Verdict]:
    """A response whose recorded verdict deliberately differs from the protocol's.

    Args:
        run: the run (its track and protocol version choose the kinds).
        question: the question answered.
        selection: what the model meant to answer.
        pick: chooses the kind, cycling through the applicable ones.

    Returns:
        ``(response, recorded verdict, the protocol's verdict)``.
    """
    kinds = _KINDS[(run.track, run.protocol_version >= 10)]
    kind = kinds[pick % len(kinds)]
    opts = question.options
    valid = Verdict("valid", extracted_json(selection), 0, bits_of(selection))
    if kind == "cut_off_scored":
        clean = {Track.ANSWER_ONLY: _strict, Track.STRUCTURED_OUTPUT: clean_json}
        render = clean.get(run.track, final_answer)
        rendered = Rendered(render(question.key, opts, 0).text, cut_off=True)
        recorded = Verdict("valid", extracted_json(question.key), 1, question.key_bits)
    elif kind == "tolerated_trailing_comma":
        rendered = Rendered(bracket([*tokens(selection), ""]))
        recorded = valid
    elif kind == "pre10_verdict":
        rendered = prose_answer(selection, opts, pick % 3)
        recorded = to_verdict(derive(run.track, rendered.text, question.n, protocol_version=9))
    elif kind == "non_final_accepted":
        rendered = not_final(selection, opts, pick % 3)
        recorded = valid
    else:  # repaired_strings
        rendered = string_booleans(selection, opts, 0)
        recorded = valid._replace(strict=1)
    return rendered, recorded, judge(run, question, rendered)


def _strict(selection: Selection, _opts: object, _v: int) -> Rendered:
    return Rendered(strict_list(selection))


def html_response(selection: Selection, _opts: object, _v: int) -> Rendered:
    """An answer-only response full of markup a window must not interpret."""
    return Rendered(
        "<b>bold</b><img src=x onerror=alert(1)> <script>alert('xss')</script>\n"
        '<a href="javascript:alert(2)">see the SDS</a> &lt;not a tag&gt; &amp; '
        "<style>body{display:none}</style>\n"
        f"{strict_list(selection)}"
    )


def control_response(selection: Selection, options: Sequence[str], v: int) -> Rendered:
    """A reasoning response with control, zero-width and bidirectional characters."""
    return Rendered(
        "Option 1\u200b is correct\u200c\u200d.\u202eOption 2 reads backwards\u202c here.\n"
        "Bell\x07 backspace\x08 escape \x1b[31mred\x1b[0m tab\tform\x0cfeed\r\n"
        "BOM\ufeff RLM\u200f LRM\u200e isolate\u2067ABC\u2069 line\u2028separator\n"
        f"{explanation(selection, options, v)}\n\n{FIELD} {strict_list(selection)}"
    )


def long_response(selection: Selection, options: Sequence[str], v: int) -> Rendered:
    """A ~200 KB runaway generation that loops until the token cap."""
    head = explanation(selection, options, v) + "\n\n"
    loop = (
        "Wait, let me re-check option {i} against the hierarchy of controls once more, "
        "because elimination and substitution come before engineering controls. "
    )
    parts, size, i = [head], len(head), 0
    while size < LONG_RESPONSE_CHARS:
        piece = loop.format(i=i % len(options) + 1)
        parts.append(piece)
        size += len(piece)
        i += 1
    return Rendered("".join(parts)[:LONG_RESPONSE_CHARS], cut_off=True)


@dataclass(frozen=True, slots=True)
class Special:
    """What to do instead of the weighted draw for one attempt.

    Attributes:
        behaviour: force this behaviour (by name) of the run's track.
        render: render exactly this response (never cached).
        disagree: make the attempt a deliberate disagreement.
    """

    behaviour: str | None = None
    render: Render | None = None
    disagree: bool = False


def plan_specials(runs: tuple[RunSpec, ...]) -> dict[tuple[str, int, int], Special]:
    """Hand-placed attempts of the default demo, keyed by ``(run_id, repetition, ordinal)``.

    The first complete run of each track shows every behaviour of that track
    once in repetition 1 (so every status occurs), each track has one
    deliberate disagreement, and three runs hold the hostile-looking responses.
    """
    plan: dict[tuple[str, int, int], Special] = {}
    seen: set[Track] = set()
    for run in runs:
        if run.unfinished or run.track in seen or run.protocol_version < 10:
            continue
        seen.add(run.track)
        for j, behaviour in enumerate(BEHAVIOURS[run.track]):
            plan[(run.run_id, 1, 1 + (3 + 7 * j) % 100)] = Special(behaviour=behaviour.name)
        plan[(run.run_id, 2, 17)] = Special(disagree=True)
        special = {
            Track.ANSWER_ONLY: (5, html_response),
            Track.REASONING_ASSISTED: (42, control_response),
            Track.STRUCTURED_OUTPUT: (88, html_response),
        }[run.track]
        plan[(run.run_id, 3, special[0])] = Special(render=special[1])
    long_run = next(r for r in runs if r.track is Track.REASONING_ASSISTED and not r.unfinished)
    plan[(long_run.run_id, 2, 88)] = Special(render=long_response)
    return plan
