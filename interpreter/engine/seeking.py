"""Requirement seeking, for bots: which of a player's action abilities may earn one of its unmet
spellbook requirements, and which units such an ability takes from the pool (so a bot keeps one
there). Read from the content alone, never from a faction's name: an ability's effect *writes*
what a requirement's condition *reads* when it passes the same literal to a linked pair of
primitives (`LINKS`: `place_token('T', ...)` in an effect, `tokens(token: 'T', ...)` in a
condition), and the units it takes from the pool are the classes and kinds its effect passes to
`pool(...)` (`ast.literal_arguments`, kept on each compiled program and requirement).

A requirement is unmet while its id is not among the player's earned ones. The heuristic bot
with `seek` on (engine/agents.py) scores an ability that serves an unmet requirement as it scores
a requirement's own action, and a summon or recruit that would take the last unit such an
ability needs from the pool below a move.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import core

__all__ = ["LINKS", "Seeking", "seeking_of", "serves_unmet", "drains_reserve", "earns_at", "earning_areas", "holds_seeker", "move_pays"]

# (primitive an effect calls, its parameter) -> (primitive a condition calls, its parameter): the
# same literal in both means the effect makes what the condition counts
LINKS: tuple[tuple[tuple[str, str], tuple[str, str]], ...] = (
    (("place_token", "token"), ("tokens", "token")),
    (("place_token", "token"), ("areas", "token")),
)


@dataclass(frozen=True)
class Seeking:
    """One faction's links: action ability id -> the requirement ids it may earn (`serves`),
    ability id -> the unit classes and kinds it takes from the pool (`takes`), ability id -> the
    tokens it places that those requirements count (`writes`), and unit kind -> the serving
    abilities its units hold (`holders`)."""

    serves: dict[str, frozenset[str]]
    takes: dict[str, tuple[frozenset[str], frozenset[str]]]
    writes: dict[str, frozenset[str]]
    holders: dict[str, frozenset[str]]


_KEPT: dict[int, tuple[Any, Seeking]] = {}


def seeking_of(faction: Any) -> Seeking:
    """The links of a faction's content model (found once per model)."""
    kept = _KEPT.get(id(faction))
    if kept is not None and kept[0] is faction:
        return kept[1]
    found = _links(faction)
    if len(_KEPT) > 256:
        _KEPT.clear()
    _KEPT[id(faction)] = (faction, found)
    return found


def _abilities(faction: Any) -> list[Any]:
    """Every ability a faction's card, units and spellbooks hold."""
    out = list(faction.abilities)
    for u in faction.units.values():
        out.extend(u.abilities)
    for b in faction.spellbooks.values():
        out.extend(b.abilities)
    return out


def _links(faction: Any) -> Seeking:
    serves: dict[str, set[str]] = {}
    takes: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
    writes: dict[str, set[str]] = {}
    for a in _abilities(faction):
        if a.window != "action" or a.effect is None:
            continue
        written = getattr(a.effect, "literals", frozenset())
        for r in faction.requirements:
            linked = {v for w, c in LINKS for (_, _, v) in r.literals
                      if (w[0], w[1], v) in written and (c[0], c[1], v) in r.literals}
            if linked:
                serves.setdefault(a.id, set()).add(r.id)
                writes.setdefault(a.id, set()).update(str(v) for v in linked)
        if a.id in serves:
            classes = frozenset(str(v) for call, k, v in written if call == "pool" and k == "class")
            kinds = frozenset(str(v) for call, k, v in written if call == "pool" and k == "kind")
            if classes or kinds:
                takes[a.id] = (classes, kinds)
    holders = {kind: frozenset(a.id for a in u.abilities if a.id in serves) for kind, u in faction.units.items()}
    return Seeking({k: frozenset(v) for k, v in serves.items()}, takes,
                   {k: frozenset(v) for k, v in writes.items()}, {k: v for k, v in holders.items() if v})


