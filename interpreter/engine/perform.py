"""Taking an action as procedures (engine/flow.py): the one path of every action (do it, the
after-action window, the checks after any action), an action outside the turn, and doing each
kind of action. Which actions are legal and what they cost is in actions.py and moves.py."""
from __future__ import annotations

from typing import Any

from ..effects.compiler import RuleError
from .flow import Call, Proc, Return, ask
from .option import Option, action, parse, unit_of_label
from . import abilities
from .abilities import self_unit_for
from . import actions
from . import basics
from .basics import emit_fields, faction, gain_power
from . import battle_queries
from . import core
from .core import can_control, turn_order
from . import core_procs
from .core_procs import requirements_call
from . import independents
from . import moves
from .moves import move_made, move_question
from . import phases
from .phases import out_of_actions, reveal_could_end_game
from .state import _pool

Frame = dict[str, Any]
DECLINE = Option("action", "decline")


class TakeAction(Proc):
    """The one path of every action: do it, then the after-action window and the checks that
    follow any action. `within` limits a Move to units leaving or entering that area."""

    name = "take-action"
    STEPS = ("start", "after", "reveals", "requirements", "done")

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        f["at"] = "after"
        return Call({"proc": "perform", "at": "start", "player": f["player"], "label": f["label"],   # (a literal: see flow.frame)
                     "cost": f["cost"], "within": f["within"]})

    # (a step whose window, offer or check would do nothing goes straight on to the next one, by
    # the module function below: a C call in the compiled core, no bound method looked up)
    def after(self, g: Any, f: Frame, event: dict[str, Any]) -> Any:
        f["event"], f["at"] = event, "reveals"
        call = core.window_call(g, "after-action", event, turn_order(g))
        if call is not None:
            return call
        f["at"] = "requirements"
        return _reveals(g, f)

    def reveals(self, g: Any, f: Frame, value: Any) -> Any:
        f["at"] = "requirements"
        return _reveals(g, f)

    def requirements(self, g: Any, f: Frame, value: Any) -> Any:
        f["at"] = "done"
        return requirements_call(g, "state") or Return(f["event"])

    def done(self, g: Any, f: Frame, value: Any) -> Any:
        return Return(f["event"])


def _reveals(g: Any, f: Frame) -> Any:
    """TakeAction's `reveals` step, its frame already at `requirements`: the offer to reveal, or
    that step at once (as `TakeAction.requirements`, then `done` when no check is made)."""
    if reveal_could_end_game(g):
        return Call({"proc": "offer-reveals", "at": "start"})
    f["at"] = "done"
    return requirements_call(g, "state") or Return(f["event"])


class ActionIn(Proc):
    """Outside its turn, `player` may take one action in `area` (paid as usual), or decline; nothing
    is offered to a player at 0 Power or who can take no more actions this phase."""

    name = "action-in"
    STEPS = ("start", "chosen", "done")

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        p, area = f["player"], f["area"]
        if g.s.power[p] <= 0 or out_of_actions(g, p):
            return Return()
        opts = {o.label: o.cost for o in actions.main_actions(g, p, within=area)}
        if not opts:
            return Return()
        f["costs"], f["at"] = opts, "chosen"
        return ask(p, "action", [*opts, DECLINE.label], f"{f['why']}: take an action in {area}?", costs=dict(opts))

    def chosen(self, g: Any, f: Frame, ans: str) -> Any:
        if parse("action", ans).verb == DECLINE.verb:
            return Return()
        f["at"] = "done"
        return actions.take_action_call(g, f["player"], ans, f["costs"][ans], within=f["area"])

    def done(self, g: Any, f: Frame, value: Any) -> Any:
        # a second action "in a row" has no turn to follow here: the grant lapses
        g.s.memory.pop("extra_action", None)
        return Return()


