"""`necro simulate --out FILE`: each game's row appended as the game finishes, so that a killed
run keeps every finished game, and the same command run again continues the file.

A row is one `os.write` of its whole line. A write that fails half-way (a full disk, a file-size
limit) is cut back to the last whole row, so the file never ends in a broken line. Rows are
flushed at once and fsynced every `FSYNC_EVERY` seconds and at the end. While a batch runs the
file holds rows in the order the games finished; when it ends (complete or stopped by Ctrl-C) the
file is rewritten sorted by game index, so a batch killed and continued ends with the very file
an uninterrupted run writes (rows are deterministic per game index, except for search bots given
a time budget). Continuing checks that every row in the file is a row of this batch (its game
index, seed, ruleset, factions and agents); a file of another batch is refused in one line.
"""
from __future__ import annotations

import csv
import io
import json
import os
import stat
import time
from pathlib import Path
from typing import Any

from .results import _cell, file_format, read_rows, write_rows
from .simulate import FIELDS, GameSpec

Row = dict[str, Any]
FSYNC_EVERY = 2.0  # seconds between fsyncs of the results file while rows are appended


class RowWriteError(OSError):
    """A row could not be written (the file was cut back to its last whole row)."""


def row_line(row: Row, kind: str) -> bytes:
    """One row as the bytes of its line, exactly as `results.write_rows` writes it."""
    if kind == "jsonl":
        return (json.dumps({k: row.get(k) for k in FIELDS}) + "\n").encode("utf-8")
    buf = io.StringIO(newline="")
    csv.writer(buf).writerow([_cell(k, row.get(k)) for k in FIELDS])
    return buf.getvalue().encode("utf-8")


def _header(kind: str) -> bytes:
    if kind == "jsonl":
        return b""
    buf = io.StringIO(newline="")
    csv.writer(buf).writerow(FIELDS)
    return buf.getvalue().encode("utf-8")


def _spec_key(game: int, seed: Any, ruleset: Any, factions: Any, agents: Any) -> tuple[Any, ...]:
    return game, seed, ruleset, list(factions or []), list(agents or [])


def _describe(key: tuple[Any, ...]) -> str:
    game, seed, ruleset, factions, agents = key
    return f"game {game}: seed {seed}, {ruleset}, {', '.join(map(str, factions))}, agents {', '.join(map(str, agents))}"


class ResultSink:
    """The results file of one batch, open for appending rows as games finish."""

    def __init__(self, path: str, kind: str, fd: int, size: int, previous: list[Row], dropped: bool) -> None:
        self.path, self.kind, self.fd, self.size = path, kind, fd, size
        self.previous = previous        # rows already in the file when the batch started
        self.dropped = dropped          # a cut-off last line was dropped when continuing
        self.appended = 0
        self.error: str | None = None   # the first write that failed (the batch stops then)
        self.regular = stat.S_ISREG(os.fstat(fd).st_mode)   # not a device or pipe: it can be cut and rewritten
        self._synced = time.monotonic()

    @classmethod
    def open(cls, path: str, fmt: str | None, specs: list[GameSpec], overwrite: bool = False) -> "ResultSink":
        """Open `path` for this batch: a new file, or an existing one of this batch to continue
        (its rows are kept and their games skipped); `overwrite` starts it again."""
        kind = file_format(path, fmt)
        p = Path(path)
        previous: list[Row] = []
        dropped = False
        if p.is_file() and p.stat().st_size and not overwrite:
            skipped: list[str] = []
            previous = _rows_of_batch(path, kind, specs, skipped)   # nothing is changed in a refused file
            dropped = _end_at_whole_row(p, cut=bool(skipped))
        flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | (os.O_TRUNC if overwrite else 0)
        fd = os.open(path, flags, 0o644)
        size = os.fstat(fd).st_size
        sink = cls(path, kind, fd, size, previous, dropped)
        if size == 0 and _header(kind):
            sink._write(_header(kind), "the CSV header")
        return sink

    def done(self) -> set[int]:
        """The game indices the file already holds."""
        return {r["game"] for r in self.previous}

    def append(self, row: Row) -> bool:
        """Append one finished game's row; False (and `error` set) when it could not be written."""
        if self.error is not None:
            return False
        try:
            self._write(row_line(row, self.kind), f"game {row['game']}'s row")
        except RowWriteError as exc:
            self.error = str(exc)
            return False
        self.appended += 1
        if time.monotonic() - self._synced >= FSYNC_EVERY:
            self._sync()
        return True

    def _write(self, data: bytes, what: str) -> None:
        view = memoryview(data)
        try:
            while view:
                n = os.write(self.fd, view)
                view = view[n:]
        except OSError as exc:
            cut = ""
            if self.regular:
                try:
                    os.ftruncate(self.fd, self.size)   # back to the last whole row
                    cut = "; the file ends at its last whole row"
                except OSError as again:
                    cut = f"; cutting the part written failed: {again.strerror or again}"
            raise RowWriteError(f"--out '{self.path}': could not write {what}: {exc.strerror or exc}{cut}") from None
        self.size += len(data)

    def _sync(self) -> None:
        try:
            os.fsync(self.fd)
        except OSError:  # a file system without fsync: the rows are written all the same
            pass
        self._synced = time.monotonic()

    def close(self, rows: list[Row]) -> None:
        """The end of the batch: fsync, then (when nothing failed) rewrite the file sorted by game."""
        self._sync()
        os.close(self.fd)
        if self.error is None and self.regular:
            write_rows(self.path, rows, self.kind)


def _end_at_whole_row(p: Path, cut: bool) -> bool:
    """Make the file end with a newline before rows are appended: a cut-off last line (`cut`: one
    that does not read as a row) is dropped, its game played again; a whole row that only lacks its
    newline gets it. True when a line was dropped."""
    with open(p, "rb+") as fh:
        end = fh.seek(0, os.SEEK_END)
        fh.seek(max(0, end - 1))
        if end == 0 or fh.read(1) == b"\n":
            return False
        if not cut:
            fh.write(b"\n")
            return False
        pos = end
        while pos > 0:   # back to the last newline, a block at a time
            start = max(0, pos - 65536)
            fh.seek(start)
            nl = fh.read(pos - start).rfind(b"\n")
            if nl >= 0:
                fh.truncate(start + nl + 1)
                return True
            pos = start
        fh.truncate(0)
        return True


def _rows_of_batch(path: str, kind: str, specs: list[GameSpec], skipped: list[str]) -> list[Row]:
    """The rows of an existing results file, each checked to be a row of this batch (a cut-off
    last line is noted in `skipped`)."""
    try:
        rows = read_rows(path, kind, skipped)
    except ValueError as exc:
        raise ValueError(f"{exc}; give another --out, or --overwrite to replace the file") from None
    seen: dict[int, Row] = {}
    for r in rows:
        g = r["game"]
        got = _spec_key(g, r.get("seed"), r.get("ruleset"), r.get("factions"), r.get("agents"))
        spec = specs[g] if 0 <= g < len(specs) else None
        want = None if spec is None else _spec_key(spec.index, spec.seed, spec.ruleset, spec.factions, spec.agents)
        if got != want:
            this = f"this batch's {_describe(want)}" if want else f"this batch has games 0 to {len(specs) - 1}"
            raise ValueError(f"--out '{path}' holds rows of another batch ({_describe(got)}; {this}); "
                             "give another --out, or --overwrite to replace the file")
        seen.setdefault(g, r)
    return [seen[g] for g in sorted(seen)]


__all__ = ["FSYNC_EVERY", "ResultSink", "RowWriteError", "row_line"]
