"""Build a game state from a compact position (for scenarios and tests), using real content."""
from __future__ import annotations

from typing import Any

from ..content.model import ContentModel
from ..diagnostics import did_you_mean
from .neutral import add_card
from .state import GENERAL, POOL, State


DEFAULT_ELDER_SIGNS = {"1": 18, "2": 12, "3": 6}  # a ruleset's Elder Sign mix when it names none


class PositionError(Exception):
    pass


POSITION_KEYS = ("neutral-cards", "neutral-taken", "units", "gates", "power", "doom", "spellbooks", "requirements",
                 "elder-signs", "markers", "loyalty-spellbooks", "awakened", "home", "first", "player", "direction",
                 "round", "ritual", "surcharge", "tokens", "phase")
PHASES = ("action", "gather-power", "first-player", "doom", "setup")
TOKEN_KEYS = ("id", "loc", "owner")


def _known(what: str, value: Any, known: Any, label: str) -> None:
    """Refuse an id the game does not know, with a did-you-mean (a typo must not be ignored)."""
    if not isinstance(value, str) or value not in known:
        raise PositionError(f"{what}: unknown {label} {value!r}{did_you_mean(str(value), known)}")


def check_position(model: ContentModel, layout: str, factions: list[str], pos: dict[str, Any],
                   independents: list[str] | tuple[str, ...] = ()) -> None:
    """Every id a position names must exist in this game: factions playing, areas of the map, each
    faction's own units, spellbooks and requirements, token types. Raises PositionError."""
    if not isinstance(pos, dict):
        raise PositionError("position: a mapping is expected")
    for key in pos:
        _known("position", key, POSITION_KEYS, "key")
    areas = model.layouts[layout].areas
    cards = [model.loyalty_cards[c] for c in independents if c in model.loyalty_cards]
    kinds = {f: set(model.factions[f].units) | {k for c in cards for k in c.units} |
             {n.kind for n in model.neutral_cards.values()} for f in factions}
    books = {f: set(model.factions[f].spellbooks) | set(model.neutral_spellbooks) for f in factions}
    reqs = {f: {r.id for r in model.factions[f].requirements} for f in factions}
    tokens = set(model.tokens) | {t for f in model.factions.values() for t in f.tokens}
    for key in ("power", "doom", "spellbooks", "requirements", "elder-signs", "awakened", "home", "units",
                "neutral-taken"):
        for f in pos.get(key) or {}:
            _known(key, f, factions, "faction (not playing)")
    for f, names in (pos.get("spellbooks") or {}).items():
        for b in names:
            _known(f"spellbooks of {f}", b, books[f], "spellbook")
    for f, names in (pos.get("requirements") or {}).items():
        for r in names:
            _known(f"requirements of {f}", r, reqs[f], "requirement")
    for f, names in (pos.get("awakened") or {}).items():
        for k in names:
            _known(f"awakened of {f}", k, kinds[f], "unit kind")
    for f, where in (pos.get("units") or {}).items():
        for names in (where or {}).values():
            for k in names:
                _known(f"units of {f}", k, kinds[f], "unit kind")
    for f, area in (pos.get("home") or {}).items():
        _known(f"home of {f}", area, areas, "area")
    for area, who in (pos.get("gates") or {}).items():
        if not str(area).startswith("held:"):   # a gate held off the map (e.g. by an ability) is allowed
            _known("gates", area, areas, "area")
        if who not in (None, "abandoned", "locked"):
            _known(f"gates: {area}", who, factions, "faction (not playing)")
    for key in ("first", "player"):
        if key in pos:
            _known(key, pos[key], factions, "faction (not playing)")
    if "phase" in pos:
        _known("phase", pos["phase"], PHASES, "phase")
    for i, t in enumerate(pos.get("tokens") or []):
        if not isinstance(t, dict):
            raise PositionError(f"tokens[{i}]: a mapping {{id, loc, owner?}} is expected, got {t!r}")
        for k in t:
            _known(f"tokens[{i}]", k, TOKEN_KEYS, "key")
        _known(f"tokens[{i}]", t.get("id"), tokens, "token")
        _known(f"tokens[{i}]", t.get("loc"), areas, "area")
        if t.get("owner") is not None:
            _known(f"tokens[{i}]", t["owner"], factions, "owner (not playing)")
    for f, signs in (pos.get("elder-signs") or {}).items():
        for x in signs:
            if x not in (1, 2, 3):
                raise PositionError(f"elder-signs of {f}: {x!r} is not an elder sign value (1, 2 or 3)")


