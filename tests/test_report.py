"""`necro report`: Wilson intervals, first-player advantage, file round-trips, plots."""
from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import pytest

from necronomicon.tools.cli import main
from necronomicon.tools.report import compute, first_player_advantage, game_length, spellbook_order, win_rates
from necronomicon.tools.results import read_rows, write_rows
from necronomicon.tools.stats import wilson


@pytest.mark.parametrize(("k", "n", "lo", "hi"), [
    # reference values: statsmodels proportion_confint(method="wilson"); 81/263 is Newcombe (1998), Stat. Med. 17:857, table I
    (8, 10, 0.4902, 0.9433),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (50, 100, 0.4038, 0.5962),
    (1, 2, 0.0945, 0.9055),
    (81, 263, 0.2553, 0.3662),
])
def test_wilson_interval_matches_known_values(k: int, n: int, lo: float, hi: float) -> None:
    got = wilson(k, n)
    assert got == pytest.approx((lo, hi), abs=5e-5)


def test_wilson_edge_cases() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    # the interval always holds the observed rate exactly (a faction that wins every game: 1.0, not 0.999...)
    for n in range(1, 300):
        assert wilson(n, n)[1] == 1.0 and wilson(0, n)[0] == 0.0
    with pytest.raises(ValueError):
        wilson(3, 2)


def row(game: int, factions: list[str], winners: list[str], first: str, rounds: int = 5,
        books: dict[str, list[str]] | None = None) -> dict[str, Any]:
    """A hand-made result row (only the fields the report reads, plus a trace)."""
    outcome = "humanity" if not winners else "win" if len(winners) == 1 else "shared"
    return {"game": game, "seed": 100 + game, "ruleset": "duel", "factions": factions,
            "agents": ["heuristic"] * len(factions), "winners": winners, "outcome": outcome,
            "doom": {f: rounds for f in factions}, "rounds": rounds,
            "spellbooks": books or {f: [] for f in factions}, "first_player": first,
            "end_reason": "instant death", "result": "", "decisions": 10, "error": None,
            "doom_by_round": {f: list(range(1, rounds + 1)) for f in factions},
            "power_by_round": {f: [8] * rounds for f in factions}}


A, B, C = "alpha", "beta", "gamma"
HAND = [
    row(0, [A, B], [A], first=A, rounds=4, books={A: ["x", "y"], B: ["z"]}),
    row(1, [A, B], [A], first=A, rounds=6, books={A: ["x"], B: ["w", "z"]}),
    row(2, [A, B], [B], first=A, rounds=5, books={A: ["y", "x"], B: ["z"]}),
    row(3, [B, A], [A, B], first=B, rounds=5),           # shared: a win for the first seat and one other
    row(4, [A, B, C], [], first=C, rounds=9),              # humanity
    row(5, [A, B, C], [C], first=C, rounds=7),
]


def test_first_player_advantage_on_a_hand_made_file() -> None:
    fp = first_player_advantage(HAND)
    # first-player wins: games 0, 1, 3 and 5 -> 4 of 6
    assert (fp["first"]["wins"], fp["first"]["games"]) == (4, 6)
    # other seats: games 2 and 3 give one win each over 1+1+1+1+2+2 = 8 seats
    assert (fp["rest"]["wins"], fp["rest"]["games"]) == (2, 8)
    assert fp["first"]["ci"] == pytest.approx(list(wilson(4, 6)))
    assert fp["fair"] == pytest.approx((4 * 0.5 + 2 / 3) / 6)


def test_win_rates_count_shared_wins_for_each_winner() -> None:
    by = {d["faction"]: d for d in win_rates(HAND)}
    assert (by[A]["wins"], by[A]["games"], by[A]["shared"]) == (3, 6, 1)
    assert (by[B]["wins"], by[B]["games"]) == (2, 6)
    assert (by[C]["wins"], by[C]["games"]) == (1, 2)
    assert [d["faction"] for d in win_rates(HAND)] == [A, C, B]  # by rate: 50%, 50% (ties by name), 33%


def test_game_length_and_spellbook_order() -> None:
    ln = game_length(HAND)
    assert (ln["mean"], ln["median"], ln["min"], ln["max"]) == (6.0, 5.5, 4, 9)
    assert ln["histogram"] == {"4": 1, "5": 2, "6": 1, "7": 1, "9": 1}
    sb = spellbook_order(HAND)[A]
    assert sb["by_position"][0] == {"position": 1, "spellbook": "x", "share": pytest.approx(2 / 3), "games": 3}
    assert sb["by_position"][1]["games"] == 2
    assert sb["spellbooks"]["x"]["mean_position"] == pytest.approx(4 / 3)


