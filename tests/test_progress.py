"""Requirement progress (effects/progress.py, engine/seeking.py `Trial`): a board-state requirement's
distance from holding is read from its condition, for a modder's faction as for the core ones, and
the heuristic bot with `progress` prefers the move that brings an unmet requirement closer."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine import core
from necronomicon.interpreter.engine.agents import HeuristicAgent
from necronomicon.interpreter.engine.decisions import Decision
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.seat import Seat
from necronomicon.interpreter.engine.seeking import Trial
from necronomicon.interpreter.search.agent import SearchAgent
from necronomicon.interpreter.search.budget import parse_agent
from necronomicon.interpreter.search.determinize import known_to
from necronomicon.interpreter.search.rivals import SeatBots
from necronomicon.interpreter.search.tree import Node

BASIC = Path(__file__).parent / "fixtures" / "basic"
# the modder's red faction's six requirements (each "false" in the fixture), one condition each
CONDITIONS = {
    "r1": "count(units(owner: me, area: 'e')) >= 2",
    "r2": "power(me) >= 10 and count(units(owner: me, area: 'e')) >= 2",
    "r3": "power(me) >= 10 or count(units(owner: me, area: 'e')) >= 2",
    "r4": "3 < power(me)",
    "r5": "power(me) == 0",
    "r6": "not (power(me) > 1)",
}


def _red_with(tmp_path_factory: pytest.TempPathFactory, name: str, conditions: dict[str, str]) -> Content:
    """The modder's example content with the red faction's requirements `conditions` (id ->
    condition) written in place of their `false`."""
    folder = tmp_path_factory.mktemp(name) / "basic"
    shutil.copytree(BASIC, folder)
    red = folder / "factions" / "red.yaml"
    text = red.read_text(encoding="utf-8")
    for rid, cond in conditions.items():
        old = f'{{id: {rid}, text: never, condition: "false"}}'
        assert old in text
        text = text.replace(old, f'{{id: {rid}, text: never, condition: "{cond}"}}')
    red.write_text(text, encoding="utf-8")
    return load_content([folder], builtin=False).require_ok()


@pytest.fixture(scope="module")
def modded(tmp_path_factory: pytest.TempPathFactory) -> Content:
    return _red_with(tmp_path_factory, "mod", CONDITIONS)


def _only(g: Game, player: str, where: dict[str, int]) -> list[int]:
    """Every unit of `player` back in the pool but one in each area of `where` (area -> how many)."""
    placed = []
    for u in g.s.units_of(player):
        if u["loc"] in g.layout.areas:
            src, u["loc"] = u["loc"], "pool"
            g.s.moved(u, src)
    for area, n in where.items():
        for u in [u for u in g.s.pool(player) if g.content.factions[player].units[u["kind"]].cls == "monster"][:n]:
            u["loc"] = area
            g.s.moved(u, "pool")
            placed.append(u["id"])
    return placed


def _distances(g: Game, player: str) -> dict[str, int]:
    c = core.ctx(g.rules, player)
    return {r.id: r.progress(c) for r in g.content.factions[player].requirements if r.progress is not None}


def test_a_modders_requirements_have_distances_read_from_their_conditions(modded: Content) -> None:
    g = Game(modded, "test-multi", ["red", "blue"], 1)
    _only(g, "red", {"e": 1})
    g.s.power["red"] = 3
    assert _distances(g, "red") == {"r1": 1, "r2": 7 + 1, "r3": 1, "r4": 1, "r5": 3, "r6": 1}
    _only(g, "red", {"e": 2})
    g.s.power["red"] = 0
    assert _distances(g, "red") == {"r1": 0, "r2": 10, "r3": 0, "r4": 4, "r5": 0, "r6": 0}


def test_core_board_state_requirements_count_their_gap(base_game: Content) -> None:
    g = Game(base_game, "multiplayer", ["black-goat", "sleeper", "wind-rider", "yellow-sign"], 1)
    areas = len({u["loc"] for u in g.s.on_map("black-goat")})
    d = _distances(g, "black-goat")
    assert (d["units-in-4-areas"], d["units-in-6-areas"], d["units-in-8-areas"]) == (4 - areas, 6 - areas, 8 - areas)
    shared = sum(1 for e in ("sleeper", "wind-rider", "yellow-sign")
                 if {u["loc"] for u in g.s.on_map(e)} & {u["loc"] for u in g.s.on_map("black-goat")})
    assert d["share-areas-with-all-enemies"] == 3 - shared


def _move_decision(g: Game, player: str, unit: int, dsts: list[str]) -> tuple[Decision, list, Seat]:
    u = g.s.unit(unit)
    labels = tuple(f"{u['kind']} {u['loc']}->{d}#{unit}" for d in dsts) + ("done",)
    d = Decision(player, "move", labels, "Move a unit")
    seat = Seat(g, player)
    return d, seat.options(d), seat


def test_the_progress_bot_moves_where_an_unmet_requirement_comes_closer(modded: Content) -> None:
    g = Game(modded, "test-multi", ["red", "blue"], 1)
    mover, _ = _only(g, "red", {"b": 1, "e": 1})
    d, (to_a, to_e, _done), seat = _move_decision(g, "red", mover, ["a", "e"])
    plain, seeker = HeuristicAgent(1), HeuristicAgent(1, progress=True)
    # the plain bot spreads out (a holds none of red's units); one more unit in e closes r1 and r3
    assert plain.score("red", to_a, d, seat.board()) > plain.score("red", to_e, d, seat.board())
    assert seeker.score("red", to_e, d, seat.board()) > seeker.score("red", to_a, d, seat.board())
    seeker.sit(seat)
    assert seeker.choose("red", d.options, d) == d.options[1]
    assert Trial(seat.board(), "red").gain_move(mover, "e") == 3    # r1, r2 and r3 each a step closer
    # the Move action itself, when one step would bring a requirement closer
    act = Decision("red", "action", ("move", "pass"), "Action")
    move = seat.options(act)[0]
    assert seeker.score("red", move, act, seat.board()) > plain.score("red", move, act, seat.board())
    # met requirements are not reached for: with all three earned it plays as the plain bot
    g.s.requirements["red"] = ["r1", "r2", "r3"]
    board = Seat(g, "red").board()
    assert seeker.score("red", to_e, d, board) == plain.score("red", to_e, d, board)
    assert seeker.score("red", move, act, board) == plain.score("red", move, act, board)


def test_trying_leaves_the_board_as_it_was(modded: Content) -> None:
    g = Game(modded, "test-multi", ["red", "blue"], 1)
    mover, _ = _only(g, "red", {"b": 1, "e": 1})
    board = Seat(g, "red").board()
    before = board.s.to_text()
    trial = Trial(board, "red")
    assert trial.gain_move(mover, "e") == 3 and trial.gain_move(mover, "a") == 0
    assert trial.gain_place("grunt", "e") == 3 and trial.gain_gate("e") == 0
    assert trial.step_closer()
    assert board.s.to_text() == before


def test_progress_is_a_search_setting() -> None:
    cfg = parse_agent("mcts:30:seek=1:progress=1")
    assert cfg.progress and cfg.seek and cfg.label().endswith(":seek=1:progress=1")
    assert not parse_agent("mcts:30").progress
    with pytest.raises(ValueError, match="progress must be 0"):
        parse_agent("mcts:30:progress=2")


# ---- reach: progress over several steps (seeking.Trial.gain_reach, the bot's `reach`) ----

@pytest.fixture(scope="module")
def far_gate(tmp_path_factory: pytest.TempPathFactory) -> Content:
    """The modder's red faction with one requirement: a Gate in f, four steps from red's start a."""
    return _red_with(tmp_path_factory, "far", {"r1": "has_gate('f')"})


def _cultists_at(g: Game, player: str, where: list[str]) -> list[int]:
    """Every unit of `player` back in the pool (no Gates) but one cultist in each area of `where`."""
    _only(g, player, {})
    g.s.gates.clear()
    g.s.written()
    placed = []
    for area, u in zip(where, [u for u in g.s.pool(player) if u["kind"] == "acolyte"]):
        u["loc"] = area
        g.s.moved(u, "pool")
        placed.append(u["id"])
    return placed


def test_the_reach_bot_walks_a_cultist_toward_a_far_gate_requirement(far_gate: Content) -> None:
    # testland: a - b - c - d - f, b - e - c; a Gate in f closes r1, and only a cultist builds one
    g = Game(far_gate, "test-multi", ["red", "blue"], 1)
    walker, = _cultists_at(g, "red", ["b"])
    d, (to_a, to_c, to_e, _done), seat = _move_decision(g, "red", walker, ["a", "c", "e"])
    board = seat.board()
    trial = Trial(board, "red")
    assert trial.aims(board.s.unit(walker)) == frozenset({"f"})
    assert [trial.gain_reach(walker, x) for x in ("a", "c", "e")] == [-1, 1, 0]   # b is 3 steps from f, c 2, e 3
    progress, reach = HeuristicAgent(1, progress=True), HeuristicAgent(1, progress=True, reach=True)
    # one move brings no Gate, so progress alone sees the three alike; reach walks toward f
    assert progress.score("red", to_c, d, board) == progress.score("red", to_e, d, board)
    assert reach.score("red", to_c, d, board) > reach.score("red", to_e, d, board) > reach.score("red", to_a, d, board)
    reach.sit(seat)
    assert reach.choose("red", d.options, d) == d.options[1]
    act = Decision("red", "action", ("move", "pass"), "Action")
    move = seat.options(act)[0]
    assert reach.score("red", move, act, board) > progress.score("red", move, act, board)
    # with r1 earned nothing is walked for
    g.s.requirements["red"] = ["r1"]
    board = Seat(g, "red").board()
    assert reach.score("red", to_c, d, board) == progress.score("red", to_c, d, board)
    assert reach.score("red", move, act, board) == progress.score("red", move, act, board)


def test_only_the_nearest_cultist_walks_and_none_when_one_is_there(far_gate: Content) -> None:
    g = Game(far_gate, "test-multi", ["red", "blue"], 1)
    near, far = _cultists_at(g, "red", ["c", "a"])
    trial = Trial(Seat(g, "red").board(), "red")
    assert trial.gain_reach(near, "d") == 1 and trial.gain_reach(far, "b") == 0 and trial.reach_step()
    g = Game(far_gate, "test-multi", ["red", "blue"], 1)
    there, far = _cultists_at(g, "red", ["f", "a"])   # the Gate is an action away: a walk adds nothing
    trial = Trial(Seat(g, "red").board(), "red")
    assert trial.gain_reach(far, "b") == 0 and trial.gain_reach(there, "d") == 0 and not trial.reach_step()


def test_a_cultist_that_holds_a_gate_keeps_it(far_gate: Content) -> None:
    g = Game(far_gate, "test-multi", ["red", "blue"], 1)
    keeper, = _cultists_at(g, "red", ["c"])
    g.s.gates["c"] = {"controller": keeper}
    g.s.written()
    board = Seat(g, "red").board()
    trial = Trial(board, "red")
    assert trial.aims(board.s.unit(keeper)) == frozenset() and trial.gain_reach(keeper, "d") == 0


def test_the_reach_bot_walks_a_serving_abilitys_holder_over_the_sea(base_game: Content) -> None:
    # the King in Yellow in North Asia, the only Desecration left to earn in the Americas, two steps off
    g = Game(base_game, "multiplayer", ["yellow-sign", "wind-rider", "black-goat", "sleeper"], 1, "earth-3w5e")
    king = next(u for u in g.s.units_of("yellow-sign") if u["kind"] == "king-in-yellow")
    king["loc"] = "north-asia"
    g.s.moved(king, "pool")
    g.s.requirements["yellow-sign"] = ["desecrate-slashes", "desecrate-chevron"]
    d, (to_ocean, to_land, _done), seat = _move_decision(g, "yellow-sign", king["id"], ["north-pacific", "south-asia"])
    board = seat.board()
    assert Trial(board, "yellow-sign").aims(board.s.unit(king["id"])) == frozenset({"north-america", "south-america"})
    progress = HeuristicAgent(1, seek=True, progress=True)
    reach = HeuristicAgent(1, seek=True, progress=True, reach=True)
    assert progress.score("yellow-sign", to_ocean, d, board) == progress.score("yellow-sign", to_land, d, board)
    assert reach.score("yellow-sign", to_ocean, d, board) > reach.score("yellow-sign", to_land, d, board)


def test_reaching_leaves_the_board_as_it_was(far_gate: Content) -> None:
    g = Game(far_gate, "test-multi", ["red", "blue"], 1)
    walker, = _cultists_at(g, "red", ["b"])
    board = Seat(g, "red").board()
    before = board.s.to_text()
    trial = Trial(board, "red")
    assert trial.gain_reach(walker, "c") == 1 and trial.reach_step()
    assert board.s.to_text() == before


def test_reach_is_a_search_setting() -> None:
    cfg = parse_agent("mcts:30:seek=1:progress=1:reach=1")
    assert cfg.reach and cfg.label().endswith(":seek=1:progress=1:reach=1")
    assert parse_agent(cfg.label()) == cfg and not parse_agent("mcts:30:seek=1:progress=1").reach
    with pytest.raises(ValueError, match="reach must be 0"):
        parse_agent("mcts:30:reach=yes")


def test_a_gate_is_tried_only_against_requirements_whose_queries_read_gates(base_game: Content) -> None:
    # areas(with_units_of: me) reads where units are, never the Gates (READS_BY_ARGUMENT); areas(gate: true) reads them
    g = Game(base_game, "multiplayer", ["black-goat", "sleeper", "wind-rider", "yellow-sign"], 1)
    goat, rider = Trial(Seat(g, "black-goat").board(), "black-goat"), Trial(Seat(g, "wind-rider").board(), "wind-rider")
    assert {r.id for r in goat.unmet("gates")} == set()
    assert {r.id for r in goat.unmet("units")} >= {"units-in-8-areas", "share-areas-with-all-enemies"}
    assert {r.id for r in rider.unmet("gates")} == {"gate-in-other-start-area"}
    assert "gate-in-other-start-area" not in {r.id for r in rider.unmet("units")}


# ---- own: the requirement settings steer the searching player alone (search/rivals.py) ----

def test_with_own_a_rivals_decisions_are_the_plain_bots(far_gate: Content) -> None:
    # red's cultist in b, three steps from the Gate that closes red's r1: reach walks it toward f
    g = Game(far_gate, "test-multi", ["red", "blue"], 1)
    walker, = _cultists_at(g, "red", ["b"])
    d, moves, seat = _move_decision(g, "red", walker, ["a", "c", "e"])
    board, moves = seat.board(), moves[:3]
    reach = SearchAgent(parse_agent("mcts:2:seek=1:progress=1:reach=1"), 1).rollout_bot
    searcher = SearchAgent(parse_agent("mcts:2:seek=1:progress=1:reach=1:own=1"), 1)
    walked = reach.scores("red", moves, d, board)
    assert walked[1] > walked[2] > walked[0]   # toward f, aside, away
    plain = HeuristicAgent(1).scores("red", moves, d, board)
    assert plain[0] == plain[1] == plain[2]
    # blue searches: red is a rival, whose moves (in the prior and the rollouts) the plain bot scores
    blue = Seat(g, "blue")
    searcher.grow(Node(), blue, known_to(blue), frozenset(), 1, None)
    bots = searcher.rollout_bot
    assert isinstance(bots, SeatBots) and bots.me == "blue"
    assert bots.scores("red", moves, d, board) == plain
    # red searches: its own walk is scored as reach scores it
    searcher.grow(Node(), seat, known_to(seat), frozenset(), 1, None)
    assert bots.me == "red" and bots.scores("red", moves, d, board) == walked


def test_own_is_a_search_setting_off_by_default() -> None:
    cfg = parse_agent("mcts:30:seek=1:progress=1:reach=1:own=1")
    assert cfg.own and cfg.label().endswith(":reach=1:own=1") and parse_agent(cfg.label()) == cfg
    default = parse_agent("mcts:30:seek=1:progress=1:reach=1")
    assert not default.own and "own" not in default.label()
    # without it one heuristic bot plays every seat, as before
    assert type(SearchAgent(default, 1).rollout_bot) is HeuristicAgent
    with pytest.raises(ValueError, match="own must be 0"):
        parse_agent("mcts:30:own=2")
