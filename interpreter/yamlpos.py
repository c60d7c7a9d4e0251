"""Safe YAML loading that remembers where every value came from.

`load_file` returns plain Python data (dicts, lists, scalars) for the schema check, plus a
`Positions` table mapping each value's path (a tuple of keys and indexes) to its file position.
Aliases are expanded with a node budget, so an alias bomb stops with an error instead of
exhausting memory; nesting depth and file size are bounded too.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from .diagnostics import UNSAFE_CHARACTERS, Pos, Report, visible
from .limits import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES, MAX_NUMBER, MAX_SOURCE_NODES

PathKey = tuple[object, ...]


@dataclass
class ScalarInfo:
    """Where a scalar's text starts, and how to map an offset inside it to a file position."""

    pos: Pos
    style: str | None  # None (plain), "'", '"', "|", ">"


class Positions:
    """Value path -> position of the value (and, for mapping entries, of the key)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.values: dict[PathKey, Pos] = {}
        self.keys: dict[PathKey, Pos] = {}
        self.scalars: dict[PathKey, ScalarInfo] = {}

    def of(self, key: PathKey) -> Pos:
        """The position of the value at `key`, or of its nearest ancestor."""
        k = tuple(key)
        while k:
            if k in self.values:
                return self.values[k]
            k = k[:-1]
        return self.values.get((), Pos(self.path, 1, 1))

    def key_of(self, key: PathKey) -> Pos:
        """The position of the mapping key that holds `key` (falls back to the value)."""
        return self.keys.get(tuple(key)) or self.of(key)

    def text_pos(self, key: PathKey, line: int, col: int) -> Pos:
        """Position in the file of (line, col), 1-based, inside the string at `key`."""
        info = self.scalars.get(tuple(key))
        if info is None:
            return self.of(key)
        if info.style in ("|", ">"):
            # Block scalars: text starts on the next line, at the block's indentation.
            return Pos(self.path, info.pos.line + line, info.pos.col + col - 1)
        quote = 1 if info.style in ("'", '"') else 0
        if line == 1:
            return Pos(self.path, info.pos.line, info.pos.col + quote + col - 1)
        return Pos(self.path, info.pos.line + line - 1, col)


class _Budget(Exception):
    def __init__(self, message: str, mark: yaml.Mark | None = None) -> None:
        super().__init__(message)
        self.mark = mark


class _BoundedLoader(yaml.SafeLoader):
    """A SafeLoader that stops composing as soon as a file holds too many nodes or nests too
    deeply, so a huge or deep file costs little time and memory before it is refused."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._nodes = 0
        self._nesting = 0

    def compose_node(self, parent: yaml.Node | None, index: object) -> yaml.Node:  # type: ignore[override]
        self._nodes += 1
        if self._nodes > MAX_SOURCE_NODES:
            raise _Budget(f"more than {MAX_SOURCE_NODES} values written in one file", self.peek_event().start_mark)
        if self._nesting >= MAX_DEPTH:
            raise _Budget(f"nested deeper than {MAX_DEPTH} levels", self.peek_event().start_mark)
        self._nesting += 1
        try:
            return super().compose_node(parent, index)  # type: ignore[no-any-return]
        finally:
            self._nesting -= 1


def _pos(path: str, mark: yaml.Mark) -> Pos:
    return Pos(path, mark.line + 1, mark.column + 1)


def _expanded_size(node: yaml.Node, memo: dict[int, int]) -> int:
    """How many values `node` becomes once aliases are expanded (each anchored node sized once,
    so an alias bomb is measured without being expanded)."""
    key = id(node)
    if memo.get(key) == -1:
        raise _Budget("an anchor is used inside itself (a recursive alias)", node.start_mark)
    if key not in memo:
        memo[key] = -1   # being sized
        if isinstance(node, yaml.MappingNode):
            memo[key] = 1 + sum(_expanded_size(v, memo) for _, v in node.value)
        elif isinstance(node, yaml.SequenceNode):
            memo[key] = 1 + sum(_expanded_size(v, memo) for v in node.value)
        else:
            memo[key] = 1
    return memo[key]


