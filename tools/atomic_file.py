"""Files written whole or not at all: the text goes to a temporary file in the same folder, is
fsynced, then renamed over the target, so a full disk or a kill never leaves an empty or half
written file where a good one (or none) was."""
from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, TextIO


def _new_file_mode() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


@contextmanager
def replaced(path: str | Path, newline: str | None = None, exclusive: bool = False) -> Iterator[TextIO]:
    """A text file to write that becomes `path` when the block ends without an error. With
    `exclusive`, an existing `path` is never replaced: FileExistsError instead."""
    target = Path(path)
    mode = target.stat().st_mode & 0o777 if target.is_file() else _new_file_mode()
    fd, tmp = tempfile.mkstemp(dir=target.resolve().parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
            os.fchmod(fh.fileno(), mode)
        if exclusive:
            os.link(tmp, target)      # fails if the name was taken meanwhile
            os.unlink(tmp)
        else:
            os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_whole(path: str | Path, text: str, exclusive: bool = False) -> None:
    """Write `text` to `path` whole or not at all (see `replaced`)."""
    with replaced(path, exclusive=exclusive) as fh:
        fh.write(text)


__all__ = ["replaced", "write_whole"]
