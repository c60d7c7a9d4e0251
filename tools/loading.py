"""Load the content a command asks for: `--content-dir` folders and `--expansions`, or, for a
command that reads a game log, the expansions that game was played with."""
from __future__ import annotations

import argparse
from pathlib import Path

from interpreter.content import load_content
from interpreter.content.build import Content
from interpreter.engine.game import log_params


def content_from_args(args: argparse.Namespace, log_lines: list[str] | None = None) -> Content:
    """The content for a command: its folders, its `--expansions` (a comma list) or, when that is
    not given and a log is, the expansions recorded in the log; no expansions otherwise."""
    folders = [Path(d) for d in getattr(args, "content_dir", None) or []]
    exps = getattr(args, "expansions", None)
    if exps is not None:
        expansions = [e for e in exps.split(",") if e]
    elif log_lines is not None:
        expansions = list((log_params(log_lines) or {}).get("expansions", []))
    else:
        expansions = []
    return load_content(folders, expansions=expansions).require_ok()
