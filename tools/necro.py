"""The `necro` console script. It imports the command only once Ctrl-C is handled, so an
interrupt at any moment (even while the engine is still importing) is one line and exit 130."""
from __future__ import annotations

import sys


def entry() -> None:
    """Run `necro` with the process's arguments."""
    try:
        from .cli import entry as run
    except KeyboardInterrupt:
        print("necro: interrupted", file=sys.stderr)
        sys.exit(130)
    run()


if __name__ == "__main__":
    entry()
