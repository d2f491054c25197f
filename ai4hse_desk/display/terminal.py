"""Untrusted text made safe for a terminal line: no control bytes, nothing invisible.

A model name, run id or file path read from an audit file can hold ``ESC`` (a
terminal escape sequence that moves the cursor or recolours text), ``CR``
(returns to the start of the line and overwrites what was printed), C1 controls,
bidirectional overrides that reorder what the reader sees, and zero-width
characters. :func:`terminal_safe` replaces each of them with a visible escape in
Python's notation (``\\x1b``, ``\\r``, ``\\u202e``), so what is printed is exactly
what is stored, one line, and nothing can forge or hide a row.
"""

from __future__ import annotations

import re
from typing import Final

#: C0 controls, DEL, C1 controls, soft hyphen, the bidi marks, embeddings, overrides
#: and isolates, zero-width characters, separators, invisible operators, BOM,
#: interlinear annotation marks, tag characters and lone surrogates.
_UNSAFE: Final = re.compile(
    "[\x00-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f"
    "\ufeff\ufff9-\ufffb\U000e0000-\U000e007f\ud800-\udfff]"
)
_SHORT: Final = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    if char in _SHORT:
        return _SHORT[char]
    code = ord(char)
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def terminal_safe(text: str) -> str:
    """``text`` with every control, bidi and invisible character as a visible escape."""
    return _UNSAFE.sub(_escape, text)
