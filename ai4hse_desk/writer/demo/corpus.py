"""The demo's question corpus (``resources/demo/questions.json``) and its tables.

The 100 questions were written for the demo; they are not taken from any
benchmark. Each has 4 to 6 options, a Boolean key, a ``topic`` and a
``difficulty`` label (written as two facets of ``question_labels``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import cache
from typing import TYPE_CHECKING, Any

from ai4hse_desk.writer.new_db import WriterError, read_resource

if TYPE_CHECKING:
    import sqlite3

#: Label facets written for every question, in this order.
FACETS: tuple[str, ...] = ("topic", "difficulty")
DIFFICULTIES: tuple[str, ...] = ("easy", "medium", "hard")


@dataclass(frozen=True, slots=True)
class DemoQuestion:
    """One question of the demo corpus.

    Attributes:
        question_id: ``Q001`` … ``Q100``.
        ordinal: 1-based position in the corpus.
        text: the question.
        options: option texts in their fixed order.
        key: one Boolean per option (True = the option is correct).
        topic: descriptive topic label.
        difficulty: ``easy``, ``medium`` or ``hard``.
    """

    question_id: str
    ordinal: int
    text: str
    options: tuple[str, ...]
    key: tuple[bool, ...]
    topic: str
    difficulty: str

    @property
    def n(self) -> int:
        """Number of options."""
        return len(self.options)

    @property
    def key_bits(self) -> int:
        """The key as an integer, bit ``i`` set when option ``i`` is TRUE."""
        return sum(1 << i for i, value in enumerate(self.key) if value)


@dataclass(frozen=True, slots=True)
class DemoCorpus:
    """The corpus id and its questions in order."""

    corpus_id: str
    questions: tuple[DemoQuestion, ...]


def _question(ordinal: int, raw: dict[str, Any]) -> DemoQuestion:
    options = tuple(str(text) for text in raw["options"])
    key = tuple(bool(value) for value in raw["key"])
    question = DemoQuestion(
        question_id=str(raw["id"]),
        ordinal=ordinal,
        text=str(raw["text"]),
        options=options,
        key=key,
        topic=str(raw["topic"]),
        difficulty=str(raw["difficulty"]),
    )
    if not 4 <= len(options) <= 6 or len(key) != len(options):
        raise WriterError(f"demo question {question.question_id}: needs 4-6 options and keys")
    if question.difficulty not in DIFFICULTIES:
        raise WriterError(f"demo question {question.question_id}: bad difficulty")
    return question


@cache
def load_corpus() -> DemoCorpus:
    """The demo corpus, read once from the package resources.

    Raises:
        WriterError: the resource is malformed.
    """
    try:
        data = json.loads(read_resource("demo", "questions.json"))
        questions = tuple(
            _question(ordinal, raw) for ordinal, raw in enumerate(data["questions"], start=1)
        )
        corpus_id = str(data["corpus_id"])
    except (KeyError, TypeError, ValueError) as exc:
        raise WriterError(f"the demo corpus resource is malformed: {exc}") from None
    return DemoCorpus(corpus_id, questions)


#: Largest corpus :func:`widened_corpus` makes.
MAX_QUESTIONS = 10_000


def widened_corpus(corpus: DemoCorpus, questions: int) -> DemoCorpus:
    """``corpus`` grown to ``questions`` questions (benchmarks of review at scale).

    Question ``n`` beyond the written ones is a variant of written question
    ``(n − 1) mod 100 + 1``: the same options and key, the text set at another
    site ("… (site 7)"), so no two texts repeat. Ids become ``Q0001`` … (four
    digits) so they sort in corpus order.

    Raises:
        WriterError: ``questions`` below the written corpus or above :data:`MAX_QUESTIONS`.
    """
    base = corpus.questions
    if not len(base) <= questions <= MAX_QUESTIONS:
        raise WriterError(
            f"questions must be between {len(base)} and {MAX_QUESTIONS:,}, not {questions:,}"
        )
    grown = []
    for n in range(1, questions + 1):
        source = base[(n - 1) % len(base)]
        site = (n - 1) // len(base)
        text = source.text if site == 0 else f"{source.text} (site {site})"
        grown.append(replace(source, question_id=f"Q{n:04d}", ordinal=n, text=text))
    return DemoCorpus(f"{corpus.corpus_id}-x{questions}", tuple(grown))


def insert_corpus(conn: sqlite3.Connection, corpus: DemoCorpus) -> None:
    """Write ``questions``, ``question_labels`` and ``options`` for the corpus."""
    qs = corpus.questions
    conn.executemany(
        "INSERT INTO questions (question_id, ordinal, text) VALUES (?, ?, ?)",
        [(q.question_id, q.ordinal, q.text) for q in qs],
    )
    conn.executemany(
        "INSERT INTO question_labels (question_id, facet, value) VALUES (?, ?, ?)",
        [(q.question_id, facet, getattr(q, facet)) for q in qs for facet in FACETS],
    )
    conn.executemany(
        "INSERT INTO options (question_id, position, text, key) VALUES (?, ?, ?, ?)",
        [
            (q.question_id, position, text, int(value))
            for q in qs
            for position, (text, value) in enumerate(zip(q.options, q.key, strict=True))
        ],
    )


def render_prompt(template: str, question: DemoQuestion) -> str:
    """The prompt a run's template gives for one question."""
    options = "\n".join(f"{i}. {text}" for i, text in enumerate(question.options, start=1))
    return template.format(question=question.text, options=options, n=question.n)
