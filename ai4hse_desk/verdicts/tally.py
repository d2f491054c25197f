"""Counting a batch of verdicts into a run's scorer with C-level counters.

The scoring (:mod:`.scoring`) appends one plain tuple per attempt to its run's
:class:`RunTally` (a bound ``list.append``, no method call into the scorer) and
flushes every tally once per batch read: ``zip`` splits the tuples into their
fields and :meth:`~ai4hse_desk.protocol.metrics.RunScorer.add_counts` counts them
into the scorer's own :class:`collections.Counter` objects (``Counter.update`` and
:func:`itertools.compress` count in C: attempts and correct attempts per question
and per repetition, statuses), with no Python-level step per question. The scorer
ends with exactly the counts one ``RunScorer.add`` per attempt would give (a test
compares them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from ai4hse_desk.protocol.metrics import RunScorer
    from ai4hse_desk.protocol.outcome import Selection, Status

#: One attempt: (question_id, repetition, status, strict_format, correct, disagrees).
Event = tuple[str, int, "Status", bool, bool, bool]


class RunTally:
    """The attempts of one run not yet counted into its scorer.

    Attributes:
        append: adds one :data:`Event`.
        append_wrong: adds the (question id, selection) of a valid but incorrect
            attempt (besides its event).
    """

    __slots__ = ("_events", "_scorer", "_wrong", "append", "append_wrong")

    def __init__(self, scorer: RunScorer) -> None:
        self._scorer = scorer
        self._events: list[Event] = []
        self._wrong: list[tuple[str, Selection | None]] = []
        self.append: Callable[[Event], None] = self._events.append
        self.append_wrong: Callable[[tuple[str, Selection | None]], None] = self._wrong.append

    def flush(self, keys: Mapping[str, Selection]) -> None:
        """Count the pending attempts into the scorer (``keys``: answer key per question)."""
        events = self._events
        if not events:
            return
        # (every event is a 6-tuple made by the scoring: strict=True would only add a look
        # at each of the batch's tuples after the last field)
        question_ids, repetitions, statuses, stricts, corrects, differs = zip(*events, strict=False)
        self._scorer.add_counts(
            statuses=statuses,
            question_ids=question_ids,
            repetitions=repetitions,
            corrects=corrects,
            keys=keys,
            strict=sum(stricts),
            disagreements=sum(differs),
            wrong=self._wrong,
        )
        events.clear()  # the same lists: ``append`` and ``append_wrong`` stay bound to them
        self._wrong.clear()
