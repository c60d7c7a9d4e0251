"""`necro report`: the numbers of a results file (win rates, first-player advantage, game length,
spellbook order, Doom and Power by round) as rich tables or JSON, and optionally PNG plots.

A shared victory counts as a win for each of its winners; failed games (rows with an error) are
counted and left out of every figure.
"""
from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.table import Table

from .display_names import DisplayNames, builtin_names
from .results import agents_line, read_rows
from .stats import describe, proportion, quantile

Row = dict[str, Any]


def compute(rows: list[Row]) -> dict[str, Any]:
    """Every figure of the report, as JSON-ready data."""
    ok = [r for r in rows if r.get("outcome") != "error"]
    return {
        "games": len(ok),
        "failed": len(rows) - len(ok),
        "rulesets": sorted({r["ruleset"] for r in ok if r.get("ruleset")}),
        "agents": agent_rates(ok),
        "factions": win_rates(ok),
        "faction_agents": faction_agent_rates(ok),
        "humanity": proportion(sum(1 for r in ok if not r["winners"]), len(ok)),
        "matchups": matchup_rates(ok),
        "first_player": first_player_advantage(ok),
        "length": game_length(ok),
        "spellbooks": spellbook_order(ok),
        "six_spellbooks": six_spellbooks(ok),
        "doom_by_round": by_round(ok, "doom_by_round"),
        "power_by_round": by_round(ok, "power_by_round"),
    }


def seats(row: Row) -> list[tuple[str, str]]:
    """(faction, agent) per seat; an agent the row does not record reads 'unknown'."""
    agents = list(row.get("agents") or [])
    return [(f, agents[i] if i < len(agents) else "unknown") for i, f in enumerate(row["factions"])]


def win_rates(rows: list[Row]) -> list[dict[str, Any]]:
    """Per faction: games played, wins (shared ones too, counted apart), the 95% interval, and the
    agents that played it ({agent: seats})."""
    played: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    shared: Counter[str] = Counter()
    by: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        played.update(r["factions"])
        wins.update(r["winners"])
        if len(r["winners"]) > 1:
            shared.update(r["winners"])
        for f, a in seats(r):
            by[f][a] += 1
    out = [{"faction": f, **proportion(wins[f], played[f]), "shared": shared[f], "agents": dict(sorted(by[f].items()))}
           for f in played]
    return sorted(out, key=lambda d: (-d["rate"], d["faction"]))


def faction_agent_rates(rows: list[Row]) -> list[dict[str, Any]]:
    """Per faction and the agent that played it: seats, wins and the 95% interval, so a file mixing bot
    pools never pools their play into one figure. Ordered as `win_rates`, then by agent."""
    played: Counter[tuple[str, str]] = Counter()
    wins: Counter[tuple[str, str]] = Counter()
    for r in rows:
        for f, a in seats(r):
            played[f, a] += 1
            wins[f, a] += f in r["winners"]
    out = [{"faction": f, "agent": a, **proportion(wins[f, a], played[f, a])} for f, a in played]
    return sorted(out, key=lambda d: (d["faction"], d["agent"]))


def six_spellbooks(rows: list[Row], books: int = 6) -> list[dict[str, Any]]:
    """Per faction: the games it ended holding `books` spellbooks (the 95% interval of that share), and of
    those how many it won, another faction won, and nobody won: a faction that fills its spellbooks but
    cannot reach the Doom to win shows as games ending with nobody winning."""
    played: Counter[str] = Counter()
    held: dict[str, Counter[str]] = defaultdict(Counter)
    for r in rows:
        for f in r["factions"]:
            played[f] += 1
            if len((r.get("spellbooks") or {}).get(f) or []) >= books:
                end = "won" if f in r["winners"] else "other_won" if r["winners"] else "nobody_won"
                held[f][end] += 1
    out = []
    for f in played:
        share = proportion(sum(held[f].values()), played[f])
        out.append({"faction": f, "games": played[f], "held": share["wins"], "rate": share["rate"], "ci": share["ci"],
                    "won": held[f]["won"], "other_won": held[f]["other_won"], "nobody_won": held[f]["nobody_won"]})
    return sorted(out, key=lambda d: (-d["rate"], d["faction"]))


