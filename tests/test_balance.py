"""`necro balance`: the ranking-stability line both ways (fixture results), the plan of paired
budgets, one-line refusals of bad settings, and a batch killed mid-way that the same command
continues to the end, writing its report."""
from __future__ import annotations

import itertools
import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from necronomicon.tools.balance import balanced_order, plan_balance, quarter_budget
from necronomicon.tools.balance_report import paired_changes, ranking_stability, seat_rates, write_report_text
from necronomicon.tools.cli import main
from necronomicon.tools.display_names import DisplayNames
from necronomicon.tools.report import win_rates
from necronomicon.tools.simulate import GameSpec

ROOT = Path(__file__).parent.parent
BASE = ["balance", "--ruleset", "duel", "--jobs", "1", "--no-progress"]
DUEL = [*BASE, "--factions", "great-cthulhu,sleeper", "--budget", "2"]


def _rows(wins: dict[str, int], games: int, start: int = 0) -> list[dict]:
    """Fixture rows of 3-player games among a, b, c: each faction wins wins[f] of `games` (the rest nobody)."""
    rows, k = [], start
    order = [f for f, n in wins.items() for _ in range(n)]
    for i in range(games):
        winners = [order[i]] if i < len(order) else []
        rows.append({"game": k, "seed": k, "ruleset": "multiplayer", "factions": ["a", "b", "c"], "agents": ["x"] * 3,
                     "winners": winners, "outcome": "win" if winners else "humanity", "rounds": 6})
        k += 1
    return rows


def test_the_ranking_is_stable_when_every_faction_keeps_its_place() -> None:
    full = _rows({"a": 60, "b": 30, "c": 10}, 120)
    quarter = _rows({"a": 50, "b": 24, "c": 16}, 120)
    got = ranking_stability(full, quarter)
    assert got["verdict"] == "stable" and not got["swaps"]
    assert "stable" in got["line"] and "measures the bots" not in got["line"]


def test_the_ranking_changes_when_stronger_bots_reverse_a_clear_order() -> None:
    full = _rows({"a": 15, "b": 40, "c": 2}, 60)      # at the full budget b is far ahead of a
    quarter = _rows({"a": 40, "b": 15, "c": 2}, 60)   # at a quarter of it a is far ahead of b
    got = ranking_stability(full, quarter)
    assert got["verdict"] == "changes"
    assert got["swaps"] == [{"stronger_bots_rank_higher": "b", "over": "a", "clear": True}]
    assert "measures the bots" in got["line"] and "B above A" in got["line"]   # ids made readable


def test_a_swap_inside_the_intervals_is_stable_within_the_noise() -> None:
    got = ranking_stability(_rows({"a": 32, "b": 30, "c": 10}, 160), _rows({"a": 30, "b": 32, "c": 10}, 160))
    assert got["verdict"] == "stable-within-noise" and len(got["swaps"]) == 1 and not got["swaps"][0]["clear"]
    assert got["width"] < 0.25 and "sat in 160 pairs of games" in got["line"]


def test_few_games_are_too_few_to_call_the_ranking_stable_and_the_line_says_how_wide() -> None:
    # 8 games a faction: no pair changes order, but a 95% interval is some 50 points wide
    got = ranking_stability(_rows({"a": 3, "b": 2, "c": 1}, 8), _rows({"a": 3, "b": 2, "c": 1}, 8))
    assert got["verdict"] == "too-few-games" and not got["swaps"] and got["games"] == (8, 8)
    assert "too few games to tell" in got["line"] and "no two factions change order" in got["line"]
    assert f"is {100 * got['width']:.0f} points wide" in got["line"] and got["width"] > 0.4
    assert "paired: each faction sat in 8 pairs of games that share matchup, seats and seed" in got["line"]
    swapped = ranking_stability(_rows({"a": 3, "b": 2, "c": 1}, 8), _rows({"a": 2, "b": 3, "c": 1}, 8))
    assert swapped["verdict"] == "too-few-games" and "1 pair(s) change order, none clearly" in swapped["line"]


def test_a_clear_change_is_reported_by_name() -> None:
    full, quarter = _rows({"a": 15, "b": 40, "c": 2}, 60), _rows({"a": 40, "b": 15, "c": 2}, 60)
    got = ranking_stability(full, quarter, DisplayNames({"a": "Alpha", "b": "Beta"}))
    assert "(Beta above Alpha at the full budget" in got["line"]


