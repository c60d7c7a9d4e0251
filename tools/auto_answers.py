"""Answers a person lets the board give for their seat: a decision whose options are all alike
(one line of the menu, `group_options`) and, if asked for, ending the turn when only Unlimited
Actions are left. The same rule for the web board and the terminal; the answer still goes
through the one decision interface (`Game.apply`, or a seat's `choose`) and into the log, and
an undo of "my last decision" goes back past such answers (`is_auto`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from necronomicon.interpreter.engine.decisions import Decision
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.turn import END_TURN, only_unlimited_left

from .human_seat import group_options

__all__ = ["AutoAnswers", "auto_answer", "MAX_AUTO_IN_A_ROW"]

MAX_AUTO_IN_A_ROW = 10_000   # a bound on answers given in a row without a person (never reached in play)


@dataclass(frozen=True)
class AutoAnswers:
    """A seat's setting: `one_option` answers a decision whose options are all alike (on by
    default); `end_turn` ends the turn when only Unlimited Actions remain (off by default)."""

    one_option: bool = True
    end_turn: bool = False

    def as_json(self) -> dict[str, bool]:
        return {"one_option": self.one_option, "end_turn": self.end_turn}

    @classmethod
    def from_json(cls, data: Any) -> "AutoAnswers":
        """A stored setting (anything else: the default)."""
        if not isinstance(data, dict):
            return cls()
        return cls(data.get("one_option", True) is not False, data.get("end_turn", False) is True)


def auto_answer(game: Game, decision: Decision, auto: AutoAnswers) -> str | None:
    """The answer `auto` gives to `decision` (the game's pending one), or None: the person answers."""
    if auto.one_option:
        menu = group_options(decision.options, game, decision.player)
        if len(menu) == 1:
            return menu[0].labels[0]
    if auto.end_turn and END_TURN.label in decision.options and only_unlimited_left(game):
        return END_TURN.label
    return None
