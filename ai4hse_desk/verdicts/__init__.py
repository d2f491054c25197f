"""The desk's verdicts: every attempt re-derived with the protocol and each run scored.

* :mod:`.rescore` — the streaming rescore (``ai4hse-desk rescore`` and the review
  index build read the attempts through it); :mod:`.verdict_loop` is its
  per-attempt loop, :mod:`.run_scores` scoring runs in one process;
* :mod:`.parallel` — the same rescore split over worker processes by attempt id
  (:mod:`.worker_share`: one worker's slice; :mod:`.machine`: the CPUs free now);
* :mod:`.attempt_detail` — what the detail panels show of one attempt (a Qt-free
  view model: the verdict, its reason, the characters it rests on).
"""
