"""Requirement seeking (engine/seeking.py): the links read from the content, and the heuristic bot
with `seek` on keeping a unit in the pool for, and reaching for, an ability that earns an unmet
requirement (the Yellow Sign's Desecrate, whose three requirements count Desecration tokens)."""
from __future__ import annotations

import pytest

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.effects import ast as A
from necronomicon.interpreter.effects.parser import parse
from necronomicon.interpreter.engine.agents import HeuristicAgent
from necronomicon.interpreter.engine.decisions import Decision
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.play import run_game
from necronomicon.interpreter.engine.seat import Seat
from necronomicon.interpreter.engine import seeking
from necronomicon.interpreter.search.budget import parse_agent

YS = "yellow-sign"
FACTIONS = [YS, "black-goat", "sleeper", "wind-rider"]
DESECRATIONS = {"desecrate-circle", "desecrate-chevron", "desecrate-slashes"}


def test_literal_arguments_name_each_literal_by_its_parameter() -> None:
    tree = parse("count(pool(me, class: ['monster', 'cultist'])) + count(tokens(token: 'x'))", start="expr_start")
    found = A.literal_arguments(tree, {"pool": ["owner", "kind", "class"], "tokens": ["token"], "count": ["items"]})
    assert found == {("pool", "class", "monster"), ("pool", "class", "cultist"), ("tokens", "token", "x")}


def test_the_links_come_from_the_conditions_and_the_effects(base_game: Content) -> None:
    g = Game(base_game, "multiplayer", FACTIONS, seed=1)
    links = seeking.seeking_of(g, YS)
    assert links.serves == {"desecrate": frozenset(DESECRATIONS)}       # it places what they count
    assert links.takes == {"desecrate": (frozenset({"monster", "cultist"}), frozenset())}
    for f in FACTIONS[1:]:                                             # no token they count is placed
        assert seeking.seeking_of(g, f).serves == {}


def _summon(g: Game, player: str, kind: str) -> tuple[Decision, object, Seat]:
    area = next(a for a in g.layout.areas)
    d = Decision(player, "action", (f"summon {kind} {area}", "pass"), "Action", context={"costs": {f"summon {kind} {area}": 1}})
    seat = Seat(g, player)
    return d, seat.options(d)[0], seat


def _empty_pool_but(g: Game, player: str, keep: int) -> None:
    """Put all but `keep` of `player`'s cheap pooled units (not Great Old Ones) on the map."""
    area = next(a for a in g.layout.areas)
    cheap = [u for u in g.s.pool(player) if g.content.factions[player].units[u["kind"]].cls in ("monster", "cultist")]
    for u in cheap[keep:]:
        src, u["loc"] = u["loc"], area
        g.s.moved(u, src)


@pytest.mark.parametrize("left, kept", [(1, True), (2, False)])
def test_the_seeking_bot_keeps_the_last_cheap_unit_in_the_pool(base_game: Content, left: int, kept: bool) -> None:
    g = Game(base_game, "multiplayer", FACTIONS, seed=1)
    _empty_pool_but(g, YS, left)
    last = next(u for u in g.s.pool(YS) if g.content.factions[YS].units[u["kind"]].cls in ("monster", "cultist"))
    d, summon, seat = _summon(g, YS, last["kind"])
    plain = HeuristicAgent(1).score(YS, summon, d, seat.board())
    seeker = HeuristicAgent(1, seek=True).score(YS, summon, d, seat.board())
    assert (seeker < plain) is kept
    if kept:
        move = Decision(YS, "action", ("move", "pass"), "Action")
        assert seeker < HeuristicAgent(1, seek=True).score(YS, seat.options(move)[0], move, seat.board())
    g.s.requirements[YS] = list(DESECRATIONS)     # every requirement it serves met: nothing to keep
    assert HeuristicAgent(1, seek=True).score(YS, summon, d, Seat(g, YS).board()) == plain


