"""Requirement seeking, for bots: which of a player's action abilities may earn one of its unmet
spellbook requirements, and which units such an ability takes from the pool (so a bot keeps one
there), as the content's tables hold them (content/requirement_links.py: read from the content
alone, never from a faction's name); and how much closer a placement would bring its unmet
board-state requirements (`Trial`, from each requirement's distance, effects/progress.py).

A requirement is unmet while its id is not among the player's earned ones. The heuristic bot
with `seek` on (engine/agents.py) scores an ability that serves an unmet requirement as it scores
a requirement's own action, and a summon or recruit that would take the last unit such an
ability needs from the pool below a move; with `progress` on it also scores a move, a summon, a
recruit or a Gate by the distance it takes off its unmet requirements; with `reach` on, a unit
move by the steps it takes off the way to where that unit would close one (`Trial.gain_reach`);
with `awaken`, an awakening that would meet an unmet requirement is one more such step
(engine/awaken_steps.py).
"""
from __future__ import annotations

from typing import Any

from ..content.requirement_links import Seeking
from ..effects.ast import is_unnamed
from ..effects.primitive_facts import READS, READS_BY_ARGUMENT
from . import awaken_steps
from . import basics
from .basics import uclass
from . import core

__all__ = ["Seeking", "Trial", "MAX_STEPS", "seeking_of", "serves_unmet", "drains_reserve", "earning_areas", "holds_seeker",
           "move_pays"]

_NONE = Seeking({}, {}, {}, {})
MAX_STEPS = 10_000   # steps to an area that cannot be reached (more than any map has areas)


def seeking_of(g: Any, player: str) -> Seeking:
    """The links of `player`'s faction (none for a player the tables do not know)."""
    return g.content.tables.seeking.get(player, _NONE)  # type: ignore[no-any-return]


def _unmet(g: Any, player: str, ids: frozenset[str]) -> bool:
    earned = g.s.requirements.get(player) or ()
    return any(r not in earned for r in ids)


def serves_unmet(g: Any, player: str, ability: str | None) -> bool:
    """Whether action ability `ability` of `player` may earn one of its unmet requirements."""
    faction = g.content.factions.get(player)
    if faction is None or ability is None:
        return False
    ids = seeking_of(g, player).serves.get(ability)
    return ids is not None and _unmet(g, player, ids)


def earning_areas(g: Any, player: str, ability: str | None, areas: Any, copy: Any = None) -> frozenset[str]:
    """The `areas` where serving ability `ability`'s tokens, placed there for `player`, would meet
    one of its unmet requirements. Answered by trying, on one copy of the board (`copy`, made
    from `g` when not given; `g` is left as it was): each area's tokens are added, the conditions
    evaluated, and the tokens taken away."""
    faction = g.content.factions.get(player)
    if faction is None or ability is None:
        return frozenset()
    links = seeking_of(g, player)
    ids = links.serves.get(ability)
    if ids is None:
        return frozenset()
    earned = g.s.requirements.get(player) or ()
    unmet = [r for r in faction.requirements if r.id in ids and r.id not in earned and r.condition is not None]
    if not unmet:
        return frozenset()
    copy = g.clone() if copy is None else copy
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


