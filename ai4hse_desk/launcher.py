"""The one entry point of ``ai4hse-desk``: headless commands or the window.

Headless commands (``demo``, ``rescore``, ``extract`` …) are dispatched to
:mod:`ai4hse_desk.cli` without importing Qt; anything else opens the window,
imported lazily from :mod:`ai4hse_desk.gui`.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``ai4hse-desk`` with ``argv`` (default: ``sys.argv[1:]``); return the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    from ai4hse_desk.cli import HEADLESS_COMMANDS  # the names only: the window loads no command

    headless = args and (args[0] in HEADLESS_COMMANDS or args[0] in ("--version", "-V"))
    if headless or (args and args[0] in ("-h", "--help") and "--screenshot" not in args):
        from ai4hse_desk.cli.main import run_headless

        return run_headless(args)
    try:
        from ai4hse_desk.gui.app import run_window

        return run_window(args)
    except KeyboardInterrupt:
        return 1
    except Exception as exc:  # noqa: BLE001 - the last resort: one error line, exit 1
        from ai4hse_desk.cli.errors import report_internal_error

        return report_internal_error(exc)


def console_main() -> None:
    """Console-script wrapper: exit with :func:`main`'s status."""
    sys.exit(main())


if __name__ == "__main__":
    console_main()
