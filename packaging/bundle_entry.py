"""Entry point of the PyInstaller bundle: the same dispatcher as ``ai4hse-desk``."""

from ai4hse_desk.launcher import console_main

if __name__ == "__main__":
    console_main()