@pytest.mark.parametrize("ext", ["jsonl", "csv"])
def test_a_results_file_round_trips_into_the_same_report(ext: str, tmp_path: Path) -> None:
    path = tmp_path / f"r.{ext}"
    assert write_rows(path, list(reversed(HAND))) == len(HAND)
    back = read_rows(path)
    assert [r["game"] for r in back] == list(range(len(HAND)))  # written in game order
    assert compute(back) == compute(HAND)


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_report_prints_tables_and_writes_png_plots(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.jsonl"
    write_rows(path, HAND)
    plots = tmp_path / "plots"
    assert main(["report", str(path), "--plots", str(plots)]) == 0
    out = capsys.readouterr().out
    for title in ("Win rate per faction", "Win rate per matchup", "First-player advantage", "Game length",
                  "Spellbook order"):
        assert title in out
    names = sorted(p.name for p in plots.iterdir())
    assert names == ["doom_by_round.png", "game_length.png", "six_spellbooks.png", "win_rates.png"]
    for p in plots.iterdir():
        w, h = _png_size(p)
        assert w >= 300 and h >= 200


def test_plots_draw_a_faction_that_wins_every_game(tmp_path: Path) -> None:
    # at 10 of 10 the Wilson bound used to fall a hair below the rate: a negative whisker, and --plots exit 1
    path = tmp_path / "r.jsonl"
    write_rows(path, [row(g, [A, B], [A], first=A) for g in range(10)])
    assert main(["report", str(path), "--plots", str(tmp_path / "plots")]) == 0
    assert (tmp_path / "plots" / "win_rates.png").is_file()


def test_six_spellbooks_counts_who_filled_their_books_and_how_those_games_ended(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    six = [f"b{i}" for i in range(6)]
    rows = [row(0, [A, B], [A], first=A, books={A: six, B: ["z"]}),      # A holds six and wins
            row(1, [A, B], [], first=A, books={A: six, B: six}),         # both hold six, nobody wins
            row(2, [A, B], [B], first=B, books={A: six, B: ["z"]}),      # A holds six, B wins
            row(3, [A, B], [B], first=B, books={A: ["x"], B: ["z"]})]
    by = {d["faction"]: d for d in compute(rows)["six_spellbooks"]}
    assert (by[A]["held"], by[A]["won"], by[A]["other_won"], by[A]["nobody_won"]) == (3, 1, 1, 1)
    assert (by[B]["held"], by[B]["won"], by[B]["other_won"], by[B]["nobody_won"]) == (1, 0, 0, 1)
    assert by[A]["rate"] == 0.75 and by[A]["games"] == 4
    path = tmp_path / "r.jsonl"
    write_rows(path, rows)
    assert main(["report", str(path)]) == 0
    assert "Six spellbooks" in capsys.readouterr().out


def test_mixed_bot_pools_are_reported_per_faction_and_agent() -> None:
    rows = [{**row(g, [A, B], [A] if g % 2 else [B], first=A), "agents": ["mcts:0.5s", "heuristic"]}
            for g in range(4)]
    rows += [{**row(4 + g, [A, B], [A], first=A), "agents": ["heuristic", "random"]} for g in range(2)]
    got = {(d["faction"], d["agent"]): (d["wins"], d["games"]) for d in compute(rows)["faction_agents"]}
    assert got == {(A, "mcts:0.5s"): (2, 4), (A, "heuristic"): (2, 2), (B, "heuristic"): (2, 4),
                   (B, "random"): (0, 2)}


def test_report_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "r.csv"
    write_rows(path, HAND)
    assert main(["report", str(path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["games"] == 6 and data["humanity"]["wins"] == 1
    assert data["first_player"]["first"]["wins"] == 4


def test_failed_games_are_counted_and_left_out() -> None:
    broken = {**row(9, [A, B], [], first=A), "outcome": "error", "error": "GameError: boom", "winners": None}
    rep = compute([*HAND, broken])
    assert rep["failed"] == 1 and rep["games"] == len(HAND)


@pytest.mark.parametrize(("content", "name", "message"), [
    (None, "missing.jsonl", "no results file"),
    ("{not json\n", "bad.jsonl", "bad.jsonl:1: not a JSON line"),
    ('{"game": 0}\n', "thin.jsonl", "is this a `necro simulate` results file?"),
    ("a,b\n", "r.txt", "cannot tell the format"),
    ("", "empty.jsonl", "no result rows"),
])
def test_bad_results_files_are_one_line(content: str | None, name: str, message: str, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / name
    if content is not None:
        path.write_text(content)
    assert main(["report", str(path)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_the_report_names_factions_and_spellbooks_by_their_content_names(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    gc, cc = "great-cthulhu", "crawling-chaos"
    path = tmp_path / "r.jsonl"
    write_rows(path, [row(0, [gc, cc, "drowned-choir"], [gc], first=gc, books={gc: ["yha-nthlei"], cc: ["thousand-forms"]}),
                      row(1, [cc, gc, "drowned-choir"], [cc], first=cc)])
    assert main(["report", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Great Cthulhu" in out and "Crawling Chaos" in out and "Y'ha Nthlei" in out and "The Thousand Forms" in out
    assert "Drowned Choir" in out                  # a modder's faction read without its folder: its id made readable
    for ident in (gc, cc, "yha-nthlei", "thousand-forms", "drowned-choir"):
        assert ident not in out


def test_a_faction_with_one_or_two_games_still_has_its_doom_curve() -> None:
    from necronomicon.tools.plots import rounds_shown
    pts = [{"round": r, "games": g} for r, g in ((1, 2), (2, 2), (3, 1))]
    assert [p["round"] for p in rounds_shown(pts, 2)] == [1, 2, 3]
    many = [{"round": r, "games": g} for r, g in ((1, 40), (2, 40), (3, 5), (4, 3))]
    assert [p["round"] for p in rounds_shown(many, 40)] == [1, 2, 3]   # fewer than 10% of 40 games reached round 4
