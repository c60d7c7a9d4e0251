"""The game's basic operations: content lookups, the event log, asking a decision, dice from the
seeded generator, and Power, Doom and elder signs. `core.GameCore` builds abilities and windows on them."""
from __future__ import annotations

from typing import Any, Callable

from ..content.model import ContentModel, Faction, Layout, Ruleset, UnitType
from ..effects.compiler import LimitError, RuleError
from ..limits import MAX_DICE, MAX_NUMBER
from .rng import Rng
from .state import CHECK_MEMO, State

# other facts kept in the memo (see `memo`): name -> how to compute it for an argument, from units
# and abilities only (a memo entry (name, arg) is checked against it in checking mode)
MEMO_FACTS: dict[str, Callable[[Any, Any], Any]] = {}
# those of them that depend on where exactly units are (dropped when a unit moves between map areas:
# see `memo_after_move`; the others hang only on which kinds each player has on the map)
PLACE_FACTS: set[str] = set()


class GameBasics:
    content: ContentModel
    ruleset: Ruleset
    layout: Layout
    s: State
    log: list[dict[str, Any]]
    _memo: tuple[Any, ...] | None = None

    def _init_core(self) -> None:
        self._forced_dice: list[int] | None = None
        self._event_hook: Callable[[dict[str, Any]], None] | None = None
        self.steps = 0                # evaluation steps spent since the last decision (limits.MAX_STEPS)

    def set_event_hook(self, hook: Callable[[dict[str, Any]], None] | None) -> None:
        """Call `hook(event)` after every logged event (checking mode); None switches it off."""
        self._event_hook = hook

    # ---- facts derived from the position ------------------------------------------------------------
    def memo(self) -> dict[Any, Any]:
        """A dict for facts derived from who has which abilities (active abilities, units in play,
        the modifier index), valid until that changes: it is keyed on the state object, its write
        counter `s.writes` (bumped by every write to units, spellbooks, grants or loyalty cards:
        `state_written`), the grants list and its length, and the number of units."""
        s = self.s
        m = self._memo
        if m is not None and m[0] is s and m[1] == s.writes and m[2] is s.grants and m[3] == len(s.grants) \
                and m[4] == len(s.units):
            if CHECK_MEMO and not self.__dict__.get("_checking"):
                self._check_memo(m[5])
            return m[5]  # type: ignore[no-any-return]
        self._memo = m = (s, s.writes, s.grants, len(s.grants), len(s.units), {})
        return m[5]  # type: ignore[no-any-return]

    def memo_current(self) -> bool:
        """Whether the memo (see `memo`) is valid for the state as it is."""
        s = self.s
        m = self._memo
        return m is not None and m[0] is s and m[1] == s.writes and m[2] is s.grants \
            and m[3] == len(s.grants) and m[4] == len(s.units)

    def memo_after_move(self) -> None:
        """A unit moved leaving which kinds each player has on the map as they were (`relocate`:
        from area to area, onto the map beside one of its kind, ...), the memo being current just
        before: the memo stays valid but
        for its facts about places (PLACE_FACTS), which are dropped. NECRO_CHECK_MEMO=1 checks
        the kept facts at their next use, as always."""
        m = self._memo
        assert m is not None
        facts = m[5]
        for k in [k for k in facts if k.__class__ is tuple and k[0] in PLACE_FACTS]:
            del facts[k]
        s = self.s
        self._memo = (s, s.writes, *m[2:])

    def memo_for_copy(self, s: State) -> tuple[Any, ...]:
        """This position's memo for `s`, a fresh copy of the state: the facts are the same."""
        facts = dict(self.memo())
        return (s, s.writes, s.grants, len(s.grants), len(s.units), facts)

    def state_written(self) -> None:
        """A write to units, spellbooks, grants or loyalty cards (see `memo`)."""
        self.s.written()

    def _check_memo(self, kept: dict[Any, Any]) -> None:
        old = self._memo
        assert old is not None
        self._memo = (*old[:5], {})
        self._checking = True
        try:
            for key, value in list(kept.items()):
                fresh = self._recompute(key)
                if fresh != value:
                    raise AssertionError(f"stale memo entry {key!r}: kept {value!r}, fresh {fresh!r}")
        finally:
            self._memo = old
            self._checking = False

    def _recompute(self, key: Any) -> Any:
        if key == "all":
            return self.active_abilities_all()  # type: ignore[attr-defined]
        if key == "modifiers":
            self.modifiers_of("")  # type: ignore[attr-defined]
            return self.memo()["modifiers"]
        what, arg = key
        if what in MEMO_FACTS:
            return MEMO_FACTS[what](self, arg)
        return self.in_play_kinds(arg) if what == "kinds" else self.active_abilities(arg)  # type: ignore[attr-defined]

    # ---- content lookups --------------------------------------------------------------------
    def faction(self, player: str) -> Faction:
        return self.content.factions[player]

    def utype(self, u: dict[str, Any]) -> UnitType:
        f = self.content.factions.get(u["owner"])
        if f is not None and u["kind"] in f.units:
            return f.units[u["kind"]]
        if u["kind"] in self.content.neutral_units:
            return self.content.neutral_units[u["kind"]]
        for card in self.content.loyalty_cards.values():
            if u["kind"] in card.units:
                return card.units[u["kind"]]
        raise RuleError(f"unit #{u['id']} has unknown kind '{u['kind']}'")

    def kind_type(self, player: str, kind: str) -> UnitType | None:
        f = self.content.factions.get(player)
        if f is not None and kind in f.units:
            return f.units[kind]
        if kind in self.content.neutral_units:
            return self.content.neutral_units[kind]
        card = self.card_of_kind(kind)  # type: ignore[attr-defined]
        return self.content.loyalty_cards[card].units[kind] if card is not None else None

    def is_area(self, loc: str) -> bool:
        return loc in self.layout.areas

    def adjacent(self, area: str) -> tuple[str, ...]:
        return self.layout.adjacent.get(area, ())

    def record_field(self, obj: dict[str, Any], name: str) -> tuple[bool, Any]:
        """Computed fields of game records visible to effects (unit.class, unit.cost, ...)."""
        if "kind" in obj and "owner" in obj and "loc" in obj:
            t = self.utype(obj)
            if name == "class":
                return True, t.cls
            if name == "name":
                return True, t.name
            if name == "area":
                return True, obj["loc"] if self.is_area(obj["loc"]) else None
            if name == "in_play":
                return True, self.is_area(obj["loc"])
        return False, None

    def unit_label(self, u: dict[str, Any]) -> str:
        """A unit as an option label: 'kind area#id', with ' (gate)' when it controls the gate there."""
        g = self.s.gates.get(u["loc"])
        mark = " (gate)" if g is not None and g.get("controller") == u["id"] else ""
        return f"{u['kind']} {u['loc']}{mark}#{u['id']}"

    # ---- log ----------------------------------------------------------------------------------
    def emit(self, type_: str, **fields: Any) -> None:
        self.s.seq += 1
        event = {"seq": self.s.seq, "type": type_, **fields}
        self.log.append(event)
        if self._event_hook is not None:
            self._event_hook(event)

    # ---- dice and randomness -------------------------------------------------------------------
    def roll(self, n: int, who: str, why: str) -> list[int]:
        n = max(0, int(n))
        if n > MAX_DICE:
            raise LimitError(f"{who} would roll {n} dice ({why}); the limit is {MAX_DICE} dice in one roll")
        out = []
        for _ in range(n):
            if self._forced_dice is not None:
                if not self._forced_dice:
                    raise RuleError(f"the scenario's dice ran out while rolling for {who} ({why})")
                out.append(self._forced_dice.pop(0))
            else:
                r = Rng(self.s.rng)
                out.append(r.die())
                self.s.rng = r.state
        self.emit("dice", player=who, why=why, dice=out)
        return out

    def random_below(self, n: int) -> int:
        r = Rng(self.s.rng)
        v = r.below(n)
        self.s.rng = r.state
        return v

    # ---- resources -----------------------------------------------------------------------------
    def gain_power(self, p: str, n: int, why: str = "") -> None:
        n = int(n)
        if n == 0:
            return
        before = self.s.power[p]
        if before + n > MAX_NUMBER:
            raise LimitError(f"{p}'s Power would be {before + n} ({why}), beyond the limit for numbers ({MAX_NUMBER})")
        self.s.power[p] = max(0, before + n)
        self.emit("power", player=p, change=self.s.power[p] - before, total=self.s.power[p], why=why)

    def gain_doom(self, p: str, n: int, why: str = "") -> None:
        n = int(n)
        if n <= 0:
            return
        if self.s.doom[p] + n > MAX_NUMBER:
            raise LimitError(f"{p}'s Doom would be {self.s.doom[p] + n} ({why}), beyond the limit for numbers ({MAX_NUMBER})")
        self.s.doom[p] += n
        self.emit("doom", player=p, change=n, total=self.s.doom[p], why=why)

    def give_elder_sign(self, p: str, why: str = "") -> None:
        bag = self.s.es_bag
        if not bag:
            self.emit("elder-sign", player=p, why=why, empty_bag=True)
            self.gain_doom(p, 1, "elder sign bag empty")
            return
        value = bag.pop(self.random_below(len(bag)))
        self.s.elder_signs[p].append(value)
        self.emit("elder-sign", player=p, why=why)

    def reveal_elder_signs(self, p: str, indices: list[int] | None = None) -> None:
        """`p` trades its face-down elder signs (all, or those at `indices`) for their Doom."""
        held = self.s.elder_signs[p]
        chosen = set(range(len(held)) if indices is None else indices)
        signs = [v for i, v in enumerate(held) if i in chosen]
        if not signs:
            return
        total = sum(signs)
        self.s.revealed[p] += total
        self.s.elder_signs[p] = [v for i, v in enumerate(held) if i not in chosen]
        self.emit("elder-signs-revealed", player=p, values=sorted(signs))
        self.gain_doom(p, total, "elder signs")
