"""The invariant checker finds broken states (so a clean soak means something): every invariant is
broken on purpose here and must be reported, after a decision and, for the cheap ones, after the
very event that broke it."""
from __future__ import annotations

from typing import Any

import pytest

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.agents import RandomAgent
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.invariants import Checker, InvariantError, checked_apply
from necronomicon.interpreter.engine.invariants import violations as _violations
from necronomicon.interpreter.engine.play import run_game
from necronomicon.interpreter.engine import basics
from necronomicon.interpreter.engine import core


@pytest.fixture()
def game(basic: Content) -> Game:
    return Game(basic, "test-multi", ["red", "blue"], 1)   # blue to act; gates at a (red) and c (blue)


def violations(g: Game, *args: Any) -> list[str]:
    """The checker's findings on a state these tests changed by hand: the state's indexes are told first."""
    g.s.written()
    return _violations(g, *args)


def _unit(g: Game, owner: str, kind: str, loc: str | None = None) -> dict[str, Any]:
    return next(u for u in g.s.units if u["owner"] == owner and u["kind"] == kind and (loc is None or u["loc"] == loc))


def _only(found: list[str], text: str) -> None:
    assert any(text in v for v in found), found


def test_a_played_game_keeps_every_invariant(basic: Content) -> None:
    g = Game(basic, "test-multi", ["red", "blue", "green"], 3)
    checker = Checker(g)
    run_game(g, {p: RandomAgent(i) for i, p in enumerate(g.s.players)}, check=checker)
    assert violations(g) == [] and checker.check() == []
    assert checker.events > 100 and checker.states > checker.events   # every event and every decision


def test_a_clean_state_has_no_violations(game: Game) -> None:
    assert violations(game, {"doom": dict(game.s.doom), "ritual": game.s.ritual}) == []
    assert Checker(game).check() == []


# ---- units ------------------------------------------------------------------------------------------
def test_an_extra_unit_is_reported(game: Game) -> None:
    game.s.units.append(dict(game.s.units[0], id=999))
    _only(violations(game), "red has 7 acolyte, the card prints 6")


def test_a_lost_unit_is_reported(game: Game) -> None:
    game.s.units.remove(_unit(game, "blue", "brute"))
    _only(violations(game), "blue has 1 brute, the card prints 2")


def test_a_unit_of_no_player_or_unknown_kind_is_reported(game: Game) -> None:
    game.s.units.append({"id": 998, "owner": "green", "kind": "acolyte", "loc": "pool"})
    game.s.units.append({"id": 999, "owner": "red", "kind": "wyrm", "loc": "pool"})
    found = violations(game)
    _only(found, "belong to 'green', who is not playing")
    _only(found, "unknown kind 'wyrm'")


def test_shared_ids_and_impossible_places_are_reported(game: Game) -> None:
    game.s.units[1]["loc"] = "the-moon"
    game.s.units[2]["loc"] = "captured:green"          # captured by someone not playing
    game.s.units[3]["id"] = game.s.units[4]["id"]
    found = violations(game)
    _only(found, "impossible place 'the-moon'")
    _only(found, "impossible place 'captured:green'")
    _only(found, "two units share an id")


def test_units_captured_or_held_off_the_map_are_still_counted(game: Game) -> None:
    _unit(game, "blue", "acolyte", "c")["loc"] = "captured:red"
    _unit(game, "red", "grunt")["loc"] = "held:red:aside"
    assert [v for v in violations(game) if "controlled by" not in v] == []


# ---- Power, elder signs --------------------------------------------------------------------------------
def test_negative_power_is_reported(game: Game) -> None:
    game.s.power["blue"] = -1
    _only(violations(game), "blue has negative Power -1")


def test_a_lost_or_invented_elder_sign_is_reported(game: Game) -> None:
    game.s.es_bag.remove(2)                                # the bag's 2 vanished
    _only(violations(game), "elder signs worth 2 are in the bag, face down or revealed; the printed mix is worth 4")
    game.s.elder_signs["red"] = [3]                        # the mix prints no 3
    _only(violations(game), "elder signs {3: 1} exist beyond the printed mix")


def test_elder_signs_drawn_and_revealed_are_conserved(game: Game) -> None:
    basics.give_elder_sign(game.rules, "red")
    basics.give_elder_sign(game.rules, "blue")
    basics.reveal_elder_signs(game.rules, "red")
    assert violations(game) == []