def _convert(node: yaml.Node, key: PathKey, positions: Positions, report: Report,
             counter: list[int], depth: int) -> Any:
    counter[0] += 1
    if counter[0] > MAX_NODES:
        raise _Budget(f"more than {MAX_NODES} values (an alias bomb?)")
    if depth > MAX_DEPTH:
        raise _Budget(f"nested deeper than {MAX_DEPTH} levels")
    here = _pos(positions.path, node.start_mark)
    positions.values[key] = here
    if isinstance(node, yaml.MappingNode):
        out: dict[str, Any] = {}
        for knode, vnode in node.value:
            if knode.tag == "tag:yaml.org,2002:merge":
                report.error(_pos(positions.path, knode.start_mark), "yaml-merge",
                             "merge keys ('<<') are not supported in content")
                continue
            if not isinstance(knode, yaml.ScalarNode):
                report.error(_pos(positions.path, knode.start_mark), "yaml-key",
                             "mapping keys must be plain scalars")
                continue
            k = knode.value
            kpos = _pos(positions.path, knode.start_mark)
            k = _safe_text(k, kpos, report)
            if k in out:
                report.error(kpos, "yaml-duplicate-key", f"duplicate key '{k}'")
                continue
            positions.keys[key + (k,)] = kpos
            out[k] = _convert(vnode, key + (k,), positions, report, counter, depth + 1)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_convert(v, key + (i,), positions, report, counter, depth + 1)
                for i, v in enumerate(node.value)]
    # Scalar: resolve with the safe constructor for its tag.
    info_pos = here
    if node.style in ("|", ">"):
        # The text itself begins on the line after the indicator; find its indentation.
        first = node.value.split("\n", 1)[0] if node.value else ""
        src = node.end_mark.buffer if node.end_mark.buffer else ""
        col = _block_indent(src, node.start_mark.line + 1, first)
        info_pos = Pos(positions.path, node.start_mark.line + 1, col)
    positions.scalars[key] = ScalarInfo(info_pos, node.style)
    if node.tag == "tag:yaml.org,2002:int" and len(node.value) > len(str(MAX_NUMBER)) + 4:
        # refuse a huge integer before Python reads it (its digits alone cost time)
        report.error(here, "number-too-large", f"a {len(node.value)}-character number; the limit for numbers "
                     f"is {MAX_NUMBER}")
        return 0
    try:
        value = yaml.SafeLoader.construct_scalar_value(node)  # type: ignore[attr-defined]
        if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
            report.error(here, "number-too-large", f"{value} is larger than the limit for numbers ({MAX_NUMBER})")
            return 0
        if isinstance(value, float) and not abs(value) <= MAX_NUMBER:
            report.error(here, "number-too-large", f"{node.value} is outside the limit for numbers ({MAX_NUMBER})")
            return 0
        return _safe_text(value, here, report) if isinstance(value, str) else value
    except yaml.YAMLError:
        raise
    except Exception as exc:  # noqa: BLE001 - PyYAML's constructors fail with bare errors on bad tagged text
        report.error(here, "yaml-value", f"bad YAML value: {node.value!r} is not a valid {node.tag.rsplit(':', 1)[-1]} "
                     f"({type(exc).__name__})")
        return None


def _safe_text(text: str, here: Pos, report: Report) -> str:
    """`text`, or when it holds a character a terminal would act on (an escape sequence clears the
    screen or retitles the window when a name is printed), an error and the text with it escaped."""
    found = UNSAFE_CHARACTERS.search(text)
    if found is None:
        return text
    report.error(here, "control-character", f"text holds the control character {visible(found.group())}; "
                 "content is printed to terminals and web pages, so write it without control characters")
    return visible(text)


def _block_indent(buffer: str, line_index: int, first: str) -> int:
    lines = buffer.split("\n")
    while line_index < len(lines):
        text = lines[line_index]
        if text.strip():
            return len(text) - len(text.lstrip(" ")) + 1
        line_index += 1
    return 1


def _construct_scalar_value(node: yaml.ScalarNode) -> Any:
    loader = yaml.SafeLoader("")
    try:
        return loader.construct_object(node, deep=True)
    finally:
        loader.dispose()


yaml.SafeLoader.construct_scalar_value = staticmethod(_construct_scalar_value)  # type: ignore[attr-defined]


def _first_line(exc: Exception) -> str:
    lines = str(exc).strip().splitlines()
    return lines[0] if lines else type(exc).__name__


def load_text(text: str, path: str, report: Report) -> tuple[Any, Positions] | None:
    """Parse one YAML document; report problems with positions. None when unusable."""
    positions = Positions(path)
    try:
        node = yaml.compose(text, Loader=_BoundedLoader)
    except _Budget as exc:
        report.error(_pos(path, exc.mark) if exc.mark else Pos(path), "yaml-too-large", f"YAML too large: {exc}")
        return None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        pos = _pos(path, mark) if mark else Pos(path)
        problem = exc.problem or exc.context or "invalid YAML"
        report.error(pos, "yaml-syntax", f"YAML syntax error: {problem}")
        return None
    except yaml.YAMLError as exc:
        report.error(Pos(path), "yaml-syntax", f"YAML error: {_first_line(exc)}")
        return None
    except RecursionError:
        report.error(Pos(path), "yaml-too-deep", f"YAML nested too deeply (limit {MAX_DEPTH})")
        return None
    if node is None:
        report.error(Pos(path), "empty-file", "the file holds no YAML document")
        return None
    try:
        if _expanded_size(node, {}) > MAX_NODES:
            raise _Budget(f"more than {MAX_NODES} values (an alias bomb?)")
        data = _convert(node, (), positions, report, [0], 0)
    except _Budget as exc:
        mark = exc.mark or node.start_mark
        report.error(_pos(path, mark), "yaml-too-large", f"YAML too large: {exc}")
        return None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        report.error(_pos(path, mark) if mark else Pos(path), "yaml-value",
                     f"bad YAML value: {getattr(exc, 'problem', None) or _first_line(exc)}")
        return None
    return data, positions


def load_file(path: Path, report: Report) -> tuple[Any, Positions] | None:
    """Read and parse a content file, with size and encoding checks."""
    p = str(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            report.error(Pos(p), "file-too-large", f"file is {size} bytes; the limit is {MAX_FILE_BYTES}")
            return None
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        report.error(Pos(p), "encoding", f"file is not UTF-8: {exc.reason}")
        return None
    except OSError as exc:
        report.error(Pos(p), "unreadable", f"cannot read file: {exc.strerror}")
        return None
    return load_text(text, p, report)
