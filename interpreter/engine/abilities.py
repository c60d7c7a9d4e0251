"""Abilities in play: who has which ability now (faction, units on the map, spellbooks, loyalty and
neutral cards, grants), looked up by key, usable or not, and which timing windows have anything
to do (a quiet one is not opened). Facts kept in the context's memo (rules.Rules.memo)."""
from __future__ import annotations

from typing import Any, Sequence

from ..content.tables import content_abilities as abilities_of_content
from ..content.model import Ability
from ..effects.compiler import RuleError
from ..limits import MAX_WINDOW_DEPTH
from . import flow, neutral
from .basics import MEMO_FACTS
from .context import EffectCtx
from .host import RulesContext
from .rules_fields import memo_facts
from .state import CHECK_MEMO, _units_of

Frame = dict[str, Any]
from . import basics
from .basics import integer
from . import independents


def active_abilities(g: "RulesContext", player: str) -> list[Ability]:
    """The abilities `player` has now (faction, units in play, spellbooks, cards, grants), in
    their fixed order. The list is shared: callers must not change it."""
    memo = memo_facts(g)
    key = _keys_of(player)[0]
    out = memo.get(key)
    if out is None:
        out = memo[key] = _collect_abilities(g, player)
    return out  # type: ignore[no-any-return]


# a player -> its memo keys (("abilities", player), ("windows", player)): made once, so that a lookup
# makes no tuple and meets the very key it stored (no comparison of two equal tuples)
_KEYS: dict[Any, tuple[tuple[str, Any], tuple[str, Any]]] = {}


def _keys_of(player: Any) -> tuple[tuple[str, Any], tuple[str, Any]]:
    """`player`'s memo keys (`_KEYS`)."""
    keys = _KEYS.get(player)
    if keys is None:
        keys = _KEYS[player] = (("abilities", player), ("windows", player))
    return keys


def window_abilities(g: "RulesContext", player: str, window: str) -> Sequence[Ability]:
    """`active_abilities(player)` of one window, in the same order (shared: do not change it)."""
    return _windows_of(g, player).get(window, ())


def _collect_abilities(g: "RulesContext", player: str) -> list[Ability]:
    f = g.factions.get(player)
    out: list[Ability] = []
    if f is None:
        return out
    out.extend(f.abilities)
    kinds = basics.in_play_kinds(g, player)
    for t in f.units.values():
        if t.abilities and t.id in kinds:
            out.extend(t.abilities)
    if g.s.loyalty:
        out.extend(independents.loyalty_abilities(g, player, kinds))
    for book in g.s.spellbooks.get(player, []):
        sb = f.spellbooks.get(book) or g.content.neutral_spellbooks.get(book)
        if sb is not None:
            out.extend(sb.abilities)
    out.extend(neutral.card_abilities(g, player))
    for grant in g.s.grants:
        if grant["to"] == player:
            ab = ability_by_key(g, grant["ability"])
            if ab is not None:
                out.append(ab)
    return out


def active_abilities_all(g: "RulesContext") -> list[tuple[str | None, Ability]]:
    memo = memo_facts(g)
    out = memo.get("all")
    if out is None:
        out = [(None, a) for a in g.ruleset.abilities]
        for p in g.s.players:
            for a in active_abilities(g, p):   # (a loop: a generator would give this function a closure scope)
                out.append((p, a))
        memo["all"] = out
    return out  # type: ignore[no-any-return]


def ability_by_key(g: "RulesContext", key: str) -> Ability | None:
    """The content ability keyed `key` (content/tables.py), or None."""
    return g.tables.ability_by_key.get(key)


def content_abilities(g: "RulesContext") -> list[Ability]:
    """Every ability the game's content holds (factions, units, spellbooks, cards) and its
    ruleset's rules, in play or not."""
    return abilities_of_content(g.content, g.ruleset)