# ---- gates ------------------------------------------------------------------------------------------------
def test_a_controller_that_is_not_on_its_gate_is_reported(game: Game) -> None:
    game.s.gates["c"]["controller"] = _unit(game, "blue", "grunt")["id"]   # in the pool
    _only(violations(game), "the gate at c is controlled by unit #")


def test_a_unit_the_rules_do_not_let_control_a_gate_is_reported(game: Game) -> None:
    grunt = _unit(game, "blue", "grunt")
    grunt["loc"] = "c"
    game.s.gates["c"]["controller"] = grunt["id"]
    _only(violations(game), "(grunt) controls the gate at c but may not")


def test_gates_at_impossible_places_locked_gates_and_double_control_are_reported(game: Game) -> None:
    game.s.gates["nowhere"] = {"controller": None}
    game.s.gates["a"]["locked"] = True
    game.s.gates["c"]["controller"] = game.s.gates["a"]["controller"]
    found = violations(game)
    _only(found, "a gate is at an impossible place 'nowhere'")
    _only(found, "the locked gate at a has a controller")
    _only(found, "controls two gates, at a and c")


def test_a_second_gate_in_an_area_is_reported_at_its_event(game: Game) -> None:
    # the state keys gates by area, so a second gate can only show as a 'created' event for an
    # area that already has one (the engine's own gate-creating code must never do that)
    checker = Checker(game)
    basics.emit(game.rules, "gate", loc="c", change="created", player="blue")
    _only(checker.check(), "a second gate was put in c, which already had one")


# ---- Doom and the ritual marker ---------------------------------------------------------------------------
def test_doom_that_no_event_accounts_for_is_reported(game: Game) -> None:
    checker = Checker(game)
    game.s.doom["red"] += 2                                 # no 'doom' event
    _only(checker.check(), "red has 2 Doom but the log accounts for 0")
    _only(violations(game), "red has 2 Doom but the log accounts for 0")
    basics.gain_doom(game.rules, "blue", 3, "test")                      # a logged gain is fine
    assert not [v for v in checker.check() if "blue" in v]


def test_doom_and_the_ritual_marker_never_go_back(game: Game) -> None:
    before = {"doom": {"red": 5, "blue": 0}, "ritual": 2}
    found = violations(game, before)
    _only(found, "red's Doom went down from 5 to 0")
    _only(found, "the ritual marker went back from 2 to 0")
    checker = Checker(game)
    game.s.ritual = 3
    assert checker.check() == []
    game.s.ritual = 1
    _only(checker.check(), "the ritual marker went back from 3 to 1")


# ---- battles --------------------------------------------------------------------------------------------
def _battle(game: Game) -> dict[str, Any]:
    game.s.battle = {"area": "c", "attacker": "red", "defender": "blue", "exempt": [], "results": {}, "taken": {},
                     "pending": {"red": [], "blue": []}, "rolled": {}, "avoided": [], "earned": [], "flags": [],
                     "killed": {"red": [], "blue": []}}
    return game.s.battle


def test_more_results_than_a_unit_can_take_are_reported(game: Game) -> None:
    b = _battle(game)
    uid = _unit(game, "blue", "acolyte", "c")["id"]
    b["results"][str(uid)] = ["kill", "pain"]
    b["taken"][str(uid)] = 2
    _only(violations(game), f"unit #{uid} holds 2 results (taken 2), more than it can take (1)")


def test_results_on_a_bystander_or_more_kills_than_units_are_reported(basic: Content) -> None:
    game = Game(basic, "test-multi", ["red", "blue", "green"], 1)
    b = _battle(game)
    gid = _unit(game, "green", "acolyte")["id"]
    b["results"][str(gid)] = ["kill"]
    b["taken"][str(gid)] = 1
    b["killed"]["blue"] = list(range(100, 113))
    found = violations(game)
    _only(found, f"unit #{gid} (green) holds battle results but is on neither side")
    _only(found, "13 of blue's units were killed in one battle; it has 12")


