"""The evidence in words a domain expert reads: runs named by strength, no statistics.

Each sentence says what the runs did and which of them did it, e.g. "6 of 8 runs,
including the 3 strongest (r1, r2, r3), answer A FALSE; the key says TRUE". A run's
strength is its end-to-end accuracy on this corpus (the share of its attempts that
match the keys), compared only with the runs of its own track (tracks are never
ranked against each other): with one track "the 3 strongest", with several "the
strongest run of 2 of the 3 tracks".
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ai4hse_desk.display.format import option_letter, plural
from ai4hse_desk.protocol.outcome import TRACK_ORDER

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ai4hse_desk.audit.records import Question
    from ai4hse_desk.keyaudit.suspicion import VoteSummary
    from ai4hse_desk.keyaudit.tally import RunTally
    from ai4hse_desk.protocol.outcome import Selection

#: Runs named in brackets at most.
NAMED = 3


@dataclass(frozen=True, slots=True)
class Strength:
    """The voting runs, strongest first within each track."""

    order: list[str]  # by rank within track, then track order
    rank: dict[str, int]  # run id -> 1-based rank within its track (among the voters)
    tracks: int

    @classmethod
    def of(cls, voters: Sequence[str], runs: Mapping[str, RunTally]) -> Strength:
        by_track: dict[int, list[str]] = {}
        for run_id in voters:
            by_track.setdefault(TRACK_ORDER.index(runs[run_id].track), []).append(run_id)
        rank: dict[str, int] = {}
        for members in by_track.values():
            members.sort(key=lambda r: (-(runs[r].accuracy or 0.0), r))
            rank.update({r: i for i, r in enumerate(members, start=1)})
        order = sorted(voters, key=lambda r: (rank[r], TRACK_ORDER.index(runs[r].track), r))
        return cls(order, rank, len(by_track))

    def clause(self, group: set[str]) -> str:
        """ ", including the 3 strongest (a, b, c)" — which strong runs are in ``group``."""
        if self.tracks > 1:
            tops = [r for r in self.order if self.rank[r] == 1]
            inside = [r for r in tops if r in group]
            if not inside:
                return "none of them the strongest run of its track"
            which = "each" if len(inside) == len(tops) else f"{len(inside)} of the {len(tops)}"
            return f"including the strongest run of {which} track{'' if which == 'each' else 's'}"
        leading = 0
        for run_id in self.order:
            if run_id not in group:
                break
            leading += 1
        if leading == len(self.order) and leading > 1:
            return ""
        if leading == 0:
            return f"but not the strongest ({self.order[0]})" if self.order else ""
        names = ", ".join(self.order[: min(leading, NAMED)])
        more = ", …" if leading > NAMED else ""
        if leading == 1:
            return f"including the strongest ({names})"
        return f"including the {leading} strongest ({names}{more})"


def _inserted(clause: str) -> str:
    return f", {clause}," if clause else ""


def _verb(count: int, verb: str) -> str:
    """``choose`` after "3 of 10 runs", ``chooses`` after "1 of 10 runs"."""
    return verb if count != 1 else verb + ("es" if verb.endswith("s") else "s")


def _difference(key: Selection, answer: Selection, letters: bool) -> tuple[str, str]:
    """("choose C", "the key says A") or ("answer A FALSE", "the key says TRUE")."""
    if letters:
        return f"choose {option_letter(answer.index(True))}", (
            f"the key says {option_letter(key.index(True))}")  # fmt: skip
    changed = [i for i, (a, k) in enumerate(zip(answer, key, strict=True)) if a != k]
    said = " and ".join(f"{option_letter(i)} {'TRUE' if answer[i] else 'FALSE'}" for i in changed)
    keyed = " and ".join(f"{option_letter(i)} {'TRUE' if key[i] else 'FALSE'}" for i in changed)
    if len(changed) == 1:
        keyed = "TRUE" if key[changed[0]] else "FALSE"
    return f"answer {said}", f"the key says {keyed}"


def _contest(
    question: Question, votes: VoteSummary, letters: bool, option: int | None
) -> tuple[set[str], str, str] | None:
    """The runs that contest the key and what they say: on a letter question the
    most chosen other letter; on Boolean options the option the evidence points at
    (else the most common other answer, every option it changes)."""
    key = question.key
    if letters or option is None or not 0 <= option < len(key):
        if votes.alternative is None:
            return None
        group = {r for r, v in votes.votes.items() if v == votes.alternative}
        return group, *_difference(key, votes.alternative, letters)
    group = {r for r, v in votes.votes.items() if v[option] != key[option]}
    if not group:
        return None
    flipped = tuple(not v if i == option else v for i, v in enumerate(key))
    return group, *_difference(key, flipped, False)


def vote_sentences(
    question: Question,
    votes: VoteSummary,
    runs: Mapping[str, RunTally],
    letters: bool,
    option: int | None = None,
) -> list[str]:
    """What the runs answered, strongest runs named; strongest evidence first.

    ``option``: the Boolean option the evidence points at (ignored on letters)."""
    if not votes.voters:
        return []
    key = question.key
    strength = Strength.of(list(votes.votes), runs)
    out: list[str] = []
    total = votes.voters + votes.tied
    contested = _contest(question, votes, letters, option)
    if contested is not None:
        group, said, keyed = contested
        runs_text = "all " + plural(total, "run") if len(group) == total > 1 else (
            f"{len(group):,} of {plural(total, 'run')}")  # fmt: skip
        verb, rest = said.split(" ", 1)
        said = f"{_verb(len(group), verb)} {rest}"
        out.append(f"{runs_text}{_inserted(strength.clause(group))} {said}; {keyed}")
    against = votes.voters - votes.agree
    if votes.agree == 0 and against and votes.contest < votes.voters:
        out.append("no run gives the key's answer")
    elif votes.agree and against:
        keeping = {r for r, v in votes.votes.items() if v == key}
        strong = strength.order[: max(1, len(strength.order) // 3)]
        if strength.tracks == 1 and len(strong) > 1 and all(r in keeping for r in strong):
            out.append(
                f"the {len(strong):,} strongest runs ({', '.join(strong[:NAMED])}) give the key's "
                "answer and weaker runs do not: this looks more like a hard question than a "
                "wrong key"
            )
        else:
            clause = strength.clause(keeping)
            if not clause.startswith("including") and len(keeping) <= 2:
                clause = "(" + ", ".join(sorted(keeping, key=strength.order.index)) + ")"
                named = f" {clause}"
            else:
                named = _inserted(clause)
            give = _verb(votes.agree, "give")
            out.append(f"{votes.agree:,} of {plural(total, 'run')}{named} {give} the key's answer")
    scattered = against - votes.contest
    if scattered >= 2:
        answers = len(Counter(v for v in votes.votes.values() if v != key)) - 1
        besides = ""
        on_alternative = {r for r, v in votes.votes.items() if v == votes.alternative}
        if contested is not None and contested[0] != on_alternative:
            # The first sentence counted the runs that differ on one option: say which
            # runs "the other" leaves out, so that the counts add up to the runs.
            gives = _verb(votes.contest, "give")
            besides = (
                f"besides the {plural(votes.contest, 'run')} that {gives} the most "
                "common other answer, "
            )
        out.append(
            f"{besides}the other {scattered:,} runs that disagree with the key scatter over "
            f"{plural(answers, 'other answer')}"
        )
    if votes.tied:
        answer = _verb(votes.tied, "answer")
        out.append(f"{plural(votes.tied, 'run')} {answer} differently in equal numbers of "
                   "repetitions (no majority: not counted)")  # fmt: skip
    if votes.declined:
        out.append(f"{plural(votes.declined, 'run')} gave no usable answer")
    return out


def discrimination_sentence(r: float | None) -> list[str]:
    """A sentence when the stronger runs do worse on this question than the weaker ones."""
    if r is not None and r <= -0.1:
        return [
            "the runs that do best on the other questions get this one wrong more often "
            "than the weaker runs"
        ]
    return []


__all__ = ["NAMED", "Strength", "discrimination_sentence", "vote_sentences"]