def _unmet(g: Any, player: str, ids: frozenset[str]) -> bool:
    earned = g.s.requirements.get(player) or ()
    return any(r not in earned for r in ids)


def serves_unmet(g: Any, player: str, ability: str | None) -> bool:
    """Whether action ability `ability` of `player` may earn one of its unmet requirements."""
    faction = g.content.factions.get(player)
    if faction is None or ability is None:
        return False
    ids = seeking_of(faction).serves.get(ability)
    return ids is not None and _unmet(g, player, ids)


def earns_at(g: Any, player: str, ability: str | None, area: str | None) -> bool:
    """Whether serving ability `ability`, writing what it writes in `area` (its tokens, placed
    there for `player`), would meet one of `player`'s unmet requirements it serves."""
    if area is None:
        return False
    return area in earning_areas(g, player, ability, (area,))


def earning_areas(g: Any, player: str, ability: str | None, areas: Any) -> frozenset[str]:
    """The `areas` where serving ability `ability`'s tokens, placed there for `player`, would meet
    one of its unmet requirements. Answered by trying, on one copy of the board (`g` is left as
    it was): each area's tokens are added, the conditions evaluated, and the tokens taken away."""
    faction = g.content.factions.get(player)
    if faction is None or ability is None:
        return frozenset()
    links = seeking_of(faction)
    ids = links.serves.get(ability)
    if ids is None:
        return frozenset()
    earned = g.s.requirements.get(player) or ()
    unmet = [r for r in faction.requirements if r.id in ids and r.id not in earned and r.condition is not None]
    if not unmet:
        return frozenset()
    copy = g.clone()
    tokens = copy.s.tokens
    n = len(tokens)
    written = sorted(links.writes.get(ability, ()))
    c = core.ctx(copy.rules, player)
    c.ability = f"requirement {ability}"
    found = set()
    for area in areas:
        tokens.extend({"id": t, "loc": area, "owner": player} for t in written)
        if any(bool(r.condition(c)) for r in unmet):
            found.add(area)
        del tokens[n:]
    return frozenset(found)


def holds_seeker(g: Any, player: str, unit_kind: str | None) -> str | None:
    """The serving ability (of an unmet requirement) a unit of `unit_kind` holds, if any."""
    faction = g.content.factions.get(player)
    if faction is None or unit_kind is None:
        return None
    links = seeking_of(faction)
    for ability in sorted(links.holders.get(unit_kind, ())):
        if _unmet(g, player, links.serves[ability]):
            return ability
    return None


def move_pays(g: Any, player: str) -> bool:
    """Whether a unit of `player` holding a serving ability stands where using it would earn
    nothing, next to an area where it would earn an unmet requirement (a Move action is worth it)."""
    faction = g.content.factions.get(player)
    if faction is None or not seeking_of(faction).holders:
        return False
    adjacent = g.layout.adjacent
    for u in g.s.on_map(player):
        ability = holds_seeker(g, player, u["kind"])
        if ability is None:
            continue
        here = u["loc"]
        found = earning_areas(g, player, ability, (here, *adjacent.get(here, ())))
        if found and here not in found:
            return True
    return False


def drains_reserve(g: Any, player: str, unit_kind: str | None) -> bool:
    """Whether placing a unit of `unit_kind` from `player`'s pool would leave it without any unit
    that an ability serving an unmet requirement takes from the pool."""
    faction = g.content.factions.get(player)
    if faction is None or unit_kind is None:
        return False
    links = seeking_of(faction)
    if not links.takes:
        return False
    cls = _class(faction, unit_kind)
    for ability, (classes, kinds) in links.takes.items():
        if not (cls in classes or unit_kind in kinds) or not _unmet(g, player, links.serves[ability]):
            continue
        left = sum(1 for u in g.s.pool(player) if u["kind"] in kinds or _class(faction, u["kind"]) in classes)
        if left <= 1:
            return True
    return False


def _class(faction: Any, kind: str) -> str | None:
    unit = faction.units.get(kind)
    return unit.cls if unit is not None else None
