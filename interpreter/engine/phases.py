"""The round: Action Phase turns, Gather Power, Determine First Player, Doom Phase, and victory."""
from __future__ import annotations

import hashlib
import json
from typing import Any

from ..effects.compiler import RuleError
from ..limits import MAX_ACTIONS_PER_PHASE
from .core import Gen, GameCore
from .flow import Proc, Return, legacy
from .state import POOL

DECLINE_SECOND = "decline-second-action"  # a granted second action is optional


def _action_key(label: str) -> str:
    """What makes two actions 'the same' for "a second, different action": the ability for a
    unique action, the verb for a common one (two Moves are the same action)."""
    words = label.split()
    return " ".join(words[:2]) if words and words[0] in ("ability", "requirement") else words[0]


class PhasesMixin(GameCore):
    # ---- setup ------------------------------------------------------------------------------------
    def setup_step(self) -> Gen:
        s = self.s
        late = [p for p in s.players if self.faction(p).setup.get("choose-start-after-others")]
        for p in [p for p in s.players if p not in late] + late:
            f = self.faction(p)
            starts = sorted(a.id for a in self.layout.areas.values() if p in a.starts)
            if not starts:
                raise RuleError(f"faction '{p}' has no start area on map layout '{self.layout.id}'")
            home = yield from self.ask(p, "area", starts, "choose your start area")
            s.home[p] = home
            s.power[p] = int(f.setup.get("power", 8))
            cult = next(t for t in f.units.values() if t.cls == "cultist")
            n = int(f.setup.get("cultists", 6))
            placed = s.pool(p, cult.id)[:n]
            for u in placed:
                self.relocate(u, home, "setup")
            if f.setup.get("gate", True):
                if home in s.gates:
                    raise RuleError(f"two factions start in '{home}', which can hold only one gate")
                s.gates[home] = {"controller": placed[0]["id"] if placed else None}
                self.emit("gate", loc=home, change="created", player=p, why="setup")
        always = [p for p in s.players if self.faction(p).setup.get("always-first")]
        allowed = [p for p in s.players if not self.faction(p).setup.get("never-first-at-start")]
        # The core rulebook recommends alphabetical faction order when no one must go first.
        first = always[0] if always else sorted(allowed or s.players, key=lambda p: self.faction(p).name)[0]
        yield from self.set_first(first)

    def set_first(self, first: str) -> Gen:
        s = self.s
        s.first = first
        if len(s.players) > 2:
            d = yield from self.ask(first, "option", ["clockwise", "counterclockwise"], "choose the direction of play")
            s.direction = 1 if d == "clockwise" else -1
        self.emit("first-player", player=first, direction=s.direction)
        s.step = {"phase": "action", "player": first}
        s.memory = {"battle_no": s.memory.get("battle_no", 0), "turn_no": s.memory.get("turn_no", 0),
                    "action_no": s.memory.get("action_no", 0),
                    "once": [k for k in s.memory.get("once", []) if k.endswith("|game")]}

    # ---- action phase ------------------------------------------------------------------------------
    def next_player(self, p: str) -> str:
        order = self.s.order_from(p)
        return order[1 % len(order)]

    def action_step(self) -> Gen:
        s = self.s
        p = s.step["player"]
        if all(s.power[q] <= 0 or self.out_of_actions(q) for q in s.players):
            self.emit("phase", phase="gather-power", round=s.round)
            s.step = {"phase": "gather"}
            return
        if s.power[p] <= 0 or self.out_of_actions(p):
            if self.ruleset.get("turn-surcharge", {}).get("enabled"):
                s.surcharge += 1
                self.emit("surcharge", player=p, total=s.surcharge,
                          name=self.ruleset.get("turn-surcharge", {}).get("name", "surcharge"))
            s.step = {"phase": "action", "player": self.next_player(p)}
            return
        yield from self.take_turn(p)
        if s.memory.get("actions", 0) > MAX_ACTIONS_PER_PHASE:
            self.emit("game-end-trigger", reason="stalled", during="action")
            yield from self.finish(f"no progress: more than {MAX_ACTIONS_PER_PHASE} actions in one Action Phase "
                                   "(engine safeguard)")
            return
        if self.doom_reached():
            self.emit("game-end-trigger", reason="doom", during="action")
            yield from self.finish("a player reached the Doom goal")
            return
        s.step = {"phase": "action", "player": self.next_player(p)}

    def out_of_actions(self, p: str) -> bool:
        """Whether `p` may take no more actions this Action Phase, as if it had 0 Power (an effect
        said so, e.g. with `end_actions`): its turns pass and move the turn surcharge."""
        return p in self.s.memory.get("no_actions", [])

    def can_pass(self, p: str) -> bool:
        mode = self.ruleset.get("voluntary-drop", "always")
        return mode == "always" or self.s.power[p] <= 1

    def take_turn(self, p: str) -> Gen:
        s = self.s
        s.memory["turn_no"] = s.memory.get("turn_no", 0) + 1
        s.memory["battles"] = []
        self.emit("turn", player=p, power=s.power[p])
        if s.surcharge:
            pay = min(s.surcharge, s.power[p])
            self.gain_power(p, -pay, "surcharge")
            if s.power[p] <= 0:
                return
        main_done = False
        # An ability may make a Common Action (Summon) an Unlimited one too: once such an action is
        # taken, like a Battle with six spellbooks, it counts as the Action if the player ends the
        # turn without another (core rulebook, Unlimited Battle).
        either_done = False
        # keys a granted second action may not repeat; None while no second action is pending
        second: list[str] | None = None
        seen: set[tuple[str, str]] = set()

        def unlimited() -> list[tuple[str, int]]:
            offered = self.unlimited_actions(p)
            taken = {label for _, label in seen}
            if not any(c == 0 and label in taken for label, c in offered):
                return offered
            here = self.position_key()
            return [(label, c) for label, c in offered if not (c == 0 and (here, label) in seen)]

        while True:
            opts: dict[str, int] = {}
            if second is None:  # "immediately after": no unlimited action between the two actions
                for label, c in unlimited():
                    opts.setdefault(label, c)
            mains: dict[str, int] = {}
            if not main_done:
                for label, c in self.main_actions(p):
                    if second is None or _action_key(label) not in second:
                        mains.setdefault(label, c)
                if second is not None:
                    mains[DECLINE_SECOND] = 0
                else:
                    if not mains and not either_done:
                        self.emit("no-action", player=p)
                        self.gain_power(p, -s.power[p], "no action possible")
                        return
                    if self.can_pass(p) and s.power[p] > 0:
                        mains["pass"] = 0
            if main_done or either_done:
                opts["end-turn"] = 0
            choices = {**mains, **{k: v for k, v in opts.items() if k not in mains}}
            ans = yield from self.ask(p, "action", list(choices), f"{p}: choose an action", costs=choices)
            if ans == "end-turn":
                return
            if ans == DECLINE_SECOND:
                main_done, second = True, None
                self.emit("declined", player=p, ability="second action")
                if s.power[p] <= 0 and not unlimited():
                    return
                continue
            is_main = ans in mains and ans not in opts
            if not is_main and choices[ans] == 0:
                # A free unlimited action is not taken twice from the same position in one turn:
                # abandoning and controlling a gate (any free pair that undo each other) cannot
                # cycle, while a repeat that changes something (a second 0-Power monster at one
                # gate) stays legal.
                seen.add((self.position_key(), ans))
            if ans in mains and ans in opts:
                either_done = True
            yield from self.take_action(p, ans, choices[ans])  # type: ignore[attr-defined]
            granted = s.memory.pop("extra_action", None)
            s.memory["actions"] = s.memory.get("actions", 0) + 1   # limits.MAX_ACTIONS_PER_PHASE
            if is_main:
                if second is None and granted is not None:   # the first action grants a second one
                    second = list(granted) + [_action_key(ans)]
                else:                                          # a second action never grants a third
                    main_done, second = True, None
            if ans == "pass" or self.out_of_actions(p) or ((main_done or either_done) and s.power[p] <= 0
                                                           and not unlimited()):
                return
            if s.memory["actions"] > MAX_ACTIONS_PER_PHASE:
                return   # the Action Phase is stalled: action_step ends the game

    def position_key(self) -> str:
        """The position without its event counter: equal keys mean nothing on the board changed."""
        d = {f: v for f, v in vars(self.s).items() if f not in ("seq", "memory", "flow", "pending")}
        d["memory"] = {k: v for k, v in self.s.memory.items() if k not in ("action_no", "actions")}
        return hashlib.sha1(json.dumps(d).encode()).hexdigest()

    def offer_reveals(self) -> Gen:
        """Elder signs may be revealed at any time; mid-turn that matters only when it reaches the
        Doom goal (which ends the game after this turn), so it is offered exactly then."""
        goal = int(self.ruleset.get("victory", {}).get("doom", 30))
        for q in self.turn_order():
            signs = self.s.elder_signs[q]
            if signs and self.s.doom[q] < goal <= self.s.doom[q] + sum(signs):
                ans = yield from self.ask(q, "option", ["reveal-elder-signs", "keep"],
                                          "reveal your elder signs now (reaching the Doom goal ends the game after this turn)?")
                if ans == "reveal-elder-signs":
                    self.reveal_elder_signs(q)

    def doom_reached(self) -> bool:
        goal = int(self.ruleset.get("victory", {}).get("doom", 30))
        return any(self.s.doom[p] >= goal for p in self.s.players)

    # ---- gather power -------------------------------------------------------------------------------
    def gather_step(self) -> Gen:
        s = self.s
        if s.surcharge:
            s.surcharge = 0
            self.emit("surcharge", total=0, reset=True)
        abandoned = len(s.abandoned_gates())
        for p in s.players:
            # a gate held off the map keeps its controlling cultist with it: both still give Power
            held_controllers = sum(1 for loc, g in s.gates.items() if not self.is_area(loc)
                                   and g.get("controller") is not None and s.gate_owner(loc) == p)
            cultists = sum(1 for u in s.on_map(p) if self.utype(u).cls == "cultist") + held_controllers
            gates = len(s.controlled_gates(p))
            captured = [u for u in s.units if u["loc"] == f"captured:{p}"]
            for u in captured:
                self.relocate(u, POOL, "sacrificed")
            income = cultists + 2 * gates + abandoned + len(captured) + s.bank.pop(p, 0)
            s.power[p] = 0
            self.gain_power(p, income, "gather power")
        yield from self.window("gather-power", {}, s.order_from(s.first))
        top = max(s.power.values())
        floor = -(-top // 2)   # half the top Power, rounded up (whole numbers: no float overflow)
        for p in s.players:
            if s.power[p] < floor:
                self.gain_power(p, floor - s.power[p], "minimum power")
        yield from self.window("after-gather-power", {}, s.order_from(s.first))
        # the very end of the Power phase: after Minimum Power, before the first player is determined
        yield from self.window("end-of-power-phase", {}, s.order_from(s.first))
        yield from self.check_requirements("state")   # e.g. "have 12 Power" is met here
        s.step = {"phase": "first-player"}

    def first_player_step(self) -> Gen:
        s = self.s
        top = max(s.power.values())
        tied = [p for p in s.order_from(s.first) if s.power[p] == top]
        first = tied[0]
        if len(tied) > 1:
            first = yield from self.ask(s.first, "option", tied, "Power is tied: choose the first player")
        yield from self.set_first(first)
        s.step = {"phase": "doom"}

    # ---- doom phase --------------------------------------------------------------------------------------
    def ritual_cost(self, p: str) -> int:
        base = self.ritual_track_cost()
        return max(0, self.integer(self.modified("ritual-cost", base, {"player": p}, p), "ritual cost"))

    def ritual_track_cost(self) -> int:
        """The cost the Ritual track's marker shows now, before any player's own discount."""
        track = self.ritual_track()
        return int(track[min(self.s.ritual, len(track) - 1)])

    def ritual_track(self) -> list[int]:
        tracks = self.ruleset.get("ritual-track", {})
        n = str(len(self.s.players))
        track = tracks.get(n) or tracks.get("default")
        if not track:
            raise RuleError(f"ruleset '{self.ruleset.id}' has no ritual track for {n} players")
        return list(track)

    def ritual(self, p: str) -> Gen:
        s = self.s
        cost = self.ritual_cost(p)
        self.gain_power(p, -cost, "ritual of annihilation")
        track = self.ritual_track()
        if s.ritual < len(track):
            s.ritual += 1
        if s.ritual >= len(track) and not s.instant_death:
            s.instant_death = True
            self.emit("instant-death")
        self.emit("ritual", player=p, cost=cost, marker=s.ritual)
        self.gain_doom(p, len(s.controlled_gates(p)), "ritual")
        own = self.faction(p).units
        for u in s.on_map(p):
            if u["kind"] in own and own[u["kind"]].cls == "great-old-one":
                self.give_elder_sign(p, "ritual")
        yield from self.window("ritual", {"player": p}, [p])

    def doom_step(self) -> Gen:
        s = self.s
        self.emit("phase", phase="doom", round=s.round)
        if self.ruleset.get("doom-for-gates", True):
            for p in s.players:
                self.gain_doom(p, len(s.controlled_gates(p)), "controlled gates")
        yield from self.check_requirements("state")
        for p in s.order_from(s.first):
            yield from self.check_requirements("doom-phase", {"player": p}, [p])
            done = False
            used: set[str] = set()
            while True:
                cands = []
                for ab in self.active_abilities(p):
                    if ab.window == "doom-phase" and ab.key not in used:
                        ctx = self.ctx(p, ability=ab, self_unit=self.self_unit_for(ab, p), event={"player": p})
                        if self.usable(ab, p, ctx):
                            cands.append((ab, ctx))
                labels = [a.id for a, _ in cands if a.optional]
                forced = [c for c in cands if not c[0].optional]
                if forced:
                    ab, ctx = forced[0]
                    used.add(ab.key)
                    yield from self.use_ability(ab, p, ctx)
                    continue
                if not done and s.power[p] >= self.ritual_cost(p):
                    labels.append("ritual")
                if not labels:
                    break
                costs = {"ritual": self.ritual_cost(p)} if "ritual" in labels else {}
                ans = yield from self.ask(p, "doom", labels + ["done"], "Doom Phase: perform a ritual or use an ability?",
                                          costs=costs)
                if ans == "done":
                    break
                if ans == "ritual":
                    done = True
                    yield from self.ritual(p)
                    continue
                ab, ctx = next(c for c in cands if c[0].id == ans)
                used.add(ab.key)
                yield from self.use_ability(ab, p, ctx)
            yield from self.check_requirements("state", None, [p])
        yield from self.window("end-of-doom-phase", {}, s.order_from(s.first))
        s.grants = [g for g in s.grants if not (g.get("until") == "end-of-doom-phase" and g.get("round", 0) <= s.round)]
        if s.instant_death or self.doom_reached():
            yield from self.finish("instant death" if s.instant_death else "a player reached the Doom goal")
            return
        limit = int(self.ruleset.get("victory", {}).get("max-rounds", 40))
        if s.round >= limit:
            yield from self.finish(f"round limit {limit} reached (engine safeguard)")
            return
        s.round += 1
        self.emit("phase", phase="action", round=s.round)
        s.step = {"phase": "action", "player": s.first}

    # ---- victory ---------------------------------------------------------------------------------------
    def finish(self, reason: str) -> Gen:
        s = self.s
        for p in s.players:
            self.reveal_elder_signs(p)
        need_six = bool(self.ruleset.get("victory", {}).get("six-spellbooks", True))
        eligible = [p for p in s.players if not need_six or len(s.spellbooks[p]) >= 6]
        if not eligible:
            s.winners = []
        else:
            top = max(s.doom[p] for p in eligible)
            s.winners = [p for p in eligible if s.doom[p] == top]
        s.over = True
        s.end_reason = reason
        s.step = {"phase": "over"}
        self.emit("game-over", winners=s.winners, reason=reason, doom=dict(s.doom))
        return
        yield  # pragma: no cover



class GameProc(Proc):
    """The outer loop: the phase step `State.step` names, one at a time, until the game is over."""

    name = "game"

    def start(self, g: Any, f: dict[str, Any], value: Any) -> Any:
        s = g.s
        if s.over:
            return Return()
        ph = s.step.get("phase", "setup")
        run = {"setup": g.setup_step, "action": g.action_step, "gather": g.gather_step,
               "first-player": g.first_player_step, "doom": g.doom_step}.get(ph)
        if run is None:  # pragma: no cover
            raise RuleError(f"unknown phase {ph!r}")
        return legacy(g, run())
