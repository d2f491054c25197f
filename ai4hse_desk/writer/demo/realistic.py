"""The realistic demo (``demo --realistic``): the demo's outcomes, real-run text.

:class:`RealisticAttemptWriter` is the demo's :class:`~.attempts.AttemptWriter`
(the same runs, selections, behaviours, provider errors, cut-offs, pending
attempts and deliberate disagreements, drawn from the same random stream), with
a pool that renders each behaviour's text the way real runs look:

* reasoning_assisted: the short explanation is replaced by a long, never
  repeated one (:mod:`.realistic_text`, log-normal 300-2,900 characters),
  ending with the behaviour's own final line (so the status is the behaviour's);
* answer_only: mostly the bare list, and a minority of the strict answers
  wrapped in prose (valid under v10, malformed before);
* structured_output: the JSON of the clean, pretty, fenced, prose,
  wrong-length and extra-field behaviours with varied whitespace and key order.

The text comes from a second random stream seeded from the demo seed, so the
same arguments still give the same bytes. Every recorded verdict is the desk's
:func:`~ai4hse_desk.protocol.derive` on the text (except the demo's deliberate
disagreements); long texts are judged one by one and not memoised.
"""

from __future__ import annotations

import json
import random
from typing import TYPE_CHECKING

from ai4hse_desk.protocol import Track
from ai4hse_desk.writer.demo.attempts import AttemptWriter
from ai4hse_desk.writer.demo.pool import BEHAVIOURS, PoolEntry, ResponsePool, judge, selection_of
from ai4hse_desk.writer.demo.realistic_text import long_explanation, short_prose
from ai4hse_desk.writer.demo.replies import (
    Rendered,
    Selection,
    explanation,
    resized,
    strict_list,
    truncate,
)

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ai4hse_desk.writer.demo.corpus import DemoQuestion
    from ai4hse_desk.writer.demo.runs import RunSpec
    from ai4hse_desk.writer.demo.specials import Special

#: Share of clean answer-only responses that get prose around the list.
PROSE_SHARE = 0.03
FIELD = "FINAL_ANSWER:"
_JSON_BEHAVIOURS = frozenset({"clean", "pretty", "fenced", "prose", "wrong_length", "extra_field"})
_EXTRA = (
    ("confidence", 0.82),
    ("reasoning", "Options were checked against ISO 45001 guidance."),
    ("question_id", "current"),
)


def _value(value: object, rng: random.Random, indent: str, depth: int, item_sep: str) -> str:
    if not isinstance(value, list):
        return json.dumps(value)
    items = [json.dumps(v) for v in value]
    if indent and rng.random() < 0.35:  # one element a line
        pad = "\n" + indent * (depth + 1)
        return "[" + pad + ("," + pad).join(items) + "\n" + indent * depth + "]"
    inner = item_sep.join(items)
    return f"[ {inner} ]" if rng.random() < 0.15 else f"[{inner}]"


def varied_json(fields: list[tuple[str, object]], rng: random.Random) -> str:
    """A JSON object of ``fields`` with whitespace as models really write it."""
    indent = ("", "", "", "  ", "  ", "    ", "\t")[rng.randrange(7)]
    colon = (": ", ":", " : ")[rng.randrange(3) if rng.random() < 0.3 else 0]
    item_sep = (", ", ",", " , ")[rng.randrange(3) if rng.random() < 0.3 else 0]
    pairs = [f"{json.dumps(k)}{colon}{_value(v, rng, indent, 1, item_sep)}" for k, v in fields]
    if indent:
        pad = "\n" + indent
        text = "{" + pad + ("," + pad).join(pairs) + "\n}"
    else:
        body = item_sep.join(pairs)
        text = f"{{ {body} }}" if rng.random() < 0.2 else f"{{{body}}}"
    ends = ("", "", "", "\n", "\n", " ", "\n\n")
    return ("\n" if rng.random() < 0.05 else "") + text + ends[rng.randrange(len(ends))]


class RealisticPool(ResponsePool):
    """A :class:`~.pool.ResponsePool` whose texts vary like real runs."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.rng = random.Random(f"{seed}-realistic")

    def get(
        self, run: RunSpec, question: DemoQuestion, bits: int, behaviour: int, variant: int
    ) -> PoolEntry:
        """The behaviour's response with realistic text, and the desk's verdict on it."""
        b = BEHAVIOURS[run.track][behaviour]
        sel = selection_of(bits, question.n)
        if run.track is Track.REASONING_ASSISTED:
            rendered = self._reasoning(b.name, b.render(sel, question.options, variant), sel,
                                       question.options, variant)  # fmt: skip
            return self._judged(run, question, rendered)
        if run.track is Track.ANSWER_ONLY:
            if b.name == "strict" and self.rng.random() < PROSE_SHARE:
                lead, remark = short_prose(self.rng)
                text = "\n\n".join(part for part in (lead, strict_list(sel), remark) if part)
                return self._judged(run, question, Rendered(text))
            return super().get(run, question, bits, behaviour, variant)
        if run.track is Track.STRUCTURED_OUTPUT and b.name in _JSON_BEHAVIOURS:
            return self._entry(run, question, self._structured(b.name, sel, variant))
        return super().get(run, question, bits, behaviour, variant)

    def _judged(self, run: RunSpec, question: DemoQuestion, rendered: Rendered) -> PoolEntry:
        verdict = judge(run, question, rendered)
        reason = run.provider.cut_reason if rendered.cut_off else run.provider.stop_reason
        return PoolEntry(rendered.text, reason, verdict, len(rendered.text) // 4 + 1)

    def _reasoning(
        self, name: str, plain: Rendered, sel: Selection, options: tuple[str, ...], v: int
    ) -> Rendered:
        prose = long_explanation(sel, options, self.rng)
        if name == "cut_off" and v < 2:
            full = f"{prose}\n\n{FIELD} {strict_list(sel)}"
            return Rendered(truncate(full, self.rng.uniform(0.3, 0.9)), cut_off=True)
        text = plain.text.replace(explanation(sel, options, v), prose, 1)
        return Rendered(text, plain.cut_off)

    def _structured(self, name: str, sel: Selection, v: int) -> Rendered:
        rng = self.rng
        if name == "wrong_length":
            sel = resized(sel, v)
        fields: list[tuple[str, object]] = [("answers", list(sel))]
        if name == "extra_field":
            fields.append(_EXTRA[v])
            rng.shuffle(fields)
        body = varied_json(fields, rng)
        if name == "fenced":
            return Rendered(f"```{'json' if v < 2 else ''}\n{body.strip()}\n```")
        if name == "prose":
            lead = ("Here is the JSON:", "Sure!", "Answer:")[v]
            return Rendered(f"{lead}\n{body}")
        return Rendered(body)


class RealisticAttemptWriter(AttemptWriter):
    """The demo's attempt writer with :class:`RealisticPool` texts."""

    def __init__(
        self,
        questions: tuple[DemoQuestion, ...],
        seed: int,
        specials: Mapping[tuple[str, int, int], Special] | None = None,
    ) -> None:
        super().__init__(questions, seed, specials)
        self.pool = RealisticPool(seed)
