"""Where the built-in content, schemas and grammar live (installed wheel or source checkout)."""
from __future__ import annotations

from pathlib import Path

_PKG = Path(__file__).resolve().parent


def _data_root() -> Path:
    installed = _PKG / "_data"
    if (installed / "content").is_dir():
        return installed
    return _PKG.parent


def content_dir() -> Path:
    """The built-in content tree."""
    return _data_root() / "content"


def schema_dir() -> Path:
    """The JSON Schemas, one per content kind."""
    return _data_root() / "schema"


def grammar_file() -> Path:
    """The Lark grammar of the effect language."""
    return _data_root() / "grammar" / "effects.lark"
