"""Load the content a command asks for: `--content-dir` folders and `--expansions`, or, for a
command that reads a game log, the expansions that game was played with."""
from __future__ import annotations

import argparse
from pathlib import Path

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.savefile import GameLog


def add_content_options(p: argparse.ArgumentParser) -> None:
    """The options `content_from_args` reads: `--content-dir` (repeatable) and `--expansions`."""
    p.add_argument("--content-dir", action="append", help="a modder's folder layered over the content")
    p.add_argument("--expansions", help="comma list of expansions to enable")


def add_table_options(p: argparse.ArgumentParser) -> None:
    """The content options, and the table the games are played at: ruleset, player count, map."""
    add_content_options(p)
    p.add_argument("--ruleset")
    p.add_argument("--players", type=int, help="players per game (default: the ruleset's count nearest 4)")
    p.add_argument("--map", help="map layout id (default: the ruleset's for the player count)")


def content_from_args(args: argparse.Namespace, log: GameLog | None = None) -> Content:
    """The content for a command: its folders, its `--expansions` (a comma list) or, when that is
    not given and a log is, the expansions recorded in the log; no expansions otherwise."""
    folders = [Path(d) for d in getattr(args, "content_dir", None) or []]
    exps = getattr(args, "expansions", None)
    if exps is not None:
        expansions = [e for e in exps.split(",") if e]
    elif log is not None:
        expansions = list(log.params.get("expansions", []))
    else:
        expansions = []
    return load_content(folders, expansions=expansions).require_ok()
