"""Background work: one task mechanism (reads and changes off the GUI thread) for the window."""
