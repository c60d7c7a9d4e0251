"""The `necro` console script. Ctrl-C is handled from its first line: while the engine is still
importing, it ends the process at once with one line and exit 130 (nothing has been written
yet); after that, `tools.cli.main` handles it (a batch keeps its finished games)."""
from __future__ import annotations

import os
import signal
import sys


def _interrupted(signum: int, frame: object) -> None:
    sys.stderr.write("necro: interrupted\n")
    sys.stderr.flush()
    os._exit(130)


def entry() -> None:
    """Run `necro` with the process's arguments. Started with Ctrl-C ignored (`nohup`, a job put in
    the background by a script), it stays ignored throughout, as Python itself leaves it."""
    ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    previous = None if ignored else signal.signal(signal.SIGINT, _interrupted)
    from .cli import entry as run
    if previous is not None:
        signal.signal(signal.SIGINT, previous)
    run()


if __name__ == "__main__":
    entry()
