"""A player's turn in the Action Phase as procedures (engine/flow.py): the surcharge, then actions
until the turn ends (one Action, a granted second one, Unlimited Actions around them), and the
offer to reveal Elder Signs when that would reach the Doom goal."""
from __future__ import annotations

from typing import Any

from ..limits import MAX_ACTIONS_PER_PHASE
from . import state as state_module
from .decisions import new_decision
from .flow import Ask, Proc, Return, ask
from .option import Option, parse
from . import actions
from .actions import as_common_action, take_action_call
from . import basics
from .basics import emit_fields, gain_power
from . import core
from .core import turn_order
from . import phases
from .phases import can_pass, out_of_actions
from .rules_fields import memo_facts

Frame = dict[str, Any]
END_TURN = Option("action", "end-turn", cost=0)
PASS = Option("action", "pass", cost=0)
DECLINE_SECOND = Option("action", "decline-second-action", cost=0)   # a granted second action is optional
REVEAL, KEEP = Option("option", "option", word="reveal-elder-signs"), Option("option", "option", word="keep")
# a record's `cost` read as its item, `o[_COST]`: in the compiled core a subscript by an int object is
# the tuple's own C subscript, where `o.cost` is a generic attribute lookup (a record is a tuple subclass;
# an index typed as a C integer would go through the subclass's generic sq_item slot, slower still)
_COST = Option._fields.index("cost")


def _action_key(action: Option) -> str:
    """What makes two actions 'the same' for "a second, different action": the ability for a
    unique action, the verb for a common one (two Moves are the same action). Kept in the frame."""
    return f"{action.verb} {action.ability}" if action.verb in ("ability", "requirement") else action.verb


def only_unlimited_left(g: Any) -> bool:
    """Whether the pending decision is a turn's choice after its Action: only Unlimited Actions
    and ending the turn are offered (what a seat's "auto end turn" setting answers with end-turn)."""
    flow = g.s.flow
    if g.s.pending is None or not flow:
        return False
    f = flow[-1]
    return f["proc"] == Turn.name and f["at"] == "chosen" and not f.get("mains") \
        and END_TURN.label in g.s.pending["options"]


# the memo entry of the Unlimited Actions listed for a turn's next `choose` step (`_unlimited`):
# checked where it is used (`choose`, in checking mode), not by the memo's own check
UNLIMITED_KEPT = ("unlimited-kept", None)
basics.MEMO_CHECKED_AT_USE.add(UNLIMITED_KEPT[0])
# the position key a turn's listing of Unlimited Actions made (`_list_unlimited`), put here by
# `choose` as it asks, for the `chosen` step that answers at that same position: taken by it
POSITION_KEPT = ("position-kept", None)
basics.MEMO_CHECKED_AT_USE.add(POSITION_KEPT[0])


def _unlimited(g: Any, f: Frame, keep: bool = False) -> list[Option]:
    """The Unlimited Actions `p` may take now. `keep`: the caller's next step is `choose`, at
    this very position (nothing runs in between), which then takes this list instead of
    listing it again (kept in the memo, tied to this frame: a write drops it, as any memo fact)."""
    out, here = _list_unlimited(g, f)
    if keep:
        memo_facts(g)[UNLIMITED_KEPT] = (f, out, here)
    return out


def _list_unlimited(g: Any, f: Frame) -> tuple[list[Option], str | None]:
    """The Unlimited Actions `p` may take now, and the position key made to leave out the free
    ones taken here before (None when none was needed). (A module function, not a Turn method:
    the steps' bodies call it as a C function in the compiled core.)"""
    offered = actions.unlimited_actions(g, f["player"])   # (a module read: benchmarks/listing_reuse.py wraps the listings there)
    seen = f["seen"]
    if not seen:
        return offered, None
    taken = {label for _, label in seen}
    free = [o for o in offered if o.cost == 0 and o.label in taken]
    if not free:
        return offered, None
    here = phases.position_key(g)
    return [o for o in offered if not (o.cost == 0 and [here, o.label] in seen)], here


