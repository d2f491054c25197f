"""The desk's verdicts: every attempt re-derived with the protocol and each run scored.

* :mod:`.stream` — the verdict stream, the one derivation of every attempt of a file
  (the review index build, ``rescore`` and the review report's sensitivity consume it);
* :mod:`.scoring` — the one scoring of a verdict stream (:mod:`.tally` counts it in);
* :mod:`.rescore` — ``ai4hse-desk rescore``: the stream scored (a large file by two
  processes over attempt-id ranges, :mod:`.workers`);
* :mod:`.key_sensitivity` — the same stream scored with corrected keys and without
  excluded questions (never official);
* :mod:`.attempt_detail` — what the detail panels show of one attempt (a Qt-free
  view model: the verdict, its reason, the characters it rests on).
"""