def _start(g: Any, f: Frame) -> Any:
    """`Perform.start`: pay, count and log the action, then do it (or call its procedure)."""
    s = g.s
    p, label, cost = f["player"], f["label"], f["cost"]
    act = parse("action", label)
    verb, area = act.verb, act.area
    if verb != "move" and cost:
        gain_power(g, p, -cost, label)
    memory = s.memory
    memory["action_no"] = memory.get("action_no", 0) + 1   # the scope of `once: action`
    emit_fields(g, "action", {"player": p, "action": label, "cost": cost})
    event: dict[str, Any] = {"player": p, "action": verb, "label": label, "spent": cost}
    f["event"], f["at"] = event, "done"
    if verb == "recruit":
        u = _pool(s, p, act.unit_kind)[0]   # (s.pool: a C call in the compiled core)
        core.relocate(g, u, area, "recruit")
        event["area"] = area
    elif verb == "summon":
        u = _pool(s, p, act.unit_kind)[0]   # (s.pool: a C call in the compiled core)
        core.relocate(g, u, area, "summon")
        event["area"] = area
        event["unit"] = dict(u)
    elif verb == "awaken":
        return Call({"proc": "awaken", "at": "start", "player": p, "kind": act.unit_kind, "area": area})
    elif verb == "create-gate":
        s.gates[area] = {"controller": None}
        emit_fields(g, "gate", {"loc": area, "change": "created", "player": p})
        event["area"] = area
        f["at"] = "offer_control"
        return core.window_call(g, "gate-created", {"player": p, "area": area}, turn_order(g))
    elif verb == "move":
        return Call({"proc": "move-action", "at": "start", "player": p, "within": f["within"]})
    elif verb in ("battle", "extra-battle"):
        memory.setdefault("battles", []).append(area)
        event["area"] = area
        return battle_queries.battle_call(g, p, act.player, area)
    elif verb == "capture":
        return Call({"proc": "capture", "at": "start", "player": p, "victim": act.player, "area": area})
    elif verb == "control-gate":
        return Call({"proc": "choose-controller", "at": "start", "player": p, "area": area})
    elif verb == "abandon-gate":
        s.gates[area]["controller"] = None
        emit_fields(g, "gate", {"loc": area, "change": "abandoned", "player": p})
    elif verb == "reveal-elder-signs":
        basics.reveal_elder_signs(g, p)
    elif verb == "ability":
        # (a list, not a generator: the compiled core makes no closure in a C function)
        ab = next(iter([a for a in abilities.active_abilities(g, p) if a.id == act.ability]))
        ctx = core.ctx(g, p, ability=ab, self_unit=self_unit_for(g, ab, p), area=area)
        event["area"] = area   # none for an ability without `where:` (declared in windows.py)
        return core.use_ability_call(g, ab, p, ctx, paid=True)   # its cost was part of the action's
    elif verb == "requirement":
        rids = [act.ability] if act.word is None else [act.ability, act.word]
        f["rids"], f["i"], f["at"] = rids, 0, "requirement"
    elif verb == "pass":
        gain_power(g, p, -s.power[p], "pass")
    else:  # pragma: no cover - labels come from the enumerations of actions.py
        raise RuleError(f"unknown action '{label}'")
    return None


class Perform(Proc):
    """Carry out an action chosen from the lists of actions.py (its frame keeps the label, read
    back as an `Option`); returns the after-action event."""

    name = "perform"
    STEPS = ("start", "offer_control", "control_answered", "controlled", "requirement", "earn", "done")
    BODIES = (_start,)

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        return _start(g, f)   # (a C function in the compiled core: its state, record and event typed)

    def offer_control(self, g: Any, f: Frame, value: Any) -> Any:
        """Core rulebook, Create Gate (p. 25): "You may immediately place the Cultist atop the Gate"
        (a use of the Control Gate unlimited action, p. 29): once the gate-created window has run,
        the creator is asked whether to control the gate now, if it is still abandoned, not locked,
        and one of its units there may control it."""
        p, area = f["player"], f["event"]["area"]
        gate = g.s.gates.get(area)
        f["at"] = "done"
        if gate is None or gate.get("controller") is not None or gate.get("locked") \
                or not any(can_control(g, u) for u in g.s.units_at(area, p)):
            return None
        f["at"] = "control_answered"
        return ask(p, "action", [action("control-gate", 0, area=area).label, DECLINE.label],
                   f"control the gate you created in {area} now?")

    def control_answered(self, g: Any, f: Frame, ans: str) -> Any:
        if parse("action", ans).verb == DECLINE.verb:
            f["at"] = "done"
            return None
        f["at"] = "controlled"
        return Call({"proc": "choose-controller", "at": "start", "player": f["player"], "area": f["event"]["area"]})

    def controlled(self, g: Any, f: Frame, unit: int) -> Any:
        area = f["event"]["area"]
        g.s.gates[area]["controller"] = unit
        emit_fields(g, "gate", {"loc": area, "change": "controlled", "unit": unit, "player": f["player"]})
        f["at"] = "done"
        return None

    def requirement(self, g: Any, f: Frame, value: Any) -> Any:
        """A requirement action (`rids`, one or two met together): each one's effect, then it is earned."""
        if f["i"] >= len(f["rids"]):
            return Return(f["event"])
        r = self._requirement(g, f)
        f["at"] = "earn"
        if r.action_effect is not None:
            ctx = core.ctx(g, f["player"])
            ctx.ability = f"requirement {r.id}"
            return core.effect_call(g, r.action_effect, ctx)
        return None

    def earn(self, g: Any, f: Frame, value: Any) -> Any:
        r = self._requirement(g, f)
        f["i"] += 1
        f["at"] = "requirement"
        return core.earn_call(g, f["player"], r)

    def _requirement(self, g: Any, f: Frame) -> Any:
        rid = f["rids"][f["i"]]
        return next(r for r in faction(g, f["player"]).requirements if r.id == rid)

    def done(self, g: Any, f: Frame, value: Any) -> Any:
        """What the action's procedure found goes into its event."""
        s = g.s
        event = f["event"]
        act = parse("action", f["label"])
        verb = act.verb
        if verb in ("awaken", "capture"):
            event["area"] = act.area
        elif verb == "move":
            event["spent"] = value
        elif verb == "control-gate":
            s.gates[act.area]["controller"] = value
            emit_fields(g, "gate", {"loc": act.area, "change": "controlled", "unit": value, "player": f["player"]})
        return Return(event)