def _choose(turn: Turn, g: Any, f: Frame) -> Any:
    """`Turn.choose`: list the actions and ask."""
    s = g.s
    p = f["player"]
    second = f["second"]
    opts: dict[str, Option] = {}
    kept = memo_facts(g).pop(UNLIMITED_KEPT, None)   # see _unlimited: used now or never
    here = None   # the position key the listing made, handed to `chosen` with the question
    if second is None:  # "immediately after": no unlimited action between the two actions
        if kept is not None and kept[0] is f:
            offered, here = kept[1], kept[2]
            if state_module.CHECK_MEMO:
                fresh = _list_unlimited(g, f)[0]
                if fresh != offered:
                    raise AssertionError(f"stale unlimited actions: kept {offered!r}, fresh {fresh!r}")
        else:
            offered, here = _list_unlimited(g, f)
        for o in offered:
            opts.setdefault(o.label, o)
    mains: dict[str, Option] = {}
    if not f["main_done"]:
        for o in actions.main_actions(g, p):
            if second is None or _action_key(o) not in second:
                mains.setdefault(o.label, o)
        if second is not None:
            mains[DECLINE_SECOND.label] = DECLINE_SECOND
        else:
            if not mains and not f["either_done"]:
                emit_fields(g, "no-action", {"player": p})
                gain_power(g, p, -s.power[p], "no action possible")
                return Return()
            if can_pass(g, p) and s.power[p] > 0:
                mains[PASS.label] = PASS
    if f["main_done"] or f["either_done"]:
        opts[END_TURN.label] = END_TURN
    main_labels = list(mains)
    records = mains   # the listing's records, by label (the decision keeps them for the seat; mains,
    for k, v in opts.items():   # its labels taken, is not read again: no copy made)
        records.setdefault(k, v)
    choices = {k: o[_COST] for k, o in records.items()}   # (`o.cost`: see _COST)
    f["mains"], f["opts"], f["costs"], f["at"] = main_labels, list(opts), choices, "chosen"
    if here is not None:   # kept only on the way to `chosen`, which answers at this position
        memo_facts(g)[POSITION_KEPT] = (f, here)
    # (flow.ask's own work, without its keyword arguments: the labels are distinct and never none,
    # END_TURN or DECLINE_SECOND at least, or the turn has ended above)
    return Ask(new_decision(p, "action", tuple(choices), f"{p}: choose an action", {"costs": dict(choices)}, records))


def _chosen(turn: Turn, g: Any, f: Frame, ans: str) -> Any:
    """`Turn.chosen`: take the action answered."""
    s = g.s
    p = f["player"]
    mains, opts, costs = f.pop("mains"), f.pop("opts"), f.pop("costs")
    # the key `choose` handed over as it asked, if its listing made one: nothing runs between
    # that question and this answer, so it is this position's key; popped here, never used later
    here = memo_facts(g).pop(POSITION_KEPT, None)
    chosen = parse("action", ans)
    verb = chosen.verb
    if verb == END_TURN.verb:
        return Return()
    if verb == DECLINE_SECOND.verb:
        f["main_done"], f["second"], f["at"] = True, None, "choose"
        emit_fields(g, "declined", {"player": p, "ability": "second action"})
        if s.power[p] <= 0 and not _unlimited(g, f, True):
            return Return()
        return None
    is_main = ans in mains and ans not in opts
    if not is_main and costs[ans] == 0:
        # A free unlimited action is not taken twice from the same position in one turn:
        # abandoning and controlling a gate (any free pair that undo each other) cannot
        # cycle, while a repeat that changes something (a second 0-Power monster at one
        # gate) stays legal.
        if here is None or here[0] is not f:
            key = [phases.position_key(g), ans]
        else:
            key = [here[1], ans]
            if state_module.CHECK_MEMO and here[1] != phases.position_key(g):
                raise AssertionError("stale position key kept from the turn's listing")
        if key not in f["seen"]:
            f["seen"].append(key)
    if ans in mains and ans in opts:
        f["either_done"] = True
    elif ans in opts and (common := as_common_action(chosen)) is not None and common.label in mains:
        f["either_done"] = True   # an extra battle that could have been the Action: decided afterwards
    f["action"], f["is_main"], f["at"] = ans, is_main, "acted"
    return take_action_call(g, p, ans, costs[ans])