class Trial:
    """One copy of `player`'s board (made at the first try; `g` is never changed) on which a bot
    tries what an option would place, each try undone before the next: a serving ability's
    tokens (`earns_at`), a unit moved or placed from the pool (`gain_move`, `gain_place`), a Gate
    (`gain_gate`). A gain is how much the try takes off the summed distance (effects/progress.py)
    of the player's unmet requirements that have one; what a try found is kept, so one decision's
    options share the copy and the answers. Progress over several steps (`gain_reach`,
    `reach_step`): a unit's aims are the areas where it would close a step (`aims`), and a move
    that brings it nearer them, counted in steps along the map, is a step closer. With `awaken`,
    the awakenings that would meet an unmet requirement (awaken_steps.AwakenGap) count among the
    unmet requirements for units' and Gates' tries, and a unit's aims include where it would let
    one be offered."""

    def __init__(self, g: Any, player: str, awaken: bool = False) -> None:
        self.g, self.player, self.awaken = g, player, awaken
        self.memo: dict[str, Any] = {}   # what other scorers of the decision work out once (engine/company.py)
        self._unmet: dict[str, list[Any]] | None = None   # read at the first try (the board may never be read)
        self._copy: Any = None
        self._ctx: Any = None
        self._base: dict[str, int] = {}
        self._earning: dict[tuple[str, str], bool] = {}
        self._gains: dict[tuple[Any, ...], int] = {}
        self._aims: dict[tuple[str, bool, bool], frozenset[str]] = {}
        self._steps: dict[frozenset[str], dict[str, int]] = {}
        self._leads: list[tuple[dict[str, Any], frozenset[str], int]] | None = None

    def unmet(self, tried: str = "units") -> list[Any]:
        """The player's unmet requirements that have a distance (effects/progress.py) and may read
        what a try of `tried` ("units" or "gates") changes (`_READ_AFTER`); with `awaken`, the
        awakenings that would meet one too (whose `where` may read anything), and they alone as
        `tried` "awaken" (for units and Gates only those not yet offered)."""
        if self._unmet is None:
            faction = self.g.content.factions.get(self.player)
            earned = self.g.s.requirements.get(self.player) or ()
            unmet = [r for r in faction.requirements if r.progress is not None and r.id not in earned] \
                if faction is not None else []
            self._unmet = {k: [r for r in unmet if _reads(r, parts)] for k, parts in _READ_AFTER.items()}
            gaps = awaken_steps.awaken_gaps(self.g, self.player) if self.awaken else []
            if gaps:   # tried for units and Gates only while not yet offered (a try cannot close it further)
                c = core.ctx(self.g.rules, self.player)
                not_offered = [x for x in gaps if x.progress(c)]   # (each `where` run once, for every kind of try)
                for k in _READ_AFTER:
                    self._unmet[k].extend(not_offered)
            self._unmet["awaken"] = gaps
        return self._unmet[tried]

    def _board(self) -> Any:
        if self._copy is None:
            self._copy = self.g.clone()
            self._ctx = core.ctx(self._copy.rules, self.player)
            self._ctx.ability = "requirement progress"
        return self._copy

    def earns_at(self, ability: str | None, area: str | None) -> bool:
        """Whether serving ability `ability`'s tokens, placed in `area`, would meet one of the
        unmet requirements it serves (each area tried once, on the one copy)."""
        if ability is None or area is None:
            return False
        key = (ability, area)
        found = self._earning.get(key)
        if found is None:
            found = self._earning[key] = ability in seeking_of(self.g, self.player).serves and \
                bool(earning_areas(self.g, self.player, ability, (area,), self._board()))
        return found

    def _distance(self, tried: str) -> int:
        return sum(r.progress(self._ctx) for r in self.unmet(tried))

    def _gain(self, key: tuple[Any, ...], change: Any, undo: Any, tried: str = "units") -> int:
        found = self._gains.get(key)
        if found is not None:
            return found
        if not self.unmet(tried):
            self._gains[key] = 0
            return 0
        self._board()
        base = self._base.get(tried)
        if base is None:
            base = self._base[tried] = self._distance(tried)
        if base == 0 or not change():
            found = 0
        else:
            try:
                found = base - self._distance(tried)
            finally:
                undo()
        self._gains[key] = found
        return found

    def _relocate(self, u: dict[str, Any] | None, dst: str) -> tuple[Any, Any]:
        rules = self._copy.rules
        src = u["loc"] if u is not None else dst

        def change() -> bool:
            if u is None or src == dst:
                return False
            core.shift(rules, u, dst)
            return True

        def undo() -> None:
            core.shift(rules, u, src)   # type: ignore[arg-type]
        return change, undo

    def gain_move(self, unit: int | None, dst: str | None) -> int:
        """What moving unit `unit` (an id) to `dst` takes off the distance (units of one kind and
        place that control no Gate answer alike)."""
        if unit is None or dst is None:
            return 0
        s = self._board().s
        u = s.unit(unit)
        gate = s.gates.get(u["loc"])
        key = ("move", unit if gate is not None and gate.get("controller") == unit else u["kind"], u["loc"], dst)
        return self._gain(key, *self._relocate(u, dst))

    def gain_place(self, kind: str | None, dst: str | None) -> int:
        """What placing a unit of `kind` from the pool in `dst` takes off the distance."""
        if kind is None or dst is None:
            return 0
        pooled = self._board().s.pool(self.player, kind)
        return self._gain(("place", kind, dst), *self._relocate(pooled[0] if pooled else None, dst))

    def gain_gate(self, area: str | None) -> int:
        """What a Gate in `area`, held by a cultist of the player's there if any, takes off the distance."""
        if area is None:
            return 0
        s = self._board().s

        def change() -> bool:
            if area in s.gates:
                return False
            holder = next((u["id"] for u in s.units_at(area, self.player) if uclass(self.g.rules, u) == "cultist"),
                          None)
            # a Gate written as the engine's create-gate and control-gate write one: no unit moves, so
            # no derived index is stale (held conditions keep the Gates by value, engine/held_conditions.py)
            s.gates[area] = {"controller": holder}
            return True

        def undo() -> None:
            del s.gates[area]
        return self._gain(("gate", area), change, undo, "gates")

    def step_closer(self, tried: str = "units") -> bool:
        """Whether one unit of the player's on the map, moved to an adjacent area, would bring an
        unmet requirement closer (what a Move action may bring; the first such step found ends the
        search); `tried` "awaken": an awakening's requirement alone."""
        if not self.unmet(tried):
            return False
        adjacent = self.g.layout.adjacent
        gain = self.gain_move if tried == "units" else self._awakens_at
        return any(gain(u["id"], dst) > 0
                   for u in self.g.s.on_map(self.player) for dst in sorted(adjacent.get(u["loc"], ())))

    def _awakens_at(self, unit: int, dst: str) -> int:
        """What moving unit `unit` to `dst` takes off the distance of the awakenings alone."""
        u = self._board().s.unit(unit)
        return self._gain(("awaken", u["kind"], u["loc"], dst), *self._relocate(u, dst), tried="awaken")

    def power_to_keep(self) -> int:
        """With `awaken`: the Power an action should leave the player for an awakening that would
        meet an unmet requirement and is offered now or one unit's move away (awaken_steps); else 0."""
        keep = self.memo.get("keep")
        if keep is None:
            gaps = self.unmet("awaken")
            keep = self.memo["keep"] = awaken_steps.power_to_keep(self.g, self.player, gaps,
                                                                  lambda: self.step_closer("awaken")) if gaps else 0
        return keep  # type: ignore[no-any-return]

    # ---- reach: progress over several steps (`reach`) ----

    def aims(self, u: dict[str, Any]) -> frozenset[str]:
        """The areas where unit `u` of the player's would close a step of an unmet requirement: where
        a serving ability it holds would earn one (`earns_at`) and, for a cultist that holds no Gate
        (a cultist builds Gates; one that holds a Gate keeps it), where a Gate would bring one closer
        (`gain_gate`). Units of one kind that hold no Gate share their aims."""
        key = self._aims_key(u)
        found = self._aims.get(key)
        if found is None:
            found = self._aims[key] = frozenset(a for a in sorted(self.g.layout.areas) if self._aim_at(key, a))
        return found

    def _aims_key(self, u: dict[str, Any]) -> tuple[str, bool, bool]:
        """(kind, whether a cultist that may build a Gate, whether it holds a Gate): what its aims depend on."""
        g = self.g
        cultist = uclass(g.rules, u) == "cultist"   # (the rules context: `g` is a Game)
        holds_gate = cultist and (g.s.gates.get(u["loc"]) or {}).get("controller") == u["id"]
        return u["kind"], cultist and not holds_gate, holds_gate

    def _aim_at(self, key: tuple[str, bool, bool], area: str) -> bool:
        """Whether `area` is one of the aims of the units of `key` (see `aims`)."""
        g = self.g
        links = seeking_of(g, self.player)
        if any(_unmet(g, self.player, links.serves[a]) and self.earns_at(a, area)
               for a in sorted(links.holders.get(key[0], ()))):
            return True
        if key[1] and self.unmet("gates") and area not in g.s.gates and self.gain_gate(area) > 0:
            return True
        return bool(self.unmet("awaken")) and self._awaken_aim(key[0], area)

    def _awaken_aim(self, kind: str, area: str) -> bool:
        """Whether a unit of `kind` (one that holds no Gate), moved to `area`, would bring an
        awakening that meets an unmet requirement closer (none when every such awakening is
        offered already)."""
        walker = self.memo.get(("awaken-walker", kind), -1)
        if walker == -1:
            s = self._board().s
            if self._base.get("awaken") is None:
                self._base["awaken"] = self._distance("awaken")
            u = next((u for u in s.on_map(self.player) if u["kind"] == kind and
                      (s.gates.get(u["loc"]) or {}).get("controller") != u["id"]), None) if self._base["awaken"] else None
            walker = self.memo[("awaken-walker", kind)] = u["id"] if u is not None else None
        return walker is not None and self._awakens_at(walker, area) > 0

    def steps(self, aims: frozenset[str]) -> dict[str, int]:
        """Each area's number of steps (moves to an adjacent area, read from the map) to the
        nearest of `aims`; an area that reaches none is missing."""
        found = self._steps.get(aims)
        if found is None:
            adjacent = self.g.layout.adjacent
            found = dict.fromkeys(aims, 0)
            todo = sorted(aims)
            for area in todo:   # breadth first: `todo` grows as it is read, each area once
                for n in sorted(adjacent.get(area, ())):
                    if n not in found:
                        found[n] = found[area] + 1
                        todo.append(n)
            self._steps[aims] = found
        return found

    def _walkers(self) -> list[tuple[dict[str, Any], frozenset[str], int]]:
        """The player's units on the map that have aims, each with them and its steps to them: of
        each kind (`_aims_key`), those nearest the aims; none of a kind one of whose units stands on
        an aim already (the requirement is an action away, not a walk: found without reading the
        whole map's aims)."""
        if self._leads is None:
            kinds: dict[tuple[str, bool, bool], list[dict[str, Any]]] = {}
            for u in self.g.s.on_map(self.player):
                kinds.setdefault(self._aims_key(u), []).append(u)
            leads = []
            for key, units in kinds.items():
                if any(self._aim_at(key, u["loc"]) for u in units):
                    continue
                aims = self.aims(units[0])
                steps = self.steps(aims) if aims else {}
                n = min(steps.get(u["loc"], MAX_STEPS) for u in units)
                leads.extend((u, aims, n) for u in units if steps.get(u["loc"], MAX_STEPS) == n < MAX_STEPS)
            self._leads = leads
        return self._leads

    def gain_reach(self, unit: int | None, dst: str | None) -> int:
        """The steps that moving unit `unit` (an id) to `dst` takes off its way to its aims (1 for
        a step closer, -1 for a step away), for a unit that goes (`_walkers`); else 0."""
        if unit is None or dst is None:
            return 0
        for u, aims, n in self._walkers():
            if u["id"] == unit:
                return n - self.steps(aims).get(dst, MAX_STEPS)
        return 0

    def reach_step(self) -> bool:
        """Whether a unit that goes (`_walkers`) has an adjacent area nearer its aims (a Move
        action brings it closer)."""
        adjacent = self.g.layout.adjacent
        return any(self.steps(aims).get(dst, MAX_STEPS) < n
                   for u, aims, n in self._walkers() for dst in adjacent.get(u["loc"], ()))


