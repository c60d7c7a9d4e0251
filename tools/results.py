"""Result rows to and from files: JSON lines, or CSV with nested fields as JSON text."""
from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any, Iterable, Iterator

from .atomic_file import replaced
from .simulate import FIELDS

FORMATS = ("jsonl", "csv")
_INTS = {"game", "seed", "rounds", "decisions"}
_TEXT = {"ruleset", "layout", "outcome", "first_player", "end_reason", "result", "error"}


def file_format(path: str | Path, fmt: str | None = None) -> str:
    """The format named by `fmt`, else by the file's extension (.jsonl, .json, .csv)."""
    if fmt:
        if fmt not in FORMATS:
            raise ValueError(f"unknown results format '{fmt}'; one of: {', '.join(FORMATS)}")
        return fmt
    ext = Path(path).suffix.lower()
    if ext in (".jsonl", ".json", ".ndjson"):
        return "jsonl"
    if ext == ".csv":
        return "csv"
    raise ValueError(f"cannot tell the format of '{path}' from its extension; use .jsonl or .csv, or --format")


def write_rows(path: str | Path, rows: Iterable[dict[str, Any]], fmt: str | None = None) -> int:
    """Write rows (sorted by game index) and return how many were written. The file is replaced
    whole or not at all: the rows go to a temporary file in the same folder, fsynced, renamed."""
    ordered = sorted(rows, key=lambda r: r["game"])
    kind = file_format(path, fmt)
    with replaced(path, newline="") as fh:
        if kind == "jsonl":
            for r in ordered:
                fh.write(json.dumps({k: r.get(k) for k in FIELDS}) + "\n")
        else:
            w = csv.writer(fh)
            w.writerow(FIELDS)
            for r in ordered:
                w.writerow([_cell(k, r.get(k)) for k in FIELDS])
    return len(ordered)


def _cell(key: str, value: Any) -> Any:
    if value is None:
        return ""
    if key in _INTS or key in _TEXT:
        return value
    return json.dumps(value)


def _uncell(key: str, text: str) -> Any:
    if text == "":
        return None
    if key in _INTS:
        return int(text)
    if key in _TEXT:
        return text
    return json.loads(text)


MAX_ROW_BYTES = 1024 * 1024  # one result row (a real one is about 2 KB)
MAX_ROWS = 1_000_000         # rows in one results file (as many as `necro simulate` plays at most)
_OUTCOMES = ("win", "shared", "humanity", "error")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > 20:
        raise ValueError(f"a number of {len(text.lstrip('-'))} digits")
    return int(text)


def _no_constant(text: str) -> Any:
    raise ValueError(f"{text} is not a number a result row may hold")