def test_without_games_at_both_budgets_there_is_nothing_to_compare() -> None:
    assert ranking_stability(_rows({"a": 1}, 2), [])["verdict"] == "no-games"
    # games at both budgets, but no two share matchup, seats and seed: no pairs to compare
    assert ranking_stability(_rows({"a": 1}, 2), _rows({"a": 1}, 2, start=2))["verdict"] == "no-games"


def test_pairs_are_the_games_that_share_matchup_seats_and_seed_and_leave_out_failures() -> None:
    full, quarter = _rows({"a": 2, "b": 1}, 4), _rows({"b": 1, "a": 2}, 4)
    full[3]["outcome"] = "error"                 # a failed game drops its pair
    quarter[2]["factions"] = ["b", "a", "c"]     # other seats: not the partner of full game 2
    got = paired_changes(full, quarter)
    assert {f: d["pairs"] for f, d in got.items()} == {"a": 2, "b": 2, "c": 2}
    # pair 0: a won at both budgets; pair 1: a at the full budget, b at the quarter
    assert (got["a"]["full"], got["a"]["quarter"], got["a"]["change"]) == (1.0, 0.5, 0.5)
    assert got["b"]["change"] == -0.5 and got["c"]["change"] == 0.0
    assert got["a"]["ci"][0] < 0 < got["a"]["ci"][1]   # two pairs: the interval holds no change too


def test_paired_comparison_sees_a_change_that_independent_intervals_miss() -> None:
    """100 pairs; at both budgets a and b win 30 and 40 games the other way round (c 20, nobody 10),
    and the 10 pairs that differ all move a win from a (quarter) to b (full). The independent 95%
    intervals of a and b overlap at each budget, so comparing them calls the swap noise; paired,
    those 10 pairs against none the other way put b's change wholly above a's."""
    def game(k: int, winner: str | None) -> dict:
        return {"game": k, "seed": k, "ruleset": "multiplayer", "factions": ["a", "b", "c"], "agents": ["x"] * 3,
                "winners": [winner] if winner else [], "outcome": "win" if winner else "humanity", "rounds": 6}
    winners_q = ["a"] * 40 + ["b"] * 30 + ["c"] * 20 + [None] * 10
    winners_f = ["b" if k < 10 else w for k, w in enumerate(winners_q)]
    full = [game(k, w) for k, w in enumerate(winners_f)]
    quarter = [game(k, w) for k, w in enumerate(winners_q)]
    for rows in (full, quarter):   # independent intervals: a's and b's overlap at both budgets
        rates = {d["faction"]: d["ci"] for d in win_rates(rows)}
        assert rates["a"][0] < rates["b"][1] and rates["b"][0] < rates["a"][1]
    got = ranking_stability(full, quarter)
    assert got["verdict"] == "changes" and got["swaps"] == [{"stronger_bots_rank_higher": "b", "over": "a", "clear": True}]
    moved = paired_changes(full, quarter)
    assert moved["b"]["change"] == 0.1 and moved["b"]["ci"][0] > 0 > moved["a"]["ci"][1]
    assert "paired" in got["line"] and "measures the bots" in got["line"]


def test_the_report_has_both_budgets_seats_and_the_stability_line() -> None:
    full, quarter = _rows({"a": 30, "b": 15, "c": 5}, 60), _rows({"a": 25, "b": 12, "c": 8}, 60)
    full[0]["spellbooks"] = {"a": ["x"], "b": [], "c": []}
    text = write_report_text(full, quarter, ("mcts:40", "mcts:10"), ["# t"],
                             DisplayNames({"a": "Alpha", "b": "Beta", "c": "Gamma"}, {"a": {"x": "Book X"}}))
    assert "| Alpha | 60 | 50.0%" in text and "| Gamma | 60 | 8.3%" in text
    assert "│ Alpha " in text and "│ a " not in text and "1. Book X" in text   # necro report's tables name them too
    assert "a fair share with 3 players is 33%" in text
    assert "**Ranking between budgets: " in text and "| (nobody won) | 60 | 16.7% (9.3–28.0%) | 60 | 25.0%" in text
    # a won 30 at the full budget, 25 at the quarter: games 25-29 are its wins at the full budget only
    assert "| Alpha | 60 | 50.0% (37.7–62.3%) | 60 | 41.7% (30.1–54.3%) | 60 | +8.3 points (+1.8 to +18.1) |" in text
    assert [s["wins"] for s in seat_rates(full)] == [30, 15, 5]   # a, b, c sit in seats 1, 2, 3 in every fixture game


