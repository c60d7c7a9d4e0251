"""The rules context: what procedures, primitives and effects run over.

A `Rules` holds the content, the ruleset and map layout in play, the state, the event log, the
scripted dice, the evaluation budget and the one cache of facts derived from the position
(`memo`, see basics.py for its one invalidation rule). Procedures (engine/flow.py) and
primitives receive it; `game.Game` wraps one and is the API bots, front ends and tests drive.
"""
from __future__ import annotations

from typing import Any, Callable

from ..content.build import Content
from ..diagnostics import did_you_mean
from ..effects.compiler import RuleError
from .actions import ActionsMixin
from .battle import BattleMixin
from .decisions import GameError
from .independents import IndependentsMixin
from .phases import PhasesMixin
from .state import State


class Rules(IndependentsMixin, ActionsMixin, BattleMixin, PhasesMixin):
    """The rules of one game over its state (see the module docstring)."""

    @classmethod
    def blank(cls, content: Content, ruleset: str, layout: str, independents: list[str],
              log: list[dict[str, Any]] | None = None) -> "Rules":
        """A context for `content` with no state yet (the caller sets `s`); nothing is checked."""
        r = cls.__new__(cls)
        r.bundle = content
        r.content = content.model
        r.ruleset = r.content.rulesets[ruleset]
        r.layout = r.content.layouts[layout]
        r.independents = list(independents)
        r._init_core()
        r.log = log if log is not None else []
        return r

    @classmethod
    def checked(cls, content: Content, ruleset: str, factions: list[str], layout: str | None,
                independents: list[str] | None) -> tuple["Rules", list[str]]:
        """A context for a new game, every parameter checked first (one GameError naming the
        offending one), and the notes on the loyalty cards left out."""
        content.require_ok()
        model = content.model
        if ruleset not in model.rulesets:
            raise GameError(f"unknown ruleset '{ruleset}'; known: {', '.join(sorted(model.rulesets))}")
        rs = model.rulesets[ruleset]
        for f in factions:
            if f not in model.factions:
                raise GameError(f"unknown faction '{f}'{did_you_mean(f, model.factions)}")
        allowed = rs.get("players", [])
        if len(factions) not in allowed:
            raise GameError(f"ruleset '{ruleset}' is for {', '.join(map(str, allowed))} players, not {len(factions)}")
        if len(set(factions)) != len(factions):
            raise GameError("a faction can be played by only one player")
        layout = layout or rs.get("map", {}).get(str(len(factions)))
        if layout not in model.layouts:
            raise GameError(f"unknown map layout '{layout}'")
        lay = model.layouts[layout]
        if lay.players and len(factions) not in lay.players:
            raise GameError(f"map layout '{layout}' is for {', '.join(map(str, lay.players))} players, "
                            f"not {len(factions)}")
        if lay.incomplete:
            raise GameError(f"map layout '{layout}' cannot be played: it is incomplete ({lay.incomplete})")
        for f in factions:
            for t in model.factions[f].units.values():
                if t.unknown:
                    raise GameError(f"faction '{f}': {t.name} has unknown {', '.join(t.unknown)}; "
                                    "a ruleset must name an interpretation before it can be played")
        r = cls.blank(content, ruleset, layout, [])
        try:
            r.independents, left_out = r.choose_independents(list(factions), independents)
        except RuleError as exc:
            raise GameError(str(exc)) from exc
        return r, left_out

    def copy(self, hook: Callable[[dict[str, Any]], None] | None = None) -> "Rules":
        """An independent context over a copy of the state, continuing exactly as this one would:
        the derived facts carry over, the log and scripted dice are copied, `hook` watches it."""
        r = Rules.__new__(Rules)
        r.__dict__.update(self.__dict__)
        r._event_hook = hook
        r.s = self.s.copy()
        r._memo = self.memo_for_copy(r.s)
        r.log = list(self.log)
        r._forced_dice = list(self._forced_dice) if self._forced_dice is not None else None
        return r

    def __repr__(self) -> str:
        return f"<Rules of {', '.join(self.s.players) if hasattr(self, 's') else 'no state'}>"


def new_state(r: Rules, ruleset: str, layout: str, factions: list[str], seed: int) -> State:
    """The state a new game starts from."""
    from .position import empty_state
    return empty_state(r.content, ruleset, layout, factions, seed, r.independents)
