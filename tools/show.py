"""`necro show`: views of content and of games — a faction's card, a map, a position from a log."""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from rich.console import Console

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.savefile import read_log

from .loading import content_from_args
from .views.lookup import ShowError, find

__all__ = ["add_parser", "cmd_show", "ShowError"]


def add_parser(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Add `show faction|map|state` to the `necro` command's subparsers."""
    sh = sub.add_parser("show", help="show a faction's card, a map, or a position from a game log")
    what = sh.add_subparsers(dest="what", required=True)
    f = what.add_parser("faction", help="a faction's card (no name: list the factions)")
    f.add_argument("name", nargs="?")
    f.add_argument("--source", action="store_true",
                   help="also show the effect-language source of formulas, abilities and requirements (for modders)")
    m = what.add_parser("map", help="a map's areas and adjacency (no name: list the maps)")
    m.add_argument("name", nargs="?", help="a map id or a layout id (no name: list them)")
    m.add_argument("--layout", help="which layout of the map (default: the recommended one)")
    m.add_argument("--png", help="draw the map into this PNG file instead of printing a table")
    s = what.add_parser("state", help="the position in a game log at the start of a round or after K choices")
    s.add_argument("log")
    at = s.add_mutually_exclusive_group(required=True)
    at.add_argument("--round", type=int, help="at the first decision of round N")
    at.add_argument("--step", type=int, help="after the first K choices")
    for p in (f, m, s):
        p.add_argument("--format", choices=["text", "json"], default="text", help="json: the view as one JSON document")
        p.add_argument("--content-dir", action="append", help="a modder's folder layered over the content")
        p.add_argument("--expansions", help="comma list of expansions to enable")
    for p in (f, m, s):
        p.add_argument("--ids", action="store_true", help="name things by their content ids too, as files and scripts do")


def _content(args: argparse.Namespace) -> Content:
    log = read_log(args.log) if args.what == "state" else None   # a bad log is one line, before any work
    return content_from_args(args, log)


def show_json(args: argparse.Namespace, content: Content) -> Any:
    """The view `necro show ... --format json` prints."""
    from .views import as_json
    model = content.model
    if args.what == "faction":
        if not args.name:
            return as_json.faction_list_json(model)
        fid = find("faction", args.name, model.factions, {k: f.name for k, f in model.factions.items()})
        return as_json.faction_json(model, fid)
    if args.what == "map":
        from .views.map_view import pick_layout
        if not args.name and not args.layout:
            return as_json.map_list_json(model)
        layout = pick_layout(model, args.name, args.layout) if args.name else pick_layout(model, args.layout)
        return as_json.layout_json(layout)
    from .views.position_view import position_at
    game, where = position_at(content, Path(args.log), round_no=args.round, step=args.step)
    return as_json.position_json(game, where)


def cmd_show(args: argparse.Namespace, console: Console | None = None) -> int:
    """Run `necro show ...`; unknown names raise ShowError (a ValueError: one line, no traceback)."""
    console = console or Console(highlight=False)
    content = _content(args)
    model = content.model
    if getattr(args, "format", "text") == "json":
        print(json.dumps(show_json(args, content), indent=2, sort_keys=True, default=str))
        return 0
    if args.what == "faction":
        from .views.faction_card import print_faction
        fid = find("faction", args.name, model.factions, {k: f.name for k, f in model.factions.items()}) if args.name else None
        print_faction(model, fid, console, source=bool(getattr(args, "source", False)), ids=bool(args.ids))
    elif args.what == "map":
        from .views.map_view import map_list, map_png, map_table, pick_layout
        if not args.name and not args.layout:
            console.print(map_list(model))
            return 0
        layout = pick_layout(model, args.name, args.layout) if args.name else pick_layout(model, args.layout)
        if args.png:
            map_png(model, layout, Path(args.png))
            console.print(f"wrote {args.png} ({layout.name}: {len(layout.areas)} areas)", markup=False)
        else:
            console.print(map_table(model, layout, ids=bool(args.ids)))
    elif args.what == "state":
        from .views.position_view import position_at, render_position
        game, where = position_at(content, Path(args.log), round_no=args.round, step=args.step)
        console.print(render_position(game, where, ids=bool(args.ids)))
    return 0