def test_pairs_share_matchup_seats_and_seed_and_differ_only_in_budget() -> None:
    specs = plan_balance([("a", "b"), ("a", "c")], 4, 10, "duel", ("mcts:8", "mcts:2"), None)
    assert [(s.index, s.seed, s.factions, s.agents[0]) for s in specs] == [
        (0, 10, ("a", "b"), "mcts:8"), (1, 10, ("a", "b"), "mcts:2"),
        (2, 11, ("c", "a"), "mcts:8"), (3, 11, ("c", "a"), "mcts:2"),    # a sat first: now c does
        (4, 12, ("b", "a"), "mcts:8"), (5, 12, ("b", "a"), "mcts:2"),    # each matchup's other rotation
        (6, 13, ("a", "c"), "mcts:8"), (7, 13, ("a", "c"), "mcts:2")]
    assert (quarter_budget("40"), quarter_budget("2"), quarter_budget("0.5s")) == ("10", "1", "0.125s")


def test_every_faction_gets_its_share_of_games_and_seats_from_the_first_games_on() -> None:
    # seven factions, three a game: in alphabetical order the first 15 matchups all hold the first faction
    ms = list(itertools.combinations("abcdefg", 3))
    assert balanced_order(ms)[0] == ("a", "b", "c") and sorted(balanced_order(ms)) == ms
    specs = [s for s in plan_balance(ms, 3 * len(ms), 1, "multiplayer", ("x", "y"), None) if s.index % 2 == 0]
    for n in (5, 10, 20, len(ms)):
        played = Counter(f for s in specs[:n] for f in s.factions)
        assert len(played) == 7 and max(played.values()) - min(played.values()) <= 1, (n, played)
    seats = Counter((f, i) for s in specs[:len(ms)] for i, f in enumerate(s.factions))
    assert max(seats.values()) - min(seats[f, i] for f in "abcdefg" for i in range(3)) <= 2
    # three cycles of the matchups: each matchup once in each of its three rotations
    turns = Counter((tuple(sorted(s.factions)), s.factions.index(min(s.factions))) for s in specs)
    assert set(turns.values()) == {1} and len(turns) == 3 * len(ms)


@pytest.mark.parametrize("extra, says", [
    (["--budget", "fast"], "--budget 'fast'"),
    (["--factions", "great-cthulu,sleeper"], "unknown faction 'great-cthulu' (did you mean 'great-cthulhu'?)"),
    (["--factions", "sleeper"], "names 1 faction(s); 2 players need at least 2"),
    (["--time-limit", "0"], "--time-limit 0"),
    (["--eval", "/nonexistent/eval.json"], "evaluation '/nonexistent/eval.json': cannot read it"),
])
def test_bad_settings_are_one_line_before_any_game(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   extra: list[str], says: str) -> None:
    args = [*BASE, *extra] if "--factions" in extra else [*DUEL, *extra]
    assert main([*args, "--out", str(tmp_path / "b")]) == 1
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and says in err, err
    assert not (tmp_path / "b" / "games.jsonl").exists()


def _cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "necronomicon.tools.cli", *args]


