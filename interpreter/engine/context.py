"""The context an effect runs in: who 'me' is, the triggering event, scopes for let/for."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..effects.compiler import RuleError
from ..effects.runtime import NO_SCOPES
from ..limits import MAX_STEPS
from .flow import Ask, ask
from . import basics

if TYPE_CHECKING:
    from .host import GameHost


# A new context's scopes and stand-ins, shared until written (most contexts bind nothing: a
# modifier's `when`, a requirement's condition), so that making one allocates no list or dict:
# `bind` and `push_scope` give a context its own scopes first; `stand_in` is only ever replaced
# whole (core.ctx, effect frames), never written in place. Both stay empty (tests/test_context.py);
# NO_SCOPES is effects.runtime's, where the closures read it.
NO_STAND_IN: dict[str, str] = {}


def new_ctx(game: "GameHost", me: str | None, self_unit: dict[str, Any] | None, event: dict[str, Any] | None,
            subject: Any, value: Any, area: str | None, ability: str, foe: str | None) -> "EffectCtx":
    """`EffectCtx(game, me, self_unit=..., ...)` with every name given by position: the same context,
    made without a keyword call (its callers make several a decision: core.ctx, the modifiers)."""
    c = EffectCtx.__new__(EffectCtx)
    _fill(c, game, me, self_unit, event, subject, value, area, ability, foe)
    return c


def _fill(c: "EffectCtx", game: "GameHost", me: str | None, self_unit: dict[str, Any] | None,
          event: dict[str, Any] | None, subject: Any, value: Any, area: str | None, ability: str,
          foe: str | None) -> None:
    """Set every field of a new context `c` (EffectCtx.__init__ and new_ctx): its bound names,
    no scopes and no stand-ins of its own yet (shared, see NO_STAND_IN)."""
    c.game = game
    c.me = me
    c.self_unit = self_unit
    c.event = event
    c.subject = subject
    c.value = value
    c.area = area
    c.scopes = NO_SCOPES   # (its own list once something is bound)
    c.where = ""
    c.ability = ability
    c.foe = foe  # the opponent 'enemy' means when no battle says (e.g. declaring one)
    # a lent ability's Great Old One kinds -> the borrower's stand-in (see `lend_unique`)
    c.stand_in = NO_STAND_IN


class EffectCtx:
    """Bound names plus a handle on the game; created per ability use (cheap)."""

    __slots__ = ("game", "me", "self_unit", "event", "subject", "value", "area", "scopes", "where", "ability", "foe",
                 "stand_in")

    def __init__(self, game: "GameHost", me: str | None, *, self_unit: dict[str, Any] | None = None,
                 event: dict[str, Any] | None = None, subject: Any = None, value: Any = None,
                 area: str | None = None, ability: str = "", foe: str | None = None) -> None:
        _fill(self, game, me, self_unit, event, subject, value, area, ability, foe)

    # names --------------------------------------------------------------------------------
    def lookup(self, name: str, where: str) -> Any:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        if name == "subject":   # the commonest names first (a modifier's condition)
            return self.subject
        if name == "value":
            return self.value
        g = self.game
        if name == "me":
            if self.me is None:
                raise RuleError(f"{where}: 'me' is not bound here (a ruleset rule has no owner)")
            return self.me
        if name == "enemies":
            return [p for p in g.s.players if p != self.me]
        if name == "players":
            return list(g.s.players)
        if name == "enemy":
            if self.foe is not None:
                return self.foe
            b = g.s.battle
            if b is not None and self.me in (b["attacker"], b["defender"]):
                return b["defender"] if self.me == b["attacker"] else b["attacker"]
            others = [p for p in g.s.players if p != self.me]
            if len(others) == 1:
                return others[0]
            raise RuleError(f"{where}: 'enemy' is ambiguous with {len(others)} opponents outside a battle; use 'enemies'")
        if name == "self":
            if self.self_unit is None:
                raise RuleError(f"{where}: 'self' is only bound in a unit's own abilities")
            return self.self_unit
        if name == "event":
            if self.event is None:
                raise RuleError(f"{where}: 'event' is not bound here")
            return self.event
        if name == "battle":
            if g.s.battle is None:
                raise RuleError(f"{where}: 'battle' is only bound during a battle")
            return basics.battle_record(g)
        if name == "area":
            if self.area is None:
                raise RuleError(f"{where}: 'area' is not bound here")
            return self.area
        raise RuleError(f"{where}: unknown name '{name}'")

    def tick(self, where: str) -> None:
        """Spend one evaluation step (a loop or comprehension iteration) of the game's budget."""
        g = self.game
        g.steps += 1
        if g.steps > MAX_STEPS:
            raise RuleError(f"{where}: {self.ability or 'an effect'}: more than {MAX_STEPS} evaluation steps before "
                            "the next decision (loop iterations and query results, nested ones counted together)")

    def spend(self, steps: int, where: str) -> None:
        """Spend `steps` evaluation steps at once (a query: one, and one per item it returns)."""
        g = self.game
        g.steps += steps
        if g.steps > MAX_STEPS:
            raise RuleError(f"{where}: {self.ability or 'an effect'}: more than {MAX_STEPS} evaluation steps before "
                            "the next decision (loop iterations and query results, nested ones counted together)")

    def bind(self, name: str, value: Any) -> None:
        if self.scopes is NO_SCOPES:
            self.scopes = [{}]
        self.scopes[-1][name] = value

    def push_scope(self) -> None:
        if self.scopes is NO_SCOPES:
            self.scopes = [{}]
        self.scopes.append({})

    def pop_scope(self) -> None:
        if self.scopes is NO_SCOPES:
            self.scopes = [{}]
        self.scopes.pop()

    def record_field(self, obj: dict[str, Any], name: str) -> tuple[bool, Any]:
        return basics.record_field(self.game, obj, name)

    def kind_arg(self, v: Any, many: bool) -> Any:
        """A unit-kind argument as a lent ability reads it: its Great Old One stands for the
        borrower's stand-in (a single kind), or is joined by it (a list of kinds)."""
        if not self.stand_in:
            return v
        if not many:
            return self.stand_in.get(v, v) if isinstance(v, str) else v
        kinds = list(v) if isinstance(v, (list, tuple)) else [v]
        return kinds + [self.stand_in[k] for k in kinds if isinstance(k, str) and k in self.stand_in]

    def kind_field(self, kind: Any) -> Any:
        """A record's `kind` as a lent ability reads it: the stand-in reads as the Great Old One it stands for."""
        for original, alias in self.stand_in.items():
            if kind == alias:
                return original
        return kind

    def ask_option(self, player: Any, labels: list[str], where: str) -> Ask:
        """The decision of a `choose` statement (the answer is the label picked)."""
        if not isinstance(player, str) or player not in self.game.s.players:
            raise RuleError(f"{where}: 'choose' needs a player, got {player!r}")
        return ask(player, "option", labels, f"{self.ability}: choose")