def agent_rates(rows: list[Row]) -> list[dict[str, Any]]:
    """Per agent (with its settings, e.g. `mcts:400:heuristic:depth=30:c=1:prior=10:root=0.5`): seats played, wins and
    the 95% interval (each seat of each game is one trial)."""
    played: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for r in rows:
        for f, a in seats(r):
            played[a] += 1
            wins[a] += f in r["winners"]
    return sorted(({"agent": a, **proportion(wins[a], played[a])} for a in played), key=lambda d: d["agent"])


def matchup_key(factions: list[str]) -> tuple[str, ...]:
    """A matchup is its set of factions, whatever the seating."""
    return tuple(sorted(factions))


def matchup_rates(rows: list[Row]) -> list[dict[str, Any]]:
    """Per matchup: games, each faction's win rate with its interval, and games nobody won."""
    groups: dict[tuple[str, ...], list[Row]] = defaultdict(list)
    for r in rows:
        groups[matchup_key(r["factions"])].append(r)
    out = []
    for key, rs in sorted(groups.items()):
        wins = Counter(w for r in rs for w in r["winners"])
        out.append({"matchup": list(key), "games": len(rs),
                    "factions": {f: proportion(wins[f], len(rs)) for f in key},
                    "humanity": sum(1 for r in rs if not r["winners"])})
    return out


def first_player_advantage(rows: list[Row]) -> dict[str, Any]:
    """The first player's win rate against the other seats' (each seat of each game one trial),
    with the share a fair game would give the first player (the mean of 1/players)."""
    first_wins = rest_wins = rest_seats = 0
    fair = 0.0
    games = [r for r in rows if r.get("first_player")]
    for r in games:
        n = len(r["factions"])
        fair += 1 / n
        won = r["first_player"] in r["winners"]
        first_wins += won
        rest_wins += len(r["winners"]) - won
        rest_seats += n - 1
    return {"first": proportion(first_wins, len(games)), "rest": proportion(rest_wins, rest_seats),
            "fair": fair / len(games) if games else None}


def game_length(rows: list[Row]) -> dict[str, Any]:
    """Rounds played: mean, median, min, max, and a histogram {rounds: games}."""
    rounds = [int(r["rounds"]) for r in rows if r.get("rounds") is not None]
    hist = Counter(rounds)
    return {**describe(rounds), "histogram": {str(k): hist[k] for k in sorted(hist)},
            "end_reasons": dict(Counter(r.get("end_reason") or "" for r in rows).most_common())}


def spellbook_order(rows: list[Row]) -> dict[str, Any]:
    """Per faction: the most common spellbook at each position (1st taken, 2nd, ...) with its
    share of the games that took that many, and each spellbook's mean position and take rate."""
    out: dict[str, Any] = {}
    per: dict[str, list[list[str]]] = defaultdict(list)
    played: Counter[str] = Counter()
    for r in rows:
        played.update(r["factions"])
        for f, books in (r.get("spellbooks") or {}).items():
            per[f].append(list(books))
    for f in sorted(per):
        orders = per[f]
        positions = []
        for k in range(max((len(o) for o in orders), default=0)):
            at = Counter(o[k] for o in orders if len(o) > k)
            n = sum(at.values())
            book, count = min(at.items(), key=lambda kv: (-kv[1], kv[0]))
            positions.append({"position": k + 1, "spellbook": book, "share": count / n, "games": n})
        seen: dict[str, list[int]] = defaultdict(list)
        for o in orders:
            for i, b in enumerate(o, 1):
                seen[b].append(i)
        means = {b: {"mean_position": sum(v) / len(v), "taken": len(v) / played[f]}
                 for b, v in sorted(seen.items(), key=lambda kv: (sum(kv[1]) / len(kv[1]), kv[0]))}
        out[f] = {"by_position": positions, "spellbooks": means}
    return out