def ability_of(g: "RulesContext", key: str) -> Ability:
    """The ability a frame names by key: a content ability or one of the ruleset's rules."""
    ab = ability_by_key(g, key)
    if ab is None:
        for a in g.ruleset.abilities:   # (a loop: a generator would give this function a closure scope)
            if a.key == key:
                return a
        raise RuleError(f"internal: no ability with the key '{key}'")
    return ab


def once_key(g: "RulesContext", ab: Ability, player: str | None) -> str | None:
    """The key a use of `ab` by `player` is kept under in memory's "once" list while its limit
    (`once:`) lasts; None when it has none. Only the scope asked for is formatted."""
    once = ab.once
    if once is None:
        return None
    if once == "battle":
        scope = f"battle{g.s.memory.get('battle_no', 0)}"
    elif once == "action":
        scope = f"action{g.s.memory.get('action_no', 0)}"
    elif once == "turn":
        scope = f"turn{g.s.memory.get('turn_no', 0)}"
    elif once == "action-phase":
        scope = f"ap{g.s.round}"
    elif once == "doom-phase":
        scope = f"dp{g.s.round}"
    elif once == "round":
        scope = f"r{g.s.round}"
    elif once == "game":
        scope = "game"
    else:
        raise KeyError(once)   # (the schema allows no other)
    return f"{ab.key}|{player}|{scope}"


def ability_cost(g: "RulesContext", ab: Ability, player: str | None, ctx: EffectCtx) -> int:
    if ab.cost is None:
        return 0
    v = ab.cost(ctx)
    return v if type(v) is int else integer(g, v, f"cost of {ab.name}")   # (named only when needed)


def usable(g: "RulesContext", ab: Ability, player: str | None, ctx: EffectCtx, check_cost: bool = True) -> bool:
    if ab.unknown:
        return False
    if ab.once is not None:   # (its key is made only when some use is kept: none is, mostly)
        used = g.s.memory.get("once")
        if used and once_key(g, ab, player) in used:
            return False
    condition = ab.condition
    if condition is not None and not condition(ctx):
        return False
    if check_cost and player is not None and ability_cost(g, ab, player, ctx) > g.s.power[player]:
        return False
    return True


def self_unit_for(g: "RulesContext", ab: Ability, player: str) -> dict[str, Any] | None:
    """The unit of `player` that uses `ab` (an ability held by a unit kind), or None: the first of
    that kind on the map, the first of them in the battle under way (not exempt) if any is. One
    pass over the player's units (`_units_of`), no list made."""
    holder = ab.holder
    if not holder.startswith("unit:"):
        return None
    kind = holder[5:]
    areas = g.layout.areas
    b = g.s.battle
    first = None
    for u in _units_of(g.s, player):
        if u["kind"] == kind and u["loc"] in areas:
            if b is None:
                return u
            if u["loc"] == b["area"] and u["id"] not in b["exempt"]:
                return u
            if first is None:
                first = u
    return first


BATTLE_MODIFIERS = {"combat", "result-capacity", "resolve-results", "retreat-chooser", "assign-chooser"}


BATTLE_WINDOWS = {"before-battle", "battle-roll", "result-assigned", "kills-assigned", "pains-assigned",
                  "after-assignment", "retreats"}


def quiet_window(g: RulesContext, name: str) -> bool:
    """Whether timing window `name`, opened now, would do nothing: no rule of the ruleset and no
    requirement in the content is timed at it, no player has an active ability at it, and it is
    not deep enough to be a trigger loop. Nothing can run in it then, so nothing in it changes
    either; `core.window_call` does not open it (the caller's next step runs at once, as it
    would when the window returned)."""
    if len(g.s.flow) >= MAX_WINDOW_DEPTH:
        return False
    timed = _TIMED
    if timed[0] is not g.tables or timed[1] is not g.ruleset:
        timed = _timed_windows(g)
    elif CHECK_MEMO and timed[2] is not g.tables.timed_windows[g.ruleset.id]:
        raise AssertionError("the kept timed windows are another ruleset's")
    if name in timed[2]:
        return False
    memo = memo_facts(g)
    live = memo.get(LIVE_WINDOWS)
    if live is None:
        live = memo[LIVE_WINDOWS] = _live_windows(g)
    return name not in live


