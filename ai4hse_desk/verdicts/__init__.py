"""The desk's verdicts: every attempt re-derived with the protocol and each run scored.

* :mod:`.rescore` — the streaming rescore (``ai4hse-desk rescore`` and the review
  index build read the attempts through it);
* :mod:`.parallel` — the same rescore split over worker processes by attempt id;
* :mod:`.attempt_detail` — what the detail panels show of one attempt (a Qt-free
  view model: the verdict, its reason, the characters it rests on).
"""
