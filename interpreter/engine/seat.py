"""A seat at the table: what a bot is handed instead of the game.

Bots decide from their player's view (`Game.view(player)`) and the pending decision, never from
the full state. The driver hands each bot a `Seat` per player it plays (`hand_seats`), through
the bot's `sit(seat)` method; the decision itself still comes through the one decision interface,
`choose(player, options, decision)`. What a seat gives:

- `view()`: the player's view (plain JSON data; others' hidden values read None);
- `board()`: a read-only Game rebuilt from that view and the content alone, so a bot can ask the
  engine's own questions (a unit's combat, a Ritual's cost) of the position as the player knows
  it; hidden values read None there too, and it has no generator: it cannot be played;
- `reading()`: the same board made without copying (its state holds the game's own public values,
  the hidden ones masked alike), for a bot that reads a few facts at each decision and keeps
  nothing: never change it, never keep it past the decision;
- `events()`: the public log (events carry no hidden values; revealed Elder Signs do);
- `masked_copy(rng)`: a playable copy of the position (the state is the whole game) with every
  hidden value masked (others' face-down Elder Signs, the bag, the generator and seed, scripted
  dice, position digests in the rule flow) and others' unrevealed secret picks (kept in their
  frame) drawn afresh by `rng`; the search bot fills the masked values by sampling
  (search/determinize.py) before it plays the copy.

Front ends that answer for a person (the terminal seat, the browser) are not bots: they still get
the game through `observe(game)` (they show the person their own view, undo, save).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from .options import Option, option_info
from .state import State
from .view import board_state, shared_state, view_params

if TYPE_CHECKING:
    from ..content.build import Content
    from .decisions import Decision
    from .game import Game
    from .rng import Rng

__all__ = ["Seat", "board_from_view", "hand_seats"]


class Seat:
    """One player's place at one game: the view and what can be built from it (cached per position)."""

    def __init__(self, game: "Game", player: str) -> None:
        if player not in game.s.players:
            raise ValueError(f"'{player}' is not playing; players: {', '.join(game.s.players)}")
        self._game = game
        self.player = player
        self._key: tuple[Any, ...] | None = None
        self._view: dict[str, Any] | None = None
        self._board: "Game | None" = None
        self._reading: "Game | None" = None
        self._sets: tuple[Any, ...] | None = None   # the players, the layout, and their sets option_info reads

    def _position(self) -> tuple[Any, ...]:
        g = self._game
        return (id(g.s), len(g.choices), len(g.log), g.s.seq)

    def _at_position(self) -> None:
        """Forget the view and board of an earlier position."""
        key = self._position()
        if key != self._key:
            self._key, self._view, self._board, self._reading = key, None, None, None

    def view(self) -> dict[str, Any]:
        """The player's view of the position now (do not change it: it is shared until the next decision)."""
        self._at_position()
        if self._view is None:
            self._view = self._game.view(self.player)
        return self._view

    def board(self) -> "Game":
        """A read-only Game holding the view's state (rebuilt from the view and the content only;
        without a view made at this position, from the view's masked state alone: `view.board_state`)."""
        self._at_position()
        if self._board is None:
            g = self._game
            if self._view is not None:
                self._board = board_from_view(g.bundle, self._view, self.events())
            else:
                self._board = _board(g.bundle, view_params(g), board_state(g, self.player), self.events())
        return self._board

    def reading(self) -> "Game":
        """The board (`board()`) made without copying the state: its state is
        `view.shared_state` (the game's own public values, the hidden ones masked alike), and its
        memo starts with the game's facts at this position (each a function of public values: who
        has which abilities, units and kinds in play, the modifier index; the entries the rule
        flow hands between steps are left out, the flow being masked). A fact is worked out once
        per position for the game and its bots alike. Read it during this decision only: never
        change it (that would change the game), never keep it (the game's values change under
        it)."""
        self._at_position()
        if self._reading is None:
            g = self._game
            board = _board(g.bundle, view_params(g), shared_state(g, self.player), self.events())
            board.rules.memo_from(g.rules)
            self._reading = board
        return self._reading

    def events(self) -> list[dict[str, Any]]:
        """The public log of the game so far (read it, do not change it)."""
        return self._game.log

    def options(self, d: "Decision") -> "list[Option]":
        """What each option of this player's decision `d` is: the records the rules asked it with
        (`Decision.records`, the listing's), else read from its labels (engine/options.py). Either
        says only what the labels and their costs say, public facts (the players at the table,
        the map), so no view is made for it."""
        records = d.records
        if records is not None:
            return list(records.values())
        g = self._game
        players, layout = g.s.players, g.layout
        sets = self._sets
        if sets is None or sets[0] != players or sets[1] is not layout:   # made once a game, not per decision
            sets = self._sets = (list(players), layout, frozenset(players), frozenset(layout.areas))
        return option_info(d, sets[2], sets[3])

    def decision(self) -> "Decision | None":
        """The pending decision when it is this player's, else None (others' decisions are theirs)."""
        d = self._game.pending
        return d if d is not None and d.player == self.player else None

    def open_picks(self) -> tuple[int, ...]:
        """Others' secret picks not yet revealed: their positions among the picks of the pending
        `secret_picks` (kept in its frame of the rule flow until all are revealed together)."""
        g = self._game
        d = g.pending
        if d is None or not d.context.get("secret"):
            return ()
        return tuple(i for st in _secret_waits(g.s.flow) for i, r in enumerate(st["picks"]) if r["player"] != self.player)

    def masked_copy(self, rng: "Rng") -> "Game":
        """A playable copy at the pending decision with every hidden value masked (others' face-down
        signs and the bag None, the generator and seed 0, no scripted dice, position digests in
        the flow blanked, no undo history and no answers, a fresh memo) and others' unrevealed secret picks drawn
        afresh with `rng` among the options of the same question."""
        g = self._game.clone()
        for st in _secret_waits(g.s.flow):      # the picks others made face down: drawn afresh
            for r in st["picks"]:
                if r["player"] != self.player:
                    r["value"] = st["options"][rng.below(len(st["options"]))]
        _mask_live(g, self.player)
        g._history = None   # the positions kept for undo hold the real values: a masked copy cannot be undone
        g.choices = []      # the real answers include others' face-down picks: the copy counts its own from here
        g.rules._memo = None      # facts derived from the real position are worked out again from the copy's
        return g


