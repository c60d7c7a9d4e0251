"""The engine core's procedures as frames (engine/flow.py): a timing window, using an ability,
removing a unit, checking and earning spellbook requirements.

Frames hold data only: ability keys, unit ids, player ids, areas and event dicts. The context an
ability's effect runs in is rebuilt from them (`g.ctx(...)`) in the step that needs it. The
factories that start these procedures are `GameCore.*_call` (core.py).
"""
from __future__ import annotations

from typing import Any

from ..effects.compiler import RuleError
from ..limits import MAX_WINDOW_DEPTH
from . import flow, neutral
from .flow import Call, Proc, Return
from .option import Option, parse
from .requirements import checked_at, earn_after_battle, met_now, requirement
from .state import POOL

# ongoing abilities' modifiers that change a battle: their owner may decline them for that battle
BATTLE_MODIFIERS = {"combat", "result-capacity", "resolve-results", "retreat-chooser", "assign-chooser"}
BATTLE_WINDOWS = {"before-battle", "battle-roll", "result-assigned", "kills-assigned", "pains-assigned",
                  "after-assignment", "retreats"}

Game = Any   # a GameCore (core.py imports this module)
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
def quiet_window(g: Game, name: str) -> bool:
    """Whether timing window `name`, opened now, would do nothing: no rule of the ruleset and no
    requirement in the content is timed at it, no player has an active ability at it, and it is
    not deep enough to be a trigger loop. Nothing can run in it then, so nothing in it changes
    either; `GameCore.window_call` does not open it (the caller's next step runs at once, as it
    would when the window returned)."""
    if len(g.s.flow) >= MAX_WINDOW_DEPTH:
        return False
    timed = g.__dict__.get("_timed_windows")
    if timed is None:
        timed = g._timed_windows = _timed_windows(g)
    if name in timed:
        return False
    return not any(g.window_abilities(p, name) for p in g.s.players)


def _timed_windows(g: Game) -> frozenset[str]:
    """The windows the ruleset's rules and the content's requirements (factions' and loyalty
    cards', in play or not) are timed at, with "state" and "action" (the requirement checks')."""
    timed = {ab.window for ab in g.ruleset.abilities} | {"state", "action"}
    for fac in g.content.factions.values():
        timed.update(r.when for r in fac.requirements)
    for card in g.content.loyalty_cards.values():
        timed.update(r.when for r in card.requirements)
    return frozenset(timed)


# ---- frames of these procedures ---------------------------------------------------------------------
def ability_frame(g: Game, ab: Any, player: str | None, me: str | None, event: dict[str, Any] | None,
                  area: str | None, self_id: int | None, paid: bool = False) -> Frame:
    """A use of ability `ab` by `player`; its effect's context is `me`, `event`, `area`, the unit `self_id`."""
    if g.ability_of(ab.key) is not ab:
        raise RuleError(f"{ab.name}: two abilities have the key '{ab.key}' (an ability's id must be unique "
                        "among its owner's abilities)")
    f = flow.frame("ability", key=ab.key, player=player, me=me, event=event, area=area, self=self_id, paid=paid)
    if ab.effect is not None:
        f["label"] = f"{ab.key} ({ab.window})"   # for the trigger-loop message (flow.running_abilities)
    return f


def ability_ctx(g: Game, ab: Any, f: Frame) -> Any:
    """The context of an ability frame's effect (the same values the caller's context had)."""
    sid = f["self"]
    return g.ctx(f["me"], ability=ab, event=f["event"], area=f["area"],
                 self_unit=g.s.unit(sid) if sid is not None else None)


