"""Reasoning-assisted responses: a brief explanation, then ``FINAL_ANSWER: [...]``.

Besides the clean form the generators produce what reasoning runs really
return: Markdown emphasis around the field, an unbracketed final list,
mixed-case tokens, the field twice, text after the final line, two lists after
the field, the field missing, text before the field on its line, a wrong
length, a malformed item, and explanations cut off by the token cap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.writer.demo.replies import (
    Behaviour,
    Kind,
    Rendered,
    Selection,
    bracket,
    explanation,
    flipped,
    resized,
    strict_list,
    tokens,
    truncate,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

FIELD = "FINAL_ANSWER:"


def _final(sel: Selection, opts: Sequence[str], v: int) -> Rendered:
    answer = (strict_list(sel), bracket(tokens(sel), ","), strict_list(sel))[v]
    return Rendered(f"{explanation(sel, opts, v)}\n\n{FIELD} {answer}")


def _emphasis(sel: Selection, opts: Sequence[str], v: int) -> Rendered:
    answer = strict_list(sel)
    line = (f"**{FIELD}** {answer}", f"**{FIELD} {answer}**", f"`{FIELD} {answer}`")[v]
    return Rendered(f"{explanation(sel, opts, v)}\n\n{line}")


def _unbracketed(sel: Selection, opts: Sequence[str], v: int) -> Rendered:
    items = ", ".join(tokens(sel, 0 if v < 2 else 1))
    return Rendered(f"{explanation(sel, opts, v)}\n\n{FIELD} {items}")


def _mixed_case(sel: Selection, opts: Sequence[str], v: int) -> Rendered:
    return Rendered(f"{explanation(sel, opts, v)}\n\n{FIELD} {bracket(tokens(sel, v + 1))}")


def _heading(sel: Selection, opts: Sequence[str], v: int) -> Rendered:
    mark = ("## ", "> ", "### ")[v]
    return Rendered(f"{explanation(sel, opts, v)}\n\n{mark}{FIELD} {strict_list(sel)}")


def _repeated(sel: Selection, opts: Sequence[str], v: int) -> Rendered:
    draft = strict_list(flipped(sel, v)) if v != 2 else strict_list(sel)
    return Rendered(
        f"Draft {FIELD} {draft}\n\n{explanation(sel, opts, v)}\n\n{FIELD} {strict_list(sel)}"
    )


def _not_final(sel: Selection, opts: Sequence[str], v: int) -> Rendered:
    tail = (
        "Let me know if you need the regulatory references.",
        "Note: always confirm against the site-specific risk assessment.",
        "I hope this helps!",
    )[v]
    return Rendered(f"{explanation(sel, opts, v)}\n\n{FIELD} {strict_list(sel)}\n\n{tail}")


def _two_lists(sel: Selection, opts: Sequence[str], v: int) -> Rendered:
    other = strict_list(flipped(sel, v + 2))
    joint = (" or ", " ", " (alternatively ")[v]
    close = ")" if v == 2 else ""
    return Rendered(
        f"{explanation(sel, opts, v)}\n\n{FIELD} {strict_list(sel)}{joint}{other}{close}"
    )


def _no_field(sel: Selection, opts: Sequence[str], v: int) -> Rendered:
    ending = (
        f"Therefore the answer is {strict_list(sel)}",
        f"Final answer: {strict_list(sel)}",
        f"FINAL ANSWER: {strict_list(sel)}",
    )[v]
    return Rendered(f"{explanation(sel, opts, v)}\n\n{ending}")


def _prefixed(sel: Selection, opts: Sequence[str], v: int) -> Rendered:
    lead = ("My ", "So, ", "1. ")[v]
    return Rendered(f"{explanation(sel, opts, v)}\n\n{lead}{FIELD} {strict_list(sel)}")


def _trailing_text(sel: Selection, opts: Sequence[str], v: int) -> Rendered:
    tail = (" (high confidence)", " - see above", ".")[v]
    return Rendered(f"{explanation(sel, opts, v)}\n\n{FIELD} {strict_list(sel)}{tail}")


def _wrong_length(sel: Selection, opts: Sequence[str], v: int) -> Rendered:
    return Rendered(f"{explanation(sel, opts, v)}\n\n{FIELD} {strict_list(resized(sel, v))}")


def _bad_item(sel: Selection, opts: Sequence[str], v: int) -> Rendered:
    items = tokens(sel)
    items[v % len(items)] = ("PARTIAL", "TRUE/FALSE", "unclear")[v]
    return Rendered(f"{explanation(sel, opts, v)}\n\n{FIELD} {bracket(items)}")


def _cut(sel: Selection, opts: Sequence[str], v: int) -> Rendered:
    full = f"{explanation(sel, opts, v)}\n\n{FIELD} {strict_list(sel)}"
    if v == 2:  # the cap was hit right after the final line: still extractable
        return Rendered(full, cut_off=True)
    return Rendered(truncate(full, (0.35, 0.7)[v]), cut_off=True)


BEHAVIOURS: tuple[Behaviour, ...] = (
    Behaviour("final", 62.0, Kind.CLEAN, _final, per_question=True),
    Behaviour("emphasis", 4.0, Kind.NOISE, _emphasis, per_question=True),
    Behaviour("unbracketed", 4.0, Kind.NOISE, _unbracketed, per_question=True),
    Behaviour("mixed_case", 3.0, Kind.NOISE, _mixed_case, per_question=True),
    Behaviour("heading", 1.0, Kind.NOISE, _heading, per_question=True),
    Behaviour("repeated", 2.0, Kind.NOISE, _repeated, per_question=True),
    Behaviour("not_final", 2.0, Kind.NOISE, _not_final, per_question=True),
    Behaviour("two_lists", 1.5, Kind.NOISE, _two_lists, per_question=True),
    Behaviour("no_field", 2.0, Kind.NOISE, _no_field, per_question=True),
    Behaviour("prefixed", 1.0, Kind.NOISE, _prefixed, per_question=True),
    Behaviour("trailing_text", 1.0, Kind.NOISE, _trailing_text, per_question=True),
    Behaviour("wrong_length", 1.5, Kind.NOISE, _wrong_length, per_question=True),
    Behaviour("bad_item", 1.0, Kind.NOISE, _bad_item, per_question=True),
    Behaviour("cut_off", 2.0, Kind.CUT_OFF, _cut, per_question=True),
)
"""Reasoning-assisted behaviours and their weights for an average model."""

#: The clean form, and the form with text after the final line.
final_answer = _final
not_final = _not_final