def _acted(turn: Turn, g: Any, f: Frame) -> Any:
    """`Turn.acted`: what the action taken leaves of the turn."""
    s = g.s
    p = f["player"]
    action, is_main = parse("action", f.pop("action")), f.pop("is_main")
    memory = s.memory
    granted = memory.pop("extra_action", None)
    memory["actions"] = memory.get("actions", 0) + 1   # limits.MAX_ACTIONS_PER_PHASE
    if is_main:
        if f["second"] is None and granted is not None:   # the first action grants a second one
            f["second"] = list(granted) + [_action_key(action)]
        else:                                              # a second action never grants a third
            f["main_done"], f["second"] = True, None
    if action.verb == PASS.verb or out_of_actions(g, p) or ((f["main_done"] or f["either_done"]) and s.power[p] <= 0
                                                and not _unlimited(g, f, True)):
        return Return()
    if memory["actions"] > MAX_ACTIONS_PER_PHASE:
        return Return()   # the Action Phase is stalled: the action step ends the game
    f["at"] = "choose"
    return None


class Turn(Proc):
    """The turn of `player`. Its locals: `main_done` (the Action is taken), `either_done` (an action
    both Common and Unlimited was taken, see below), `second` (the keys a granted second action
    may not repeat; None while no second action is pending), `seen` ([position, label] of the free
    Unlimited Actions taken), and the options of the pending choice (`mains`, `opts`, `costs`)."""

    name = "turn"
    STEPS = ("start", "choose", "chosen", "acted")
    BODIES = (_choose, _chosen, _acted)

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        s = g.s
        p = f["player"]
        s.memory["turn_no"] = s.memory.get("turn_no", 0) + 1
        s.memory["battles"] = []
        emit_fields(g, "turn", {"player": p, "power": s.power[p]})
        if s.surcharge:
            pay = min(s.surcharge, s.power[p])
            gain_power(g, p, -pay, "surcharge")
            if s.power[p] <= 0:
                return Return()
        # An ability may make a Common Action (Summon) an Unlimited one too: once such an action is
        # taken, like a Battle with six spellbooks, it counts as the Action if the player ends the
        # turn without another (core rulebook, Unlimited Battle).
        f["main_done"], f["either_done"], f["second"], f["seen"], f["at"] = False, False, None, [], "choose"
        return None

    def choose(self, g: Any, f: Frame, value: Any) -> Any:
        return _choose(self, g, f)

    def chosen(self, g: Any, f: Frame, ans: str) -> Any:
        return _chosen(self, g, f, ans)

    def acted(self, g: Any, f: Frame, value: Any) -> Any:
        return _acted(self, g, f)


# The steps' bodies as module functions: the compiled core types their frame (turn.pxd), so that
# its reads, writes and pops are C calls of dict functions, not method calls looked up by name.
class OfferReveals(Proc):
    """Elder signs may be revealed at any time; mid-turn that matters only when it reaches the
    Doom goal (which ends the game after this turn), so it is offered exactly then, to each
    player in turn order (`order`, `i`)."""

    name = "offer-reveals"
    STEPS = ("start", "offer", "answered")

    def start(self, g: Any, f: Frame, value: Any) -> Any:
        f["order"], f["i"], f["at"] = turn_order(g), 0, "offer"
        return None

    def offer(self, g: Any, f: Frame, value: Any) -> Any:
        while f["i"] < len(f["order"]):
            q = f["order"][f["i"]]
            if phases.reveal_reaches_goal(g, q):
                f["at"] = "answered"
                return ask(q, "option", [REVEAL.label, KEEP.label],
                           "reveal your elder signs now (reaching the Doom goal ends the game after this turn)?")
            f["i"] += 1
        return Return()

    def answered(self, g: Any, f: Frame, ans: str) -> Any:
        if parse("option", ans) == REVEAL:
            basics.reveal_elder_signs(g, f["order"][f["i"]])
        f["i"] += 1
        f["at"] = "offer"
        return None