# ---- using an ability -------------------------------------------------------------------------------
class UseAbility(Proc):
    """Pay for an ability (unless an action already did), mark its once-limit, run its effect."""

    name = "ability"

    def start(self, g: Game, f: Frame, value: Any) -> Any:
        ab = g.ability_of(f["key"])
        player = f["player"]
        ctx = ability_ctx(g, ab, f)
        cost = 0 if f["paid"] else g.ability_cost(ab, player, ctx)
        if player is not None and cost:
            g.gain_power(player, -cost, f"pay for {ab.name}")
        k = g.once_key(ab, player)
        if k is not None:
            g.s.memory.setdefault("once", []).append(k)
        g.emit("ability", player=player, ability=ab.key, name=ab.name)
        if ab.effect is None:
            return Return()
        f["at"] = "done"
        return g.effect_call(ab.effect, ctx)

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

    def start(self, g: Game, f: Frame, value: Any) -> Any:
        opened = flow.open_windows(g)   # this window's frame is the last one
        if len(opened) > MAX_WINDOW_DEPTH:
            raise RuleError(trigger_loop(flow.running_abilities(g), opened))
        f["at"], f["rule"] = "rules", 0
        return None

    def rules(self, g: Game, f: Frame, value: Any) -> Any:
        name = f["window"]
        rules = g.ruleset.abilities
        while f["rule"] < len(rules):
            ab = rules[f["rule"]]
            f["rule"] += 1
            if ab.window == name:
                ctx = g.ctx(None, ability=ab, event=f["event"], area=f["area"])
                if g.usable(ab, None, ctx):
                    return Call(ability_frame(g, ab, None, None, f["event"], f["area"], None))
        # the players, and the battle whose sides alone use battle abilities, as they are now
        if f["players"] is None:
            f["players"] = g.turn_order()
        b = g.s.battle
        f["sides"] = [b["attacker"], b["defender"]] if b is not None else None
        f["at"], f["i"], f["used"] = "player", 0, []
        return None

    def player(self, g: Game, f: Frame, value: Any) -> Any:
        name, event, area, sides = f["window"], f["event"], f["area"], f["sides"]
        players = f["players"]
        while f["i"] < len(players):
            p = players[f["i"]]
            used = f["used"]
            cands = []
            for ab in g.window_abilities(p, name):
                if ab.key in used:
                    continue
                if sides is not None and name in BATTLE_WINDOWS and not ab.anywhere and p not in sides:
                    continue
                unit = g.self_unit_for(ab, p)
                ctx = g.ctx(p, ability=ab, event=event, area=area, self_unit=unit)
                if g.usable(ab, p, ctx):
                    cands.append((ab, unit["id"] if unit is not None else None))
            if not cands:
                f["i"] += 1
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
        if f["window"] != "unit-removed":
            f["at"] = "done"
            return g.check_requirements_call(f["window"], event)
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
        return Call(ability_frame(g, g.ability_of(key), p, p, f["event"], f["area"], sid))

    def done(self, g: Game, f: Frame, value: Any) -> Any:
        return Return()


# ---- removing a unit -------------------------------------------------------------------------------------
class RemoveUnit(Proc):
    """Kill, eliminate or capture a unit; opens the unit-removed window (and unit-captured)."""

    name = "remove-unit"

    def start(self, g: Game, f: Frame, value: Any) -> Any:
        u = g.s.unit(f["unit"])
        how, cause = f["how"], f["cause"]
        src, owner = u["loc"], u["owner"]  # (an Independent returns to the general pool as it leaves)
        dst = f"captured:{cause}" if how == "capture" else POOL
        g.relocate(u, dst, how)
        f["event"] = {"unit": dict(u, loc=src, owner=owner), "how": how, "cause": cause, "owner": owner,
                      "replaced": f["replaced"], "area": src if g.is_area(src) else None,
                      "in_battle": g.s.battle is not None}
        f["at"] = "removed"
        return g.window_call("unit-removed", f["event"], g.turn_order())

    def removed(self, g: Game, f: Frame, value: Any) -> Any:
        if f["how"] != "capture":
            return Return()
        f["at"] = "done"
        return g.window_call("unit-captured", f["event"], g.turn_order())

    def done(self, g: Game, f: Frame, value: Any) -> Any:
        return Return()


