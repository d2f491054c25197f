"""The headless commands of ``ai4hse-desk`` (cli.md); entry point :func:`.main.run_headless`.

Nothing here imports Qt: the launcher sends these commands here and anything else to
the window.
"""
