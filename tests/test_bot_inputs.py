"""Bots are handed views, never the game (issue 15, 'Bots are handed views'): two games that differ
only in what a player may not know give that player's bot identical inputs (its seat's view, the
board rebuilt from it, the structured options, the masked copies the search bot samples from)
and identical choices."""
from __future__ import annotations

from typing import Any

import pytest

from necronomicon.interpreter.bots import make_agent
from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.agents import RandomAgent
from necronomicon.interpreter.engine.decisions import Decision
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.position import build_state
from necronomicon.interpreter.engine.rng import Rng
from necronomicon.interpreter.engine.seat import Seat, hand_seats
from necronomicon.interpreter.search.determinize import determinize
from necronomicon.interpreter.engine import core

FACTIONS = ["great-cthulhu", "crawling-chaos", "black-goat"]
BOTS = ["random", "heuristic", "mcts:4:depth=6", "mcts:3:depth=4:heuristic"]


def _game(content: Content, signs: dict[str, list[int]], seed: int = 1, pos: dict[str, Any] | None = None,
          independents: list[str] | None = None) -> Game:
    layout = content.model.rulesets["multiplayer"].get("map")["3"]
    position = {"player": "great-cthulhu", "power": {f: 8 for f in FACTIONS},
                "units": {"great-cthulhu": {"south-pacific": ["acolyte", "acolyte", "deep-one"]},
                          "crawling-chaos": {"asia": ["acolyte", "acolyte"]},
                          "black-goat": {"africa": ["acolyte", "acolyte"], "south-pacific": ["ghoul"]}},
                "gates": {"south-pacific": "great-cthulhu", "asia": "crawling-chaos"},
                "elder-signs": signs, **(pos or {})}
    state = build_state(content.model, "multiplayer", layout, FACTIONS, seed, position, independents or [])
    return Game(content, "multiplayer", FACTIONS, seed, layout, independents=independents, _state=state.to_dict())


class _KeepsSignsHidden(RandomAgent):
    """Random, but never reveals its Elder Signs (a reveal would make the differing values public)."""

    def choose(self, player: str, options: tuple[str, ...], context: Decision) -> str:
        kept = tuple(o for o in options if o != "reveal-elder-signs") or options
        return super().choose(player, kept, context)


def _inputs(seat: Seat, d: Decision) -> tuple[Any, ...]:
    """Everything a bot can read at its decision."""
    return (seat.view(), seat.board().s.to_dict(), seat.reading().s.to_dict(), [o.as_json() for o in seat.options(d)],
            (d.player, d.kind, d.options, d.prompt, d.context), determinize(seat, Rng(3)).s.to_dict())


@pytest.mark.parametrize("bot", BOTS)
def test_games_differing_only_in_an_opponents_hidden_elder_signs_give_the_same_inputs_and_choices(
        base_game: Content, bot: str) -> None:
    a = _game(base_game, {"great-cthulhu": [2], "crawling-chaos": [1, 1]})
    b = _game(base_game, {"great-cthulhu": [2], "crawling-chaos": [3, 2]})
    assert a.s.elder_signs != b.s.elder_signs and a.s.es_bag != b.s.es_bag
    assert a.s.elder_signs["great-cthulhu"] == b.s.elder_signs["great-cthulhu"]
    # great-cthulhu and black-goat play `bot`; crawling-chaos (whose values differ) at random, same seed
    seated = []
    for g in (a, b):
        agents = {p: make_agent(bot, 7 + i) if p != "crawling-chaos" else _KeepsSignsHidden(7 + i)
                  for i, p in enumerate(FACTIONS)}
        hand_seats(g, agents)
        seated.append(agents)
    asked = 0
    for _ in range(25):
        da, db = a.current(), b.current()
        if da is None:
            break
        assert db is not None and da.player == db.player
        p = da.player
        if p != "crawling-chaos":
            seats = [Seat(a, p), Seat(b, p)]
            ia, ib = _inputs(seats[0], da), _inputs(seats[1], db)
            assert ia == ib, f"{p}'s inputs differ at decision {len(a.choices)}"
            asked += 1
        answers = [seated[k][p].choose(p, d.options, d) for k, d in ((0, da), (1, db))]
        assert answers[0] == answers[1], f"{p} ({bot}) chose differently at decision {len(a.choices)}"
        a.apply(answers[0])
        b.apply(answers[1])
    assert asked >= 5
    assert a.s.elder_signs["crawling-chaos"] != b.s.elder_signs["crawling-chaos"]   # still different underneath


