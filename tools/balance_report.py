"""The report `necro balance` writes: win rates per faction at two budgets with 95% intervals,
whether the ranking is stable between them, per seat, and the full `necro report` of each budget.

The ranking *changes* when two factions change order between the quarter budget and the full one
and at one budget or both their 95% intervals do not overlap: then stronger bots rank the factions
differently, so the table measures the bots as much as the factions. Otherwise, while the median
95% interval of a faction's win rate is wider than `WIDE` (a hundred-odd games a budget at three
players; an hour on two cores plays fewer), there are *too few games* to call the ranking stable,
and the line says how wide the intervals are. With narrower intervals the ranking is *stable* when
no two factions change order and *stable within the noise* when the pairs that do have overlapping
intervals at both budgets.
"""
from __future__ import annotations

import io
from typing import Any

from .display_names import DisplayNames
from .report import compute, render, win_rates
from .stats import proportion

Row = dict[str, Any]
WIDE = 0.25   # a median 95% interval wider than this (25 points) cannot call a ranking stable

__all__ = ["ranking_stability", "seat_rates", "write_report_text"]


def _separated(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return a["ci"][0] > b["ci"][1] or b["ci"][0] > a["ci"][1]


def _median(xs: list[float]) -> float:
    xs = sorted(xs)
    return (xs[len(xs) // 2] + xs[(len(xs) - 1) // 2]) / 2


def ranking_stability(full: list[Row], quarter: list[Row], names: DisplayNames | None = None) -> dict[str, Any]:
    """Compare the factions' order by win rate at the two budgets: a verdict (`stable`,
    `stable-within-noise`, `too-few-games`, `changes`, `no-games`), the pairs that changed order,
    the games each faction played (fewest, most) and the median interval width, and one line
    (factions by `names`)."""
    nm = names or DisplayNames()
    at_full = {d["faction"]: d for d in win_rates([r for r in full if r.get("outcome") != "error"])}
    at_quarter = {d["faction"]: d for d in win_rates([r for r in quarter if r.get("outcome") != "error"])}
    both = sorted(set(at_full) & set(at_quarter))
    if len(both) < 2:
        return {"verdict": "no-games", "swaps": [], "games": (0, 0), "width": None,
                "line": "Ranking between budgets: not enough games at both budgets to compare (run the command again to continue)."}
    swaps = []
    for i, a in enumerate(both):
        for b in both[i + 1:]:
            df = at_full[a]["rate"] - at_full[b]["rate"]
            dq = at_quarter[a]["rate"] - at_quarter[b]["rate"]
            if df * dq < 0:
                hi, lo = (a, b) if df > 0 else (b, a)
                clear = _separated(at_full[a], at_full[b]) or _separated(at_quarter[a], at_quarter[b])
                swaps.append({"stronger_bots_rank_higher": hi, "over": lo, "clear": clear})
    counts = [d[f]["games"] for d in (at_full, at_quarter) for f in both]
    width = _median([d[f]["ci"][1] - d[f]["ci"][0] for d in (at_full, at_quarter) for f in both])
    games = (min(counts), max(counts))
    played = f"{games[0]}" if games[0] == games[1] else f"{games[0]}–{games[1]}"
    precision = (f"each faction played {played} games at each budget, and the median 95% interval of a win rate "
                 f"is {100 * width:.0f} points wide")
    clear = [s for s in swaps if s["clear"]]
    if clear:
        pairs = "; ".join(f"{nm.faction(s['stronger_bots_rank_higher'])} above {nm.faction(s['over'])}" for s in clear)
        verdict = "changes"
        line = (f"Ranking between budgets: it CHANGES when the bots get stronger ({pairs} at the full budget, the other "
                f"way at a quarter of it, with intervals apart): this table measures the bots as much as the factions "
                f"({precision}).")
    elif width > WIDE:
        verdict = "too-few-games"
        moved = f"{len(swaps)} pair(s) change order, none clearly" if swaps else "no two factions change order"
        line = (f"Ranking between budgets: too few games to tell whether it is stable: {precision}, so only a "
                f"faction far from the others stands apart ({moved}). Run the same command again to add games.")
    elif swaps:
        verdict = "stable-within-noise"
        line = (f"Ranking between budgets: stable within the noise ({len(swaps)} pair(s) change order, but their 95% "
                f"intervals overlap at both budgets; {precision}).")
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


def write_report_text(full: list[Row], quarter: list[Row], agents: tuple[str, str], header: list[str],
                      names: DisplayNames) -> str:
    """The report as Markdown: the header lines, the stability line, the two budgets' faction
    tables side by side, the per-seat table, then `necro report`'s tables for each budget."""
    stab = ranking_stability(full, quarter, names)
    rf = {d["faction"]: d for d in win_rates([r for r in full if r.get("outcome") != "error"])}
    rq = {d["faction"]: d for d in win_rates([r for r in quarter if r.get("outcome") != "error"])}
    seats = max((len(r["factions"]) for r in full + quarter), default=0)
    fair = f" (a fair share with {seats} players is {100 / seats:.0f}%, less the games nobody wins)" if seats else ""
    lines = [*header, "", f"**{stab['line']}**", "", f"Win rate per faction at each budget, with its 95% interval{fair}:", "",
             f"| faction | games | win rate, `{agents[0]}` | games | win rate, quarter budget `{agents[1]}` |",
             "|---|---|---|---|---|"]
    order = sorted(set(rf) | set(rq), key=lambda f: (-(rf[f]["rate"] if f in rf else -1), f))
    for f in order:
        a = (str(rf[f]["games"]), _pct(rf[f])) if f in rf else ("0", "–")
        b = (str(rq[f]["games"]), _pct(rq[f])) if f in rq else ("0", "–")
        lines.append(f"| {names.faction(f)} | {a[0]} | {a[1]} | {b[0]} | {b[1]} |")
    nobody = []
    for rows in (full, quarter):
        ok = [r for r in rows if r.get("outcome") != "error"]
        nobody += [str(len(ok)), _pct(proportion(sum(1 for r in ok if not r["winners"]), len(ok))) if ok else "–"]
    lines.append(f"| (nobody won) | {' | '.join(nobody)} |")
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
