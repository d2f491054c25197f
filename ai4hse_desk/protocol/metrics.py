"""Run metrics of protocol.md section 6, accumulated one attempt at a time.

A :class:`RunScorer` takes the desk's verdict on each attempt of one run
(``add``, built for a hot loop over a million attempts: two dict look-ups and
a few integer increments, no allocation once a question and a repetition have
been seen; a valid but incorrect selection is only counted per question and
distinct selection, its option counts are derived once in ``result``) and
finally produces the run object of cli.md's ``rescore`` JSON (``result``).
:func:`order_runs` orders those objects as cli.md requires.

Choices where the specification is silent:

* A run is scored only when its status is ``complete`` and no attempt is
  ``pending``; an unscored run keeps every count but reports ``null`` for
  every rate. A scored run with a zero denominator (e.g. zero attempts, zero
  valid attempts) reports ``null`` for the affected rates.
* The answer key of a question is taken from its first attempt.
* A ``valid`` attempt whose selection length differs from its key's is a
  caller bug (extraction reads lists against ``n``) and raises ``ValueError``.
* Slice facets and values, and repetitions, are listed in sorted order.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress

from ai4hse_desk.protocol.outcome import PARSE_ERRORS, TRACK_ORDER, Selection, Status
from ai4hse_desk.protocol.wilson import wilson_interval

#: Value of ``consistency_index`` when CV > 1 or M = 0 (EnviroExam "model void").
VOID = "void"

_VALID = Status.VALID
_PENDING = Status.PENDING
_TRACK_RANK = {track.value: rank for rank, track in enumerate(TRACK_ORDER)}

_Rate = Callable[[int, int], "float | None"]


@dataclass(frozen=True, slots=True)
class RunInfo:
    """What scoring needs to know about a run (one row of ``runs``)."""

    run_id: str
    model: str
    track: str
    protocol_version: int
    status: str  # 'complete' | 'unfinished'


#: ``(TP, FP, FN)`` by (selection, key), shared by every scorer (at most this many).
_PAIR_COUNTS: dict[tuple[Selection, Selection], tuple[int, int, int]] = {}
_PAIR_COUNTS_MAX = 65_536


def _option_counts(selection: Selection, key: Selection) -> tuple[int, int, int]:
    """``(TP, FP, FN)`` of a valid selection against its key (TRUE = positive)."""
    if len(selection) != len(key):
        raise ValueError(f"valid selection {selection!r} against key {key!r}")
    tp = fp = fn = 0
    for chosen, expected in zip(selection, key, strict=True):
        if chosen and expected:
            tp += 1
        elif chosen:
            fp += 1
        elif expected:
            fn += 1
    return tp, fp, fn


def consistency_index(slices: Sequence[tuple[int, int]]) -> float | str | None:
    """EnviroExam composite index ``I = M × (1 − CV)`` over slice accuracies.

    Args:
        slices: ``(correct, attempts)`` of each slice value, ``attempts > 0``.

    Returns:
        ``None`` without slices; :data:`VOID` when M = 0 or CV > 1; otherwise
        ``I``, computed as the equal ``M − σ`` (σ the population standard
        deviation). Whether CV ≤ 1 is decided exactly on rationals, so float
        noise never turns an edge case void.
    """
    if not slices:
        return None
    # On integers: with D the lcm of the slice sizes, slice i's accuracy is A_i / D
    # (A_i = correct_i * D / attempts_i). Over k slices, M = S / (kD) and
    # σ² = (kQ − S²) / (kD)², with S = ΣA_i and Q = ΣA_i², so CV > 1 exactly when
    # kQ > 2S². Each float is one correctly rounded int / int division, the same
    # float as from the fractions themselves.
    k = len(slices)
    denominator = math.lcm(*(attempts for _, attempts in slices))
    scaled = [correct * (denominator // attempts) for correct, attempts in slices]
    total = sum(scaled)
    if total == 0:
        return VOID
    spread = k * sum(value * value for value in scaled) - total * total
    if spread > total * total:
        return VOID
    if spread == total * total:
        return 0.0
    scale = k * denominator
    return max(0.0, total / scale - math.sqrt(spread / (scale * scale)))


class RunScorer:
    """Streaming accumulator of one run's attempts (protocol.md section 6)."""

    __slots__ = (
        "_attempts_of",
        "_by_status",
        "_correct_of",
        "_disagreements",
        "_keys",
        "_rep_attempts",
        "_rep_correct",
        "_strict",
        "_wrong",
        "info",
    )

    def __init__(self, run: RunInfo) -> None:
        self.info = run
        self._by_status: Counter[Status] = Counter(dict.fromkeys(Status, 0))
        # Counters, so that a batch of attempts is counted in by C (Counter.update).
        self._attempts_of: Counter[str] = Counter()  # question_id -> attempts
        self._correct_of: Counter[str] = Counter()  # question_id -> correct attempts
        self._keys: dict[str, Selection] = {}  # of every question counted
        self._rep_attempts: Counter[int] = Counter()  # repetition -> attempts
        self._rep_correct: Counter[int] = Counter()  # repetition -> correct attempts
        self._strict = 0
        self._disagreements = 0
        # (question_id, selection) -> count of valid but incorrect attempts
        self._wrong: Counter[tuple[str, Selection | None]] = Counter()

    def merge(self, other: RunScorer) -> None:
        """Add the counts of ``other`` (the same run, other attempts) into this scorer."""
        if other.info != self.info:
            raise ValueError(f"cannot merge run {other.info.run_id!r} into {self.info.run_id!r}")
        self._by_status.update(other._by_status)
        self._attempts_of.update(other._attempts_of)
        self._correct_of.update(other._correct_of)
        self._rep_attempts.update(other._rep_attempts)
        self._rep_correct.update(other._rep_correct)
        for question_id, key in other._keys.items():
            self._keys.setdefault(question_id, key)
        self._strict += other._strict
        self._disagreements += other._disagreements
        self._wrong.update(other._wrong)

    @property
    def attempts(self) -> int:
        """Attempts added so far."""
        return sum(self._by_status.values())

    def add(
        self,
        question_id: str,
        repetition: int,
        status: Status,
        selection: Selection | None,
        strict_format: bool,
        key: Selection,
        disagrees: bool,
    ) -> None:
        """Count one attempt with the desk's verdict on it.

        Args:
            question_id: the attempt's question.
            repetition: the attempt's repetition (1-based).
            status: the desk's status (a :class:`Status` member).
            selection: the desk's extracted selection, ``None`` if none.
            strict_format: the desk's strict-format verdict.
            key: the question's answer key.
            disagrees: whether the runner's recorded verdict differs.
        """
        self._by_status[status] += 1
        self._attempts_of[question_id] += 1
        self._keys.setdefault(question_id, key)
        self._rep_attempts[repetition] += 1
        if strict_format:
            self._strict += 1
        if disagrees:
            self._disagreements += 1
        if status is _VALID:
            if selection == key:
                self._correct_of[question_id] += 1
                self._rep_correct[repetition] += 1
            else:
                self._wrong[question_id, selection] += 1

    def add_counts(
        self,
        statuses: Iterable[Status],
        question_ids: Sequence[str],
        repetitions: Sequence[int],
        corrects: Sequence[bool],
        keys: Mapping[str, Selection],
        strict: int,
        disagreements: int,
        wrong: Iterable[tuple[str, Selection | None]],
    ) -> None:
        """Count many attempts at once, exactly as one :meth:`add` per attempt would
        (the sequences hold one item per attempt, in step; counted in by C).

        Args:
            statuses: each attempt's status.
            question_ids: each attempt's question.
            repetitions: each attempt's repetition.
            corrects: whether each attempt is correct.
            keys: the answer key of every question in ``question_ids``.
            strict: attempts in strict format.
            disagreements: attempts whose recorded verdict differs.
            wrong: (question id, selection) of each valid but incorrect attempt.
        """
        self._by_status.update(statuses)
        self._attempts_of.update(question_ids)
        self._correct_of.update(compress(question_ids, corrects))
        self._rep_attempts.update(repetitions)
        self._rep_correct.update(compress(repetitions, corrects))
        known = self._keys
        if len(known) < len(keys):  # (once every question is known, none can be new)
            for question_id in set(question_ids).difference(known):  # each once per run
                known[question_id] = keys[question_id]
        self._strict += strict
        self._disagreements += disagreements
        self._wrong.update(wrong)

    def result(
        self, labels: Mapping[str, Mapping[str, str]], *, consistency_facet: str = "topic"
    ) -> dict[str, object]:
        """The run object of cli.md's ``rescore`` JSON.

        Args:
            labels: ``question_id -> {facet: value}``; questions absent here
                (or without a facet) are left out of that facet's slices.
            consistency_facet: facet whose slices feed ``consistency_index``.
        """
        info, by_status = self.info, self._by_status
        scored = info.status == "complete" and by_status[_PENDING] == 0

        def rate(numerator: int, denominator: int) -> float | None:
            return numerator / denominator if scored and denominator else None

        attempts = sum(by_status.values())
        valid = by_status[_VALID]
        correct = sum(self._correct_of.values())
        tp, fp, fn, options = self._option_totals()
        precision, recall = rate(tp, tp + fp), rate(tp, tp + fn)
        f1 = None if precision is None or recall is None else 2 * tp / (2 * tp + fp + fn)
        slices = self._slice_counts(labels)
        return {
            "run_id": info.run_id,
            "model": info.model,
            "track": info.track,
            "protocol_version": info.protocol_version,
            "status": info.status,
            "scored": scored,
            "attempts": attempts,
            "correct": correct,
            "valid": valid,
            "exact_accuracy": rate(correct, attempts),
            "coverage": rate(valid, attempts),
            "valid_accuracy": rate(correct, valid),
            "option_accuracy": rate(options - fp - fn, options),
            "precision": precision,
            "recall": recall,
            "f1": f1,
            "hamming_loss": rate(fp + fn, options),
            "strict_format_rate": rate(self._strict, attempts),
            "errors": {
                "provider_error": by_status[Status.PROVIDER_ERROR],
                "parse_error": sum(by_status[status] for status in PARSE_ERRORS),
                "incomplete": by_status[Status.INCOMPLETE],
                "by_status": {status.value: count for status, count in by_status.items()},
            },
            "baselines": self._baselines(rate),
            "repetitions": [
                self._repetition(number, attempts, self._rep_correct[number], scored)
                for number, attempts in sorted(self._rep_attempts.items())
            ],
            "slices": {
                facet: {value: rate(c, a) for value, (a, c) in values.items()}
                for facet, values in slices.items()
            },
            "consistency_index": (
                consistency_index([(c, a) for a, c in slices[consistency_facet].values()])
                if scored and consistency_facet in slices
                else None
            ),
            "disagreements": self._disagreements,
        }

    def _option_totals(self) -> tuple[int, int, int, int]:
        """``(TP, FP, FN, options)`` over every option of every valid attempt."""
        tp = fp = fn = options = 0
        for question_id, correct in self._correct_of.items():
            key = self._keys[question_id]
            tp += correct * key.count(True)
            options += correct * len(key)
        # Few (selection, key) pairs recur across the questions and runs: each is
        # counted once (a bounded table shared by every scorer).
        counted = _PAIR_COUNTS
        keys = self._keys
        for (question_id, selection), count in self._wrong.items():
            key = keys[question_id]
            if selection is None:
                raise ValueError(f"valid attempt of {question_id} without a selection")
            pair = (selection, key)
            option_counts = counted.get(pair)
            if option_counts is None:
                if len(counted) >= _PAIR_COUNTS_MAX:
                    counted.clear()
                option_counts = counted[pair] = _option_counts(selection, key)
            q_tp, q_fp, q_fn = option_counts
            tp, fp, fn = tp + count * q_tp, fp + count * q_fp, fn + count * q_fn
            options += count * len(key)
        return tp, fp, fn, options

    def _baselines(self, rate: _Rate) -> dict[str, float | None]:
        keys = self._keys.values()
        return {
            "always_true": rate(sum(1 for key in keys if all(key)), len(keys)),
            "always_false": rate(sum(1 for key in keys if not any(key)), len(keys)),
        }

    @staticmethod
    def _repetition(number: int, attempts: int, correct: int, scored: bool) -> dict[str, object]:
        interval = wilson_interval(correct, attempts) if scored else None
        return {
            "repetition": number,
            "attempts": attempts,
            "correct": correct,
            "exact_accuracy": correct / attempts if interval is not None else None,
            "wilson_low": interval[0] if interval is not None else None,
            "wilson_high": interval[1] if interval is not None else None,
        }

    def _slice_counts(
        self, labels: Mapping[str, Mapping[str, str]]
    ) -> dict[str, dict[str, tuple[int, int]]]:
        """``facet -> value -> (attempts, correct)``, facets and values sorted."""
        totals: dict[str, dict[str, tuple[int, int]]] = {}
        correct_of = self._correct_of
        for question_id, attempts in self._attempts_of.items():
            correct = correct_of.get(question_id, 0)
            for facet, value in labels.get(question_id, {}).items():
                values = totals.setdefault(facet, {})
                a, c = values.get(value, (0, 0))
                values[value] = (a + attempts, c + correct)
        return {facet: dict(sorted(totals[facet].items())) for facet in sorted(totals)}


def _order_key(run: Mapping[str, object]) -> tuple[int, str, bool, float, str]:
    track = str(run["track"])
    accuracy = run["exact_accuracy"] if run["scored"] else None
    rank = _TRACK_RANK.get(track, len(_TRACK_RANK))
    unknown_track = track if rank == len(_TRACK_RANK) else ""
    if isinstance(accuracy, float | int):
        return rank, unknown_track, False, -float(accuracy), str(run["run_id"])
    return rank, unknown_track, True, 0.0, str(run["run_id"])


def order_runs(runs: Iterable[dict[str, object]]) -> list[dict[str, object]]:
    """Order run objects as cli.md requires.

    Grouped by track in :data:`TRACK_ORDER` (unknown tracks after, by name);
    inside a track by ``exact_accuracy`` descending, runs without one
    (unscored, or zero attempts) last; ties by ``run_id``.
    """
    return sorted(runs, key=_order_key)
