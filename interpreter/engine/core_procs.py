"""The engine core's procedures as frames (engine/flow.py): a timing window, using an ability,
removing a unit, checking and earning spellbook requirements.

Frames hold data only: ability keys, unit ids, player ids, areas and event dicts. The context an
ability's effect runs in is rebuilt from them (`core.ctx(g, ...)`) in the step that needs it. The
factories that start these procedures are `core.*_call` (core.py).
"""
from __future__ import annotations

from typing import Any

from ..effects.compiler import RuleError
from ..limits import MAX_WINDOW_DEPTH
from . import flow, neutral
from .flow import Call, Proc, Return
from .held_conditions import first_holding
from .requirements import earn_after_battle, requirement
from .option import Option, parse
from .state import POOL
from .abilities import (BATTLE_WINDOWS, ability_cost, ability_frame, ability_of, once_key, self_unit_for, usable,
                        window_abilities)
from . import basics
from .basics import emit, emit_fields, gain_power, is_area
from . import core
from .core import ctx, turn_order
from . import independents

# ongoing abilities' modifiers that change a battle: their owner may decline them for that battle

Game = Any   # the rules context (rules.Rules)
Frame = dict[str, Any]
DONE = Option("ability", "done")   # ends the offer of a window's abilities


def trigger_loop(abilities: list[str], windows: list[str]) -> str:
    """The error for effects that trigger each other without end: the chain of abilities that
    opened the nested windows, shortened to its first repeat of the cycle."""
    chain = abilities or [f"window {w}" for w in windows]
    n = len(chain)
    for period in range(1, n // 2 + 1):
        start = n - period
        while start > 0 and chain[start - 1] == chain[start - 1 + period]:
            start -= 1
        if n - start >= 2 * period:   # the tail repeats at least twice with this period
            shown = chain[:start] + chain[start:start + period] + [chain[start]]
            break
    else:
        shown = chain[-8:]
    what = "ability " if abilities else ""
    return (f"trigger loop: {what}{' -> '.join(shown)} -> ... "
            f"(stopped at the limit of {MAX_WINDOW_DEPTH} nested windows)")


# ---- windows with nothing to do ----------------------------------------------------------------------


# ---- frames of these procedures ---------------------------------------------------------------------


def ability_ctx(g: Game, ab: Any, f: Frame) -> Any:
    """The context of an ability frame's effect (the same values the caller's context had)."""
    sid = f["self"]
    return ctx(g, f["me"], ability=ab, event=f["event"], area=f["area"],
               self_unit=g.s.unit(sid) if sid is not None else None)


# a ruleset's rules (by the tuple's id) -> (that tuple, {window: the positions in it of the rules
# timed at that window}): found at a window's first opening, from the content, never changed
_RULES_AT: dict[int, tuple[Any, dict[str, tuple[int, ...]]]] = {}


# the entry of `_RULES_AT` last looked at (mostly the one ruleset of the game: no id and no lookup)
_LAST_RULES: tuple[Any, dict[str, tuple[int, ...]]] = (None, {})


def rules_at(rules: Any, window: str) -> tuple[int, ...]:
    """The positions in the ruleset's `rules` of those timed at `window`, in their order."""
    global _LAST_RULES
    kept = _LAST_RULES
    if kept[0] is not rules:
        kept = _RULES_AT.get(id(rules))
        if kept is None or kept[0] is not rules:
            kept = _RULES_AT[id(rules)] = (rules, {})
        _LAST_RULES = kept
    by_window = kept[1]
    at = by_window.get(window)
    if at is None:
        at = by_window[window] = tuple([i for i, ab in enumerate(rules) if ab.window == window])
    return at


# ---- using an ability -------------------------------------------------------------------------------
class UseAbility(Proc):
    """Pay for an ability (unless an action already did), mark its once-limit, run its effect."""

    name = "ability"
    STEPS = ("start", "done")

    def start(self, g: Game, f: Frame, value: Any) -> Any:
        ab = ability_of(g, f["key"])
        player = f["player"]
        c = ability_ctx(g, ab, f)
        cost = 0 if f["paid"] else ability_cost(g, ab, player, c)
        if player is not None and cost:
            gain_power(g, player, -cost, f"pay for {ab.name}")
        k = once_key(g, ab, player)
        if k is not None:
            g.s.memory.setdefault("once", []).append(k)
        emit_fields(g, "ability", {"player": player, "ability": ab.key, "name": ab.name})
        if ab.effect is None:
            return Return()
        f["at"] = "done"
        return core.effect_call(g, ab.effect, c)

    def done(self, g: Game, f: Frame, value: Any) -> Any:
        return Return()


# ---- a timing window ----------------------------------------------------------------------------------
class Window(Proc):
    """Open a timing window: ruleset rules first, then each player's abilities in order.

    A player with several usable optional abilities picks them one by one (or 'done'), which also
    fixes their order; mandatory ones run without asking. Then the requirements met at this window
    (none at unit-removed).
    """

    name = "window"
    STEPS = ("start", "rules", "player", "chosen", "done")

    def start(self, g: Game, f: Frame, value: Any) -> Any:
        # this window's frame is the last one; there are no more windows open than frames
        if len(g.s.flow) > MAX_WINDOW_DEPTH:
            opened = flow.open_windows(g)
            if len(opened) > MAX_WINDOW_DEPTH:
                raise RuleError(trigger_loop(flow.running_abilities(g), opened))
        f["at"], f["rule"] = "rules", 0
        return None

    def rules(self, g: Game, f: Frame, value: Any) -> Any:
        rules = g.ruleset.abilities
        if rules:   # (no table to look up for a ruleset without rules)
            call = _next_rule(g, f, rules)
            if call is not None:
                return call
        f["rule"] = len(rules)
        # the players, and the battle whose sides alone use battle abilities, as they are now
        if f["players"] is None:
            f["players"] = turn_order(g)
        b = g.s.battle
        f["sides"] = [b["attacker"], b["defender"]] if b is not None else None
        f["at"], f["i"], f["used"] = "player", 0, []
        return None

    def player(self, g: Game, f: Frame, value: Any) -> Any:
        name, event, area, sides = f["window"], f["event"], f["area"], f["sides"]
        players = f["players"]
        battle = sides is not None and name in BATTLE_WINDOWS   # (only its sides use its abilities)
        i = f["i"]   # (the frame's, written back as it moves on: a step that asks or calls leaves it there)
        n = len(players)
        while i < n:
            p = players[i]
            used = f["used"]
            cands = _candidates(g, p, name, used, sides if battle and p not in sides else None, event, area)
            if not cands:
                i += 1
                f["i"] = i
                if used:   # (an empty list stays: the next player's is empty too)
                    f["used"] = []
                continue
            forced = [c for c in cands if not c[0].optional]
            if forced:
                ab, sid = forced[0]
                used.append(ab.key)
                return Call(ability_frame(g, ab, p, p, event, area, sid))
            f["cands"] = [[ab.key, ab.id, sid] for ab, sid in cands]
            f["at"] = "chosen"
            return flow.ask(p, "ability", [ab.id for ab, _ in cands] + [DONE.label], f"{name}: use an ability?",
                            window=name)
        if name != "unit-removed":
            f["at"] = "done"
            return requirements_call(g, name, event) or self.done(g, f, None)
        return Return()

    def chosen(self, g: Game, f: Frame, value: Any) -> Any:
        cands = f.pop("cands")
        f["at"] = "player"
        if parse("ability", value) == DONE:
            f["i"] += 1
            f["used"] = []
            return None
        key, _, sid = next(c for c in cands if c[1] == value)
        f["used"].append(key)
        p = f["players"][f["i"]]
        return Call(ability_frame(g, ability_of(g, key), p, p, f["event"], f["area"], sid))

    def done(self, g: Game, f: Frame, value: Any) -> Any:
        return Return()


def _next_rule(g: Game, f: Frame, rules: Any) -> Call | None:
    """`Window.rules`' search: the use of the next rule timed at the frame's window, at or after its
    position `f["rule"]`, that is usable now (the position moves past it), or None."""
    name, event, area = f["window"], f["event"], f["area"]
    at = f["rule"]   # the position of the next rule to look at (those timed elsewhere are passed over)
    for i in rules_at(rules, name):
        if i >= at:
            ab = rules[i]
            f["rule"] = i + 1
            if usable(g, ab, None, ctx(g, None, ability=ab, event=event, area=area)):
                return Call(ability_frame(g, ab, None, None, event, area, None))
    return None


def _candidates(g: Game, p: str, name: str, used: list[str], outside: Any, event: Any, area: Any) -> list[Any]:
    """`Window.player`'s candidates: `p`'s abilities at window `name` not `used` yet and usable now,
    as (ability, the id of the unit that uses it or None), in order. `outside`: not None when `p` is
    not a side of the battle this battle window is in (only its abilities that act `anywhere` count)."""
    cands = []
    for ab in window_abilities(g, p, name):
        if used and ab.key in used:   # (mostly none is used yet: no key read)
            continue
        if outside is not None and not ab.anywhere:
            continue
        unit = self_unit_for(g, ab, p)
        if usable(g, ab, p, ctx(g, p, ability=ab, event=event, area=area, self_unit=unit)):
            cands.append((ab, unit["id"] if unit is not None else None))
    return cands


# ---- removing a unit -------------------------------------------------------------------------------------
class RemoveUnit(Proc):
    """Kill, eliminate or capture a unit; opens the unit-removed window (and unit-captured)."""

    name = "remove-unit"
    STEPS = ("start", "removed", "done")

    def start(self, g: Game, f: Frame, value: Any) -> Any:
        u = g.s.unit(f["unit"])
        how, cause = f["how"], f["cause"]
        src, owner = u["loc"], u["owner"]  # (an Independent returns to the general pool as it leaves)
        dst = f"captured:{cause}" if how == "capture" else POOL
        core.relocate(g, u, dst, how)
        f["event"] = {"unit": dict(u, loc=src, owner=owner), "how": how, "cause": cause, "owner": owner,
                      "replaced": f["replaced"], "area": src if is_area(g, src) else None,
                      "in_battle": g.s.battle is not None}
        f["at"] = "removed"
        return core.window_call(g, "unit-removed", f["event"], turn_order(g))

    def removed(self, g: Game, f: Frame, value: Any) -> Any:
        if f["how"] != "capture":
            return Return()
        f["at"] = "done"
        return core.window_call(g, "unit-captured", f["event"], turn_order(g))

    def done(self, g: Game, f: Frame, value: Any) -> Any:
        return Return()


# ---- spellbook requirements ------------------------------------------------------------------------------
class CheckRequirements(Proc):
    """The requirements met now (`when`: a window, "state" or "doom-phase"), player by player: each
    earns its spellbook at once, or after the battle under way. Then the player's loyalty cards."""

    name = "requirements"
    STEPS = ("start",)

    def start(self, g: Game, f: Frame, value: Any) -> Any:
        s = g.s
        players = f["players"]
        when, event = f["when"], f["event"]
        seen: dict[Any, Any] = {}   # the fields conditions read, at this position (held_conditions)
        for i in range(f["i"], len(players)):   # f["i"], f["j"]: where a Call left off
            p = players[i]
            fac = g.factions.get(p)
            if fac is None:
                f["j"] = 0
                continue
            reqs = fac.requirements
            first = f["j"]
            while (found := first_holding(g, p, when, event, first, seen)) is not None:
                j, r = found
                if not earn_after_battle(g, p, r.id):
                    f["i"], f["j"] = i, j + 1
                    return core.earn_call(g, p, r)
                seen.clear()   # the battle record changed
                first = j + 1
            if f["j"] <= len(reqs) and s.loyalty:
                f["i"], f["j"] = i, len(reqs) + 1   # the faction's requirements are done: the loyalty cards' next
                return independents.check_loyalty_requirements_call(g, p, when, event)
            f["j"] = 0
        return Return()


def requirements_call(g: Game, when: str, event: dict[str, Any] | None = None,
                      players: list[str] | None = None) -> Call | None:
    """Check the requirements met at `when` (`core.check_requirements_call`: a CheckRequirements
    frame), or None when that check would find nothing: no loyalty cards are in play (their check
    always runs) and no requirement of the players checked at `when` holds unmet now. Then no
    frame is made and the caller's next step runs at once, as after an empty check; a check
    that finds something is made as before (its conditions, found here, are held: held_conditions)."""
    if not g.s.loyalty:
        seen: dict[Any, Any] = {}
        for p in players or g.s.players:   # (a loop: the compiled core makes no generator for it)
            if first_holding(g, p, when, event, 0, seen) is not None:
                break
        else:
            return None
    return core.check_requirements_call(g, when, event, players)


class EarnSteps(Proc):
    """The last two steps of earning a requirement, a faction's (Earn) or a loyalty card's
    (loyalty_procs.EarnLoyalty): run the requirement's effect, if it has one, then end."""

    def requirement_key(self, f: Frame) -> str:
        """The requirement's key for `core.requirement_effect_call`."""
        raise NotImplementedError

    def effect(self, g: Game, f: Frame, value: Any) -> Any:
        call = core.requirement_effect_call(g, f["player"], self.requirement_key(f))
        if call is None:
            return Return()
        f["at"] = "done"
        return call

    def done(self, g: Game, f: Frame, value: Any) -> Any:
        return Return()


class Earn(EarnSteps):
    """A faction requirement is met: mark it, take a spellbook (one's own or a neutral one), run its effect."""

    name = "earn"
    STEPS = ("start", "book", "done")

    def start(self, g: Game, f: Frame, value: Any) -> Any:
        p = f["player"]
        r = requirement(g, p, f["req"])
        if r is None or r.id in g.s.requirements[p]:
            return Return()
        g.s.requirements[p].append(r.id)
        emit(g, "requirement", player=p, requirement=r.id)
        left = neutral.spellbook_choices(g, p)   # own spellbooks, or a neutral one instead
        f["at"] = "book"
        if left:
            return flow.ask(p, "spellbook", left, f"{r.text}: choose a spellbook")
        return self.effect(g, f, None)

    def book(self, g: Game, f: Frame, value: Any) -> Any:
        neutral.take_spellbook(g, f["player"], value)
        return self.effect(g, f, None)

    def requirement_key(self, f: Frame) -> str:
        return str(f["req"])
