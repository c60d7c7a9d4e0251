"""Awakenings and company as requirement steps (engine/awaken_steps.py, engine/company.py): an
awakening that would meet an unmet requirement is linked from the content alone, for a modder's
faction as for the core ones; the heuristic bot with `awaken` walks a unit to where it would be
offered and keeps the Power it needs, and with `company` brings units beside a serving ability
that counts them; with `brake` it performs no ritual that would end a game it cannot win."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine import awaken_steps, company
from necronomicon.interpreter.engine.agents import HeuristicAgent
from necronomicon.interpreter.engine.decisions import Decision
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.seat import Seat
from necronomicon.interpreter.engine.seeking import Trial
from necronomicon.interpreter.search.budget import parse_agent

BASIC = Path(__file__).parent / "fixtures" / "basic"
YS = "yellow-sign"


@pytest.fixture(scope="module")
def titan(tmp_path_factory: pytest.TempPathFactory) -> Content:
    """The modder's red faction: r1 is earned by awakening the Red Titan, who rises only where a
    Brute of red's stands on a Gate (testland: a - b - c - d - f, b - e - c)."""
    folder = tmp_path_factory.mktemp("titan") / "basic"
    shutil.copytree(BASIC, folder)
    red = folder / "factions" / "red.yaml"
    text = red.read_text(encoding="utf-8")
    for old, new in (('{id: r1, text: never, condition: "false"}',
                      '''{id: r1, text: titan, when: on-awaken, condition: "event.player == me and event.kind == 'red-titan'"}'''),
                     ('awaken: {where: "areas(controlled_by: me)"}',
                      '''awaken: {where: "[b.loc for b in units(owner: me, kind: 'brute') if has_gate(b.loc)]"}''')):
        assert old in text
        text = text.replace(old, new)
    red.write_text(text, encoding="utf-8")
    return load_content([folder], builtin=False).require_ok()


def _brute_at(g: Game, area: str, gate: str = "f") -> int:
    """Every red unit back in the pool but one Brute in `area`; one Gate, nobody's, in `gate`."""
    for u in g.s.units_of("red"):
        if u["loc"] in g.layout.areas:
            src, u["loc"] = u["loc"], "pool"
            g.s.moved(u, src)
    g.s.gates.clear()
    g.s.gates[gate] = {"controller": None}
    g.s.written()
    brute = next(u for u in g.s.pool("red") if u["kind"] == "brute")
    brute["loc"] = area
    g.s.moved(brute, "pool")
    return brute["id"]


def _move_decision(g: Game, player: str, unit: int, dsts: list[str]) -> tuple[Decision, list, Seat]:
    u = g.s.unit(unit)
    d = Decision(player, "move", tuple(f"{u['kind']} {u['loc']}->{x}#{unit}" for x in dsts) + ("done",), "Move a unit")
    seat = Seat(g, player)
    return d, seat.options(d), seat


def test_an_awakening_is_linked_to_the_requirement_it_would_meet(titan: Content, base_game: Content) -> None:
    g = Game(titan, "test-multi", ["red", "blue"], 1)
    _brute_at(g, "b")
    gaps = awaken_steps.awaken_gaps(Seat(g, "red").board(), "red")
    assert [(x.kind, x.ids) for x in gaps] == [("red-titan", ("r1",))]
    g.s.requirements["red"] = ["r1"]                       # earned: nothing left to awaken for
    assert awaken_steps.awaken_gaps(Seat(g, "red").board(), "red") == []
    core = Game(base_game, "multiplayer", [YS, "black-goat", "sleeper", "wind-rider"], 1)
    assert {x.kind: x.ids for x in awaken_steps.awaken_gaps(Seat(core, YS).board(), YS)} == \
        {"king-in-yellow": ("awaken-king-in-yellow",), "hastur": ("awaken-hastur",)}


