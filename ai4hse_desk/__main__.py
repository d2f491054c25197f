"""``python -m ai4hse_desk``."""

from ai4hse_desk.launcher import console_main

console_main()
