"""A new game's setup choices (tools/game_setup.py, the engine's `first` parameter): random factions
and seating by the seeded generator, the layouts offered for a player count, the first player by
the rulebook's constraints, all kept by saves, logs and undo; and the `necro play` flags."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.game import Game, GameError, replay
from necronomicon.interpreter.engine.savefile import SaveError
from necronomicon.tools.cli import main
from necronomicon.tools.game_setup import RANDOM, Setup, layouts_for, make_game


@pytest.fixture(scope="module")
def content() -> Content:
    return load_content([])


def _through_setup(g: Game) -> Game:
    """Answer the setup's decisions (start areas, direction) with their first options."""
    while g.s.first is None or g.s.step.get("phase") == "setup":
        g.apply(g.legal_actions()[0])
    return g


def test_random_factions_are_drawn_by_the_seed_from_those_not_named(content: Content) -> None:
    drawn = {}
    for seed in range(1, 9):
        g = make_game(content, Setup("multiplayer", (RANDOM, "black-goat", RANDOM), seed))
        f = g.params["factions"]
        assert f[1] == "black-goat" and len(set(f)) == 3 and all(x in content.model.factions for x in f)
        assert make_game(content, Setup("multiplayer", (RANDOM, "black-goat", RANDOM), seed)).params["factions"] == f
        drawn[seed] = tuple(f)
    assert len(set(drawn.values())) > 1      # the seed decides the draw


def test_random_seating_shuffles_the_factions_by_the_seed(content: Content) -> None:
    given = ("great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign")
    orders = {tuple(make_game(content, Setup("multiplayer", given, seed, seating="random")).params["factions"])
              for seed in range(1, 9)}
    assert all(sorted(o) == sorted(given) for o in orders) and len(orders) > 1
    assert make_game(content, Setup("multiplayer", given, 3)).params["factions"] == list(given)
    with pytest.raises(GameError, match="seating 'sideways'"):
        make_game(content, Setup("multiplayer", given, 3, seating="sideways"))


def test_the_layouts_offered_fit_the_player_count_and_a_chosen_one_is_played(content: Content) -> None:
    assert layouts_for(content, "multiplayer", 4)[0] == "earth-3w5e"      # the ruleset's own first
    assert "earth-5w3e" in layouts_for(content, "multiplayer", 4)
    assert "earth-5w5e" not in layouts_for(content, "multiplayer", 4)
    four = ("great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign")
    assert make_game(content, Setup("multiplayer", four, 1, layout="earth-5w3e")).layout.id == "earth-5w3e"
    with pytest.raises(GameError, match="'earth-5w5e' is for 5 players, not 4"):
        make_game(content, Setup("multiplayer", four, 1, layout="earth-5w5e"))
    with pytest.raises(GameError, match="unknown map layout 'moon'; for 4 players: earth-3w5e, earth-5w3e"):
        make_game(content, Setup("multiplayer", four, 1, layout="moon"))


def test_a_chosen_first_player_starts_unless_a_faction_must(content: Content) -> None:
    three = ["crawling-chaos", "black-goat", "yellow-sign"]
    assert _through_setup(Game(content, "multiplayer", three, 2)).s.first == "black-goat"   # alphabetical
    assert _through_setup(Game(content, "multiplayer", three, 2, first="yellow-sign")).s.first == "yellow-sign"
    firsts = {_through_setup(Game(content, "multiplayer", three, seed, first=RANDOM)).s.first for seed in range(1, 12)}
    assert firsts <= set(three) and len(firsts) > 1
    with pytest.raises(GameError, match="Great Cthulhu always goes first"):
        Game(content, "multiplayer", ["great-cthulhu", *three[1:]], 2, first="black-goat")
    with pytest.raises(GameError, match="Wind-Rider may never be the first player"):
        Game(content, "multiplayer", ["wind-rider", *three[1:]], 2, first="wind-rider")
    with pytest.raises(GameError, match="not one of this game's factions"):
        Game(content, "multiplayer", three, 2, first="sleeper")
    # random never picks the Wind-Rider at the start
    picks = {_through_setup(Game(content, "multiplayer", ["wind-rider", "black-goat", "yellow-sign"], seed,
                                 first=RANDOM)).s.first for seed in range(1, 12)}
    assert "wind-rider" not in picks


def test_the_first_player_choice_survives_save_log_and_undo(content: Content) -> None:
    g = _through_setup(Game(content, "multiplayer", ["crawling-chaos", "black-goat", "yellow-sign"], 4, first=RANDOM))
    for _ in range(6):
        g.apply(g.legal_actions()[-1])
    loaded = Game.from_json(content, json.loads(json.dumps(g.to_json())))
    assert loaded.params["first"] == RANDOM and loaded.digest() == g.digest()
    assert replay(content, g.log_lines()).digest() == g.digest()
    before = g.digest()
    g.apply(g.legal_actions()[0])
    g.undo(1)
    assert g.digest() == before
    tampered = g.to_json()
    tampered["params"]["first"] = "nobody"
    with pytest.raises(SaveError, match="params.first: 'nobody' is not one of the game's factions"):
        Game.from_json(content, tampered)


def test_necro_play_takes_the_setup_flags(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    assert main(["play", "--players", "3", "--factions", "random,black-goat,random", "--seating", "random",
                 "--first", "random", "--seed", "9", "--quiet", "--log", str(log)]) == 0
    params = json.loads(log.read_text().splitlines()[-2])["params"]
    assert params["first"] == "random" and "black-goat" in params["factions"]
    assert main(["replay", str(log)]) == 0
    assert main(["play", "--players", "3", "--first", "nobody", "--quiet"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["necro: error: first player 'nobody' is not one of this game's factions "
                   "(great-cthulhu, crawling-chaos, black-goat); or 'random'"]
    with pytest.raises(SystemExit):
        main(["play", "--seating", "upside-down"])


def test_the_terminal_answers_alike_options_and_ends_turns_as_asked_and_undo_goes_past_them(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    import io
    monkeypatch.chdir(tmp_path)
    base = ["play", "--agents", "human,heuristic,heuristic", "--players", "3", "--seed", "1"]
    # clockwise; recruit (its one placement is given); then the turn has only Unlimited Actions left
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\n" * 3 + "quit\n"))
    main([*base, "--auto", "one-option,end-turn"])
    out = capsys.readouterr().out
    assert "(Great Cthulhu: end the turn, answered for you)" in out
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\n" * 3 + "quit\n"))
    main([*base, "--auto", "none"])
    assert "answered for you" not in capsys.readouterr().out
    # undo takes back the person's own answer, not the one given for them after it
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n1\nundo\nquit\n"))
    main([*base, "--auto", "one-option,end-turn"])
    out = capsys.readouterr().out
    assert "answered for you" in out and "undone: back to decision 2 (1 of yours taken back)" in out
    with pytest.raises(SystemExit):
        main([*base, "--auto", "sometimes"])
    assert "give none, or a comma list of one-option and end-turn" in capsys.readouterr().err
