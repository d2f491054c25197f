"""Plain helpers the core tests share: file digests, folder listings, the CLI in-process,
hand-made questions, the public benchmark data (``../shared/data``), and acronyms a
demo's responses mis-cased.

The public-data tests skip without the data, except under ``make test``
(``AI4HSE_REQUIRE_DATA=1``), where a missing folder fails them.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import re
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from ai4hse_desk.audit import Option, Question
from ai4hse_desk.launcher import main

if TYPE_CHECKING:
    from collections.abc import Sequence

ROOT = Path(__file__).resolve().parents[2]
DATA_ENV = "AI4HSE_PUBLIC_DATA"
REQUIRE_DATA_ENV = "AI4HSE_REQUIRE_DATA"


def sha256(path: Path) -> str:
    """SHA-256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def listing(folder: Path) -> dict[str, str]:
    """Every file directly in ``folder``: name → SHA-256."""
    return {p.name: sha256(p) for p in sorted(folder.iterdir()) if p.is_file()}


def entry_names(folder: Path) -> list[str]:
    """The names of everything directly in ``folder``, sorted."""
    return sorted(p.name for p in folder.iterdir())


def tree_digest(folder: Path) -> dict[str, tuple[str, int]]:
    """Every file below ``folder``: relative path → (SHA-256, mtime_ns)."""
    return {
        path.relative_to(folder).as_posix(): (sha256(path), path.stat().st_mtime_ns)
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def cli(*args: str) -> tuple[int, str, str]:
    """Run ``ai4hse-desk ARGS`` in-process: (exit status, stdout, stderr).

    argparse's own exits (bad arguments, ``--help``) are returned as their status.
    """
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(args))
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def question(
    qid: str, text: str, options: Sequence[str], key: Sequence[bool], ordinal: int = 1
) -> Question:
    """A :class:`Question` made by hand (no database): option texts and key in position order."""
    made = tuple(Option(i, t, k) for i, (t, k) in enumerate(zip(options, key, strict=True)))
    return Question(qid, ordinal, text, made)


def public_data(name: str = "") -> Path:
    """The public benchmark data folder ``name`` (``$AI4HSE_PUBLIC_DATA`` or ../shared/data)."""
    base = Path(os.environ.get(DATA_ENV, ROOT.parent / "shared" / "data"))
    return base / name if name else base


def require_data(folder: Path) -> None:
    """Skip the calling test without ``folder``; fail instead under ``AI4HSE_REQUIRE_DATA=1``."""
    if folder.is_dir():
        return
    if os.environ.get(REQUIRE_DATA_ENV) == "1":
        pytest.fail(f"{REQUIRE_DATA_ENV}=1 but the public data is missing: {folder}")
    pytest.skip(f"no public data at {folder}")


def miscased_acronyms(path: Path) -> list[tuple[int, str]]:
    """(attempt id, word) for each response of the demo file ``path`` that writes an
    acronym of its questions or options ("PPE", "LOTO") with a lower-case first letter
    ("pPE") or all in lower case ("ppe"), as the generator once did."""
    with contextlib.closing(sqlite3.connect(path)) as conn:
        texts = [
            text
            for (text,) in conn.execute(
                "SELECT text FROM questions UNION ALL SELECT text FROM options"
            )
        ]
        acronyms = {word for text in texts for word in re.findall(r"\b[A-Z]{2,}\b", text)}
        if not acronyms:
            return []
        words = "|".join(sorted({re.escape(a[0].lower() + a[1:]) for a in acronyms}))
        lowered = "|".join(sorted({re.escape(a.lower()) for a in acronyms}))
        pattern = re.compile(rf"\b(?:{words})\b|\b(?:{lowered})\b")
        found = []
        for attempt_id, raw in conn.execute(
            "SELECT attempt_id, raw_response FROM attempts WHERE raw_response IS NOT NULL"
        ):
            match = pattern.search(raw)
            if match:
                found.append((int(attempt_id), match.group()))
        return found
