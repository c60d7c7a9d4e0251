"""`necro show`: faction cards, maps (table and PNG), positions from game logs."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.engine.game import replay
from necronomicon.tools.cli import main
from necronomicon.tools.views.layout import hop_distances, spread_layout
from necronomicon.tools.views.map_view import pick_layout
from necronomicon.tools.views.position_view import position_at

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """rich wraps to the terminal width; a wide one keeps each table row on one line."""
    monkeypatch.setenv("COLUMNS", "200")


def test_faction_card_shows_units_goos_abilities_and_requirements(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "faction", "wind-rider"]) == 0
    out = capsys.readouterr().out
    assert "The Wind-Rider" in out and "(wind-rider)" not in out   # the name; --ids adds the id
    assert "Gnoph-Keh" in out and "count(pool(me, kind:" not in out  # a cost written as an expression...
    assert "varies" in out and "as much Power as you have Gnoph-Keh in your pool" in out  # ...reads in words
    assert "Rhan-Tegoth" in out and "ceil(doom(enemy) / 2)" not in out
    assert main(["show", "faction", "wind-rider", "--source"]) == 0  # the formulas as written, for modders
    src = capsys.readouterr().out
    assert "count(pool(me, kind:" in src and "ceil(doom(enemy) / 2)" in src
    assert "Hibernation" in out and "Action (0 Power)" in out
    assert "Ice Age (Action (1 Power); Ongoing)" in out  # the action and its surcharge modifier
    for n in range(1, 7):
        assert f"• {n}." in out
    assert "Starts: Antarctica" in out


def test_faction_names_are_ids_or_display_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "faction", "The Sleeper"]) == 0
    assert "Tsathoggua" in capsys.readouterr().out


def test_unknown_faction_is_one_line_with_a_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "faction", "wind-ryder"]) == 1
    assert capsys.readouterr().err == "necro: error: unknown faction 'wind-ryder' (did you mean 'wind-rider'?)\n"
    assert main(["show", "faction", "cthulhu"]) == 1
    assert "(did you mean 'great-cthulhu'?)" in capsys.readouterr().err


def test_without_a_name_the_factions_are_listed(builtin: Content, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["show", "faction"]) == 0
    out = capsys.readouterr().out
    for f in builtin.model.factions.values():        # by name
        if f.expansion is None:
            assert f.name in out, f.name
    assert main(["show", "faction", "--ids"]) == 0
    listed = capsys.readouterr().out
    for fid, f in builtin.model.factions.items():   # an expansion's factions only when it is loaded
        assert (fid in listed) == (f.expansion is None), fid
    assert main(["show", "faction", "--ids", "--expansions", "published"]) == 0
    listed = capsys.readouterr().out
    for fid in builtin.model.factions:
        assert fid in listed


def test_map_table_lists_every_area_with_its_neighbours(builtin: Content, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "250")   # one line per area
    assert main(["show", "map", "earth", "--layout", "earth-3w3e"]) == 0
    out = capsys.readouterr().out
    lay = builtin.model.layouts["earth-3w3e"]
    assert f"{len(lay.areas)} areas" in out
    for aid, area in lay.areas.items():   # by name, its neighbours by name
        row = next(line for line in out.splitlines() if line.startswith(f"│ {area.name} "))
        assert all(lay.areas[n].name in row for n in lay.adjacent[aid]) and aid not in out
    assert main(["show", "map", "earth", "--layout", "earth-3w3e", "--ids"]) == 0
    out = capsys.readouterr().out   # --ids: as files and scripts name them
    assert all(aid in out for aid in lay.areas) and "(earth-3w3e)" in out


def test_map_name_picks_the_recommended_layout_and_typos_get_a_suggestion(builtin: Content, capsys: pytest.CaptureFixture[str]) -> None:
    assert pick_layout(builtin.model, "earth").recommended
    assert pick_layout(builtin.model, "earth-5w5e").id == "earth-5w5e"
    assert main(["show", "map", "erth"]) == 1
    assert capsys.readouterr().err.strip() == "necro: error: unknown map 'erth' (did you mean 'earth'?)"


def test_map_png_is_written(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "earth.png"
    assert main(["show", "map", "earth", "--png", str(out)]) == 0
    assert out.read_bytes()[:8] == PNG_MAGIC
    assert "17 areas" in capsys.readouterr().out


def test_layout_is_deterministic_and_keeps_neighbours_close(builtin: Content) -> None:
    lay = builtin.model.layouts["earth-5w5e"]
    nodes = sorted(lay.areas)
    first = spread_layout(nodes, lay.adjacent)
    assert first == spread_layout(nodes, lay.adjacent)
    assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in first.values())
    xy = np.array([first[n] for n in nodes])
    dist = np.sqrt(((xy[:, None] - xy[None]) ** 2).sum(-1))
    hops = hop_distances(nodes, lay.adjacent)
    assert dist[hops == 1].mean() < 0.6 * dist[hops >= 3].mean()
    assert dist[~np.eye(len(nodes), dtype=bool)].min() > 0.05  # no two areas drawn on top of each other


@pytest.fixture(scope="module")
def duel_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    log = tmp_path_factory.mktemp("show") / "duel.jsonl"
    assert main(["play", "--ruleset", "duel", "--seed", "6", "--quiet", "--log", str(log)]) == 0
    return log


def test_state_at_a_round_is_its_first_decision(base_game: Content, duel_log: Path) -> None:
    game, where = position_at(base_game, duel_log, round_no=2)
    k = int(where.split("after ")[1].split(" of")[0])
    assert game.s.round == 2
    assert replay(base_game, duel_log.read_text().splitlines(), k - 1).s.round == 1
    assert game.digest() == replay(base_game, duel_log.read_text().splitlines(), k).digest()


def test_state_is_rendered_as_text(base_game: Content, duel_log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["show", "state", str(duel_log), "--round", "2"]) == 0
    out = capsys.readouterr().out
    game, _ = position_at(base_game, duel_log, round_no=2)
    assert "start of round 2" in out and "Ritual track: " in out
    for p in game.s.players:
        name = game.content.factions[p].name
        row = next(line for line in out.splitlines() if line.startswith(f"│ {name}"))
        assert f"│ {game.s.power[p]} " in row and f"│ {game.s.doom[p]} " in row
    home = game.layout.areas[game.s.home["sleeper"]].name
    assert home in out


def test_state_after_k_steps_and_errors(duel_log: Path, capsys: pytest.CaptureFixture[str]) -> None:
    n = len(json.loads(next(l for l in duel_log.read_text().splitlines() if '"type": "choices"' in l))["choices"])
    capsys.readouterr()
    assert main(["show", "state", str(duel_log), "--step", str(n)]) == 0
    assert "game over:" in capsys.readouterr().out
    assert main(["show", "state", str(duel_log), "--step", str(n + 1)]) == 1
    assert capsys.readouterr().err.strip() == f"necro: error: --step {n + 1} is out of range: the log has {n} choices"
    assert main(["show", "state", str(duel_log), "--round", "999"]) == 1
    assert "there is no start of round 999" in capsys.readouterr().err


def test_an_unwritable_png_is_one_error_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "no-such-folder" / "m.png"
    assert main(["show", "map", "earth", "--png", str(target)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"necro: error: cannot write '{target}'") and err.count("\n") == 1


def test_a_log_of_a_modded_game_needs_its_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = Path(__file__).parent.parent / "docs" / "modding" / "example-faction" / "drowned-choir"
    log = tmp_path / "mod.jsonl"
    assert main(["play", "--content-dir", str(folder), "--ruleset", "two-player", "--map", "drowned-coast",
                 "--factions", "drowned-choir,great-cthulhu", "--quiet", "--log", str(log)]) == 0
    capsys.readouterr()
    assert main(["show", "state", str(log), "--round", "1"]) == 1
    assert "faction 'drowned-choir' is not in the loaded content (was the game played with --content-dir?)" in capsys.readouterr().err
    assert main(["show", "state", str(log), "--round", "1", "--content-dir", str(folder)]) == 0
    assert "Abyssal Trench" in capsys.readouterr().out