def test_a_killed_balance_run_continues_to_the_end_and_writes_its_report(tmp_path: Path) -> None:
    out = tmp_path / "bal"
    games = out / "games.jsonl"
    args = _cmd(*DUEL, "--games", "3", "--out", str(out))
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and proc.poll() is None:
        if games.is_file() and games.read_text().count("\n") >= 1:
            break
        time.sleep(0.05)
    proc.kill()
    proc.wait()
    kept = [json.loads(x) for x in games.read_text().splitlines() if x.strip()]
    assert 1 <= len(kept) < 6, "the run was not killed while games were left"
    assert not (out / "report.md").exists()
    again = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert again.returncode == 0, again.stderr
    assert f"continuing {games}: {len(kept)} of 6 games are there already" in again.stderr
    rows = [json.loads(x) for x in games.read_text().splitlines()]
    assert [r["game"] for r in rows] == list(range(6))
    assert all(r in rows for r in kept)   # the finished games were kept, not played again
    assert [r["agents"][0].split(":")[1] for r in rows] == ["2", "1"] * 3
    report = (out / "report.md").read_text()
    assert "3 games at the full budget and 3 at a quarter of it" in report and "Ranking between budgets:" in report
    assert (out / "plots" / "win_rates.png").is_file() and (out / "plots-quarter" / "win_rates.png").is_file()
    assert "1 of the 1 matchups have a game" in report
    from necronomicon.interpreter.content import load_content
    from tests.test_words_for_people import _id_pattern, forbidden_ids
    read = "\n".join(x for x in report.splitlines() if not x.startswith("Made by"))   # the command: ids, as typed
    assert "The Sleeper" in read and "Great Cthulhu" in read
    assert not _id_pattern(forbidden_ids(load_content().model)).findall(read)      # names only, never ids


def test_the_modding_guides_balance_command_is_valid_and_plays_the_example() -> None:
    from tests.test_modding_guide import guide_commands
    from necronomicon.tools.cli import build_parser
    found = [argv for argv, _ in guide_commands() if argv[:1] == ["balance"]]
    assert len(found) == 1
    args = build_parser().parse_args(found[0])
    assert args.content_dir == ["docs/modding/example-faction/drowned-choir"] and args.players == 3
    assert (args.budget, args.time_limit) == ("20", 50.0)   # the defaults: the run ends within the hour


def _marked_game(content: object, spec: GameSpec) -> dict:
    """Stands in for play_one in the workers: marks its start and end in the folder named by its ruleset."""
    marks = Path(spec.ruleset)
    (marks / f"start-{spec.index}").touch()
    if spec.index == 0:   # game 0 ends (and closing time comes) only once game 1 is under way
        deadline = time.monotonic() + 30
        while not (marks / "start-1").exists() and time.monotonic() < deadline:
            time.sleep(0.01)
    else:
        time.sleep(1.0)
    (marks / f"end-{spec.index}").touch()
    return {"game": spec.index}


def test_at_closing_time_no_new_game_starts_and_the_games_under_way_finish(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    import necronomicon.tools.runners as runners
    monkeypatch.setattr(runners, "play_one", _marked_game)
    specs = [GameSpec(i, i, str(tmp_path), ("a", "b"), ("random", "random")) for i in range(8)]
    rows: list[dict] = []
    got = runners.run_pool(specs, runners.ContentArgs(), 2, content=object(), drain=lambda: bool(rows))  # type: ignore[arg-type]
    for row in got:
        rows.append(row)
    started = {int(p.name[6:]) for p in tmp_path.glob("start-*")}
    ended = {int(p.name[4:]) for p in tmp_path.glob("end-*")}
    assert {0, 1} <= started and started == ended == {r["game"] for r in rows}   # under way: played to the end
    assert not started & {4, 5, 6, 7}                                            # after closing time: never started


def test_the_report_the_modding_guide_shows_is_the_one_its_games_make() -> None:
    """docs/modding.md quotes the first lines of docs/modding/choir-balance/report.md, which the games
    beside it make: the quoted lines are in the report, and the report's tables are those its games give."""
    from necronomicon.interpreter.content import load_content
    folder = ROOT / "docs" / "modding" / "choir-balance"
    report = (folder / "report.md").read_text(encoding="utf-8")
    rows = [json.loads(x) for x in (folder / "games.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    full, quarter = [r for r in rows if r["game"] % 2 == 0], [r for r in rows if r["game"] % 2 == 1]
    assert f"{len(full)} games at the full budget and {len(quarter)} at a quarter of it" in report
    content = load_content([ROOT / "docs" / "modding" / "example-faction" / "drowned-choir"]).require_ok()
    agents = (full[0]["agents"][0], quarter[0]["agents"][0])
    tables = write_report_text(full, quarter, agents, [], DisplayNames.of(content.model))
    assert tables.strip() in report
    guide = (ROOT / "docs" / "modding.md").read_text(encoding="utf-8")
    quoted = [x for x in guide[guide.index("$ necro balance"):].splitlines() if x.startswith(("| ", "**Ranking"))]
    assert len(quoted) >= 10 and all(x in report.splitlines() for x in quoted)