@pytest.mark.parametrize("bot", BOTS)
def test_an_opponents_unrevealed_secret_pick_gives_the_same_inputs_and_choice(bot: str) -> None:
    expanded = load_content(expansions=["azathoth"]).require_ok()
    pos = {"round": 2, "doom": {"great-cthulhu": 6, "crawling-chaos": 5, "black-goat": 3},
           "units": {"great-cthulhu": {"south-pacific": ["acolyte", "cthulhu"]},
                     "crawling-chaos": {"asia": ["acolyte", "nyarlathotep"]},
                     "black-goat": {"africa": ["acolyte", "shub-niggurath"]}},
           "power": {"great-cthulhu": 10, "crawling-chaos": 4, "black-goat": 4}, "elder-signs": {}}
    inputs, choices = [], []
    for secret in ("6", "2"):
        g = _game(expanded, {}, pos=pos, independents=["azathoth"])
        g.rules._forced_dice = [3]
        g.apply("awaken azathoth south-pacific")
        g.apply(secret)                                    # crawling-chaos picks face down
        d = g.current()
        assert d is not None and d.player == "black-goat" and d.kind == "secret"
        seat = Seat(g, "black-goat")
        assert len(seat.open_picks()) == 1                  # crawling-chaos's, not yet revealed
        copy = seat.masked_copy(Rng(1))                     # what a search bot plays on: the real answers,
        assert secret in g.choices and copy.choices == []   # the face-down pick among them, stay behind
        inputs.append(_inputs(seat, d))
        agent = make_agent(bot, 11)
        hand_seats(g, {"black-goat": agent})
        choices.append(agent.choose("black-goat", d.options, d))   # type: ignore[attr-defined]
    assert inputs[0] == inputs[1] and choices[0] == choices[1]


def test_a_seat_board_holds_the_view_and_no_hidden_value(base_game: Content) -> None:
    g = _game(base_game, {"great-cthulhu": [2], "crawling-chaos": [3, 2]})
    seat = Seat(g, "great-cthulhu")
    board = seat.board()
    assert board.s.to_dict() == {**seat.view()["state"], "flow": [], "pending": None}
    assert board.s.elder_signs == {"great-cthulhu": [2], "crawling-chaos": [None, None], "black-goat": []}
    assert board.s.rng is None and set(board.s.es_bag) == {None} and "seed" not in board.params
    assert core.combat_of(board.rules, board.s.units_at("south-pacific", "great-cthulhu")[0]) == \
        core.combat_of(g.rules, g.s.units_at("south-pacific", "great-cthulhu")[0])
    copy = seat.masked_copy(Rng(1))
    assert copy.s.elder_signs["crawling-chaos"] == [None, None] and copy.current() == g.current()
    with pytest.raises(ValueError, match="not playing"):
        Seat(g, "sleeper")


def test_the_heuristic_bot_makes_a_board_only_for_choices_it_scores_from_one(base_game: Content) -> None:
    from necronomicon.interpreter.engine.agents import HeuristicAgent
    g = _game(base_game, {"great-cthulhu": [2], "crawling-chaos": [3, 2]})
    d = g.current()
    assert d is not None and d.kind == "action" and d.player == "great-cthulhu"
    battles = [o for o in d.options if o.split()[0] in ("battle", "extra-battle")]
    assert battles   # black-goat's ghoul shares south-pacific with great-cthulhu's units
    bot = HeuristicAgent(3)
    seat = Seat(g, d.player)
    bot.sit(seat)
    calm = Decision(d.player, "action", tuple(o for o in d.options if o not in battles), d.prompt, d.context)
    bot.choose(d.player, calm.options, calm)
    assert seat._reading is None and seat._board is None and seat._view is None   # the verb and cost decide
    choice = bot.choose(d.player, d.options, d)
    assert seat._reading is not None   # a battle's odds are read off the board (the seat's reading)
    assert seat._board is None and seat._view is None   # no copy of the state, no view
    # the same choice as a bot that always has the board
    always = HeuristicAgent(3)
    always.choose(d.player, calm.options, calm)   # the same draws from its generator as `bot`
    scored = [(always.score(d.player, o, d, seat.board()) + always.rng.below(100) / 1000, o.label)
              for o in seat.options(d)]
    assert max(scored)[1] == choice


