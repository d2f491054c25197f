"""Answer-only responses: a Boolean list and (ideally) nothing else.

The spread follows what answer-only runs really return: mostly the strict
list, then mixed-case tokens, prose around the list, a revised list after an
earlier one, ``[1]``-style citations, letters instead of Booleans, wrong
lengths, malformed items (``maybe``, quoted ``"TRUE"``, a trailing comma) and
generations cut off at a small token cap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ai4hse_desk.display.format import option_letter
from ai4hse_desk.writer.demo.replies import (
    Behaviour,
    Kind,
    Rendered,
    Selection,
    bracket,
    flipped,
    resized,
    strict_list,
    tokens,
    truncate,
)

if TYPE_CHECKING:
    from collections.abc import Sequence


def _strict(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    text = (strict_list(sel), bracket(tokens(sel), ","), "\n" + strict_list(sel) + "\n")[v]
    return Rendered(text)


def _mixed_case(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    return Rendered(bracket(tokens(sel, v + 1)))


def _letters(sel: Selection) -> str:
    return ", ".join(option_letter(i) for i, value in enumerate(sel) if value) or "none"


def _prose(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    answer = strict_list(sel)
    if v == 0:
        return Rendered(f"The correct options are {_letters(sel)}.\n\n{answer}")
    if v == 1:
        return Rendered(f"Answer: {answer}")
    wrong = next((i for i, value in enumerate(sel) if not value), 0) + 1
    return Rendered(f"{answer}\n\nOption {wrong} does not reflect current good practice.")


def _revised(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    first = strict_list(flipped(sel, v + 1))
    lead = ("Actually, on reflection:", "Wait, let me correct that.", "Revised answer:")[v]
    return Rendered(f"{first}\n\n{lead} {strict_list(sel)}")


def _citations(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    source = ("ISO 45001:2018", "the Safety Data Sheet", "the site permit-to-work procedure")[v]
    return Rendered(
        f"Based on {source} [1] and general guidance [2]:\n{strict_list(sel)}\n\n"
        f"[1] {source}\n[2] national HSE regulator guidance"
    )


def _no_list(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    texts = (
        f"[{_letters(sel)}]",
        f"The correct options are {_letters(sel)}.",
        "I cannot answer with certainty without the full site risk assessment.",
    )
    return Rendered(texts[v])


def _wrong_length(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    return Rendered(strict_list(resized(sel, v)))


def _bad_item(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    items = tokens(sel)
    items[(v + 1) % len(items)] = ("maybe", "UNSURE", "N/A")[v]
    return Rendered(bracket(items))


def _quoted(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    items = tokens(sel)
    if v == 0:  # every item quoted: no token at all, so no answer list
        return Rendered(bracket([f'"{item}"' for item in items]))
    items[v % len(items)] = f'"{items[v % len(items)]}"'
    return Rendered(bracket(items))


def _trailing_comma(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    return Rendered(bracket(tokens(sel)).replace("]", ",]" if v else ", ]"))


def _revised_bad(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    last = tokens(sel)
    if v == 0:
        last = last[:-1]
    else:
        last[0] = "TRUE?" if v == 1 else "T"
    return Rendered(f"{strict_list(sel)}\n\nCorrection: {bracket(last)}")


def _nested(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    inner = strict_list(sel)
    return Rendered((f"[{inner}]", f"```\n{inner}\n```", f"**{inner}**")[v])


def _cut(sel: Selection, _opts: Sequence[str], v: int) -> Rendered:
    answer = strict_list(sel)
    if v == 0:  # cut inside the list
        return Rendered(truncate(answer, 0.6), cut_off=True)
    if v == 1:  # the list made it, the explanation did not
        return Rendered(f"{answer}\n\nExplanation: option 1 is correct because", cut_off=True)
    return Rendered("Let me consider each option in turn. Option 1 concerns", cut_off=True)


BEHAVIOURS: tuple[Behaviour, ...] = (
    Behaviour("strict", 70.0, Kind.CLEAN, _strict),
    Behaviour("mixed_case", 5.0, Kind.NOISE, _mixed_case),
    Behaviour("prose", 6.0, Kind.NOISE, _prose),
    Behaviour("revised", 2.5, Kind.NOISE, _revised),
    Behaviour("citations", 2.0, Kind.NOISE, _citations),
    Behaviour("no_list", 1.5, Kind.NOISE, _no_list),
    Behaviour("wrong_length", 1.5, Kind.NOISE, _wrong_length),
    Behaviour("bad_item", 0.8, Kind.NOISE, _bad_item),
    Behaviour("quoted", 0.6, Kind.NOISE, _quoted),
    Behaviour("trailing_comma", 0.5, Kind.NOISE, _trailing_comma),
    Behaviour("revised_bad", 0.4, Kind.NOISE, _revised_bad),
    Behaviour("nested", 0.4, Kind.NOISE, _nested),
    Behaviour("cut_off", 1.5, Kind.CUT_OFF, _cut),
)
"""Answer-only behaviours and their weights for an average model."""

#: A response with prose around the list: valid under v10, malformed before.
prose_answer = _prose