# what each kind of try changes, in primitive_facts.READS' names: a unit's place (a shift applies
# no rule, so no Gate changes hands; a unit that counts as a Gate is not followed), or the Gates
_READ_AFTER = {"units": frozenset({"units"}), "gates": frozenset({"gates", "gate-places"})}


def _reads(r: Any, parts: frozenset[str]) -> bool:
    """Whether requirement `r`'s condition may read one of `parts`: it calls a query that reads
    one, or one READS does not list (it may read anything); a query of READS_BY_ARGUMENT reads what
    the parameters it is given read (the calls with their parameters, `r.inputs[3]`, where known)."""
    calls = r.inputs[0] if r.inputs is not None else None
    if calls is None:
        return True
    given: dict[str, list[frozenset[Any]]] = {}
    for call, params in (r.inputs[3] if len(r.inputs) > 3 and r.inputs[3] is not None else ()):
        given.setdefault(call, []).append(params)
    for c in calls:
        narrow = READS_BY_ARGUMENT.get(c)
        if narrow is not None and c in given:
            # a parameter passed by a position beyond the known names (`ast.unnamed`) may read anything
            if any(parts.intersection(narrow.get(p, READS[c] if is_unnamed(p) else ())) for ps in given[c] for p, _ in ps):
                return True
        elif c not in READS or parts.intersection(READS[c]):
            return True
    return False


