"""The board a browser draws: a player's view of a game (Game.view) dressed with content data.

Everything here is read from the view and the content (names, colours, positions, spellbook
and requirement texts); nothing is read from the full state, so a seat sees only what it may.
"""
from __future__ import annotations

from typing import Any

from necronomicon.interpreter.content.model import ContentModel, Layout
from necronomicon.tools.views.colours import faction_colours
from necronomicon.tools.views.layout import area_positions, crosses_edge, drawn_size
from necronomicon.tools.words import words_for

from .battle_view import battle_json
from .log_pages import log_page
from .options import grouped
PHASES = {"gather": "gather power phase", "first-player": "first player phase", "action": "action phase",
          "doom": "doom phase", "over": "game over", "setup": "setup"}


_MAPS: dict[int, tuple[Layout, dict[str, Any]]] = {}


def map_json(layout: Layout) -> dict[str, Any]:
    """Areas with positions in the unit box (y south), borders, and which borders wrap the edge."""
    hit = _MAPS.get(id(layout))
    if hit is None or hit[0] is not layout:
        hit = _MAPS[id(layout)] = (layout, _map_json(layout))
    return hit[1]


def _map_json(layout: Layout) -> dict[str, Any]:
    pos = area_positions(layout)
    width, height = drawn_size(layout, pos)
    areas = []
    for aid in sorted(layout.areas):
        a = layout.areas[aid]
        item: dict[str, Any] = {"id": aid, "name": a.name, "ocean": a.ocean, "glyph": a.glyph,
                                "starts": list(a.starts), "x": pos[aid][0], "y": pos[aid][1]}
        if a.shape and a.position is not None:   # the outline, in the same units as the positions
            px, py = a.position
            item["shape"] = [[pos[aid][0] + (qx - px) * _unit(layout, pos), pos[aid][1] + (qy - py) * _unit(layout, pos)]
                             for qx, qy in a.shape]
        areas.append(item)
    edges = sorted({tuple(sorted((a, b))) for a, ns in layout.adjacent.items() for b in ns})
    return {"id": layout.id, "name": layout.name, "areas": areas, "width": width, "height": height,
            "edges": [[a, b, crosses_edge(layout, pos, a, b)] for a, b in edges]}


def _unit(layout: Layout, pos: dict[str, tuple[float, float]]) -> float:
    """How long one of the map's own units is in area_positions' units."""
    pts = [(a.position, pos[aid]) for aid, a in layout.areas.items() if a.position is not None]
    (p0, q0), (p1, q1) = pts[0], max(pts, key=lambda t: abs(t[0][0] - pts[0][0][0]) + abs(t[0][1] - pts[0][0][1]))
    d = abs(p1[0] - p0[0]) + abs(p1[1] - p0[1])
    return (abs(q1[0] - q0[0]) + abs(q1[1] - q0[1])) / d if d else 1.0


def unit_info(model: ContentModel, owner: str, kind: str) -> tuple[str, str]:
    """(display name, class) of a unit kind: its faction's, a loyalty card's or a neutral one's."""
    for source in ([model.factions[owner]] if owner in model.factions else []) + list(model.loyalty_cards.values()):
        t = source.units.get(kind)
        if t is not None:
            return t.name, t.cls
    for f in model.factions.values():
        t = f.units.get(kind)
        if t is not None:
            return t.name, t.cls
    t = model.neutral_units.get(kind)
    if t is not None:
        return t.name, t.cls
    return kind.replace("-", " ").title(), "monster"


def factions_json(model: ContentModel, st: dict[str, Any], viewer: str | None) -> list[dict[str, Any]]:
    """Each player's Power, Doom, Elder Signs (values only where the view holds them) and books."""
    colours = faction_colours(model, st["players"])
    out = []
    for p in st["players"]:
        fac = model.factions[p]
        met = set(st["requirements"].get(p, []))
        held = st["spellbooks"].get(p, [])
        books = [{"id": b.id, "name": b.name, "text": b.text, "earned": b.id in held} for b in fac.spellbooks.values()]
        for b in held:
            if b not in fac.spellbooks:
                nb = model.neutral_spellbooks.get(b)
                books.append({"id": b, "name": nb.name if nb else b, "text": nb.text if nb else "", "earned": True})
        out.append({"id": p, "name": fac.name, "colour": colours[p], "power": st["power"][p], "doom": st["doom"][p],
                    "elder_signs": st["elder_signs"][p], "revealed": st["revealed"].get(p, 0),
                    "spellbooks": books, "own": p == viewer,
                    "requirements": [{"id": r.id, "text": r.text, "met": r.id in met} for r in fac.requirements],
                    "gates": sum(1 for loc in st["gates"] if _gate_owner(st, loc) == p)})
    return out


def _gate_owner(st: dict[str, Any], loc: str) -> str | None:
    ctrl = st["gates"][loc].get("controller")
    if ctrl is None:
        return None
    return next((u["owner"] for u in st["units"] if u["id"] == ctrl), None)


def board_json(model: ContentModel, layout: Layout, view: dict[str, Any], log: list[dict[str, Any]],
               ruleset_track: list[int], game: Any = None) -> dict[str, Any]:
    """The whole board for one viewer: map, pieces, players, ritual track, decision and log
    (`game` lets alike options be grouped by their units' records, which are public)."""
    st = view["state"]
    areas = set(layout.areas)
    words = words_for(model)
    units = []
    for u in st["units"]:
        name, cls = unit_info(model, u["owner"], u["kind"])
        units.append({**u, "name": name, "cls": cls, "owner_name": words.name(u["owner"])})
    unit_names = {u["id"]: (u["name"], u["cls"]) for u in units}
    gates = {loc: {"controller": g.get("controller"), "owner": _gate_owner(st, loc), "locked": bool(g.get("locked"))}
             for loc, g in st["gates"].items()}
    pending = view["pending"]
    if pending is not None:   # `question`: the prompt in words, for people (`prompt` stays the engine's)
        d = game.current() if game is not None else None
        question = words.question(d, game) if d is not None else words.text(pending["prompt"])
        pending = {**pending, "question": question}
    if pending is not None and "options" in pending:
        pending = {**pending, "groups": grouped(pending["options"], areas, pending.get("costs"), game, pending["player"],
                                               pending["kind"], words)}
    page = log_page(log, words)
    phase = (st.get("step") or {}).get("phase") or st["phase"]   # where the rules stand (State.phase is a position's label)
    return {"viewer": view["player"], "round": st["round"], "phase": phase, "phase_name": PHASES.get(phase, phase), "first": st["first"],
            "direction": st["direction"], "players": st["players"],
            "ritual": {"track": ruleset_track, "position": st["ritual"], "instant_death": st["instant_death"]},
            "map": map_json(layout), "units": [u for u in units if u["loc"] in areas], "gates": gates,
            "tokens": [{**t, "name": words.name(t.get("id"))} for t in st.get("tokens", []) if t.get("loc") in areas],
            "offboard": [u for u in units if u["loc"] not in areas and u["loc"] != "pool"],
            "factions": factions_json(model, st, view["player"]), "pending": pending,
            "over": view["over"], "winners": view["winners"],
            "result": words.text(view["result"]) if isinstance(view["result"], str) else view["result"],
            "es_bag": len(st["es_bag"]), "log": page["lines"], "log_more": page["more"],
            "battle": battle_json(model, view, words, unit_names, pending and pending.get("question"))}
