"""The learned evaluation (issue 33): `necro train` writes a file the search bot uses at its depth
cap, refused for other content in one line; damaged files are one line; the fit learns a real
signal; the features read only public facts."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.agents import HeuristicAgent
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.seat import Seat
from necronomicon.interpreter.search import SearchAgent, parse_agent
from necronomicon.interpreter.search.evaluation import load_evaluation
from necronomicon.interpreter.search.features import GAME_FEATURES, SEAT_FEATURES, game_features, seat_features
from necronomicon.interpreter.search.fitting import Sample, fit
from necronomicon.tools.cli import main

ROOT = Path(__file__).parent.parent
MODDED = ROOT / "docs" / "modding" / "example-faction" / "drowned-choir"


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("eval") / "duel-eval.json"
    assert main(["train", "--ruleset", "duel", "--games", "4", "--agents", "heuristic", "--jobs", "1",
                 "--out", str(out)]) == 0
    return out


def _midgame(content: Content, ruleset: str, factions: list[str], decisions: int, seed: int = 5) -> Game:
    g = Game(content, ruleset, factions, seed)
    bot = HeuristicAgent(seed)
    for p in factions:
        bot.sit(Seat(g, p))
    for _ in range(decisions):
        d = g.current()
        assert d is not None
        g.apply(bot.choose(d.player, d.options, d))
    return g


def test_a_tiny_training_run_is_used_by_the_search_at_its_depth_cap(trained: Path, base_game: Content) -> None:
    data = json.loads(trained.read_text())
    assert data["content_digest"] == base_game.digest and data["info"]["games"] == 4
    assert data["info"]["positions"] > 20 and any(w != 0 for w in data["seat_weights"])
    g = _midgame(base_game, "duel", ["great-cthulhu", "sleeper"], 30)
    agent = SearchAgent(parse_agent(f"mcts:6:depth=3:eval={trained}"), seed=1)
    calls = []
    inner = agent.evaluation.evaluate
    agent.evaluation.evaluate = lambda pos: calls.append(1) or inner(pos)   # type: ignore[method-assign,union-attr]
    d = g.current()
    while d is not None and len(d.options) < 2:
        g.apply(d.options[0])
        d = g.current()
    assert d is not None
    agent.sit(Seat(g, d.player))
    assert agent.choose(d.player, d.options, d) in d.options
    assert len(calls) == 6   # each playout cut off at depth 3 was valued by the learned evaluation


def test_the_file_is_refused_for_other_content_in_one_line(trained: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["play", "--content-dir", str(MODDED), "--ruleset", "multiplayer", "--map", "drowned-coast",
                 "--players", "3", "--agents", f"mcts:2:eval={trained}", "--quiet"])
    err = capsys.readouterr().err.strip()
    assert code == 1 and len(err.splitlines()) == 1
    assert f"evaluation '{trained}' was trained on other content" in err and "necro train" in err
    assert main(["balance", "--content-dir", str(MODDED), "--ruleset", "multiplayer", "--map", "drowned-coast",
                 "--players", "3", "--eval", str(trained), "--out", str(trained.parent / "b")]) == 1
    assert "was trained on other content" in capsys.readouterr().err


@pytest.mark.parametrize("edit, says", [
    (lambda d: "not json {", "not JSON"),
    (lambda d: {**d, "format": "other"}, "not an evaluation file"),
    (lambda d: {**d, "version": 99}, "version 99"),
    (lambda d: {**d, "version": 2}, "version 2; this necro reads version 1: train it again"),
    (lambda d: {**d, "seat_weights": d["seat_weights"][:-1]}, "'seat_weights' must be a list of"),
    (lambda d: {**d, "game_weights": [float("nan")] * len(d["game_weights"])}, "'game_weights' must be a list of"),
    (lambda d: {**d, "scale": [0.0] * len(d["scale"])}, "'scale' must be above 0"),
    (lambda d: {**d, "content_digest": 7}, "no content digest"),
    (lambda d: {**d, "seat_features": ["doom"]}, "other features"),
])
def test_a_damaged_file_is_one_line_naming_it(trained: Path, tmp_path: Path, edit, says: str) -> None:  # noqa: ANN001
    bad = tmp_path / "bad.json"
    got = edit(json.loads(trained.read_text()))
    bad.write_text(got if isinstance(got, str) else json.dumps(got))
    with pytest.raises(ValueError) as err:
        load_evaluation(str(bad))
    assert says in str(err.value) and f"evaluation '{bad}'" in str(err.value) and "\n" not in str(err.value)


def test_agent_names_with_an_evaluation_are_read_and_labelled() -> None:
    cfg = parse_agent("mcts:0.5s:depth=10:eval=runs/a:b.json")
    assert (cfg.seconds, cfg.depth, cfg.evaluation) == (0.5, 10, "runs/a:b.json")
    assert parse_agent(cfg.label()) == cfg and cfg.label().endswith(":eval=runs/a:b.json")
    with pytest.raises(ValueError, match="eval= needs the file"):
        parse_agent("mcts:40:eval=")


def test_the_fit_learns_who_wins_from_positions() -> None:
    rng = random.Random(3)
    samples = []
    nf, ng = len(SEAT_FEATURES), len(GAME_FEATURES)
    for game in range(300):   # the seat with the most Doom (feature 0) wins; the other features are noise
        seats = [tuple([rng.uniform(0, 20)] + [rng.uniform(0, 5) for _ in range(nf - 1)]) for _ in range(3)]
        best = max(range(3), key=lambda i: seats[i][0])
        samples.append(Sample(game, tuple(seats), tuple([1.0] + [0.5] * (ng - 1)),
                              (0.0, *(1.0 if i == best else 0.0 for i in range(3)))))
    model = fit(samples, "d1")
    assert model.info["held_out_top_outcome_right"] > 0.8
    assert model.info["held_out_log_loss"] < model.info["held_out_base_log_loss"]
    nobody, win = model.outcome_chances({"x": [15.0] + [2.0] * (nf - 1), "y": [5.0] + [2.0] * (nf - 1)},
                                        [1.0] + [0.5] * (ng - 1))
    assert win["x"] > 0.8 > win["y"] and nobody < 0.2


def test_features_read_public_facts_only(base_game: Content) -> None:
    g = _midgame(base_game, "multiplayer", ["great-cthulhu", "crawling-chaos", "black-goat", "sleeper"], 120)
    before = (seat_features(g), game_features(g))
    for p in g.s.players:   # the face-down values and the bag are hidden: re-dealing them changes nothing
        g.s.elder_signs[p] = [3 for _ in g.s.elder_signs[p]]
    g.s.es_bag = list(reversed(g.s.es_bag))
    assert (seat_features(g), game_features(g)) == before
    assert all(len(row) == len(SEAT_FEATURES) for row in before[0].values()) and len(before[1]) == len(GAME_FEATURES)
    assert sum(row[0] for row in before[0].values()) == sum(g.s.doom.values())


def test_training_games_rotate_matchups_seats_and_bots(base_game: Content) -> None:
    from necronomicon.tools.train import DEFAULT_AGENTS, plan_training
    specs = plan_training(base_game, "multiplayer", 4, 30, 100, DEFAULT_AGENTS.split(","))
    seats = [a for s in specs for a in s.agents]
    assert seats.count("mcts:8") * 8 == len(seats) == 120   # a search bot in one seat in eight
    assert len({tuple(sorted(s.factions)) for s in specs}) == 15 and specs[15].factions == specs[0].factions[1:] + specs[0].factions[:1]
    assert [s.seed for s in specs[:3]] == [100, 101, 102]
    for agents, games in ((DEFAULT_AGENTS.split(","), 16), (["heuristic", "mcts:8"], 4),
                          (["random", "heuristic", "mcts:8"], 12)):
        rows = [s.agents for s in plan_training(base_game, "multiplayer", 4, games, 1, agents)]
        per_seat = [[sum(r[j] == a for r in rows) for a in sorted(set(agents))] for j in range(4)]
        assert all(row == per_seat[0] for row in per_seat), per_seat   # every bot in every seat alike


def test_blend_weighs_the_evaluation_beside_the_hand_made_estimate(trained: Path, base_game: Content) -> None:
    from necronomicon.interpreter.search.reward import values
    cfg = parse_agent(f"mcts:6:depth=3:blend=0.25:eval={trained}")
    assert cfg.blend == 0.25 and parse_agent(cfg.label()) == cfg and ":blend=0.25:eval=" in cfg.label()
    assert parse_agent(f"mcts:6:eval={trained}").blend == 1 and ":blend" not in parse_agent(f"mcts:6:eval={trained}").label()
    with pytest.raises(ValueError, match="blend= weighs a learned evaluation"):
        parse_agent("mcts:6:blend=0.5")
    with pytest.raises(ValueError, match="blend must be a number from 0 to 1"):
        parse_agent(f"mcts:6:blend=2:eval={trained}")
    g = _midgame(base_game, "duel", ["great-cthulhu", "crawling-chaos"], 30)
    learned, made = load_evaluation(str(trained)).evaluate(g), values(g)
    assert learned != made
    for w in (0.0, 0.25, 1.0):
        bot = SearchAgent(parse_agent(f"mcts:6:depth=3:blend={w}:eval={trained}"), seed=1)
        got = bot._value(g)
        assert got == pytest.approx({p: w * learned[p] + (1 - w) * made[p] for p in learned})