def holds_seeker(g: Any, player: str, unit_kind: str | None) -> str | None:
    """The serving ability (of an unmet requirement) a unit of `unit_kind` holds, if any."""
    faction = g.content.factions.get(player)
    if faction is None or unit_kind is None:
        return None
    links = seeking_of(g, player)
    for ability in sorted(links.holders.get(unit_kind, ())):
        if _unmet(g, player, links.serves[ability]):
            return ability
    return None


def move_pays(g: Any, player: str, trial: Trial | None = None) -> bool:
    """Whether a unit of `player` holding a serving ability stands where using it would earn
    nothing, next to an area where it would earn an unmet requirement (a Move action is worth it)."""
    faction = g.content.factions.get(player)
    if faction is None or not seeking_of(g, player).holders:
        return False
    trial = Trial(g, player) if trial is None else trial
    adjacent = g.layout.adjacent
    for u in g.s.on_map(player):
        ability = holds_seeker(g, player, u["kind"])
        if ability is None:
            continue
        here = u["loc"]
        if not trial.earns_at(ability, here) and any(trial.earns_at(ability, a) for a in adjacent.get(here, ())):
            return True
    return False


def drains_reserve(g: Any, player: str, unit_kind: str | None) -> bool:
    """Whether placing a unit of `unit_kind` from `player`'s pool would leave it without any unit
    that an ability serving an unmet requirement takes from the pool."""
    faction = g.content.factions.get(player)
    if faction is None or unit_kind is None:
        return False
    links = seeking_of(g, player)
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
