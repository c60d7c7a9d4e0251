"""The game's basic operations: content lookups, the event log, asking a decision, dice from the
seeded generator, and Power, Doom and elder signs: functions of the rules context (rules.Rules), on which
abilities.py and core.py build abilities and windows."""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Callable

from ..content.model import Faction, UnitType
from ..effects.compiler import LimitError, RuleError
from ..limits import MAX_DICE, MAX_NUMBER
from . import option
from . import state as _state
from .rng import Rng
from .host import RulesContext

# other facts kept in the memo (see `memo`): name -> how to compute it for an argument, from units
# and abilities only (a memo entry (name, arg) is checked against it in checking mode)
MEMO_FACTS: dict[str, Callable[[Any, Any], Any]] = {}
# those of them that depend on where exactly units are (dropped when a unit moves between map areas:
# see `memo_after_move`; the others hang only on which kinds each player has on the map)
PLACE_FACTS: set[str] = set()
# memo entries handed from one step to the next, checked where they are used (not by `_check_memo`);
# each is keyed (name, None) (a bot's reading leaves them out by those keys: `Rules.memo_from`)
MEMO_CHECKED_AT_USE: set[str] = set()


def faction(g: "RulesContext", player: str) -> Faction:
    return g.factions[player]


def utype(g: "RulesContext", u: dict[str, Any]) -> UnitType:
    """The type of unit `u` (its owner's faction's kind, else a neutral unit's, else a loyalty
    card's): one read of the content's table (content/tables.py `unit_types`), which the rules
    context holds (`RulesFields.unit_types`: in the compiled core a C field)."""
    try:
        return g.unit_types[u["owner"]][u["kind"]]  # type: ignore[no-any-return]
    except KeyError:   # no such kind for that owner (a broken state): say which, as the scan does
        return _scanned_utype(g, u)


def uclass(g: "RulesContext", u: dict[str, Any]) -> str:
    """The class of unit `u`'s type (`utype(g, u).cls`: cultist, monster, terror, great-old-one), read
    from the content's table of classes beside its types (no read of the type's record)."""
    try:
        return g.unit_classes[u["owner"]][u["kind"]]  # type: ignore[no-any-return]
    except KeyError:
        return _scanned_utype(g, u).cls


def _scanned_utype(g: "RulesContext", u: dict[str, Any]) -> UnitType:
    f = g.factions.get(u["owner"])
    if f is not None and u["kind"] in f.units:
        return f.units[u["kind"]]
    if u["kind"] in g.content.neutral_units:
        return g.content.neutral_units[u["kind"]]
    for card in g.content.loyalty_cards.values():
        if u["kind"] in card.units:
            return card.units[u["kind"]]
    raise RuleError(f"unit #{u['id']} has unknown kind '{u['kind']}'")


def kind_type(g: "RulesContext", player: str, kind: str) -> UnitType | None:
    f = g.factions.get(player)
    if f is not None and kind in f.units:
        return f.units[kind]
    if kind in g.content.neutral_units:
        return g.content.neutral_units[kind]
    card = card_of_kind(g, kind)
    return g.content.loyalty_cards[card].units[kind] if card is not None else None


def is_area(g: "RulesContext", loc: str) -> bool:
    return loc in g.layout.areas


def adjacent(g: "RulesContext", area: str) -> tuple[str, ...]:
    return g.layout.adjacent.get(area, ())


def record_field(g: "RulesContext", obj: dict[str, Any], name: str) -> tuple[bool, Any]:
    """Computed fields of game records visible to effects (unit.class, unit.cost, ...)."""
    if "kind" in obj and "owner" in obj and "loc" in obj:
        t = utype(g, obj)
        if name == "class":
            return True, t.cls
        if name == "name":
            return True, t.name
        if name == "area":
            return True, obj["loc"] if is_area(g, obj["loc"]) else None
        if name == "in_play":
            return True, is_area(g, obj["loc"])
    return False, None


def unit_label(g: "RulesContext", u: dict[str, Any]) -> str:
    """A unit as an option label: 'kind area#id', with ' (gate)' when it controls the gate there."""
    gate = g.s.gates.get(u["loc"])
    return option.unit_label(u["kind"], u["loc"], u["id"], gate is not None and gate.get("controller") == u["id"])


def emit(g: "RulesContext", type_: str, **fields: Any) -> None:
    """Log an event of type `type_` with `fields` (its `seq` the state's next)."""
    emit_fields(g, type_, fields)


def emit_fields(g: "RulesContext", type_: str, fields: dict[str, Any]) -> None:
    """`emit` with the fields as a dict the caller made (the events logged most: a C call in the
    compiled core, with no keyword dict parsed; basics.pxd types `g`, so its log is a C read)."""
    s = g.s   # (read once: emit runs about three times a decision)
    seq = s.seq = s.seq + 1
    event = {"seq": seq, "type": type_, **fields}   # (a merge, not `.update`: a C call with no method call)
    g.log.append(event)
    hook = g._event_hook
    if hook is not None:
        hook(event)


def roll(g: "RulesContext", n: int, who: str, why: str) -> list[int]:
    n = max(0, int(n))
    if n > MAX_DICE:
        raise LimitError(f"{who} would roll {n} dice ({why}); the limit is {MAX_DICE} dice in one roll")
    out = []
    for _ in range(n):
        if g._forced_dice is not None:
            if not g._forced_dice:
                raise RuleError(f"the scenario's dice ran out while rolling for {who} ({why})")
            out.append(g._forced_dice.pop(0))
        else:
            r = Rng(g.s.rng)
            out.append(r.die())
            g.s.rng = r.state
    emit(g, "dice", player=who, why=why, dice=out)
    return out


