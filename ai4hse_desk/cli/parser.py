"""An argparse parser that reports bad arguments as one ``error:`` line (exit 2)."""

from __future__ import annotations

import argparse
import re
import sys
from typing import NoReturn

#: The password part of a URL's user information (``scheme://user:PASSWORD@``).
_URL_PASSWORD = re.compile(r"(://[^:/@\s]*:)[^@\s]*@")


class OneLineErrorParser(argparse.ArgumentParser):
    """Argument parser whose errors are a single ``error: …`` line on stderr (a URL's
    password, e.g. in a misplaced ``--server`` value, shown as ``***``)."""

    def error(self, message: str) -> NoReturn:
        message = _URL_PASSWORD.sub(r"\1***@", message)
        sys.stderr.write(f"error: {message} (see '{self.prog} --help')\n")
        sys.exit(2)


def positive_int(text: str) -> int:
    """Argparse type: an integer ≥ 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {value}")
    return value


#: Most worker processes a ``--workers`` may ask for.
MAX_PROCESSES = 64


def process_count(text: str) -> int:
    """Argparse type of every ``--workers``: a whole number of processes from 1 to
    :data:`MAX_PROCESSES`."""
    if not text.isdigit() or not 1 <= int(text) <= MAX_PROCESSES:
        raise argparse.ArgumentTypeError(
            f"not a number of processes from 1 to {MAX_PROCESSES}: {text[:20]!r}"
        )
    return int(text)
