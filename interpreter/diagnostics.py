"""Findings about content: each names a file, line and column, a severity, a code and a message."""
from __future__ import annotations

import json
import os
import re
from dataclasses import asdict, dataclass, field
from difflib import get_close_matches
from typing import Iterable


@dataclass(frozen=True, order=True)
class Pos:
    """A place in a content file; line and col are 1-based."""

    path: str
    line: int = 1
    col: int = 1

    def shifted(self, line: int = 0, col: int = 0) -> "Pos":
        return Pos(self.path, self.line + line, self.col + col)


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One finding. Ordered by file, line, column so reports sort naturally."""

    path: str
    line: int
    col: int
    severity: str  # "error" | "warning" | "reading" (a warning the content declares a reading of the README)
    code: str
    message: str
    logical: str = field(default="", compare=False)

    def render(self, cwd: str | None = None) -> str:
        return visible(f"{_rel(self.path, cwd)}:{self.line}:{self.col}: {self.severity}: {self.message} [{self.code}]")

    def as_json(self, cwd: str | None = None) -> dict[str, object]:
        d = asdict(self)
        d["path"] = _rel(self.path, cwd)
        return d


def _rel(path: str, cwd: str | None) -> str:
    try:
        rel = os.path.relpath(path, cwd or os.getcwd())
    except ValueError:
        return path
    return rel if not rel.startswith("..") else path


class ContentError(Exception):
    """Raised when content cannot be used; carries every diagnostic found."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = sorted(diagnostics)
        super().__init__("\n".join(d.render() for d in self.diagnostics))


def _one_line(message: str) -> str:
    """A finding is one line: text quoted from content (which may span lines) is joined."""
    return " ".join(message.split()) if "\n" in message or "\r" in message else message


class Report:
    """Collects diagnostics instead of stopping at the first one."""

    def __init__(self) -> None:
        self.items: list[Diagnostic] = []

    def error(self, pos: Pos, code: str, message: str, logical: str = "") -> None:
        self.items.append(Diagnostic(pos.path, pos.line, pos.col, "error", code, _one_line(message), logical))

    def warning(self, pos: Pos, code: str, message: str, logical: str = "") -> None:
        self.items.append(Diagnostic(pos.path, pos.line, pos.col, "warning", code, _one_line(message), logical))

    def unknown(self, pos: Pos, code: str, message: str, reading: object = None) -> None:
        """A warning about a value the sources leave unknown; where the content names the README's
        declared reading of it (`reading:`), a finding of severity 'reading' instead (not a warning)."""
        if isinstance(reading, str) and reading:
            self.items.append(Diagnostic(pos.path, pos.line, pos.col, "reading", code,
                                         _one_line(f"{message} (declared reading: {reading})")))
        else:
            self.warning(pos, code, message)

    @property
    def readings(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "reading"]

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "warning"]

    def sorted(self) -> list[Diagnostic]:
        return sorted(set(self.items))


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """' (did you mean 'x'?)' when a close known name exists, else ''."""
    match = get_close_matches(name, sorted(set(known)), n=1, cutoff=0.6)
    return f" (did you mean '{match[0]}'?)" if match else ""


def render_json(items: Iterable[Diagnostic], cwd: str | None = None) -> str:
    return json.dumps([d.as_json(cwd) for d in items], indent=2)


# characters a terminal acts on instead of showing: C0 controls but tab and newline, DEL, C1 controls
# (escape sequences: clearing the screen, retitling the window), and the bidirectional overrides
UNSAFE_CHARACTERS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def visible(text: str) -> str:
    """`text` with every character a terminal would act on written as an escape (`\\x1b`), so
    printing it shows it instead."""
    return UNSAFE_CHARACTERS.sub(lambda m: f"\\x{ord(m.group()):02x}" if ord(m.group()) <= 0xff
                                 else f"\\u{ord(m.group()):04x}", text)