# the windows the rules or a requirement of the ruleset last asked about are timed at (the content's
# table `timed_windows`): (its content tables, the ruleset, that set), both frozen records, found again
# when `quiet_window` is asked about another (no attribute or table read per window opened)
_TIMED: tuple[Any, Any, frozenset[str]] = (None, None, frozenset())


def _timed_windows(g: RulesContext) -> tuple[Any, Any, frozenset[str]]:
    """`_TIMED` for the tables and ruleset of `g`, kept."""
    global _TIMED
    _TIMED = (g.tables, g.ruleset, g.tables.timed_windows[g.ruleset.id])
    return _TIMED


def ability_frame(g: RulesContext, ab: Any, player: str | None, me: str | None, event: dict[str, Any] | None,
                  area: str | None, self_id: int | None, paid: bool = False) -> Frame:
    """A use of ability `ab` by `player`; its effect's context is `me`, `event`, `area`, the unit `self_id`."""
    if ability_of(g, ab.key) is not ab:
        raise RuleError(f"{ab.name}: two abilities have the key '{ab.key}' (an ability's id must be unique "
                        "among its owner's abilities)")
    f = {"proc": "ability", "at": "start", "key": ab.key, "player": player, "me": me, "event": event,
         "area": area, "self": self_id, "paid": paid}   # (flow.frame's record as a literal: see frame)
    if ab.effect is not None:
        f["label"] = f"{ab.key} ({ab.window})"   # for the trigger-loop message (flow.running_abilities)
    return f


def checked_positions(g: RulesContext, player: str, when: str) -> tuple[int, ...]:
    """The positions in `player`'s faction's requirements of those checked at `when`
    (requirements.checked_at; content/tables.py)."""
    moments = g.tables.checked_when.get(player)
    return moments.get(when, ()) if moments is not None else ()


def requirements_to_check(g: RulesContext, when: str, players: list[str]) -> bool:
    """Whether a requirement check at `when` has anything to look at: a requirement of one of the
    players' factions checked then, or loyalty cards in the game (`check_requirements_call` starts
    no check otherwise; the caller's next step runs at once, as after an empty check)."""
    if g.s.loyalty:
        return True
    checked = g.tables.checked_when
    return any(when in checked[p] for p in players if p in checked)


def _by_window(g: RulesContext, player: str) -> dict[str, list[Ability]]:
    """`player`'s active abilities by window, each list in their order: one pass over them when
    the memo is made again (a lookup per window and player after each write was a pass each)."""
    out: dict[str, list[Ability]] = {}
    for ab in active_abilities(g, player):
        w = ab.window
        if w in out:
            out[w].append(ab)
        else:
            out[w] = [ab]
    return out


def _live_windows(g: RulesContext, _: Any = None) -> frozenset[str]:
    """The windows at which some player has an active ability (the others are quiet for players)."""
    out: set[str] = set()
    for p in g.s.players:   # (a loop: a generator would give this function a closure scope)
        out.update(_windows_of(g, p))
    return frozenset(out)


def _windows_of(g: RulesContext, player: str) -> dict[str, list[Ability]]:
    """`player`'s active abilities by window (`_by_window`, kept in the memo; shared: do not change it)."""
    memo = memo_facts(g)
    key = _keys_of(player)[1]
    by_window = memo.get(key)
    if by_window is None:
        by_window = memo[key] = _by_window(g, player)
    return by_window  # type: ignore[no-any-return]


MEMO_FACTS["windows"] = _by_window   # type: ignore[assignment]   (checked like the other memo entries)
MEMO_FACTS["live-windows"] = _live_windows
LIVE_WINDOWS = ("live-windows", None)
