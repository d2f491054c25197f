"""Qt-free text helpers for showing untrusted text to a person (terminal, messages)."""

from ai4hse_desk.display.terminal import terminal_safe

__all__ = ["terminal_safe"]