def test_a_unit_both_killed_and_retreated_is_reported(game: Game) -> None:
    checker = Checker(game)
    u = _unit(game, "blue", "acolyte", "c")
    basics.emit(game.rules, "battle", attacker="red", defender="blue", area="c")
    core.relocate(game.rules, u, "b", "retreat")
    core.relocate(game.rules, u, "pool", "kill")
    basics.emit(game.rules, "battle-end", area="c")
    _only(checker.check(), f"unit #{u['id']} was removed after it retreated in the same battle")
    _only(violations(game), f"unit #{u['id']} was removed after it retreated in the same battle")


def test_killed_then_retreated_in_different_battles_is_fine(game: Game) -> None:
    checker = Checker(game)
    u = _unit(game, "blue", "acolyte", "c")
    basics.emit(game.rules, "battle", attacker="red", defender="blue", area="c")
    core.relocate(game.rules, u, "b", "retreat")
    basics.emit(game.rules, "battle-end", area="c")
    basics.emit(game.rules, "battle", attacker="red", defender="blue", area="b")
    core.relocate(game.rules, u, "pool", "kill")
    basics.emit(game.rules, "battle-end", area="b")
    assert checker.check() == []


# ---- after every event, not only every decision ------------------------------------------------------------
def test_a_state_broken_and_repaired_within_one_decision_is_caught_at_its_event(game: Game,
                                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    relocate = core.relocate

    def leaky(rules: Any, u: dict[str, Any], loc: str, why: str) -> None:  # Power dips below 0 while a unit moves
        game.s.power["red"] -= 100
        relocate(rules, u, loc, why)
        game.s.power["red"] += 100

    monkeypatch.setattr(core, "relocate", leaky)
    other = game.clone()
    checked_apply(other, "summon grunt c")                  # a per-decision check sees nothing
    checker = Checker(game)
    with pytest.raises(InvariantError, match=r"red has negative Power -\d+ \(at event \d+ 'unit'"):
        checker.apply("summon grunt c")


def test_a_game_loaded_from_a_save_is_checked_from_where_it_was_saved(basic: Content) -> None:
    g = Game(basic, "test-multi", ["red", "blue", "green"], 5)
    agents = {p: RandomAgent(i) for i, p in enumerate(g.s.players)}
    for _ in range(60):
        d = g.pending
        g.apply(agents[d.player].choose(d.player, d.options, d))
    loaded = Game.from_json(basic, g.to_json())              # its log holds placeholders, not events
    checker = Checker(loaded)
    run_game(loaded, agents, check=checker)
    assert checker.check() == [] and checker.events > 0
    loaded.s.doom["red"] += 1                                # Doom with no event is still caught
    _only(checker.check(), "red has")


def test_necro_play_check_runs_the_event_checker(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from necronomicon.interpreter.engine import invariants
    from necronomicon.tools.cli import main
    seen: list[int] = []
    real = invariants.Checker.on_event

    def counting(self: Checker, event: dict[str, Any]) -> None:
        seen.append(event["seq"])
        real(self, event)

    monkeypatch.setattr(invariants.Checker, "on_event", counting)
    assert main(["play", "--ruleset", "duel", "--seed", "3", "--quiet", "--check"]) == 0
    assert capsys.readouterr().out.startswith(("winner:", "shared victory:", "humanity wins"))
    assert len(seen) > 100 and seen == sorted(seen)


def test_broken_independent_states_are_reported(builtin: Content) -> None:
    g = Game(builtin, "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat"], 1,
             independents=["azathoth", "independent-hastur"])
    az = next(u for u in g.s.units if u["kind"] == "azathoth")
    az["loc"] = "south-pacific"                          # on the map, yet nobody controls it
    g.s.loyalty["independent-hastur"]["spellbooks"] = ["hastur-spellbook"]
    found = violations(g)
    assert any("figure #" in v and "owned by ''" in v for v in found)
    assert any("keeps spellbooks ['hastur-spellbook'] in the general pool" in v for v in found)
    # a Doom loss is fine when an effect logged it, not otherwise
    before = {"doom": {p: 3 for p in g.s.players}, "ritual": 0, "log": len(g.log)}
    basics.emit(g.rules, "doom", player="black-goat", change=-2, total=1, why="test")
    g.s.doom["black-goat"] = 1
    found = violations(g, before)
    assert not any(v.startswith("black-goat's Doom") for v in found)
    g.s.doom["black-goat"] = 0                           # one point more than the log accounts for
    assert any(v.startswith("black-goat's Doom went down") for v in violations(g, before))
    assert any(v.startswith("crawling-chaos's Doom went down") for v in found)
