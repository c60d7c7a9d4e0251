"""Answers that only lead back to a position the bot already stood in this round.

Free actions can undo each other (abandon a Gate, control it again), and a search that sees no
cost in them may toggle back and forth for a whole turn, each toggle worth a search of its own.
`Repeats` remembers, per player and round, the positions the bot answered from (the board as the
player sees it, without the engine's counters of actions and turns), and names the free options of
an action decision whose result is one of them. The search leaves those out of the root, unless
nothing else is left. Who answers next is part of the position, and so is the turn's number, so
ending a turn is never taken for a way back. Only action decisions and options costing no Power are looked at: anything
that costs something cannot lead back to the same position.
"""
from __future__ import annotations

import json
from typing import Any

from ..engine.decisions import Decision, IllegalAction
from ..engine.game import Game, GameError
from ..engine.options import option_info
from ..engine.rng import Rng
from ..engine.seat import Seat
from .determinize import Known, determinize

__all__ = ["Repeats", "board_key"]

# what changes with every answer without changing the position: the rule flow, the pending question,
# where the outer loop resumes, the event counter, and the engine's counters of this turn's actions
_NOT_POSITION = ("seq", "flow", "pending", "step", "rng", "seed")
# (the turn's number stays: ending a turn is not a way back)
_COUNTERS = ("battle_no", "action_no", "actions")


def board_key(g: Game, player: str) -> str:
    """The position as `player` knows it, as one string: equal for two positions that differ only in
    bookkeeping or in what the player cannot see (others' face-down Elder Sign values, the bag's
    contents, the generator)."""
    d: dict[str, Any] = {k: v for k, v in g.s.to_dict().items() if k not in _NOT_POSITION}
    d["elder_signs"] = {p: v if p == player else len(v) for p, v in d["elder_signs"].items()}
    d["es_bag"] = len(d["es_bag"])
    d["memory"] = {k: v for k, v in (d.get("memory") or {}).items() if k not in _COUNTERS}
    d["to_answer"] = [(g.s.pending or {}).get(k) for k in ("player", "kind")]   # a begun action is not back
    return json.dumps(d, sort_keys=True, default=str)


class Repeats:
    """The positions each player answered from this round (for one bot)."""

    def __init__(self) -> None:
        self._round: int | None = None
        self._stood: dict[str, set[str]] = {}

    def back_again(self, seat: Seat, d: Decision, known: Known | None = None) -> frozenset[str]:
        """Record the position `seat` answers from now; the free options of `d` that lead back to a
        position this player already answered from this round (never all of them). Each option is
        tried on a determinized copy (`known`: `known_to(seat)`), drawn with a fixed generator so the
        bot's own draws are not disturbed: on a masked copy, a rule that reads a hidden value (may
        a reveal end the game?) fails, and the option would be passed over as illegal."""
        copy = determinize(seat, Rng(0), known)
        if self._round != copy.s.round:
            self._round, self._stood = copy.s.round, {}
        stood = self._stood.setdefault(d.player, set())
        stood.add(board_key(copy, d.player))
        if d.kind != "action":
            return frozenset()
        back = set()
        for info in option_info(d, copy.s.players, copy.layout.areas):
            if info.cost:
                continue
            after = copy.clone()
            try:
                after.apply(info.label)
            except (GameError, IllegalAction):
                continue
            if board_key(after, d.player) in stood:
                back.add(info.label)
        return frozenset(back) if len(back) < len(d.options) else frozenset()