# ---- spellbook requirements ------------------------------------------------------------------------------
class CheckRequirements(Proc):
    """The requirements met now (`when`: a window, "state" or "doom-phase"), player by player: each
    earns its spellbook at once, or after the battle under way. Then the player's loyalty cards."""

    name = "requirements"

    def start(self, g: Game, f: Frame, value: Any) -> Any:
        s = g.s
        players = f["players"]
        when, event = f["when"], f["event"]
        seen: dict[Any, Any] = {}   # the fields conditions read, at this position (held_conditions)
        for i in range(f["i"], len(players)):   # f["i"], f["j"]: where a Call left off
            p = players[i]
            fac = g.content.factions.get(p)
            if fac is None:
                f["j"] = 0
                continue
            reqs = fac.requirements
            done = s.requirements[p]
            first = f["j"]
            for j in _checked_at(reqs, when):
                if j < first:
                    continue
                r = reqs[j]
                if r.id in done:
                    continue
                if met_now(g, p, r.id, r, when, event, seen):
                    if earn_after_battle(g, p, r.id):
                        seen.clear()   # the battle record changed
                    else:
                        f["i"], f["j"] = i, j + 1
                        return g.earn_call(p, r)
            if f["j"] <= len(reqs) and s.loyalty:
                f["i"], f["j"] = i, len(reqs) + 1   # the faction's requirements are done: the loyalty cards' next
                return g.check_loyalty_requirements_call(p, when, event)
            f["j"] = 0
        return Return()


_CHECKED: dict[tuple[int, str], tuple[Any, int, list[int]]] = {}


def _checked_at(reqs: list[Any], when: str) -> list[int]:
    """The positions in a faction's requirements of those checked at `when` (requirements.checked_at).
    Found once per requirements list and `when`."""
    key = (id(reqs), when)
    kept = _CHECKED.get(key)
    if kept is None or kept[0] is not reqs or kept[1] != len(reqs):
        found = [j for j, r in enumerate(reqs) if checked_at(r, when)]
        kept = _CHECKED[key] = (reqs, len(reqs), found)
    return kept[2]


def requirements_to_check(g: Game, when: str, players: list[str]) -> bool:
    """Whether a requirement check at `when` has anything to look at: a requirement of one of the
    players' factions checked then, or loyalty cards in the game (`check_requirements_call` starts
    no check otherwise; the caller's next step runs at once, as after an empty check)."""
    if g.s.loyalty:
        return True
    kept = g.__dict__.get("_to_check")   # (when, *players) -> the answer: the content decides it
    if kept is None:
        kept = g._to_check = {}
    key = (when, *players)
    found = kept.get(key)
    if found is None:
        factions = g.content.factions
        found = kept[key] = any(p in factions and _checked_at(factions[p].requirements, when) for p in players)
    return found  # type: ignore[no-any-return]


class Earn(Proc):
    """A faction requirement is met: mark it, take a spellbook (one's own or a neutral one), run its effect."""

    name = "earn"

    def start(self, g: Game, f: Frame, value: Any) -> Any:
        p = f["player"]
        r = requirement(g, p, f["req"])
        if r is None or r.id in g.s.requirements[p]:
            return Return()
        g.s.requirements[p].append(r.id)
        g.emit("requirement", player=p, requirement=r.id)
        left = neutral.spellbook_choices(g, p)   # own spellbooks, or a neutral one instead
        f["at"] = "book"
        if left:
            return flow.ask(p, "spellbook", left, f"{r.text}: choose a spellbook")
        return self.effect(g, f, None)

    def book(self, g: Game, f: Frame, value: Any) -> Any:
        neutral.take_spellbook(g, f["player"], value)
        return self.effect(g, f, None)

    def effect(self, g: Game, f: Frame, value: Any) -> Any:
        p = f["player"]
        r = requirement(g, p, f["req"])
        if r is None or r.effect is None:
            return Return()
        ctx = g.ctx(p)
        ctx.ability = f"requirement {r.id}"
        f["at"] = "done"
        return g.effect_call(r.effect, ctx)

    def done(self, g: Game, f: Frame, value: Any) -> Any:
        return Return()
