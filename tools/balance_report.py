"""The report `necro balance` writes: win rates per faction at two budgets with 95% intervals,
whether the ranking is stable between them, per seat, and the full `necro report` of each budget.

The two games of a pair share matchup, seats and seed and differ only in the budget, so the
budgets are compared *paired*: per faction, over the pairs it sat in, its win at the full budget
minus its win at the quarter (1, 0 or -1 a pair), averaged, with Tango's 95% score interval of that
paired difference (tools/stats.py). Pairs alike at both budgets narrow the interval, so a change
that two independent intervals would hide in their overlap shows. The ranking *changes* when two
factions change order between the budgets and the full budget lifts the one it ranks higher more
than the other beyond those intervals (the higher one's interval lies wholly above the other's):
then stronger bots rank the factions differently, so the table measures the bots as much as the
factions. Otherwise, while the median interval of a paired difference is wider than `WIDE` (five
or six pairs a faction, as an hour on a busy two-core machine gave at three players, leave it some
98 points wide),
there are *too few games* to call the ranking stable, and the line says how wide the intervals
are. With narrower intervals the ranking is *stable* when no two factions change order and
*stable within the noise* when the pairs that do have overlapping intervals.
"""
from __future__ import annotations

import io
from collections import defaultdict
from typing import Any

from .display_names import DisplayNames
from .report import compute, render, win_rates
from .stats import paired_difference, proportion

Row = dict[str, Any]
WIDE = 0.25   # a median 95% interval wider than this (25 points) cannot call a ranking stable

__all__ = ["paired_changes", "ranking_stability", "seat_rates", "write_report_text"]


