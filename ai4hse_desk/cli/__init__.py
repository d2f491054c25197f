"""The headless commands of ``ai4hse-desk`` (cli.md); entry point :func:`.main.run_headless`.

Nothing here imports Qt: the launcher sends these commands here and anything else to
the window. This module names the commands only, so that the launcher can tell
where an argument list goes without loading any command (the window's start-up).
"""

#: Sub-commands served headless (the launcher sends anything else to the window);
#: :mod:`.main` registers exactly these (a test checks).
HEADLESS_COMMANDS: frozenset[str] = frozenset(
    {"demo", "rescore", "extract", "import", "flag", "notes", "keyaudit", "review"}
)