def by_round(rows: list[Row], key: str) -> dict[str, list[dict[str, Any]]]:
    """Per faction and round: mean, quartiles and count over the games that reached the round."""
    values: dict[str, dict[int, list[float]]] = defaultdict(lambda: defaultdict(list))
    for r in rows:
        for f, seq in (r.get(key) or {}).items():
            for i, v in enumerate(seq, 1):
                if v is not None:
                    values[f][i].append(float(v))
    out: dict[str, list[dict[str, Any]]] = {}
    for f in sorted(values):
        pts = []
        for rnd in sorted(values[f]):
            vs = sorted(values[f][rnd])
            pts.append({"round": rnd, "mean": sum(vs) / len(vs), "q25": quantile(vs, 0.25),
                        "q75": quantile(vs, 0.75), "games": len(vs)})
        out[f] = pts
    return out


# ---- text --------------------------------------------------------------------------------------------
def _pct(p: dict[str, Any]) -> str:
    lo, hi = p["ci"]
    return f"{100 * p['rate']:5.1f}%  [{100 * lo:4.1f}–{100 * hi:4.1f}]"


def render(rep: dict[str, Any], out: TextIO | None = None, names: DisplayNames | None = None) -> None:
    """Print the report as rich tables, factions and spellbooks by their content names (`names`)."""
    con = Console(file=out or sys.stdout)
    nm = names or DisplayNames()
    if not con.is_terminal:
        con.width = max(con.width, 120)  # a file or a pipe does not wrap
    con.print(f"[bold]{rep['games']} games[/bold] ({', '.join(rep['rulesets']) or 'no ruleset'})"
              + (f", {rep['failed']} failed and left out" if rep["failed"] else ""))
    con.print(f"agents: {agents_line(rep)}", highlight=False)
    t = Table(title="Win rate per faction (95% Wilson interval; a shared victory counts for each winner)")
    mixed = len(rep["agents"]) > 1
    for c in ("faction", "games", "wins", "shared", "win rate [95% CI]") + (("played by",) if mixed else ()):
        t.add_column(c, justify="left" if c in ("faction", "played by") else "right")
    for d in rep["factions"]:
        by = ("\n".join(f"{a} ×{n}" for a, n in d["agents"].items()),) if mixed else ()
        t.add_row(nm.faction(d["faction"]), str(d["games"]), str(d["wins"]), str(d["shared"]), _pct(d), *by)
    h = rep["humanity"]
    t.add_row("(humanity)", str(h["games"]), str(h["wins"]), "", _pct(h), *(("",) if mixed else ()))
    con.print(t)
    if mixed:
        t = Table(title="Win rate per agent (each seat of each game one trial; 95% Wilson interval)")
        for c in ("agent", "seats", "wins", "win rate [95% CI]"):
            t.add_column(c, justify="left" if c == "agent" else "right")
        for d in rep["agents"]:
            t.add_row(d["agent"], str(d["games"]), str(d["wins"]), _pct(d))
        con.print(t)
        t = Table(title="Win rate per faction and agent (95% Wilson interval)")
        for c in ("faction", "agent", "seats", "wins", "win rate [95% CI]"):
            t.add_column(c, justify="left" if c in ("faction", "agent") else "right")
        for d in rep["faction_agents"]:
            t.add_row(nm.faction(d["faction"]), d["agent"], str(d["games"]), str(d["wins"]), _pct(d))
        con.print(t)
    if len(rep["matchups"]) > 1:
        t = Table(title="Win rate per matchup (95% Wilson interval)")
        for c in ("matchup", "games", "win rate [95% CI] per faction", "no winner"):
            t.add_column(c, justify="right" if c in ("games", "no winner") else "left")
        for m in rep["matchups"]:
            width = max(len(nm.faction(f)) for f in m["factions"])
            rates = "\n".join(f"{nm.faction(f):<{width}} {_pct(p)}" for f, p in m["factions"].items())
            t.add_row("\n".join(nm.faction(f) for f in m["matchup"]), str(m["games"]), rates, str(m["humanity"]),
                      end_section=True)
        con.print(t)
    fp = rep["first_player"]
    t = Table(title="First-player advantage (the first player of round 1 against the other seats)")
    for c in ("seat", "trials", "wins", "win rate [95% CI]"):
        t.add_column(c, justify="left" if c == "seat" else "right")
    t.add_row("first player", str(fp["first"]["games"]), str(fp["first"]["wins"]), _pct(fp["first"]))
    t.add_row("other seats", str(fp["rest"]["games"]), str(fp["rest"]["wins"]), _pct(fp["rest"]))
    if fp["fair"] is not None:
        t.caption = f"a fair seat would win {100 * fp['fair']:.1f}% of the games (fewer with shared or no winners)"
    con.print(t)
    ln = rep["length"]
    if ln["count"]:
        t = Table(title="Game length (rounds)")
        for c in ("games", "mean", "median", "min", "max", "endings"):
            t.add_column(c, justify="left" if c == "endings" else "right")
        ends = "\n".join(f"{n} {why}" for why, n in ln["end_reasons"].items())
        t.add_row(str(ln["count"]), f"{ln['mean']:.2f}", f"{ln['median']:g}", str(ln["min"]), str(ln["max"]), ends)
        con.print(t)
    if rep["spellbooks"]:
        t = Table(title="Spellbook order")
        t.add_column("faction")
        t.add_column("most common at each position (share of the games that took that many)")
        t.add_column("mean position of each spellbook (share of games taking it)")
        for f, v in rep["spellbooks"].items():
            first = "\n".join(f"{p['position']}. {nm.spellbook(f, p['spellbook'])} {100 * p['share']:.0f}% of {p['games']}"
                              for p in v["by_position"])
            mean = "\n".join(f"{nm.spellbook(f, b)} {m['mean_position']:.1f} ({100 * m['taken']:.0f}%)"
                             for b, m in v["spellbooks"].items())
            t.add_row(nm.faction(f), first, mean, end_section=True)
        con.print(t)
    _render_six(rep, con, nm)