class Awaken(Proc):
    """Awaken a Great Old One (or an Independent) `kind` in `area`: a gate it replaces is removed,
    its awakening effect runs, it is placed, then the on-awaken window."""

    name = "awaken"
    STEPS = ("start", "place", "done")

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        p, kind, area = f["player"], f["kind"], f["area"]
        t = independents.awaken_type(g, p, kind)
        assert t is not None and t.awaken is not None
        if t.awaken.replace_gate and area in g.s.gates:
            del g.s.gates[area]
            emit_fields(g, "gate", {"loc": area, "change": "removed", "why": f"awaken {kind}"})
        f["at"] = "place"
        if t.awaken.effect is not None:
            ctx = core.ctx(g, p, area=area)
            ctx.ability = f"Awaken {t.name}"
            return core.effect_call(g, t.awaken.effect, ctx)
        return None

    def place(self, g: Any, f: Frame, value: Any) -> Any:
        s = g.s
        p, kind, area = f["player"], f["kind"], f["area"]
        u = independents.awaken_pool(g, p, kind)[0]
        independents.take_control(g, p, u)
        core.relocate(g, u, area, "awaken")
        s.awakened.setdefault(p, [])
        if kind not in s.awakened[p]:
            s.awakened[p].append(kind)
        f["at"] = "done"
        return core.window_call(g, "on-awaken", {"player": p, "kind": kind, "unit": dict(u), "area": area}, turn_order(g))

    def done(self, g: Any, f: Frame, value: Any) -> Any:
        return Return()


class MoveAction(Proc):
    """The Move action: units move one by one (1 Power each, an area's surcharge once per Move)
    until the player is done. Locals: `moved` (unit ids), `charged` (areas whose surcharge is paid),
    `spent` (returned)."""

    name = "move-action"
    STEPS = ("start", "choose", "moved", "freed")
    BODIES = (moves.move_question, moves.move_made)

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        f["moved"], f["charged"], f["spent"], f["at"] = [], [], 0, "choose"
        return None

    def choose(self, g: Any, f: Frame, value: Any) -> Any:
        f["at"] = "moved"   # (nothing left to ask returns before it is read)
        return move_question(g, f)   # (a C call in the compiled core: perform.pxd)

    def moved(self, g: Any, f: Frame, ans: str) -> Any:
        f["at"] = "freed"   # (after the unit moved and its window; `done` returns before it is read)
        return move_made(g, f, ans)   # (a C call in the compiled core: perform.pxd)

    def freed(self, g: Any, f: Frame, value: Any) -> Any:
        # units an ability moved along for free do not move again in this Move (f["moved"] is
        # sorted without repeats already: nothing to do when none was)
        free = g.s.memory.pop("moved_free", None)
        if free:
            f["moved"] = sorted(set(f["moved"]) | set(free))
        f["at"] = "choose"
        return None


class Capture(Proc):
    """Capture: the victim picks which of its Cultists in `area` is captured (rulebook, Capture)."""

    name = "capture"
    STEPS = ("start", "chosen", "done")

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        targets = actions.capture_targets(g, f["player"], f["victim"], f["area"])
        f["at"] = "chosen"
        return ask(f["victim"], "unit", [basics.unit_label(g, u) for u in targets],
                   f"{f['player']} captures one of your cultists in {f['area']}: which?")

    def chosen(self, g: Any, f: Frame, ans: str) -> Any:
        u = g.s.unit(unit_of_label(ans))
        f["at"] = "done"
        return core.remove_unit_call(g, u, "capture", f["player"])

    def done(self, g: Any, f: Frame, value: Any) -> Any:
        return Return()


class ChooseController(Proc):
    """The player picks which of its eligible units controls the gate in `area`, one option per
    kind (units of a kind are alike); returns its id. Core rulebook, Gates: a monster allowed to
    control may replace the Cultist on the Gate."""

    name = "choose-controller"
    STEPS = ("start", "chosen")

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        p, area = f["player"], f["area"]
        eligible: dict[str, dict[str, Any]] = {}
        for u in g.s.units_at(area, p):
            if can_control(g, u):
                eligible.setdefault(u["kind"], u)
        labels = {basics.unit_label(g, u): u["id"] for u in eligible.values()}
        f["labels"], f["at"] = labels, "chosen"
        return ask(p, "unit", list(labels), f"which unit controls the gate in {area}?")

    def chosen(self, g: Any, f: Frame, ans: str) -> Any:
        return Return(f["labels"][ans])
