"""The heuristic bot's judgement where it shapes whole games (seeded bot games are what balance
reports are built from)."""
from __future__ import annotations

import pytest

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.agents import HeuristicAgent
from necronomicon.interpreter.engine.decisions import Decision
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.seat import Seat
from necronomicon.interpreter.engine import actions
from necronomicon.interpreter.engine import basics
from necronomicon.interpreter.engine import phases

FACTIONS = ["great-cthulhu", "crawling-chaos", "black-goat"]


def _ritual_score(g: Game, player: str) -> float:
    d = Decision(player, "doom", ("ritual", "done"), "Doom Phase")
    seat = Seat(g, player)            # what choose() reads: the position as the player's view shows it
    ritual = seat.options(d)[0]
    assert ritual.verb == "ritual"
    return HeuristicAgent(1).score(player, ritual, d, seat.board())


@pytest.mark.parametrize("books, wanted", [(5, False), (6, True)])
def test_no_ritual_that_ends_a_game_the_bot_cannot_win(base_game: Content, books: int, wanted: bool) -> None:
    g = Game(base_game, "multiplayer", FACTIONS, seed=1)
    g.s.round = 4
    g.s.ritual = len(phases.ritual_track(g.rules)) - 1            # the next ritual ends the game
    g.s.spellbooks["great-cthulhu"] = [b for b in basics.faction(g.rules, "great-cthulhu").spellbooks][:books]
    assert g.s.controlled_gates("great-cthulhu")      # it has a gate: otherwise a ritual is worth it
    assert (_ritual_score(g, "great-cthulhu") > 0) is wanted


def test_a_ritual_earlier_on_the_track_is_still_worth_it(base_game: Content) -> None:
    g = Game(base_game, "multiplayer", FACTIONS, seed=1)
    g.s.round = 4
    g.s.ritual = len(phases.ritual_track(g.rules)) - 2
    assert _ritual_score(g, "great-cthulhu") > 0


def test_without_the_six_spellbook_condition_the_last_ritual_is_fine(base_game: Content) -> None:
    g = Game(base_game, "duel", ["sleeper", "wind-rider"], seed=1)   # the Duel wins on Doom alone
    g.s.round = 4
    g.s.ritual = len(phases.ritual_track(g.rules)) - 1
    p = next(p for p in g.s.players if g.s.controlled_gates(p))
    assert _ritual_score(g, p) > 0


def test_the_rituals_left_and_the_spellbooks_to_win_are_read_in_one_place() -> None:
    from necronomicon.interpreter.content import load_content
    from necronomicon.interpreter.engine.game import Game
    from necronomicon.interpreter.engine.phases import SPELLBOOKS
    g = Game(load_content().require_ok(), "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat"], 1)
    track = len(phases.ritual_track(g.rules))
    assert phases.rituals_left(g.rules) == track
    g.s.ritual = track - 1
    assert phases.rituals_left(g.rules) == 1          # the next Ritual ends the game
    p = g.s.players[0]
    books = list(basics.faction(g.rules, p).spellbooks)[:SPELLBOOKS]
    g.s.spellbooks[p] = books[:-1]
    assert not phases.has_all_spellbooks(g.rules, p)
    g.s.spellbooks[p] = books
    assert phases.has_all_spellbooks(g.rules, p) and actions.extra_battle_allowed(g.rules, p)


def test_a_move_is_scored_from_where_the_units_are_now(base_game: Content) -> None:
    """The bot counts its units per place once per board while they stay put (a move decision
    scores many moves), and counts again after any of them moves."""
    from necronomicon.interpreter.engine.option import Option
    g = Game(base_game, "multiplayer", FACTIONS, seed=1)
    player = "great-cthulhu"
    bot = HeuristicAgent(1)
    d = Decision(player, "move", ("x", "done"), "move a unit")
    u = g.s.on_map(player)[0]
    home = u["loc"]
    empty = next(a for a in g.layout.areas if not g.s.units_at(a, player))
    o = Option("move", "move-unit", unit_kind=u["kind"], unit=u["id"], src=home, dst=empty)
    crowded = len(g.s.units_at(home, player)) > 1
    assert bot.score(player, o, d, g) == 4 + (1 if crowded else 0)    # a fresh place, and leaving friends
    for friend in g.s.units_at(home, player):                         # every unit goes there first
        friend["loc"] = empty
        g.s.moved(friend, home)
    assert bot.score(player, o, d, g) == 0 + 0                        # no longer fresh; no one left behind


@pytest.mark.parametrize("n", [1, 6, 100, 2**63 + 1, 2**64 - 1])
def test_drawing_several_numbers_at_once_gives_the_numbers_one_by_one(n: int) -> None:
    """`Rng.below_each(n, k)` (the heuristic bot's tie-breaks) draws what k calls of `below(n)` draw,
    rejections included (n just above 2**63 rejects about half of the raw numbers)."""
    from necronomicon.interpreter.engine.rng import Rng
    one, each = Rng(12345), Rng(12345)
    expected = [one.below(n) for _ in range(50)]
    assert each.below_each(n, 20) + each.below_each(n, 0) + each.below_each(n, 30) == expected
    assert each.state == one.state
    with pytest.raises(ValueError):
        each.below_each(0, 3)
