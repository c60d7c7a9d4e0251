"""Result rows to and from files: JSON lines, or CSV with nested fields as JSON text."""
from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any, Iterable

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
    """Write rows (sorted by game index) and return how many were written."""
    ordered = sorted(rows, key=lambda r: r["game"])
    kind = file_format(path, fmt)
    with open(path, "w", encoding="utf-8", newline="") as fh:
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


def read_rows(path: str | Path, fmt: str | None = None) -> list[dict[str, Any]]:
    """Read a results file back into rows; a malformed line is reported with its line number."""
    kind = file_format(path, fmt)
    rows: list[dict[str, Any]] = []
    with open(path, encoding="utf-8", newline="") as fh:
        if kind == "jsonl":
            for n, line in enumerate(fh, 1):
                if line.strip():
                    try:
                        rows.append(json.loads(line))
                    except json.JSONDecodeError as exc:
                        raise ValueError(f"{path}:{n}: not a JSON line ({exc.msg})") from exc
        else:
            for n, rec in enumerate(csv.DictReader(fh), 2):
                try:
                    rows.append({k: _uncell(k, v) for k, v in rec.items() if k in FIELDS})
                except (ValueError, TypeError) as exc:
                    raise ValueError(f"{path}:{n}: bad CSV cell ({exc})") from exc
    for n, r in enumerate(rows, 1):
        missing = [k for k in ("game", "factions", "winners", "outcome") if k not in r]
        if missing:
            raise ValueError(f"{path}: row {n} has no {', '.join(missing)}; is this a `necro simulate` results file?")
    return rows


__all__ = ["FORMATS", "file_format", "read_rows", "write_rows"]