def test_the_awaken_bot_walks_a_unit_to_where_the_awakening_is_offered(titan: Content) -> None:
    g = Game(titan, "test-multi", ["red", "blue"], 1)
    brute = _brute_at(g, "b")
    d, (to_a, to_c, to_e, _done), seat = _move_decision(g, "red", brute, ["a", "c", "e"])
    board = seat.board()
    assert Trial(board, "red").aims(board.s.unit(brute)) == frozenset()          # without awaken: no aim
    trial = Trial(board, "red", awaken=True)
    assert trial.aims(board.s.unit(brute)) == frozenset({"f"})
    assert [trial.gain_reach(brute, x) for x in ("a", "c", "e")] == [-1, 1, 0]   # b is 3 steps from f, c 2
    reach = HeuristicAgent(1, progress=True, reach=True)
    walker = HeuristicAgent(1, progress=True, reach=True, awaken=True)
    assert reach.score("red", to_c, d, board) == reach.score("red", to_e, d, board)
    assert walker.score("red", to_c, d, board) > walker.score("red", to_e, d, board) > walker.score("red", to_a, d, board)
    # one step off (d, next to f): the step onto the Gate closes the distance, as progress scores it
    g = Game(titan, "test-multi", ["red", "blue"], 1)
    brute = _brute_at(g, "d")
    d, (to_c, to_f, _done), seat = _move_decision(g, "red", brute, ["c", "f"])
    assert Trial(seat.board(), "red", awaken=True).gain_move(brute, "f") == 1
    assert walker.score("red", to_f, d, seat.board()) > walker.score("red", to_c, d, seat.board())


def test_the_awaken_bot_keeps_the_power_the_awakening_needs(titan: Content) -> None:
    g = Game(titan, "test-multi", ["red", "blue"], 1)
    _brute_at(g, "f")                                      # offered: a Brute on a Gate; the Titan costs 6
    g.s.power["red"] = 7
    d = Decision("red", "action", ("summon grunt f", "summon brute f", "awaken red-titan f", "pass"), "Action",
                 context={"costs": {"summon grunt f": 1, "summon brute f": 2, "awaken red-titan f": 6}})
    seat = Seat(g, "red")
    cheap, dear, awaken, _pass = seat.options(d)
    plain, keeper = HeuristicAgent(1), HeuristicAgent(1, awaken=True)
    board = seat.board()
    assert Trial(board, "red", awaken=True).power_to_keep() == 6
    assert keeper.score("red", dear, d, board) < plain.score("red", dear, d, board)      # 7 - 2 < 6: it waits
    assert keeper.score("red", cheap, d, board) == plain.score("red", cheap, d, board)   # 7 - 1 = 6: it may
    assert keeper.score("red", awaken, d, board) > plain.score("red", awaken, d, board)
    keeper.sit(seat)
    assert keeper.choose("red", d.options, d) == "awaken red-titan f"
    g.s.power["red"] = 5                                   # short of the cost: nothing to keep
    assert Trial(Seat(g, "red").board(), "red", awaken=True).power_to_keep() == 0
    assert keeper.score("red", dear, d, Seat(g, "red").board()) == plain.score("red", dear, d, Seat(g, "red").board())


def test_awaken_tries_leave_the_board_as_it_was(titan: Content) -> None:
    g = Game(titan, "test-multi", ["red", "blue"], 1)
    brute = _brute_at(g, "b")
    board = Seat(g, "red").board()
    before = board.s.to_text()
    trial = Trial(board, "red", awaken=True)
    assert trial.gain_reach(brute, "c") == 1 and trial.reach_step() and trial.power_to_keep() == 0
    assert board.s.to_text() == before


def _king_at(g: Game, area: str, others: dict[str, int]) -> dict:
    """The King in Yellow in `area`; the Yellow Sign's Acolytes: `others` (area -> how many), the rest pooled."""
    for u in g.s.units_of(YS):
        if u["loc"] in g.layout.areas:
            src, u["loc"] = u["loc"], "pool"
            g.s.moved(u, src)
    king = next(u for u in g.s.units_of(YS) if u["kind"] == "king-in-yellow")
    king["loc"] = area
    g.s.moved(king, "pool")
    acolytes = [u for u in g.s.pool(YS) if u["kind"] == "acolyte"]
    for where, n in others.items():
        for u in acolytes[:n]:
            u["loc"] = where
            g.s.moved(u, "pool")
        acolytes = acolytes[n:]
    return king


