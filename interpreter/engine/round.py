"""The round as procedures (engine/flow.py): setup, the Action Phase's steps, Gather Power,
Determine First Player and the Doom Phase, in rulebook order. The turn itself is in turn.py,
the queries these steps use (costs, the Ritual track, victory) in phases.py."""
from __future__ import annotations

from typing import Any

from ..effects.compiler import RuleError
from ..limits import MAX_ACTIONS_PER_PHASE
from .flow import Call, Proc, Return, ask
from .option import Option, parse
from .state import POOL, _gate_owner, _on_map, _units_at, captured_loc   # (State's methods: C calls in the compiled core)
from . import actions
from . import basics
from .basics import emit_fields, gain_power, is_area, uclass
from . import core
from . import core_procs
from .core_procs import requirements_call
from . import phases
from .phases import out_of_actions

Frame = dict[str, Any]
CLOCKWISE = Option("option", "option", word="clockwise")
COUNTERCLOCKWISE = Option("option", "option", word="counterclockwise")

#: the procedure that runs each phase step `State.step` names
PHASES = {"setup": "setup", "action": "action-step", "gather": "gather-power",
          "first-player": "first-player", "doom": "doom-phase"}


class GameProc(Proc):
    """The outer loop: the phase step `State.step` names, one at a time, until the game is over."""

    name = "game"
    STEPS = ("start",)

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        s = g.s
        if s.over:
            return Return()
        ph = s.step.get("phase", "setup")
        if ph not in PHASES:  # pragma: no cover
            raise RuleError(f"unknown phase {ph!r}")
        return Call({"proc": PHASES[ph], "at": "start"})   # (flow.frame's record as a literal: see frame)


RANDOM_FIRST = "random"   # the game's `first` parameter asking for a first player drawn at random


# ---- setup ------------------------------------------------------------------------------------------
class Setup(Proc):
    """Each faction picks its start area (those that choose after the others last) and places its
    Cultists and Gate there; then the first player is set."""

    name = "setup"
    STEPS = ("start", "place", "placed", "done")

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        s = g.s
        late = [p for p in s.players if basics.faction(g, p).setup.get("choose-start-after-others")]
        anywhere = [p for p in s.players if basics.faction(g, p).setup.get("start-anywhere")]   # last of all
        late = [p for p in late if p not in anywhere] + anywhere
        f["order"], f["i"], f["at"] = [p for p in s.players if p not in late] + late, 0, "place"
        return None

    def place(self, g: Any, f: Frame, value: Any) -> Any:
        s = g.s
        if f["i"] >= len(f["order"]):
            always = [p for p in s.players if basics.faction(g, p).setup.get("always-first")]
            allowed = [p for p in s.players if not basics.faction(g, p).setup.get("never-first-at-start")] or s.players
            # Core rulebook, The First Player (p. 7): "choose the First Player by any means you wish
            # (We recommend going alphabetically by Faction name)": the game's `first` parameter (a
            # player, or random by the game's generator), else alphabetical.
            asked = g.first
            if always:
                first = always[0]
            elif asked == RANDOM_FIRST:
                first = allowed[basics.random_below(g, len(allowed))]
            elif asked in allowed:
                first = asked
            else:
                first = sorted(allowed, key=lambda p: basics.faction(g, p).name)[0]
            f["at"] = "done"
            return Call({"proc": "set-first", "at": "start", "first": first})
        p = f["order"][f["i"]]
        if basics.faction(g, p).setup.get("start-anywhere"):
            starts = sorted(a for a in g.layout.areas if a not in s.gates)
        else:
            starts = sorted(a.id for a in g.layout.areas.values() if p in a.starts)
        if not starts:
            raise RuleError(f"faction '{p}' has no start area on map layout '{g.layout.id}'")
        f["at"] = "placed"
        return ask(p, "area", starts, "choose your start area")

    def placed(self, g: Any, f: Frame, home: str) -> Any:
        s = g.s
        p = f["order"][f["i"]]
        fac = basics.faction(g, p)
        s.home[p] = home
        s.power[p] = int(fac.setup.get("power", 8))
        cult = next(t for t in fac.units.values() if t.cls == "cultist")
        n = int(fac.setup.get("cultists", 6))
        placed = s.pool(p, cult.id)[:n]
        for u in placed:
            core.relocate(g, u, home, "setup")
        if fac.setup.get("gate", True):
            if home in s.gates:
                raise RuleError(f"two factions start in '{home}', which can hold only one gate")
            s.gates[home] = {"controller": placed[0]["id"] if placed else None}
            emit_fields(g, "gate", {"loc": home, "change": "created", "player": p, "why": "setup"})
        f["i"] += 1
        f["at"] = "place"
        return None

    def done(self, g: Any, f: Frame, value: Any) -> Any:
        return Return()


class SetFirst(Proc):
    """The first player (`first`) is set; with more than two players it chooses the direction of play."""

    name = "set-first"
    STEPS = ("start", "direction")

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        s = g.s
        s.first = f["first"]
        f["at"] = "direction"
        if len(s.players) > 2:
            return ask(f["first"], "option", [CLOCKWISE.label, COUNTERCLOCKWISE.label], "choose the direction of play")
        return None

    def direction(self, g: Any, f: Frame, d: Any) -> Any:
        s = g.s
        if d is not None:
            s.direction = 1 if parse("option", d) == CLOCKWISE else -1
        first = f["first"]
        emit_fields(g, "first-player", {"player": first, "direction": s.direction})
        s.step = {"phase": "action", "player": first}
        s.memory = {"battle_no": s.memory.get("battle_no", 0), "turn_no": s.memory.get("turn_no", 0),
                    "action_no": s.memory.get("action_no", 0),
                    "once": [k for k in s.memory.get("once", []) if k.endswith("|game")]}
        return Return()