def _is_names(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _is_series(v: Any) -> bool:
    return isinstance(v, dict) and all(isinstance(k, str) and isinstance(seq, list)
                                       and all(x is None or type(x) is int for x in seq) for k, seq in v.items())


def row_problem(r: Any) -> str | None:
    """What is wrong with a result row (None: nothing). Every field the report reads is checked,
    so that a report is never cut off half-way by a bad row."""
    if not isinstance(r, dict):
        return f"a row is a JSON object, not {type(r).__name__}"
    missing = [k for k in ("game", "factions", "winners", "outcome") if k not in r]
    if missing:
        return f"no {', '.join(missing)}; is this a `necro simulate` results file?"
    if type(r["game"]) is not int:
        return "'game' should be a whole number"
    if r["outcome"] not in _OUTCOMES:
        return f"'outcome' should be one of {', '.join(_OUTCOMES)}, not {str(r['outcome'])[:40]!r}"
    if not _is_names(r["factions"]) or not r["factions"]:
        return "'factions' should be a list of faction names"
    error = r["outcome"] == "error"
    checks = {
        "winners": lambda v: _is_names(v) and set(v) <= set(r["factions"]),
        "seed": lambda v: type(v) is int, "rounds": lambda v: type(v) is int and v >= 0,
        "decisions": lambda v: type(v) is int and v >= 0,
        "ruleset": lambda v: isinstance(v, str), "first_player": lambda v: isinstance(v, str),
        "end_reason": lambda v: isinstance(v, str), "result": lambda v: isinstance(v, str),
        "error": lambda v: isinstance(v, str), "agents": _is_names,
        "doom": lambda v: isinstance(v, dict) and all(type(x) is int for x in v.values()),
        "spellbooks": lambda v: isinstance(v, dict) and all(_is_names(x) for x in v.values()),
        "doom_by_round": _is_series, "power_by_round": _is_series,
    }
    for key, ok in checks.items():
        v = r.get(key)
        if v is None and (error or key not in ("winners",)):
            continue
        if not ok(v):
            return f"'{key}' has a wrong value ({str(v)[:40]!r})"
    return None


def _lines(fh: Any, path: str | Path) -> Iterator[str]:
    """The file's lines, each read with a cap (a file of one endless line is refused, not read)."""
    for n, line in enumerate(iter(lambda: fh.readline(MAX_ROW_BYTES + 1), ""), 1):
        if len(line) > MAX_ROW_BYTES:
            raise ValueError(f"{path}:{n}: a line longer than {MAX_ROW_BYTES} bytes")
        yield line


class _Tail:
    """The file's lines (through `_lines`), noting whether the last one read lacks its newline:
    only a file's last line can, and then it was cut off while being written."""

    def __init__(self, fh: Any, path: str | Path) -> None:
        self.fh, self.path, self.cut = fh, path, False

    def __iter__(self) -> Iterator[str]:
        for line in _lines(self.fh, self.path):
            self.cut = not line.endswith("\n")
            yield line


def _parse(tail: _Tail, kind: str, path: str | Path, rows: list[tuple[int, Any]]) -> None:
    """Rows parsed into `rows` as (line, row); a line that does not parse raises ValueError."""
    if kind == "jsonl":
        for n, line in enumerate(tail, 1):
            if line.strip():
                try:
                    rows.append((n, json.loads(line, parse_int=_bounded_int, parse_constant=_no_constant)))
                except json.JSONDecodeError as exc:
                    raise ValueError(f"{path}:{n}: not a JSON line ({exc.msg})") from None
                except (ValueError, RecursionError) as exc:
                    raise ValueError(f"{path}:{n}: not a result row ({str(exc)[:80] or 'nested too deeply'})") from None
            if len(rows) > MAX_ROWS:
                raise ValueError(f"{path}: more than {MAX_ROWS:,} rows")
        return
    n = 1
    try:
        for n, rec in enumerate(csv.DictReader(tail), 2):
            try:
                rows.append((n, {k: _uncell(k, v) for k, v in rec.items() if k in FIELDS}))
            except (ValueError, TypeError, RecursionError) as exc:
                raise ValueError(f"{path}:{n}: bad CSV cell ({str(exc)[:80]})") from None
            if len(rows) > MAX_ROWS:
                raise ValueError(f"{path}: more than {MAX_ROWS:,} rows")
    except csv.Error as exc:
        raise ValueError(f"{path}:{n + 1}: not a CSV results file ({exc})") from None


def read_rows(path: str | Path, fmt: str | None = None, skipped: list[str] | None = None) -> list[dict[str, Any]]:
    """Read a results file back into rows. Every row is checked first: a malformed one stops the
    read with one line naming the file and line (no report is made from part of a file). The one
    exception is a last line cut off while it was written (no newline at its end, and it does not
    read as a row): with `skipped` it is left out and a warning added there; without, it is
    refused with a message that says so."""
    kind = file_format(path, fmt)
    rows: list[tuple[int, Any]] = []
    cut: str | None = None
    try:
        with open(path, encoding="utf-8", newline="") as fh:
            tail = _Tail(fh, path)
            try:
                _parse(tail, kind, path, rows)
            except ValueError as exc:
                if not (tail.cut and fh.read(1) == ""):
                    raise
                cut = str(exc)
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    for i, (n, r) in enumerate(rows):
        why = row_problem(r)
        if why is not None:
            if i == len(rows) - 1 and tail.cut and cut is None:
                cut = f"{path}:{n}: bad result row: {why}"
                rows.pop()
                break
            raise ValueError(f"{path}:{n}: bad result row: {why}")
    if cut is not None:
        why = f"{cut}: the last line is cut off (a run killed while writing it?)"
        if skipped is None:
            raise ValueError(f"{why}; run the same `necro simulate` command again to finish the file")
        skipped.append(f"{why}; skipped it")
    return [r for _, r in rows]


__all__ = ["FORMATS", "MAX_ROWS", "agents_line", "MAX_ROW_BYTES", "file_format", "read_rows", "row_problem", "write_rows"]


def agents_line(rep: dict[str, Any]) -> str:
    """Who played, in a few words: `mcts:400:heuristic:depth=30:c=1:prior=10:root=0.5 (40 seats), heuristic (120 seats)`."""
    return ", ".join(f"{d['agent']} ({d['games']} seat{'s' if d['games'] != 1 else ''})" for d in rep["agents"]) or "none"
