"""Prose for the realistic demo: long, varied explanations that never repeat.

Sentences are composed from the question's option texts, a verdict per
option, varied connectives, HSE-style reasons with numbers, and the caller's
random stream (seeded from the demo seed), so every explanation differs. The
text never contains ``FINAL_ANSWER``, brackets or the words the protocol reads
as Boolean tokens, so it cannot change what a track's rule extracts.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from ai4hse_desk.writer.demo.replies import short

if TYPE_CHECKING:
    import random
    from collections.abc import Sequence

    from ai4hse_desk.writer.demo.replies import Selection

#: Median and spread of an explanation's length in characters (log-normal).
MEDIAN_CHARS = 820
SIGMA = 0.6
MIN_CHARS = 300
MAX_CHARS = 2900

_OPENERS = (
    "Let me work through each option in turn.",
    "I'll check every statement against standard HSE practice.",
    "To answer this, consider the hierarchy of controls first.",
    "This question is about good occupational safety practice, so let me reason it out.",
    "Let's think step by step about what each option claims.",
    "First, recall what the relevant guidance requires here.",
    "Okay, I need to judge each statement separately.",
    "The key idea behind this question is risk reduction at the source.",
    "Breaking the question down option by option:",
    "I will evaluate the options one at a time and then summarise.",
    "Here the main consideration is what a competent person would do on site.",
    "We need to decide which of these statements reflect accepted practice.",
)
_YES = (
    "is correct", "is accurate", "reflects accepted practice", "holds up",
    "is consistent with the guidance", "is right", "is a sound statement", "applies here",
)  # fmt: skip
_NO = (
    "is not correct", "is inaccurate", "does not reflect accepted practice", "does not hold",
    "contradicts the guidance", "is wrong", "is a misconception", "does not apply here",
)  # fmt: skip
_LEADS = (
    "Option {i} says that {t}; this {v}.",
    "Looking at option {i} ({t}), it {v}.",
    "For option {i}, the claim that {t} {v}.",
    "Option {i}: {t}. That {v}.",
    "Next, option {i} states {t}, which {v}.",
    "Statement {i} ({t}) {v}.",
    "Regarding option {i} - {t} - this {v}.",
    "Now option {i}. The idea that {t} {v}.",
)
_CONNECTIVES = (
    "Moreover,", "In addition,", "Also,", "Furthermore,", "On top of that,", "Besides,",
    "Importantly,", "In practice,", "Note that", "Generally,", "That said,", "Still,",
    "By contrast,", "Similarly,", "Typically,", "Crucially,",
)  # fmt: skip
_REASONS = (
    "the risk assessment should be reviewed at least every {n} months or after any change",
    "about {p}% of reported incidents in comparable sites involve this kind of failure",
    "the exposure limit is usually expressed as an {h}-hour time-weighted average",
    "engineering controls rank above administrative controls and personal protective equipment",
    "regulation {n}({m}) of the typical national framework places this duty on the employer",
    "a permit-to-work system would require isolation to be verified {m} times before entry",
    "workers must be trained and the training recorded, with refreshers every {n} months",
    "the safety data sheet, section {m}, gives the handling and storage precautions",
    "a near-miss report within {h} hours lets the team correct the hazard early",
    "noise above {d} dB(A) calls for hearing protection and a noise control programme",
    "confined spaces need atmospheric testing, for oxygen between 19.5% and 23.5%",
    "ISO 45001 clause {m}.{n} expects worker consultation on exactly this point",
    "the hierarchy places elimination and substitution before anything else",
    "emergency arrangements should be drilled at least {m} times a year",
    "fall protection is needed above {f} m in many jurisdictions",
    "the manager remains accountable even when the task is delegated",
    "monitoring data from the last {n} inspections would normally be checked",
    "PPE is the last line of defence, not the first",
    "lockout devices must be applied by each person working on the equipment",
    "a competent person has to sign off the assessment, roughly {p}% of audits flag this",
    "records are generally kept for {n} years so trends can be reviewed",
    "contractors fall under the same duty of care as direct employees",
    "the control must be proportionate to a risk rated {m} on a {h}-point matrix",
    "ventilation should achieve around {n} air changes per hour in such areas",
)
_CLOSERS = (
    "Putting this together gives the selection below.",
    "So, summarising my assessment of each option:",
    "Based on the reasoning above, here is my answer.",
    "Therefore the final selection is as follows.",
    "That covers every option.",
    "In summary, the options I accept are the ones marked as correct above.",
    "Taking all of this into account:",
    "This leads to the following answer.",
)


def _reason(rng: random.Random, index: int) -> str:
    r = rng.randrange
    return _REASONS[index % len(_REASONS)].format(
        n=r(2, 40), m=r(1, 9), p=r(3, 95), h=r(2, 24), d=r(80, 95), f=1.5 + r(0, 8) / 2
    )


def sentence(rng: random.Random, index: int | None = None) -> str:
    """One HSE-style reasoning sentence with random numbers (reason ``index`` if given)."""
    reason = _reason(rng, rng.randrange(len(_REASONS)) if index is None else index)
    if rng.random() < 0.5:
        return f"{_CONNECTIVES[rng.randrange(len(_CONNECTIVES))]} {reason}."
    return f"{reason[0].upper()}{reason[1:]}."


def lead_in(text: str, limit: int) -> str:
    """The option text shortened for a sentence (:func:`~.replies.short`)."""
    return short(text, limit)


def target_length(rng: random.Random) -> int:
    """A log-normal explanation length, clipped to ``MIN_CHARS``..``MAX_CHARS``."""
    length = rng.lognormvariate(math.log(MEDIAN_CHARS), SIGMA)
    return int(min(MAX_CHARS, max(MIN_CHARS, length)))


def long_explanation(selection: Selection, options: Sequence[str], rng: random.Random) -> str:
    """An explanation of ``selection`` of about :func:`target_length` characters."""
    target = target_length(rng)
    pick = rng.randrange
    texts = [lead_in(text, 40 + pick(60)) for text in options]
    order = rng.sample(range(len(_REASONS)), len(_REASONS))
    used = 0
    parts = [_OPENERS[pick(len(_OPENERS))]]
    size = len(parts[0])
    paragraphs: list[list[str]] = []
    for i, (value, text) in enumerate(zip(selection, texts, strict=True)):
        verdict = (_YES if value else _NO)[pick(8)]
        para = [_LEADS[pick(len(_LEADS))].format(i=i + 1, t=text, v=verdict)]
        if pick(3):
            para.append(sentence(rng, order[used % len(order)]))
            used += 1
        paragraphs.append(para)
        size += sum(len(s) + 1 for s in para) + 2
    closer = _CLOSERS[pick(len(_CLOSERS))]
    size += len(closer) + 2
    while size < target:
        extra = sentence(rng, order[used % len(order)])
        used += 1
        paragraphs[pick(len(paragraphs))].append(extra)
        size += len(extra) + 1
    for para in paragraphs:
        parts.append(" ".join(para))
    parts.append(closer)
    text = "\n\n".join(parts)
    if len(text) > MAX_CHARS:
        cut = text.rfind(". ", 0, MAX_CHARS - 1)
        text = text[: cut + 1] if cut >= MIN_CHARS else text[:MAX_CHARS]
    return text


def short_prose(rng: random.Random) -> tuple[str, str]:
    """A lead-in and a remark to put around an answer list (either may be empty)."""
    leads = (
        "Here is my answer:", "Answer:", "Based on standard HSE practice:", "My selection:",
        "After considering each option:", "The answer list is:", "", "",
    )  # fmt: skip
    lead = leads[rng.randrange(len(leads))]
    remark = sentence(rng) if rng.random() < 0.6 or not lead else ""
    return lead, remark