def _median(xs: list[float]) -> float:
    xs = sorted(xs)
    return (xs[len(xs) // 2] + xs[(len(xs) - 1) // 2]) / 2


def _pair_key(row: Row) -> tuple[Any, ...]:
    """What the two games of a pair share: ruleset, map, factions in their seats and seed."""
    return (row.get("ruleset"), row.get("layout"), tuple(row["factions"]), row.get("seed"))


def game_pairs(full: list[Row], quarter: list[Row]) -> list[tuple[Row, Row]]:
    """The (full, quarter) games that share matchup, seats and seed (in the order they were
    played), leaving out a pair with a failed game and a game whose partner has not finished."""
    waiting: dict[tuple[Any, ...], list[Row]] = defaultdict(list)
    for r in quarter:
        waiting[_pair_key(r)].append(r)
    pairs = []
    for r in full:
        partners = waiting.get(_pair_key(r))
        if partners:
            q = partners.pop(0)
            if r.get("outcome") != "error" and q.get("outcome") != "error":
                pairs.append((r, q))
    return pairs


def paired_changes(full: list[Row], quarter: list[Row]) -> dict[str, dict[str, Any]]:
    """Per faction, over the pairs of games it sat in: `pairs`, its win rates at the full and the
    quarter budget (`full`, `quarter`), and `change`, `ci`: the mean paired difference of its win
    (full minus quarter) and its 95% interval."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])   # pairs, full wins, quarter wins, full only
    for f_row, q_row in game_pairs(full, quarter):
        for f in f_row["factions"]:
            c = counts[f]
            won_f, won_q = f in f_row["winners"], f in q_row["winners"]
            c[0] += 1
            c[1] += won_f
            c[2] += won_q
            c[3] += won_f and not won_q
    out = {}
    for f, (n, wf, wq, only_f) in counts.items():
        change, lo, hi = paired_difference(only_f, wq - (wf - only_f), n)
        out[f] = {"pairs": n, "full": wf / n, "quarter": wq / n, "change": change, "ci": (lo, hi)}
    return out


def ranking_stability(full: list[Row], quarter: list[Row], names: DisplayNames | None = None) -> dict[str, Any]:
    """Compare the factions' order by win rate at the two budgets, paired (module docstring): a
    verdict (`stable`, `stable-within-noise`, `too-few-games`, `changes`, `no-games`), the pairs of
    factions that changed order, the pairs of games each faction sat in (fewest, most), the median
    width of the paired differences' intervals, and one line that says what it computed (factions
    by `names`)."""
    nm = names or DisplayNames()
    moved = paired_changes(full, quarter)
    both = sorted(moved)
    if len(both) < 2:
        return {"verdict": "no-games", "swaps": [], "games": (0, 0), "width": None,
                "line": "Ranking between budgets: not enough pairs of games played at both budgets to compare (run the "
                        "command again to continue)."}
    swaps = []
    for i, a in enumerate(both):
        for b in both[i + 1:]:
            df = moved[a]["full"] - moved[b]["full"]
            dq = moved[a]["quarter"] - moved[b]["quarter"]
            if df * dq < 0:
                hi, lo = (a, b) if df > 0 else (b, a)
                clear = moved[hi]["ci"][0] > moved[lo]["ci"][1]
                swaps.append({"stronger_bots_rank_higher": hi, "over": lo, "clear": clear})
    counts = [moved[f]["pairs"] for f in both]
    width = _median([moved[f]["ci"][1] - moved[f]["ci"][0] for f in both])
    games = (min(counts), max(counts))
    played = f"{games[0]}" if games[0] == games[1] else f"{games[0]}–{games[1]}"
    precision = (f"paired: each faction sat in {played} pairs of games that share matchup, seats and seed, and the "
                 f"median 95% interval of a faction's win rate at the full budget minus at the quarter, over its "
                 f"pairs, is {100 * width:.0f} points wide")
    clear = [s for s in swaps if s["clear"]]
    if clear:
        pairs = "; ".join(f"{nm.faction(s['stronger_bots_rank_higher'])} above {nm.faction(s['over'])}"
                          for s in clear)
        verdict = "changes"
        line = (f"Ranking between budgets: it CHANGES when the bots get stronger ({pairs} at the full budget, the other "
                f"way at a quarter of it, and the full budget lifts the first more than the second beyond the 95% "
                f"intervals of their paired differences): this table measures the bots as much as the factions "
                f"({precision}).")
    elif width > WIDE:
        verdict = "too-few-games"
        order = f"{len(swaps)} pair(s) change order, none clearly" if swaps else "no two factions change order"
        line = (f"Ranking between budgets: too few games to tell whether it is stable ({precision}), so only a "
                f"faction far from the others stands apart ({order}). Run the same command again to add games.")
    elif swaps:
        verdict = "stable-within-noise"
        line = (f"Ranking between budgets: stable within the noise ({len(swaps)} pair(s) change order, but the 95% "
                f"intervals of their paired differences overlap; {precision}).")
    else:
        verdict = "stable"
        line = (f"Ranking between budgets: stable (every faction keeps its place between a quarter budget and the full "
                f"one; {precision}).")
    return {"verdict": verdict, "swaps": swaps, "games": games, "width": width, "line": line}


def seat_rates(rows: list[Row]) -> list[dict[str, Any]]:
    """Per seat position (1 = the first seat of the set-up): games and the 95% interval of its wins."""
    ok = [r for r in rows if r.get("outcome") != "error"]
    top = max((len(r["factions"]) for r in ok), default=0)
    out = []
    for k in range(top):
        games = [r for r in ok if len(r["factions"]) > k]
        wins = sum(1 for r in games if r["factions"][k] in r["winners"])
        out.append({"seat": k + 1, **proportion(wins, len(games))})
    return out


def _pct(p: dict[str, Any]) -> str:
    lo, hi = p["ci"]
    return f"{100 * p['rate']:.1f}% ({100 * lo:.1f}–{100 * hi:.1f}%)"


def _points(d: dict[str, Any]) -> str:
    lo, hi = d["ci"]
    return f"{100 * d['change']:+.1f} points ({100 * lo:+.1f} to {100 * hi:+.1f})"


def write_report_text(full: list[Row], quarter: list[Row], agents: tuple[str, str], header: list[str],
                      names: DisplayNames) -> str:
    """The report as Markdown: the header lines, the stability line, the two budgets' faction
    tables side by side with each faction's paired difference, the per-seat table, then
    `necro report`'s tables for each budget."""
    stab = ranking_stability(full, quarter, names)
    rf = {d["faction"]: d for d in win_rates([r for r in full if r.get("outcome") != "error"])}
    rq = {d["faction"]: d for d in win_rates([r for r in quarter if r.get("outcome") != "error"])}
    seats = max((len(r["factions"]) for r in full + quarter), default=0)
    fair = f" (a fair share with {seats} players is {100 / seats:.0f}%, less the games nobody wins)" if seats else ""
    lines = [*header, "", f"**{stab['line']}**", "",
             f"Win rate per faction at each budget, with its 95% interval{fair}; the last column is its win rate "
             "at the full budget minus at the quarter over the pairs of games it sat in (the same matchup, seats "
             "and seed at both budgets), with the 95% interval of that paired difference:", "",
             f"| faction | games | win rate, `{agents[0]}` | games | win rate, quarter budget `{agents[1]}` "
             "| pairs | full minus quarter, paired |", "|---|---|---|---|---|---|---|"]
    moved = paired_changes(full, quarter)
    order = sorted(set(rf) | set(rq), key=lambda f: (-(rf[f]["rate"] if f in rf else -1), f))
    for f in order:
        a = (str(rf[f]["games"]), _pct(rf[f])) if f in rf else ("0", "–")
        b = (str(rq[f]["games"]), _pct(rq[f])) if f in rq else ("0", "–")
        c = (str(moved[f]["pairs"]), _points(moved[f])) if f in moved else ("0", "–")
        lines.append(f"| {names.faction(f)} | {a[0]} | {a[1]} | {b[0]} | {b[1]} | {c[0]} | {c[1]} |")
    nobody = []
    for rows in (full, quarter):
        ok = [r for r in rows if r.get("outcome") != "error"]
        nobody += [str(len(ok)), _pct(proportion(sum(1 for r in ok if not r["winners"]), len(ok))) if ok else "–"]
    lines.append(f"| (nobody won) | {' | '.join(nobody)} | | |")
    lines += ["", "Win rate per seat (seat 1 is the first faction of the set-up; the seats rotate between pairs):", "",
              "| seat | games (full) | win rate (full) | games (quarter) | win rate (quarter) |", "|---|---|---|---|---|"]
    sf, sq = seat_rates(full), seat_rates(quarter)
    for k in range(max(len(sf), len(sq))):
        a = (str(sf[k]["games"]), _pct(sf[k])) if k < len(sf) else ("0", "–")
        b = (str(sq[k]["games"]), _pct(sq[k])) if k < len(sq) else ("0", "–")
        lines.append(f"| {k + 1} | {a[0]} | {a[1]} | {b[0]} | {b[1]} |")
    for label, rows in (("Full budget", full), ("Quarter budget", quarter)):
        if not rows:
            continue
        buf = io.StringIO()
        render(compute(rows), buf, names)
        lines += ["", f"## {label}: `necro report` of its games", "", "```text", buf.getvalue().rstrip(), "```"]
    return "\n".join(lines) + "\n"