def _render_six(rep: dict[str, Any], con: Console, nm: DisplayNames) -> None:
    """The table of games each faction ended with six spellbooks, and how those games ended."""
    if not any(d["held"] for d in rep["six_spellbooks"]):
        return
    t = Table(title="Six spellbooks: games a faction ended holding six, and how they ended")
    for c in ("faction", "games", "with six [95% CI]", "won", "another won", "nobody won"):
        t.add_column(c, justify="left" if c == "faction" else "right")
    for d in rep["six_spellbooks"]:
        t.add_row(nm.faction(d["faction"]), str(d["games"]), _pct(d), str(d["won"]), str(d["other_won"]), str(d["nobody_won"]))
    con.print(t)


def _ordinal(k: int) -> str:
    return f"{k}{'st' if k == 1 else 'nd' if k == 2 else 'rd' if k == 3 else 'th'}"


def report(path: str, fmt: str | None = None, output: str = "text", plots: str | None = None,
           out: TextIO | None = None) -> int:
    """Read a results file, print its report (text or JSON) and write plots when asked."""
    if not Path(path).is_file():
        raise OSError(f"no results file '{path}'")
    skipped: list[str] = []
    rows = read_rows(path, fmt, skipped)
    for warning in skipped:   # a cut-off last line: the report is of the whole rows before it
        print(f"necro: warning: {warning}", file=sys.stderr)
    if not rows:
        raise ValueError(f"{path}: no result rows")
    rep = compute(rows)
    if output == "json":
        print(json.dumps(rep, indent=2), file=out or sys.stdout)
    else:
        render(rep, out, builtin_names())
    if plots:
        from .plots import write_plots
        written = write_plots(rep, rows, Path(plots))
        if output != "json":
            print(f"wrote {', '.join(str(p) for p in written)}", file=out or sys.stdout)
    return 0


__all__ = ["agent_rates", "agents_line", "by_round", "compute", "first_player_advantage", "game_length", "matchup_rates", "render", "report",
           "spellbook_order", "win_rates"]