def _mask_live(g: "Game", player: str) -> None:
    s = g.s
    for p in s.players:
        if p != player:
            s.elder_signs[p] = [None] * len(s.elder_signs[p])  # type: ignore[list-item]
    s.es_bag = [None] * len(s.es_bag)  # type: ignore[list-item]
    s.rng = 0
    s.seed = 0
    g.rules._forced_dice = None
    g.params = {k: v for k, v in g.params.items() if k not in ("seed", "forced_dice")}
    s.flow = _scrub_digests(s.flow)


def _secret_waits(flow: list[Any]) -> list[dict[str, Any]]:
    """The states of pending `secret_picks` in the rule flow (a frame waiting on it keeps
    `wait: ["secret_picks", {players, options, labels, prompt, picks: [{player, value}]}]`)."""
    out = []
    for f in flow:
        w = f.get("wait") if isinstance(f, dict) else None
        if isinstance(w, list) and len(w) == 2 and w[0] == "secret_picks" and isinstance(w[1], dict):
            out.append(w[1])
    return out


_DIGEST = re.compile(r"[0-9a-f]{40}")


def _scrub_digests(x: Any) -> Any:
    """The rule flow with every position digest (40 hex digits, `Game.position_key()`) blanked: a
    digest covers the whole state, hidden values included, so the real game's would tell them
    apart (and never match a copy whose hidden values were drawn afresh anyway)."""
    if isinstance(x, str):
        return "" if _DIGEST.fullmatch(x) else x
    if isinstance(x, list):
        return [_scrub_digests(v) for v in x]
    if isinstance(x, dict):
        return {k: _scrub_digests(v) for k, v in x.items()}
    return x


def board_from_view(content: "Content", view: dict[str, Any], events: list[dict[str, Any]] | None = None) -> "Game":
    """A Game for reading only, built from a view and the content: the engine's questions (combat,
    costs, Doom values, the Ritual track) answered for the position the view shows."""
    return _board(content, dict(view["params"]), State(**{**view["state"], "flow": [], "pending": None}), events)


def _board(content: "Content", params: dict[str, Any], state: State, events: list[dict[str, Any]] | None) -> "Game":
    """A read-only Game of `state` (a view's) with the view's `params` (a dict of its own: kept as it is)."""
    from .game import Game
    from .rules import Rules
    g = Game.__new__(Game)
    g.rules = Rules.blank(content, params["ruleset"], params["layout"], params.get("independents", []),
                          events if events is not None else [])   # (blank copies the list)
    g.params = params
    g.choices, g._history = [], None
    state.flow, state.pending = [], None   # no rule flow (the view masks it): read, not played
    g.s = state
    return g


def hand_seats(game: "Game", agents: dict[str, Any]) -> None:
    """Seat every bot (`sit(Seat)` for each player it plays); front ends with `observe` get the game."""
    for player, agent in agents.items():
        if hasattr(agent, "sit"):
            agent.sit(Seat(game, player))
        elif hasattr(agent, "observe"):
            agent.observe(game)
