"""The published factions (`--expansions published`): they load only with their expansion, say
where they come from, and play seeded games to the end with every kind of bot at 3, 4 and 5 players.
Each ability has its scenarios in tests/scenarios/published/."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.soak import setup_featuring, soak
from necronomicon.interpreter.bots import make_agent
from necronomicon.interpreter.content import load_content
from necronomicon.interpreter.engine.agents import HeuristicAgent, RandomAgent
from necronomicon.interpreter.engine.game import Game
from necronomicon.interpreter.engine.invariants import Checker
from necronomicon.interpreter.engine.play import run_game
from necronomicon.tools.cli import main

PUBLISHED = ["sleeper-full", "windwalker", "opener"]
ROOT = Path(__file__).resolve().parent.parent
EXAMPLE_MAP = ROOT / "docs" / "modding" / "example-faction" / "drowned-choir" / "maps" / "drowned-coast.yaml"


@pytest.fixture(scope="module")
def published():  # noqa: ANN201
    return load_content(expansions=["published"]).require_ok()


def test_the_base_game_has_no_published_faction_and_its_map_skips_their_start_areas() -> None:
    base = load_content().require_ok()
    assert not set(PUBLISHED) & set(base.model.factions)
    starts = {f for lay in base.model.layouts.values() for a in lay.areas.values() for f in a.starts}
    assert {"sleeper", "wind-rider"} <= starts and not set(PUBLISHED) & starts


def test_with_the_expansion_they_start_where_the_duel_boards_of_the_same_faction_do(published) -> None:  # noqa: ANN001
    lay = published.model.layouts["earth-3w3e"]
    where = {f: sorted(a.id for a in lay.areas.values() if f in a.starts) for f in PUBLISHED + ["sleeper", "wind-rider"]}
    assert where["sleeper-full"] == where["sleeper"] == ["north-america"]
    assert where["windwalker"] == where["wind-rider"] == ["antarctica", "arctic-ocean"]


def test_a_misspelt_start_faction_is_still_an_unknown_reference(tmp_path: Path) -> None:
    text = EXAMPLE_MAP.read_text(encoding="utf-8").replace("starts: [drowned-choir]", "starts: [windwalkr]", 1)
    assert "windwalkr" in text
    (tmp_path / "map.yaml").write_text(text, encoding="utf-8")
    c = load_content([tmp_path])
    msgs = [d.message for d in c.report.items if d.code == "unknown-reference"]
    assert any("unknown faction 'windwalkr'" in m and "windwalker" in m for m in msgs), msgs   # did you mean


def test_show_faction_marks_them_as_taken_from_public_descriptions(capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["show", "faction", "windwalker", "--expansions", "published"]) == 0
    out = capsys.readouterr().out
    assert "Taken from public descriptions of the published card, not from a rulebook shipped here." in out
    assert "Source: HRF (haunt-roll-fail/cthulhu-wars, MIT) solo/FactionWW.scala" in out
    assert main(["show", "faction", "opener", "--expansions", "published"]) == 0
    assert "Starts: any area without a Gate, chosen after every other faction" in capsys.readouterr().out
    assert main(["show", "faction", "wind-rider"]) == 0
    assert "Taken from public descriptions" not in capsys.readouterr().out   # a rulebook's faction is not marked
    assert main(["show", "faction", "--expansions", "published"]) == 0
    listing = capsys.readouterr().out
    assert "expansion published (public descriptions)" in listing
    assert main(["show", "faction", "sleeper-full", "--expansions", "published", "--format", "json"]) == 0
    card = json.loads(capsys.readouterr().out)
    assert card["provenance"] == "public-description" and "FactionSL.scala" in card["source"]


def test_setup_featuring_seats_one_of_them_with_seed_factions_that_start_elsewhere(published) -> None:  # noqa: ANN001
    counts = set()
    for seed in range(30):
        rs, seats = setup_featuring(seed, PUBLISHED, published)
        star = PUBLISHED[seed % len(PUBLISHED)]
        counts.add(len(seats))
        assert rs == "multiplayer" and star in seats and len(set(seats)) == len(seats)
        twin = {"sleeper-full": "sleeper", "windwalker": "wind-rider"}.get(star)   # the Opener starts anywhere
        assert twin is None or twin not in seats
    assert counts == {3, 4, 5}


@pytest.mark.parametrize("faction", PUBLISHED)
@pytest.mark.parametrize("players", [3, 4, 5])
def test_seeded_games_finish_with_random_heuristic_and_search_bots(published, faction: str, players: int) -> None:  # noqa: ANN001
    others = ["great-cthulhu", "crawling-chaos", "black-goat", "yellow-sign"][: players - 1]
    seats = [faction, *others]
    seed = 40 + players
    agents = {p: (RandomAgent(seed + i) if i % 3 == 0 else HeuristicAgent(seed + i) if i % 3 == 1
                  else make_agent("mcts:3:depth=6", seed + i)) for i, p in enumerate(seats)}
    if players == 3:   # the published faction itself played by the search bot once
        agents[faction] = make_agent("mcts:3:depth=6", seed)
    g = Game(published, "multiplayer", seats, seed)
    checker = Checker(g)
    run_game(g, agents, check=checker)
    checker.detach()
    assert g.is_over() and checker.states > 0
    assert g.result_line()


def test_a_small_mixed_soak_of_both_has_no_violation() -> None:
    r = soak("multiplayer", 12, seed0=900, expansions=("published",), agents="mixed", featuring=PUBLISHED)
    assert r["failures"] == [] and r["violations"] == 0
    assert set(r["setups"]) == {"multiplayer/3", "multiplayer/4", "multiplayer/5"}


def test_two_boards_of_the_same_figures_never_sit_at_one_table(published) -> None:  # noqa: ANN001
    """The full-game Sleeper and the Duel's Sleeper (and the Windwalker and the Wind-Rider) are
    played with the same figures (`shares-figures-with`): a game refuses both in one line, the
    matchups of `--all-matchups` leave such pairs out, and a random draw never seats the twin."""
    from necronomicon.interpreter.engine.decisions import GameError
    from necronomicon.interpreter.engine.rng import Rng
    from necronomicon.tools.game_setup import draw_factions
    from necronomicon.tools.simulate import matchups
    with pytest.raises(GameError, match=r"^The Sleeper and The Sleeper \(full game\) are played with the same "
                                        r"figures: a game seats only one of them$"):
        Game(published, "multiplayer", ["sleeper", "great-cthulhu", "sleeper-full"], 1)
    with pytest.raises(GameError, match="same figures"):
        Game(published, "multiplayer", ["windwalker", "black-goat", "wind-rider", "great-cthulhu"], 1)
    games = matchups(published, "multiplayer", 4)
    assert games and all(published.model.sharing_figures(m) is None for m in games)
    assert any("sleeper" in m for m in games) and any("sleeper-full" in m for m in games)
    for seed in range(40):
        drawn = draw_factions(published, ("sleeper", "wind-rider", "random", "random", "random"), Rng(seed))
        assert not {"sleeper-full", "windwalker"} & set(drawn) and len(set(drawn)) == 5


def test_an_unknown_twin_is_one_located_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tests.edited_fixture import edited_loop
    folder = edited_loop(tmp_path, {"name: Ping\n": "name: Ping\nsetup:\n  shares-figures-with: [sleepr]\n"}, 1)
    assert main(["validate", str(folder)]) == 1
    err = capsys.readouterr()
    text = err.out + err.err
    assert "ping.yaml:5:" in text and "unknown faction 'sleepr'" in text and "did you mean 'sleeper'" in text
