"""Entry point of the PyInstaller bundle: the same dispatcher as ``ai4hse-desk``.

``freeze_support`` first: a large file's review index is built by *spawned* worker
processes, which a frozen program starts by running itself again; this call makes such
a start run the worker, not a second desk.
"""

import multiprocessing

from ai4hse_desk.launcher import console_main

if __name__ == "__main__":
    multiprocessing.freeze_support()
    console_main()
