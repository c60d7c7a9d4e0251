"""The Move action's options: where a unit can go and which moves are affordable (an area's
surcharge is paid once per Move), and the move a player picked (`move_made`). The Move's steps
are perform.py's MoveAction."""
from __future__ import annotations

from collections import deque
from operator import itemgetter
from typing import Any

from .option import Option, is_done, labelled_move, labelled_moves, move_answer
from . import basics
from .abilities import quiet_window
from .basics import gain_power, integer
from . import core
from .core import may_modify, modifier_index, modifiers_of
from .decisions import new_decision
from .flow import Ask, Return
from .host import RulesContext
from .kept_costs import costs_at
from . import state as state_module
from .state import _count_at, _on_map, _units_of   # (State's methods: C calls in the compiled core, moves.pxd)

_unit_id = itemgetter("id")

# per layout (by identity): area -> its neighbours, sorted, without itself (a range-1 move's destinations)
_NEIGHBOURS: dict[int, tuple[Any, dict[str, list[str]]]] = {}


def neighbours(layout: Any) -> dict[str, list[str]]:
    entry = _NEIGHBOURS.get(id(layout))
    if entry is None or entry[0] is not layout:
        table = {a: sorted(set(ns) - {a}) for a, ns in layout.adjacent.items()}
        entry = _NEIGHBOURS[id(layout)] = (layout, table)
    return entry[1]


def move_mods(g: "RulesContext") -> tuple[Any, Any, Any]:
    """The modifiers `reachable` asks (may-act, move-range, move-through-enemies), read once for a
    listing's loop over units (from one read of the memo's index)."""
    index = modifier_index(g)
    return index.get("may-act", ()), index.get("move-range", ()), index.get("move-through-enemies", ())


def reachable(g: "RulesContext", p: str, u: dict[str, Any], mods: tuple[Any, Any, Any] | None = None) -> list[str]:
    """The areas unit `u` of `p` may move to (`mods`: `move_mods`, when a listing loop has just
    read them)."""
    act_mods, range_mods, through_mods = mods if mods is not None else move_mods(g)
    if act_mods and not core.may_act(g, u, "move", act_mods):
        return []
    rng = 1 if not range_mods else \
        integer(g, core.modified(g, "move-range", 1, u, p, range_mods), "move range")
    start = u["loc"]
    if rng == 1:   # the areas next to it (an enemy in between matters only from range 2)
        return list(neighbours(g.layout).get(start, ()))
    through = bool(core.modified(g, "move-through-enemies", False, u, p, through_mods))
    seen = {start: 0}
    todo = deque([start])
    while todo:
        a = todo.popleft()
        d = seen[a]
        if d >= rng:
            continue
        if a != start and not through and _count_at(g.s, a) != _count_at(g.s, a, p):
            continue  # cannot pass over an area holding enemy units
        for n in basics.adjacent(g, a):
            if n not in seen:
                seen[n] = d + 1
                todo.append(n)
    out = [a for a in seen if a != start]   # (no generator: it would give this function a closure scope)
    out.sort()
    return out


