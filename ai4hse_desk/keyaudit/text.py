"""Text normalisation shared by the hygiene checks."""

from __future__ import annotations

import re
import unicodedata

_PUNCT = re.compile(r"[^\w\s]+")
_SPACE = re.compile(r"\s+")


def normalise(text: str) -> str:
    """Comparison form: NFKC, case folded, punctuation dropped, whitespace collapsed."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return _SPACE.sub(" ", _PUNCT.sub(" ", folded)).strip()


__all__ = ["normalise"]