def empty_state(model: ContentModel, ruleset: str, layout: str, factions: list[str], seed: int,
                independents: list[str] | tuple[str, ...] = ()) -> State:
    """A State before setup: every unit in its pool, the elder-sign bag full, nothing on the map.

    Each Independent Great Old One in `independents` (loyalty card ids) lies in the general pool."""
    rs = model.rulesets[ruleset]
    mix = rs.get("elder-signs", DEFAULT_ELDER_SIGNS)
    bag = [int(v) for v, n in sorted(mix.items()) for _ in range(int(n))]
    s = State(ruleset=ruleset, layout=layout, seed=seed, rng=seed * 0x9E3779B1 + 12345,
              players=list(factions), power={f: 0 for f in factions}, doom={f: 0 for f in factions},
              elder_signs={f: [] for f in factions}, revealed={f: 0 for f in factions}, es_bag=bag,
              spellbooks={f: [] for f in factions}, requirements={f: [] for f in factions},
              units=[], gates={})
    for f in factions:
        for t in model.factions[f].units.values():
            for _ in range(t.count):
                s.units.append({"id": s.next_unit, "owner": f, "kind": t.id, "loc": POOL})
                s.next_unit += 1
    for card in independents:
        for t in model.loyalty_cards[card].units.values():
            for _ in range(t.count):
                s.units.append({"id": s.next_unit, "owner": GENERAL, "kind": t.id, "loc": POOL})
                s.next_unit += 1
            s.loyalty[card] = {"kind": t.id, "spellbooks": [], "requirements": []}
    return s


def build_state(model: ContentModel, ruleset: str, layout: str, factions: list[str], seed: int,
                pos: dict[str, Any], independents: list[str] | tuple[str, ...] = ()) -> State:
    """A State with units, gates, Power, Doom... as `pos` says; unlisted units stay in the pool.
    A player's units may name an Independent Great Old One of the game: it is taken under control."""
    check_position(model, layout, factions, pos, independents)
    s = empty_state(model, ruleset, layout, factions, seed, independents)
    areas = model.layouts[layout].areas
    for card, holder in (pos.get("neutral-cards") or {}).items():   # neutral loyalty cards: their units join the pool
        if holder not in factions:
            raise PositionError(f"neutral-cards: '{holder}' is not playing")
        if card not in model.neutral_cards:
            raise PositionError(f"neutral-cards: unknown neutral card '{card}'")
        add_card(model, s, card, holder)
    for f, books in (pos.get("neutral-taken") or {}).items():
        s.neutral_taken[f] = list(books)
    for f, where in (pos.get("units") or {}).items():
        if f not in factions:
            raise PositionError(f"units: '{f}' is not playing")
        for area, kinds in where.items():
            if area not in areas and not area.startswith(("held:", "captured:")):
                raise PositionError(f"units: unknown area '{area}'")
            for k in kinds:
                free = [u for u in s.units if u["owner"] in (f, GENERAL) and u["kind"] == k and u["loc"] == POOL]
                if not free:
                    raise PositionError(f"units: {f} has no more '{k}' to place")
                free[0]["loc"] = area
                free[0]["owner"] = f
    for area, who in (pos.get("gates") or {}).items():
        ctrl = None
        if who not in (None, "abandoned", "locked"):
            cands = [u for u in s.units if u["owner"] == who and u["loc"] == area
                     and u["kind"] in model.factions[who].units
                     and model.factions[who].units[u["kind"]].cls == "cultist"]
            if not cands:
                raise PositionError(f"gates: {who} has no cultist in '{area}' to control its gate")
            ctrl = cands[0]["id"]
        s.gates[area] = {"controller": ctrl, **({"locked": True} if who == "locked" else {})}
    for key in ("power", "doom"):
        for f, v in (pos.get(key) or {}).items():
            getattr(s, key)[f] = int(v)
    for f, books in (pos.get("spellbooks") or {}).items():
        s.spellbooks[f] = list(books)
    for f, reqs in (pos.get("requirements") or {}).items():
        s.requirements[f] = list(reqs)
    for f, signs in (pos.get("elder-signs") or {}).items():
        s.elder_signs[f] = [int(x) for x in signs]
        for x in signs:
            if int(x) in s.es_bag:
                s.es_bag.remove(int(x))
    for name, v in (pos.get("markers") or {}).items():
        s.markers[name] = int(v)
    for card, books in (pos.get("loyalty-spellbooks") or {}).items():
        if card not in s.loyalty:
            raise PositionError(f"loyalty-spellbooks: '{card}' is not an Independent of this game")
        s.loyalty[card]["spellbooks"] = list(books)
    for f, kinds in (pos.get("awakened") or {}).items():
        s.awakened[f] = list(kinds)
    s.home = dict(pos.get("home") or {})
    for f in factions:
        if f not in s.home:
            starts = sorted(a.id for a in areas.values() if f in a.starts)
            if starts:
                s.home[f] = starts[0]
    s.first = pos.get("first", factions[0])
    s.direction = int(pos.get("direction", 1))
    s.round = int(pos.get("round", 1))
    s.ritual = int(pos.get("ritual", 0))
    s.surcharge = int(pos.get("surcharge", 0))
    s.tokens = [dict(t) for t in pos.get("tokens", [])]
    phase = pos.get("phase", "action")
    s.step = {"phase": {"gather-power": "gather", "first-player": "first-player"}.get(phase, phase)}
    if s.step["phase"] == "action":
        s.step["player"] = pos.get("player", s.first)
    s.phase = phase
    return s