def move_options(g: "RulesContext", p: str, moved: "set[int] | frozenset[int]", charged: "set[str] | frozenset[str]",
                 within: str | None = None,
                 costs: dict[str, int] | None = None) -> dict[str, Option]:
    """The unit moves `p` can still make and afford in this Move (records, by label), with their costs: 1 Power each,
    plus an area's surcharge once per Move; `within` keeps only units leaving or entering that area. `costs`, when
    given, gets each one's cost by label (the records' `cost`, without a read of it)."""
    opts: dict[str, Option] = {}
    surcharge: dict[str, int] | None = None   # an area's extra cost (the same for every unit entering it)
    power = g.s.power[p]
    if power < 1:
        return opts   # (every move costs 1 Power at least)
    act_mods, range_mods, through_mods = move_mods(g)
    # asked once for all of p's units: none of these applies to a unit of p's (may_modify)
    if act_mods and not may_modify(g, "may-act", {"owner": p, "action": "move"}, act_mods):
        act_mods = ()
    if range_mods and not may_modify(g, "move-range", {"owner": p}, range_mods):
        range_mods = ()
    mods = (act_mods, range_mods, through_mods)
    # no may-act or move-range modifier for p's units: each one's areas are its neighbours (reachable)
    near = neighbours(g.layout) if not act_mods and not range_mods else None
    cost_mods: Any = ()   # action_mods(move): `_surcharges`, read at the first unit with somewhere to go
    checking = state_module.CHECK_MEMO
    # all of p's units when each one's areas are its neighbours: one off the map (pool, held) has none
    # there and is passed over below as a unit with nowhere to go, as one on the map with none is
    units = _on_map(g.s, p) if near is None else _units_of(g.s, p)
    ix = g.s._ix   # (the unit index just read: its `ascending` says the units are by id)
    if ix is None or not ix[3] or checking:
        by_id = sorted(units, key=_unit_id)
        if checking and ix is not None and ix[3] and by_id != units:
            raise AssertionError("units listed not by id though the unit index says they are")
        units = by_id
    for u in units:
        uid = u["id"]
        if uid in moved:
            continue
        src = u["loc"]
        dsts = near.get(src, ()) if near is not None else reachable(g, p, u, mods)
        if not dsts:
            continue
        if surcharge is None:
            surcharge, cost_mods = _surcharges(g, p)
        if within is None and (not cost_mods or _free(g, p, dsts, charged, surcharge, cost_mods)):
            # no surcharge to pay at any of them: each one at 1 Power (power >= 1), as below
            for entry in _unit_moves(u["kind"], src, dsts, uid, checking):
                label = entry[0]
                opts[label] = entry[1]
                if costs is not None:
                    costs[label] = 1
            continue
        for dst in dsts:
            if within is not None and within != src and within != dst:
                continue
            extra = 0 if dst in charged else _surcharge_at(g, p, dst, surcharge, cost_mods)
            if 1 + extra <= power:
                label, o = labelled_move(u["kind"], src, dst, uid, 1 + extra)
                opts[label] = o
                if costs is not None:
                    costs[label] = 1 + extra
    return opts


# unit id -> (its place, its kind, its destinations, its moves there at 1 Power as (label, record)):
# what `move_options` lists for a unit with no surcharge to pay, made again when one of the first
# three differs (a list of destinations by equality: a layout's neighbours are the same list).
# Cleared when full.
_UNIT_MOVES: dict[Any, tuple[Any, Any, Any, list[tuple[str, Option]]]] = {}
_UNIT_MOVES_MAX = 4_000


def _free(g: "RulesContext", p: str, dsts: Any, charged: set[str], surcharge: dict[str, int], cost_mods: Any) -> bool:
    """Whether `p` pays no surcharge to enter any of `dsts` in this Move (`move_options`' loop,
    which it fills `surcharge` for as that loop would)."""
    for dst in dsts:
        if dst not in charged and _surcharge_at(g, p, dst, surcharge, cost_mods) != 0:
            return False
    return True


def _surcharge_at(g: "RulesContext", p: str, dst: str, surcharge: dict[str, int], cost_mods: Any) -> int:
    """`p`'s surcharge to enter `dst` in this Move (not yet paid there): read from `surcharge`,
    or reckoned (the action-cost modifiers `cost_mods`) and noted there."""
    extra = surcharge.get(dst, -1)
    if extra < 0:
        extra = surcharge[dst] = action_cost(g, p, "move", 0, dst, cost_mods) if cost_mods else 0
    return extra  # type: ignore[no-any-return]


def _unit_moves(kind: str, src: str, dsts: Any, uid: Any, checking: bool) -> list[tuple[str, Option]]:
    """Unit `uid`'s moves (a `kind` at `src`) to each of `dsts` at 1 Power, `labelled_move`'s
    (label, record) pairs: made once while the unit stays where it is (`checking`: made again
    and compared, NECRO_CHECK_MEMO=1)."""
    kept = _UNIT_MOVES.get(uid)
    if kept is not None and kept[0] == src and kept[1] == kind and (kept[2] is dsts or kept[2] == dsts):
        if checking:
            if _unit_moves_made(kind, src, dsts, uid) != kept[3]:
                raise AssertionError(f"stale kept moves of unit {uid}")
        return kept[3]  # type: ignore[no-any-return]
    made = _unit_moves_made(kind, src, dsts, uid)
    if len(_UNIT_MOVES) >= _UNIT_MOVES_MAX:
        _UNIT_MOVES.clear()
    _UNIT_MOVES[uid] = (src, kind, dsts, made)
    return made


def _unit_moves_made(kind: str, src: str, dsts: Any, uid: Any) -> list[tuple[str, Option]]:
    return labelled_moves(kind, src, dsts, uid)   # (labelled_move's, for each of dsts at 1 Power)


