"""Showing things to a person, without Qt: one module per concern.

* :mod:`.format` — option letters, run settings, plurals: written one way everywhere;
* :mod:`.cells` — the formula guard of every spreadsheet cell;
* :mod:`.status_style` — status colours and labels;
* :mod:`.terminal` — untrusted text made safe for one terminal line;
* :mod:`.text_sanitize` and :mod:`.visible_text` — untrusted response text made
  visible, with offset maps back to the original.
"""

from ai4hse_desk.display.terminal import terminal_safe

__all__ = ["terminal_safe"]
