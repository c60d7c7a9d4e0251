"""Find content files in one or more folders and load them with positions."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..diagnostics import Pos, Report
from ..limits import MAX_FILES
from ..yamlpos import Positions, load_file


@dataclass
class Document:
    """One content file: its data, where each value came from, and which layer it belongs to."""

    path: str
    data: Any
    positions: Positions
    layer: int  # 0 = first folder given (usually the built-in content)
    expansion: str | None  # set for files under expansions/<name>/

    @property
    def kind(self) -> str | None:
        v = self.data.get("kind") if isinstance(self.data, dict) else None
        return v if isinstance(v, str) else None

    @property
    def id(self) -> str | None:
        v = self.data.get("id") if isinstance(self.data, dict) else None
        return v if isinstance(v, str) else None

    def pos(self, *key: object) -> Pos:
        return self.positions.of(key)


def discover(folders: list[Path], report: Report) -> list[Document]:
    """Every *.yaml / *.yml file under the folders, in a stable order."""
    docs: list[Document] = []
    count = 0
    for layer, folder in enumerate(folders):
        if not folder.is_dir():
            report.error(Pos(str(folder)), "no-such-folder", f"content folder '{folder}' does not exist")
            continue
        files = sorted(p for p in folder.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())
        for path in files:
            count += 1
            if count > MAX_FILES:
                report.error(Pos(str(path)), "too-many-files", f"more than {MAX_FILES} content files")
                return docs
            loaded = load_file(path, report)
            if loaded is None:
                continue
            data, positions = loaded
            rel = path.relative_to(folder).parts
            expansion = rel[1] if len(rel) > 2 and rel[0] == "expansions" else None
            docs.append(Document(str(path), data, positions, layer, expansion))
    return docs


def content_digest(docs: list[Document]) -> str:
    """A digest of the documents' data (not of their paths, so a copy of the same folder gives the
    same digest): 16 hex digits of SHA-256 over each document's kind, id and data, sorted."""
    parts = sorted(json.dumps([d.kind, d.id, d.data], sort_keys=True, default=str) for d in docs)
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode("utf-8"))
        h.update(b"\n")
    return h.hexdigest()[:16]