def test_the_company_bot_brings_units_beside_a_roll_that_counts_them(base_game: Content) -> None:
    g = Game(base_game, "multiplayer", [YS, "black-goat", "sleeper", "wind-rider"], 1, "earth-3w5e")
    # the King in South America (circle: the last Desecration to earn), an Acolyte next to him
    _king_at(g, "south-america", {"north-america": 1})
    g.s.requirements[YS] = ["desecrate-slashes", "desecrate-chevron"]
    g.s.power[YS] = 6
    acolyte = next(u for u in g.s.on_map(YS) if u["kind"] == "acolyte")
    d, (to_king, to_sea, _done), seat = _move_decision(g, YS, acolyte["id"], ["south-america", "north-pacific"])
    board = seat.board()
    assert company.wanting(Trial(board, YS)) == {"south-america": "desecrate"}
    plain, joiner = HeuristicAgent(1, seek=True), HeuristicAgent(1, seek=True, company=True)
    assert plain.score(YS, to_sea, d, board) > plain.score(YS, to_king, d, board)   # the plain bot spreads out
    assert joiner.score(YS, to_king, d, board) > joiner.score(YS, to_sea, d, board)
    act = Decision(YS, "action", ("ability desecrate south-america", "move", "pass"), "Action",
                   context={"costs": {"ability desecrate south-america": 2, "move": 1}})
    aseat = Seat(g, YS)
    desecrate, move, _pass = aseat.options(act)
    assert plain.score(YS, desecrate, act, board) > plain.score(YS, move, act, board)
    assert joiner.score(YS, move, act, board) > joiner.score(YS, desecrate, act, board)
    # with nobody next to the King the roll is taken as it is
    g2 = Game(base_game, "multiplayer", [YS, "black-goat", "sleeper", "wind-rider"], 1, "earth-3w5e")
    _king_at(g2, "south-america", {"north-asia": 1})
    g2.s.requirements[YS] = ["desecrate-slashes", "desecrate-chevron"]
    b2 = Seat(g2, YS).board()
    assert joiner.score(YS, desecrate, act, b2) == plain.score(YS, desecrate, act, b2)


def test_the_brake_bot_performs_no_ritual_that_ends_a_game_it_cannot_win(base_game: Content) -> None:
    g = Game(base_game, "multiplayer", [YS, "black-goat", "sleeper", "wind-rider"], 1, "earth-3w5e")
    g.s.round = 4
    g.s.power[YS] = 10
    g.s.doom[YS] = 29                                      # one Gate (Europe): a ritual brings it to 30
    g.s.spellbooks[YS] = ["passion", "zingaya", "the-third-eye", "shriek-of-the-byakhee"]
    d = Decision(YS, "doom", ("ritual", "done"), "Doom Phase", context={"costs": {"ritual": 5}})
    seat = Seat(g, YS)
    ritual, done = seat.options(d)
    plain, braking = HeuristicAgent(1), HeuristicAgent(1, brake=True)
    assert plain.score(YS, ritual, d, seat.board()) > plain.score(YS, done, d, seat.board())
    assert braking.score(YS, ritual, d, seat.board()) < braking.score(YS, done, d, seat.board())
    g.s.doom[YS] = 20                                      # far from the goal: the ritual as before
    assert braking.score(YS, ritual, d, Seat(g, YS).board()) == plain.score(YS, ritual, d, Seat(g, YS).board())
    g.s.doom[YS] = 29
    g.s.spellbooks[YS] += ["the-screaming-dead", "he-who-is-not-to-be-named"]   # six: the goal may be won
    assert braking.score(YS, ritual, d, Seat(g, YS).board()) == plain.score(YS, ritual, d, Seat(g, YS).board())
    # the offer to reveal Elder Signs that would reach the goal: kept hidden short of six spellbooks
    offer = Decision(YS, "option", ("reveal-elder-signs", "keep"), "reveal your elder signs now?")
    reveal, keep = Seat(g, YS).options(offer)
    assert braking.score(YS, reveal, offer, Seat(g, YS).board()) == braking.score(YS, keep, offer, Seat(g, YS).board())
    g.s.spellbooks[YS] = g.s.spellbooks[YS][:4]
    assert plain.score(YS, reveal, offer, Seat(g, YS).board()) == plain.score(YS, keep, offer, Seat(g, YS).board())
    assert braking.score(YS, reveal, offer, Seat(g, YS).board()) < braking.score(YS, keep, offer, Seat(g, YS).board())


def test_awaken_and_company_are_search_settings() -> None:
    cfg = parse_agent("mcts:30:seek=1:progress=1:reach=1:awaken=1:company=1:brake=1")
    assert cfg.awaken and cfg.company and cfg.brake and cfg.label().endswith(":reach=1:awaken=1:company=1:brake=1")
    assert parse_agent(cfg.label()) == cfg
    assert not parse_agent("mcts:30:seek=1:progress=1:reach=1").awaken
    assert parse_agent("mcts:30:seek=1:progress=1:reach=1").label().endswith(":reach=1")
    with pytest.raises(ValueError, match="company must be 0"):
        parse_agent("mcts:30:company=yes")
    with pytest.raises(ValueError, match="brake must be 0"):
        parse_agent("mcts:30:brake=2")