def test_a_board_made_before_the_view_is_the_board_the_view_gives(base_game: Content) -> None:
    """Seat.board() without a view made at the position builds from view.board_state (the masked
    state copied as a State; no battle figures, no pending decision): the same
    state and parameters as a board built from the whole view, in a battle (whose figures the
    whole view works out) and out of one, and nothing of the board is the game's own."""
    from necronomicon.interpreter.engine.seat import board_from_view
    g = _game(base_game, {"great-cthulhu": [2], "crawling-chaos": [3, 2]})
    battle = next(o for o in g.current().options if o.startswith("battle "))   # type: ignore[union-attr]
    for answer in (None, battle):
        if answer is not None:
            g.apply(answer)
            assert g.s.battle is not None
        for player in FACTIONS:
            lean = Seat(g, player).board()
            full = board_from_view(g.bundle, g.view(player), g.log)
            assert lean.s.to_dict() == full.s.to_dict() and lean.params == full.params
            assert lean.s.units[0] is not g.s.units[0] and lean.s.units[0] == g.s.units[0]
            assert lean.s.memory is not g.s.memory and lean.s.gates is not g.s.gates


def test_a_seat_reading_is_the_board_made_without_copying(base_game: Content) -> None:
    """Seat.reading() holds what Seat.board() holds (the view's state, masked alike), made from the
    game's own public values instead of copies; its memo starts with the game's facts, each what the
    reading itself works out, none of the entries the (masked) rule flow hands between steps; and
    reading facts off it leaves the game as it was."""
    from necronomicon.interpreter.engine import actions, basics
    from necronomicon.interpreter.engine.basics import MEMO_CHECKED_AT_USE
    g = _game(base_game, {"great-cthulhu": [2], "crawling-chaos": [3, 2]})
    battle = next(o for o in g.current().options if o.startswith("battle "))   # type: ignore[union-attr]
    for answer in (None, battle):
        if answer is not None:
            g.apply(answer)
        before = g.s.to_text()
        for player in FACTIONS:
            seat = Seat(g, player)
            reading, board = seat.reading(), seat.board()
            assert reading is seat.reading()                     # one per position
            assert reading.s.to_dict() == board.s.to_dict() and reading.params == board.params
            assert reading.s.units is g.s.units and reading.s.gates is g.s.gates   # not copied
            assert reading.s.rng is None and reading.s.flow == [] and set(reading.s.es_bag) == {None}
            assert all(v is None for p, vs in reading.s.elder_signs.items() if p != player for v in vs)
            facts = reading.rules.memo()
            assert not any(k.__class__ is tuple and k[0] in MEMO_CHECKED_AT_USE for k in facts)
            for key, value in list(facts.items()):
                assert reading.rules._recompute(key) == value, key
            assert reading.rules.held_conditions() == {}   # the game's are its state object's, not the reading's
            for u in g.s.units_at("south-pacific"):
                assert core.combat_of(reading.rules, u) == core.combat_of(board.rules, u)
            assert actions.gate_count(reading.rules, player) == actions.gate_count(board.rules, player)
            assert basics.units_per_place(reading.rules, player) == basics.units_per_place(board.rules, player)
        assert g.s.to_text() == before
    g.apply(g.current().options[0])   # type: ignore[union-attr]
    assert seat.reading() is not reading   # the next position has its own


@pytest.mark.parametrize("ruleset, factions", [("multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"]),
                                               ("duel", ["sleeper", "wind-rider"])])
def test_the_heuristic_bot_chooses_the_best_scored_option_with_its_tie_breaks(
        base_game: Content, ruleset: str, factions: list[str]) -> None:
    """Whatever it leaves unscored (a battle that cannot beat the best option) and whatever it works
    out once per decision, the bot's choice is the option with the best score plus tie-break, every
    option scored alone off the copied board (`Seat.board`) with the same draws of its generator."""
    from necronomicon.interpreter.engine.agents import HeuristicAgent
    g = Game(base_game, ruleset, factions, 5)
    bots = {p: HeuristicAgent(i) for i, p in enumerate(factions)}
    hand_seats(g, bots)   # type: ignore[arg-type]
    compared = battles = 0
    while (d := g.current()) is not None and compared < 400:
        bot = bots[d.player]
        if len(d.options) > 1:
            seat = Seat(g, d.player)
            ties = Rng(0)
            ties.state = bot.rng.state
            infos = seat.options(d)
            expected = max((bot.score(d.player, o, d, seat.board()) + ties.below(100) / 1000, o.label) for o in infos)[1]
            answer = bot.choose(d.player, d.options, d)
            assert answer == expected, (d.prompt, answer, expected)
            assert bot.rng.state == ties.state   # one draw per option, as before
            compared += 1
            battles += any(o.verb in ("battle", "extra-battle") for o in infos)
        else:
            answer = bot.choose(d.player, d.options, d)
        g.apply(answer)
    assert compared >= 150 and battles >= 5
