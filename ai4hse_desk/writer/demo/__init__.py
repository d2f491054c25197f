"""The demo audit database: original questions, fictional runs, every status.

:func:`write_demo` (in :mod:`.database`) writes it; the other modules are its
parts: the question corpus, the run specifications, the pool of replies per
track (``replies_*``: generated demo answers, not the ``import responses``
command) and the deliberate runner disagreements.
"""

from ai4hse_desk.writer.demo.database import DemoSummary, write_demo

__all__ = ["DemoSummary", "write_demo"]