def random_below(g: "RulesContext", n: int) -> int:
    r = Rng(g.s.rng)
    v = r.below(n)
    g.s.rng = r.state
    return v


def gain_power(g: "RulesContext", p: str, n: int, why: str = "") -> None:
    n = int(n)
    if n == 0:
        return
    before = g.s.power[p]
    if before + n > MAX_NUMBER:
        raise LimitError(f"{p}'s Power would be {before + n} ({why}), beyond the limit for numbers ({MAX_NUMBER})")
    g.s.power[p] = max(0, before + n)
    emit_fields(g, "power", {"player": p, "change": g.s.power[p] - before, "total": g.s.power[p], "why": why})


def gain_doom(g: "RulesContext", p: str, n: int, why: str = "") -> None:
    n = int(n)
    if n <= 0:
        return
    if g.s.doom[p] + n > MAX_NUMBER:
        raise LimitError(f"{p}'s Doom would be {g.s.doom[p] + n} ({why}), beyond the limit for numbers ({MAX_NUMBER})")
    g.s.doom[p] += n
    emit(g, "doom", player=p, change=n, total=g.s.doom[p], why=why)


def give_elder_sign(g: "RulesContext", p: str, why: str = "") -> None:
    bag = g.s.es_bag
    if not bag:
        emit(g, "elder-sign", player=p, why=why, empty_bag=True)
        gain_doom(g, p, 1, "elder sign bag empty")
        return
    value = bag.pop(random_below(g, len(bag)))
    g.s.elder_signs[p].append(value)
    emit(g, "elder-sign", player=p, why=why)


def reveal_elder_signs(g: "RulesContext", p: str, indices: list[int] | None = None) -> None:
    """`p` trades its face-down elder signs (all, or those at `indices`) for their Doom."""
    held = g.s.elder_signs[p]
    chosen = set(range(len(held)) if indices is None else indices)
    signs = [v for i, v in enumerate(held) if i in chosen]
    if not signs:
        return
    total = sum(signs)
    g.s.revealed[p] += total
    g.s.elder_signs[p] = [v for i, v in enumerate(held) if i not in chosen]
    emit(g, "elder-signs-revealed", player=p, values=sorted(signs))
    gain_doom(g, p, total, "elder signs")


def integer(g: "RulesContext", v: Any, what: str) -> int:
    if type(v) is int:
        return v  # type: ignore[no-any-return]
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, Fraction):
        if v.denominator == 1:
            return int(v)
        raise RuleError(f"{what} must be a whole number, got {v} (round it with ceil() or floor())")
    if not isinstance(v, int):
        raise RuleError(f"{what} must be a whole number, got {v!r}")
    return v


def battle_record(g: "RulesContext") -> dict[str, Any]:
    b = g.s.battle
    assert b is not None
    return b


def card_of_kind(g: "RulesContext", kind: str) -> str | None:
    """The loyalty card (of this game) whose figure is of this kind."""
    for card, rec in g.s.loyalty.items():
        if rec["kind"] == kind:
            return card
    return None


def in_play_kinds(g: "RulesContext", player: str) -> set[str]:
    """The unit kinds `player` has on the map, a memo fact. Shared: callers must not change it."""
    memo = g.memo()
    key = ("kinds", player)
    kinds = memo.get(key)
    if kinds is None:
        kinds = memo[key] = _kept_kinds(g, player)
    return kinds  # type: ignore[no-any-return]


def _kept_kinds(g: "RulesContext", player: str) -> set[str]:
    """The kinds as the state keeps them (`StateFields._kinds`: a write that changed none of the
    player's units, such as a spellbook, a grant or another player's move, drops the memo but
    not these), else found again."""
    s = g.s
    at = (s.unit_writes, len(s.units), s.moves_of(player))
    kept = s._kinds
    if kept is None:
        kept = s._kinds = {}
    entry = kept.get(player)
    if entry is not None and entry[0] == at:
        if _state.CHECK_MEMO and entry[1] != _kinds_of(g, player):
            raise AssertionError(f"stale kept unit kinds of {player}: a unit written unnoted")
        return entry[1]  # type: ignore[no-any-return]
    kinds = _kinds_of(g, player)
    kept[player] = (at, kinds)
    return kinds


def _kinds_of(g: "RulesContext", player: str) -> set[str]:
    is_area = g.layout.areas.__contains__
    return {u["kind"] for u in g.s.units if u["owner"] == player and is_area(u["loc"])}


def units_per_place(g: "RulesContext", player: str) -> dict[str, int]:
    """How many units `player` has in each place (what `len(s.units_at(place, player))` gives), a
    memo fact (dropped when a unit moves: PLACE_FACTS). Shared: callers must not change it."""
    memo = g.memo()
    key = ("units-per-place", player)
    counts = memo.get(key)
    if counts is None:
        counts = memo[key] = _count_units_per_place(g, player)
    return counts  # type: ignore[no-any-return]


def _count_units_per_place(g: "RulesContext", player: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for u in g.s.units_of(player):
        counts[u["loc"]] = counts.get(u["loc"], 0) + 1
    return counts


MEMO_FACTS["units-per-place"] = _count_units_per_place
PLACE_FACTS.add("units-per-place")