# ---- action phase ----------------------------------------------------------------------------------
class ActionStep(Proc):
    """One step of the Action Phase: the phase ends when no one can act; a player with no Power (or
    no actions left) passes its turn; otherwise it takes a turn (turn.py)."""

    name = "action-step"
    STEPS = ("start", "turned")

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        s = g.s
        p = s.step["player"]
        power = s.power
        for q in s.players:   # (a loop, not all() over a generator: no generator object in the compiled core)
            if power[q] > 0 and not out_of_actions(g, q):
                break
        else:   # no one can act: the phase ends
            emit_fields(g, "phase", {"phase": "gather-power", "round": s.round})
            s.step = {"phase": "gather"}
            return Return()
        if s.power[p] <= 0 or out_of_actions(g, p):
            if g.ruleset.settings.get("turn-surcharge", {}).get("enabled"):
                s.surcharge += 1
                emit_fields(g, "surcharge", {"player": p, "total": s.surcharge,
                                             "name": g.ruleset.settings.get("turn-surcharge", {}).get("name", "surcharge")})
            s.step = {"phase": "action", "player": phases.next_player(g, p)}
            return Return()
        f["player"], f["at"] = p, "turned"
        return Call({"proc": "turn", "at": "start", "player": p})   # (a literal: see flow.frame)

    def turned(self, g: Any, f: Frame, value: Any) -> Any:
        s = g.s
        if s.memory.get("actions", 0) > MAX_ACTIONS_PER_PHASE:
            emit_fields(g, "game-end-trigger", {"reason": "stalled", "during": "action"})
            phases.finish(g, f"no progress: more than {MAX_ACTIONS_PER_PHASE} actions in one Action Phase (engine safeguard)")
            return Return()
        if phases.doom_reached(g):
            emit_fields(g, "game-end-trigger", {"reason": "doom", "during": "action"})
            phases.finish(g, "a player reached the Doom goal")
            return Return()
        s.step = {"phase": "action", "player": phases.next_player(g, f["player"])}
        return Return()


# ---- gather power ----------------------------------------------------------------------------------
class GatherPower(Proc):
    """Gather Power: income for everyone, its window, Minimum Power, the windows after it, and the
    requirements met at the end of the Power phase."""

    name = "gather-power"
    STEPS = ("start", "minimum", "end_of_phase", "requirements", "done")

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        s = g.s
        if s.surcharge:
            s.surcharge = 0
            emit_fields(g, "surcharge", {"total": 0, "reset": True})
        abandoned = len(s.abandoned_gates())
        for p in s.players:
            # (loops, not generators: the compiled core makes no generator object for them)
            cultists = 0
            for loc, gate in s.gates.items():
                # a gate held off the map keeps its controlling cultist with it: both still give Power
                if not is_area(g, loc) and gate.get("controller") is not None and _gate_owner(s, loc) == p:
                    cultists += 1
            for u in _on_map(s, p):
                if uclass(g, u) == "cultist":
                    cultists += 1
            gates = actions.gate_count(g, p)
            # the units the player holds captured (the state's index: in the order of `units`, a new list)
            captured = _units_at(s, captured_loc(p))
            for u in captured:
                core.relocate(g, u, POOL, "sacrificed")
            income = cultists + 2 * gates + abandoned + len(captured) + s.bank.pop(p, 0)
            s.power[p] = 0
            gain_power(g, p, income, "gather power")
        f["at"] = "minimum"
        return core.window_call(g, "gather-power", {}, s.order_from(s.first))

    def minimum(self, g: Any, f: Frame, value: Any) -> Any:
        s = g.s
        top = max(s.power.values())
        floor = -(-top // 2)   # half the top Power, rounded up (whole numbers: no float overflow)
        for p in s.players:
            if s.power[p] < floor:
                gain_power(g, p, floor - s.power[p], "minimum power")
        f["at"] = "end_of_phase"
        return core.window_call(g, "after-gather-power", {}, s.order_from(s.first))

    def end_of_phase(self, g: Any, f: Frame, value: Any) -> Any:
        # the very end of the Power phase: after Minimum Power, before the first player is determined
        f["at"] = "requirements"
        return core.window_call(g, "end-of-power-phase", {}, g.s.order_from(g.s.first))

    def requirements(self, g: Any, f: Frame, value: Any) -> Any:
        f["at"] = "done"
        return requirements_call(g, "state") or self.done(g, f, None)   # e.g. "have 12 Power" is met here

    def done(self, g: Any, f: Frame, value: Any) -> Any:
        g.s.step = {"phase": "first-player"}
        return Return()


class FirstPlayer(Proc):
    """Determine First Player: the most Power; a tie is broken by the current first player."""

    name = "first-player"
    STEPS = ("start", "chosen", "done")

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        s = g.s
        top = max(s.power.values())
        tied = [p for p in s.order_from(s.first) if s.power[p] == top]
        f["first"], f["at"] = tied[0], "chosen"
        if len(tied) > 1:
            return ask(s.first, "option", tied, "Power is tied: choose the first player")
        return None

    def chosen(self, g: Any, f: Frame, value: Any) -> Any:
        f["at"] = "done"
        return Call({"proc": "set-first", "at": "start", "first": value if value is not None else f["first"]})

    def done(self, g: Any, f: Frame, value: Any) -> Any:
        g.s.step = {"phase": "doom"}
        return Return()
