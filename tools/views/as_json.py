"""`--format json` for `necro show`: the same views as plain data (one JSON document on stdout)."""
from __future__ import annotations

from collections import Counter
from typing import Any

from necronomicon.interpreter.content.model import ContentModel, Layout
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.state import POOL

from .faction_card import origin, shown_path, raw_document, start_areas
from necronomicon.interpreter.engine import phases
from necronomicon.interpreter.engine import actions

__all__ = ["faction_json", "faction_list_json", "layout_json", "map_list_json", "position_json"]


def faction_list_json(model: ContentModel) -> list[dict[str, Any]]:
    """One entry per faction: id, name, where it comes from, spellbooks, Great Old Ones, units."""
    return [{"id": fid, "name": f.name, "from": f"expansion {f.expansion}" if f.expansion else origin(f.pos.path),
             "provenance": raw_document(f).get("provenance", "rulebook"),
             "spellbooks": len(f.spellbooks), "great_old_ones": [g.name for g in f.goos],
             "units": [u.name for u in f.units.values() if u.cls != "great-old-one"]}
            for fid, f in sorted(model.factions.items())]


def faction_json(model: ContentModel, faction_id: str) -> dict[str, Any]:
    """A faction's card: its content document as written, where it comes from and its start areas."""
    f = model.factions[faction_id]
    doc = raw_document(f)
    return {"id": f.id, "name": f.name, "file": shown_path(f.pos.path), "expansion": f.expansion,
            "provenance": doc.get("provenance", "rulebook"), "source": doc.get("source"),
            "starts": start_areas(model, f.id, ids=True), "document": doc}


def map_list_json(model: ContentModel) -> list[dict[str, Any]]:
    """Every map layout: id, map, name, player counts, areas, recommended, incomplete."""
    return [{"id": lay.id, "map": lay.map, "name": lay.name, "players": list(lay.players),
             "areas": len(lay.areas), "recommended": lay.recommended, "incomplete": lay.incomplete}
            for _, lay in sorted(model.layouts.items())]


def layout_json(layout: Layout) -> dict[str, Any]:
    """A layout's areas with their neighbours, start symbols and glyphs."""
    return {"id": layout.id, "map": layout.map, "name": layout.name, "players": list(layout.players),
            "incomplete": layout.incomplete,
            "areas": [{"id": a.id, "name": a.name, "ocean": a.ocean, "glyph": a.glyph, "starts": list(a.starts),
                       "symbols": list(a.symbols), "adjacent": sorted(layout.adjacent.get(a.id, ()))}
                      for a in sorted(layout.areas.values(), key=lambda a: a.id)]}


def position_json(game: Game, where: str) -> dict[str, Any]:
    """The position `show state` draws: players, ritual track, areas with gates/units/tokens,
    units off the map, and the next decision (or the result)."""
    s = game.s
    areas = {}
    for aid in sorted(game.layout.areas):
        here = s.units_at(aid)
        tokens = [dict(tk) for tk in s.tokens if tk.get("loc") == aid]
        if not here and aid not in s.gates and not tokens:
            continue
        ctrl = s.controller(aid) if aid in s.gates else None
        areas[aid] = {"gate": None if aid not in s.gates else {"controller": ctrl["owner"] if ctrl else None,
                                                               "locked": bool(s.gates[aid].get("locked"))},
                      "units": {p: dict(Counter(u["kind"] for u in s.units_at(aid, p))) for p in s.players
                                if s.units_at(aid, p)},
                      "tokens": tokens}
    off = {}
    for u in s.units:
        if u["loc"] != POOL and u["loc"] not in game.layout.areas:
            off.setdefault(u["loc"], Counter())[f"{u['owner']} {u['kind']}"] += 1
    d = game.current()
    return {"where": where, "ruleset": s.ruleset, "layout": s.layout, "seed": s.seed, "round": s.round,
            "phase": s.step.get("phase", s.phase), "turn": s.step.get("player"),
            "players": [{"faction": p, "first": p == s.first, "power": s.power[p], "doom": s.doom[p],
                         "elder_signs": len(s.elder_signs[p]), "gates": actions.gate_count(game.rules, p),
                         "spellbooks": list(s.spellbooks[p])} for p in s.players],
            "ritual": {"track": list(phases.ritual_track(game.rules)), "marker": s.ritual, "instant_death": bool(s.instant_death)},
            "areas": areas, "off_map": {k: dict(v) for k, v in sorted(off.items())},
            "next": d.as_json() if d is not None else None,
            "result": game.result_line() if d is None else None}