def _surcharges(g: "RulesContext", p: str) -> tuple[dict[str, int], Any]:
    """A Move listing's table of `p`'s surcharges by area (kept across positions where it can
    be: kept_costs.py), with the action-cost modifiers of `p`'s moves (`action_mods`)."""
    mods = action_mods(g, p, "move")
    kept = costs_at(g, p, "move", 0, mods) if mods else None
    if kept is None:
        return {}, mods
    if state_module.CHECK_MEMO:
        for area, cost in kept.items():
            if action_cost(g, p, "move", 0, area, mods) != cost:
                raise AssertionError(f"stale kept surcharge of {area} for {p}: {cost}")
    return kept, mods


def action_cost(g: "RulesContext", p: str, action: str, base: int, area: str | None = None,
                mods: Any = None) -> int:
    """What taking `action` costs `p` (in `area`), its `base` cost modified (`mods`: the
    action-cost modifiers, when the caller has just read them: `action_mods`)."""
    if mods is None:
        mods = modifiers_of(g, "action-cost")
    if not mods:   # (most of the time: no subject to build)
        return base if type(base) is int and base >= 0 else max(0, integer(g, base, f"cost of {action}"))
    v = core.modified(g, "action-cost", base, {"action": action, "player": p, "area": area}, p, mods)
    if type(v) is int:   # (no name to format)
        return v if v >= 0 else 0
    return max(0, integer(g, v, f"cost of {action}"))


def action_mods(g: "RulesContext", p: str, action: str | None = None) -> Any:
    """The action-cost modifiers to pass to `action_cost` in a listing's loop: none when the
    subject guards of every one reject `p`'s actions (of kind `action`) in any area."""
    mods = modifiers_of(g, "action-cost")
    if not mods:
        return ()
    fields = {"player": p} if action is None else {"player": p, "action": action}
    return mods if may_modify(g, "action-cost", fields, mods) else ()


_NONE: frozenset[Any] = frozenset()   # (no unit moved, no surcharge paid yet)
#: the `done` that ends a Move (listed once a unit has moved), and its label
DONE_MOVING = Option("move", "done")
_DONE_LABEL = DONE_MOVING.label


def move_question(g: "RulesContext", f: dict[str, Any]) -> Any:
    """MoveAction's `choose` step (perform.py): the unit moves the player can still make and afford,
    and `done` once one has moved, asked as `flow.ask` asks them but by C calls in the compiled core
    (no keyword arguments packed; a dict's labels are distinct already); the Move's `spent`
    returned when there is nothing to ask."""
    p = f["player"]
    moved = f["moved"]
    costs: dict[str, int] = {}
    charged = f["charged"]   # (none yet, most often: the one empty set passed, none made)
    records = move_options(g, p, set(moved) if moved else _NONE, set(charged) if charged else _NONE, f["within"],
                           costs)
    if moved:
        records[_DONE_LABEL] = DONE_MOVING
    if not records:
        return Return(f["spent"])
    return Ask(new_decision(p, "move", tuple(records), "move a unit (1 Power each)", {"costs": costs}, records))


def move_made(g: "RulesContext", f: dict[str, Any], ans: str) -> Any:
    """MoveAction's `moved` step (perform.py): the unit move `ans` made and paid for (1 Power,
    plus its destination's surcharge the first time in this Move), then the unit-moved window
    (its event made only when the window would open: `quiet_window`); 'done' ends the Move. The
    frame's next step (`freed`) is MoveAction's to set, where its jumps are declared."""
    if is_done(ans):   # (what parse("move", ans) == DONE_MOVING says: a unit move's label has an id)
        return Return(f["spent"])
    p = f["player"]
    uid, dst = move_answer(str(ans))   # (an answer may be a str subclass: match_option returns it as given)
    u = g.s.unit(uid)
    src = u["loc"]
    charged = f["charged"]
    if dst in charged:
        extra = 0
    else:
        extra = action_cost(g, p, "move", 0, dst)
        charged.append(dst)
    gain_power(g, p, -(1 + extra), "move")
    f["spent"] += 1 + extra
    moved = f["moved"]   # (sorted without repeats: what sorted(set(moved) | {uid}) makes, without the sets)
    f["moved"] = list(moved) if uid in moved else sorted(moved + [uid])
    core.relocate(g, u, dst, "move")
    if quiet_window(g, "unit-moved"):
        return None   # (what window_call returns then)
    return core.window_call(g, "unit-moved", {"player": p, "unit": dict(u), "src": src, "dst": dst,
                                              "moved": list(f["moved"])}, [p])
