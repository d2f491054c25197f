"""One way to write the small things people read: option letters, run settings, counts.

Every panel, table, export and report that shows these uses this module, so the
window, the HTML report and a CSV never disagree ("AA" after "Z", "provider
default" for an unset temperature, "10" for protocol version 10).
"""

from __future__ import annotations

from typing import Final

#: What an unset value reads as (a setting the runner did not record).
NOT_SET: Final = "not set"
#: What an unset temperature reads as: the provider chose it.
PROVIDER_DEFAULT: Final = "provider default"


def option_letter(position: int) -> str:
    """``A``, ``B``, … ``Z``, ``AA``, ``AB`` … for the 0-based option ``position``."""
    if position < 0:
        raise ValueError(f"an option position is 0 or more, not {position}")
    letters = ""
    number = position + 1
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def option_label(position: int) -> str:
    """``"B (1)"``: the letter a reader sees with the 0-based position exports store."""
    return f"{option_letter(position)} ({position})"


def number_text(value: float) -> str:
    """A number without a spurious ``.0`` (``0.7`` → ``"0.7"``, ``1.0`` → ``"1"``)."""
    if isinstance(value, int):
        return f"{value:,}"
    text = repr(value)
    return text[:-2] if text.endswith(".0") else text


def setting_text(key: str, value: object) -> str:
    """A run setting (a ``runs`` column) for people.

    ``None`` reads :data:`PROVIDER_DEFAULT` for the temperature and :data:`NOT_SET`
    otherwise; counts get thousands separators; other values are shown as stored.
    """
    if value is None or value == "":
        return PROVIDER_DEFAULT if key == "temperature" else NOT_SET
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, (int, float)):
        return number_text(value) if key != "protocol_version" else str(value)
    return str(value)


def plural(count: int, noun: str, many: str | None = None) -> str:
    """``"1 run"``, ``"2 runs"``, ``"1,000 attempts"``."""
    word = noun if count == 1 else (many or noun + "s")
    return f"{count:,} {word}"
