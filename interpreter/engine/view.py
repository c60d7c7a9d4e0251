"""A player's view: the position as that player may know it (plain JSON data).

What the rulebooks keep secret is masked: other players' face-down Elder Sign values (their
number stays public), the order and values left in the Elder Sign bag (its size is public), the
random generator and seed (they would predict dice and draws), and a hidden simultaneous pick
(`secret_picks`) while it is pending: only its chooser sees the question's options. The picks
made so far are kept by the effect that asks (its frame in the rule flow) until all are revealed
together, so the rule flow (`flow`: where the rules stand and what they hold) is masked, and the
pending decision is shown only as `pending` (masked as above).

While a battle is on, `battle` adds what the state's battle record does not hold but a player at
the table can work out from public facts: each side's units in the battle (exempt ones left out)
with their combat and its total, and each side's dice as faces (kill, pain, miss).
"""
from __future__ import annotations

from typing import Any

from ..effects.compiler import RuleError
from .battle import die_face
from . import battle_queries
from . import core
from .core import combat_of
from .state import State

HIDDEN = None  # what a masked value reads as
_MASKED = frozenset({"rng", "seed", "flow", "pending"})   # fields a view never shows (not even copied)

__all__ = ["player_view", "board_state", "shared_state", "view_params", "battle_view", "HIDDEN"]


def player_view(game: Any, player: str | None) -> dict[str, Any]:
    """The game as `player` may know it; `player=None` is a spectator who sees only public facts."""
    if player is not None and player not in game.s.players:
        raise ValueError(f"'{player}' is not playing; players: {', '.join(game.s.players)}")
    s = game.s.to_dict(masked=_MASKED)
    s.update(dict.fromkeys(_MASKED, HIDDEN))
    s["elder_signs"] = {p: (list(v) if p == player else [HIDDEN] * len(v)) for p, v in s["elder_signs"].items()}
    s["es_bag"] = [HIDDEN] * len(s["es_bag"])
    return {"player": player, "state": s, "params": view_params(game), "pending": _pending(game, player),
            "battle": battle_view(game), "over": game.s.over, "winners": game.winner(),
            "result": game.result_line() if game.s.over else None}


def view_params(game: Any) -> dict[str, Any]:
    """The game's parameters a view shows (not the seed, nor scripted dice)."""
    return {k: v for k, v in game.params.items() if k not in ("seed", "forced_dice")}


def board_state(game: Any, player: str | None) -> State:
    """The state of `player_view(game, player)` as a State of its own (`State.copy`, not made into
    a dict and back), without the rest of the view (the pending decision, the battle's combat
    figures): the same values, masked alike (a bot's board is built from it: seat.py)."""
    if player is not None and player not in game.s.players:
        raise ValueError(f"'{player}' is not playing; players: {', '.join(game.s.players)}")
    s = game.s.copy(masked=_MASKED)   # (the masked fields read None)
    s.elder_signs = {p: (v if p == player else [HIDDEN] * len(v)) for p, v in s.elder_signs.items()}
    s.es_bag = [HIDDEN] * len(s.es_bag)
    return s


def shared_state(game: Any, player: str) -> State:
    """The state of `board_state(game, player)`, masked alike, but not copied: a shallow copy of
    the game's State (as `copy.copy` makes it: its public values are the game's own lists and dicts, and so
    are the indexes State keeps beside them, of those same values), the hidden values masked in
    it. Reading facts from it costs no copy; it must never be changed, and it is true only until
    the game moves on (the game's values change under it): a bot reads it during one decision
    (`Seat.reading`, seat.py)."""
    if player not in game.s.players:
        raise ValueError(f"'{player}' is not playing; players: {', '.join(game.s.players)}")
    s = game.s
    shared = State.__new__(State)          # copy.copy(s), without its generic machinery
    shared.__dict__.update(s.__dict__)     # (the saved fields)
    shared.share_fields(s)                 # (the unsaved ones: the same indexes of the same units)
    for name in _MASKED:
        setattr(shared, name, HIDDEN)
    shared.elder_signs = {p: (v if p == player else [HIDDEN] * len(v)) for p, v in s.elder_signs.items()}
    shared.es_bag = [HIDDEN] * len(s.es_bag)
    return shared


def _pending(game: Any, player: str | None) -> dict[str, Any] | None:
    d = game.current()
    if d is None:
        return None
    out: dict[str, Any] = {"player": d.player, "kind": d.kind, "prompt": d.prompt}
    if d.player == player or not d.context.get("secret"):
        out["options"] = list(d.options)
        if isinstance(d.context.get("costs"), dict):
            out["costs"] = dict(d.context["costs"])
    return out


def battle_view(game: Any) -> dict[str, Any] | None:
    """The battle under way as the table sees it (None when there is none): per side, its units in
    the battle with their combat (None when the content leaves it unknown), the total, and its
    dice's faces once rolled."""
    b = game.s.battle
    if b is None:
        return None
    sides = {}
    for side in (b["attacker"], b["defender"]):
        units = [{"id": u["id"], "combat": _combat(game, u)} for u in battle_queries.participants(game.rules, side)]
        rolled = b["rolled"].get(side)
        sides[side] = {"units": units, "combat": sum(u["combat"] or 0 for u in units),
                       "faces": [die_face(x) for x in rolled["rolls"]] if rolled else None}
    return {"area": b["area"], "attacker": b["attacker"], "defender": b["defender"], "sides": sides}


def _combat(game: Any, u: dict[str, Any]) -> int | None:
    try:
        return int(combat_of(game.rules, u))
    except RuleError:
        return None
