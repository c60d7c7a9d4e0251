"""The Doom Phase as procedures (engine/flow.py): Doom for gates, then each player in turn order
performs a Ritual of Annihilation or uses its Doom-phase abilities; then the end of the phase,
where the game may end. The costs and the track are read in phases.py."""
from __future__ import annotations

from typing import Any

from .flow import Call, Proc, Return, ask
from .option import Option, parse
from . import abilities
from .abilities import self_unit_for, window_abilities
from . import actions
from . import basics
from .basics import emit_fields, faction, gain_power
from . import core
from .core import ctx
from . import core_procs
from .core_procs import requirements_call
from . import phases

Frame = dict[str, Any]
RITUAL, DONE = Option("doom", "ritual"), Option("doom", "done")


def round_limit(g: Any) -> int:
    """The last round a game may play (the ruleset's `victory: max-rounds`, an engine safeguard)."""
    return int(g.ruleset.settings.get("victory", {}).get("max-rounds", 40))


class DoomPhase(Proc):
    """The Doom Phase. Per player (`order`, `i`): its doom-phase requirements, then rituals and
    abilities until it is done (`used`: the abilities it used, `done`: it performed the ritual)."""

    name = "doom-phase"
    STEPS = ("start", "player", "choose", "chosen", "end")

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        s = g.s
        emit_fields(g, "phase", {"phase": "doom", "round": s.round})
        if g.ruleset.settings.get("doom-for-gates", True):
            for p in s.players:
                basics.gain_doom(g, p, actions.gate_count(g, p), "controlled gates")
        f["order"], f["i"], f["at"] = s.order_from(s.first), 0, "player"
        return requirements_call(g, "state")

    def player(self, g: Any, f: Frame, value: Any) -> Any:
        if f["i"] >= len(f["order"]):
            f["at"] = "end"
            return core.window_call(g, "end-of-doom-phase", {}, g.s.order_from(g.s.first))
        p = f["order"][f["i"]]
        f["used"], f["done"], f["at"] = [], False, "choose"
        return requirements_call(g, "doom-phase", {"player": p}, [p])

    # (the helpers of its steps are the module functions below: C calls in the compiled core)

    def choose(self, g: Any, f: Frame, value: Any) -> Any:
        s = g.s
        p = f["order"][f["i"]]
        cands = _candidates(g, f, p, None)
        labels = [a.id for a in cands if a.optional]
        forced = [a for a in cands if not a.optional]
        if forced:
            return _use(g, f, forced[0], p)
        cost = None if f["done"] else phases.ritual_cost(g, p)
        costs = {}
        if cost is not None and s.power[p] >= cost:
            labels.append(RITUAL.label)
            costs[RITUAL.label] = cost
        if not labels:
            return _next(g, f)
        f["at"] = "chosen"
        return ask(p, "doom", labels + [DONE.label], "Doom Phase: perform a ritual or use an ability?", costs=costs)

    def chosen(self, g: Any, f: Frame, ans: str) -> Any:
        p = f["order"][f["i"]]
        picked = parse("doom", ans)
        if picked == DONE:
            return _next(g, f)
        if picked == RITUAL:
            f["done"], f["at"] = True, "choose"
            return Call({"proc": "ritual", "at": "start", "player": p})
        # the first candidate with the picked id, as `choose` listed them at this same position: only
        # the abilities with that id are evaluated again
        ab = _candidates(g, f, p, picked.ability)[0]
        return _use(g, f, ab, p)

    def end(self, g: Any, f: Frame, value: Any) -> Any:
        s = g.s
        grants = s.grants
        kept = [x for x in grants if not (x.get("until") == "end-of-doom-phase" and x.get("round", 0) <= s.round)]
        if len(kept) != len(grants):   # the lent abilities end: a write (the memo's facts hang on them)
            s.grants = kept
            s.written(units=False)
        if s.instant_death or phases.doom_reached(g):
            phases.finish(g, "instant death" if s.instant_death else "a player reached the Doom goal")
            return Return()
        limit = round_limit(g)
        if s.round >= limit:
            phases.finish(g, f"round limit {limit} reached (engine safeguard)")
            return Return()
        s.round += 1
        emit_fields(g, "phase", {"phase": "action", "round": s.round})
        s.step = {"phase": "action", "player": s.first}
        return Return()


def _candidates(g: Any, f: Frame, p: str, only: str | None) -> list[Any]:
    """The player's doom-phase abilities usable now that it has not used this phase (`only`:
    those whose id it is, the others not evaluated)."""
    out = []
    used = f["used"]
    for ab in window_abilities(g, p, "doom-phase"):
        if ab.key not in used and (only is None or ab.id == only):
            if abilities.usable(g, ab, p, _ctx(g, ab, p)):   # (by name: tests count its calls)
                out.append(ab)
    return out


def _ctx(g: Any, ab: Any, p: str) -> Any:
    return ctx(g, p, ab, self_unit_for(g, ab, p), {"player": p})


def _use(g: Any, f: Frame, ab: Any, p: str) -> Any:
    f["used"].append(ab.key)
    f["at"] = "choose"
    return core.use_ability_call(g, ab, p, _ctx(g, ab, p))


def _next(g: Any, f: Frame) -> Any:
    """The Doom Phase's next player."""
    f["i"] += 1
    f["at"] = "player"
    # every player's: a Doom turn can meet another's requirement ("an opponent has six spellbooks")
    return requirements_call(g, "state")


class Ritual(Proc):
    """A Ritual of Annihilation by `player`: pay, move the marker (Instant Death at its end), Doom
    for its gates, an Elder Sign per Great Old One, then the ritual window."""

    name = "ritual"
    STEPS = ("start", "done")

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        s = g.s
        p = f["player"]
        cost = phases.ritual_cost(g, p)
        gain_power(g, p, -cost, "ritual of annihilation")
        track = phases.ritual_track(g)
        if s.ritual < len(track):
            s.ritual += 1
        if s.ritual >= len(track) and not s.instant_death:
            s.instant_death = True
            emit_fields(g, "instant-death", {})
        emit_fields(g, "ritual", {"player": p, "cost": cost, "marker": s.ritual})
        basics.gain_doom(g, p, actions.gate_count(g, p), "ritual")
        own = faction(g, p).units
        for u in s.on_map(p):
            if u["kind"] in own and own[u["kind"]].cls == "great-old-one":
                basics.give_elder_sign(g, p, "ritual")
        f["at"] = "done"
        return core.window_call(g, "ritual", {"player": p}, [p])

    def done(self, g: Any, f: Frame, value: Any) -> Any:
        return Return()
