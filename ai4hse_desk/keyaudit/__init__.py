"""Key-audit signals: which answer keys most likely need a reviewer's look.

:func:`compute_key_audit` takes the desk's own verdict on every attempt
(re-derived, or read from the review index that stored it), fits a
latent-truth model with runs as annotators (:mod:`.latent`, :mod:`.latent_fit`,
:mod:`.posterior`: each run's ability, copy rate and misconceptions, one vote per
run), ranks the questions by the suspicion score (:mod:`.suspicion`: the model with
the runs' vote counts, weights fitted on real key errors, :mod:`.fitted`), says why in
plain words (:mod:`.evidence`), gives P(key wrong) only where it is calibrated
(:mod:`.calibration`), and reports the per-question signals (consensus against the
key, discrimination, difficulty, instability, data hygiene) and corpus-level signals
such as answer-key position skew (:class:`QuestionSuspicion`, ranked in a
:class:`KeyAuditResult`). Suggestions only: nothing here changes a key or a score,
and nothing imports Qt.
"""

from ai4hse_desk.keyaudit.compute import compute_key_audit
from ai4hse_desk.keyaudit.dupgroups import DuplicatePair, DuplicateReport, duplicate_pairs
from ai4hse_desk.keyaudit.duplicates import NEAR_DUPLICATE
from ai4hse_desk.keyaudit.finding import DuplicateFinding
from ai4hse_desk.keyaudit.hygiene import encoding_damage, identical_options
from ai4hse_desk.keyaudit.ranking import FORMULA, WEIGHTS
from ai4hse_desk.keyaudit.result import KeyAuditResult, QuestionSuspicion
from ai4hse_desk.keyaudit.skew import chi_square_sf, position_skew
from ai4hse_desk.keyaudit.text import normalise
from ai4hse_desk.progress import Progress
from ai4hse_desk.verdicts.rescore import RescoreCancelled

__all__ = [
    "FORMULA",
    "NEAR_DUPLICATE",
    "WEIGHTS",
    "DuplicateFinding",
    "DuplicatePair",
    "DuplicateReport",
    "KeyAuditResult",
    "Progress",
    "QuestionSuspicion",
    "RescoreCancelled",
    "chi_square_sf",
    "compute_key_audit",
    "duplicate_pairs",
    "encoding_damage",
    "identical_options",
    "normalise",
    "position_skew",
]
