"""Migration scripts of the notes store, oldest first (``vNNNN_<what>.py``)."""