def _first_desecrate_offer(content: Content) -> tuple[Game, Decision]:
    """A seeded game played by seeking bots up to the Yellow Sign's first action decision with
    Desecrate on offer."""
    for seed in range(1, 30):
        g = Game(content, "multiplayer", FACTIONS, seed=seed)
        agents = {f: HeuristicAgent(seed * 7 + i, seek=True) for i, f in enumerate(FACTIONS)}
        found: list[Decision] = []

        class Stop(Exception):
            pass

        def look(game: Game) -> None:
            d = game.pending
            if d is not None and d.player == YS and d.kind == "action" and any(o.startswith("ability desecrate") for o in d.options):
                found.append(d)
                raise Stop
        try:
            run_game(g, agents, on_decision=look)
        except Stop:
            return g, found[0]
    raise AssertionError("no seeded game offered Desecrate")


def test_the_seeking_bot_reaches_for_an_ability_that_earns_an_unmet_requirement(base_game: Content) -> None:
    g, d = _first_desecrate_offer(base_game)
    seat = Seat(g, YS)
    infos = seat.options(d)
    desecrate = next(o for o in infos if o.verb == "ability" and o.ability == "desecrate")
    plain = HeuristicAgent(1).score(YS, desecrate, d, seat.board())
    seeker = HeuristicAgent(1, seek=True)
    assert seeker.score(YS, desecrate, d, seat.board()) > plain
    others = [o for o in infos if o is not desecrate and o.verb not in ("control-gate", "awaken")]
    assert all(seeker.score(YS, desecrate, d, seat.board()) > seeker.score(YS, o, d, seat.board()) for o in others)
    seeker.sit(seat)
    answer = seeker.choose(YS, d.options, d)
    chosen = next(o for o in infos if o.label == answer)
    assert chosen.verb in ("ability", "control-gate", "awaken") and (chosen.verb != "ability" or chosen.ability == "desecrate")


def test_the_search_bot_takes_seek_from_its_name() -> None:
    assert parse_agent("mcts:30:seek=1").seek and not parse_agent("mcts:30").seek
    assert parse_agent("mcts:30:seek=1").label().endswith(":seek=1")
    assert parse_agent(parse_agent("mcts:30:seek=1").label()) == parse_agent("mcts:30:seek=1")
    with pytest.raises(ValueError, match="seek must be 0"):
        parse_agent("mcts:30:seek=yes")


def test_the_seeking_bot_brings_the_abilitys_holder_where_it_earns(base_game: Content) -> None:
    g, d = _first_desecrate_offer(base_game)
    seat = Seat(g, YS)
    area = next(o.area for o in seat.options(d) if o.verb == "ability" and o.ability == "desecrate")
    king = next(u for u in g.s.units_at(area, YS) if seeking.holds_seeker(g, YS, u["kind"]))
    areas = g.layout.areas
    here = areas[area].glyph
    there = next(a for a in g.layout.adjacent[area] if areas[a].glyph not in (None, here)
                 and not any(t["loc"] == a for t in g.s.tokens))
    wanted = f"desecrate-{areas[there].glyph}"
    g.s.requirements[YS] = [r for r in g.s.requirements[YS] if r not in DESECRATIONS] + sorted(DESECRATIONS - {wanted})
    board = Seat(g, YS).board()
    assert seeking.earning_areas(board, YS, "desecrate", [area, there]) == {there}   # only a new glyph earns
    assert seeking.move_pays(board, YS)
    bot, plain = HeuristicAgent(1, seek=True), HeuristicAgent(1)
    action = Decision(YS, "action", ("move", "pass"), "Action")
    move_action = Seat(g, YS).options(action)[0]
    assert bot.score(YS, move_action, action, board) > plain.score(YS, move_action, action, board)
    step = f"{king['kind']} {area}->{there}#{king['id']}"
    other = next(a for a in g.layout.adjacent[area] if areas[a].glyph != areas[there].glyph)
    sideways = f"{king['kind']} {area}->{other}#{king['id']}"
    moves = Decision(YS, "move", (step, sideways, "done"), "Move")
    infos = Seat(g, YS).options(moves)
    scores = [bot.score(YS, o, moves, board) for o in infos]
    assert scores[0] > max(scores[1:])                                  # the step to the new glyph wins
    assert scores[0] > plain.score(YS, infos[0], moves, board)
