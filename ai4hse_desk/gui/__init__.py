"""The window: everything that touches Qt or pyqtgraph (the core packages never do).

The folders follow the data: ``workers`` run the core's reads and changes off
the GUI thread, ``models`` adapt the review index and the scores to Qt,
``panels`` and ``widgets`` show them, ``views`` compose them into the window's
pages, ``dialogs`` ask the reviewer, and ``controllers`` carry requests between
them through signals. :mod:`.main_window` builds the views and wires the
controllers; :mod:`.app` is the entry point and :mod:`.screenshot` the headless
rendering.
"""
