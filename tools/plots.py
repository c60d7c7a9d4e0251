"""PNG plots of a balance report (matplotlib, Agg backend): win rates with their intervals (per agent
where several played), Doom and Power by round, the game-length histogram, and who ended holding six
spellbooks."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 - the backend is chosen first
from matplotlib.ticker import MaxNLocator  # noqa: E402

from .display_names import DisplayNames  # noqa: E402
from .results import agents_line  # noqa: E402
from .views.colours import faction_colours  # noqa: E402

MIN_SHARE = 0.10  # a by-round curve stops where fewer than this share of its games are still running
DPI = 100


def _builtin_model() -> Any:
    """The built-in content with every expansion (names and colours), or None if it cannot load."""
    try:
        from necronomicon.interpreter.content import load_content
        return load_content(expansions="all").model
    except Exception:  # noqa: BLE001 - names and colours are a nicety; a plot must not fail for want of them
        return None


def faction_names(factions: list[str], model: Any = None) -> dict[str, str]:
    """Display names from `model` (default: the built-in content, all expansions), else the ids made readable."""
    names = DisplayNames.of(model) if model is not None else DisplayNames()
    return {f: names.faction(f) for f in factions}


def _subtitle(rep: dict[str, Any]) -> str:
    """Games, rulesets and the agents that played them (with their budgets), for every plot's title."""
    return f"{rep['games']} games, {', '.join(rep['rulesets']) or 'no ruleset'}\nagents: {agents_line(rep)}"


def win_rates(rep: dict[str, Any], names: dict[str, str], colours: dict[str, Any], path: Path) -> Path:
    """Horizontal bars of each faction's win rate with 95% Wilson whiskers and the fair share; where
    several agents played, one bar per faction and agent (pooling two bots' play would measure neither)."""
    mixed = len(rep.get("agents", [])) > 1
    order = {d["faction"]: i for i, d in enumerate(rep["factions"])}
    rows = (sorted(rep["faction_agents"], key=lambda d: (order[d["faction"]], d["agent"])) if mixed
            else rep["factions"])
    rows = list(reversed(rows))  # the best at the top
    fig, ax = plt.subplots(figsize=(7, 1.2 + (0.6 if mixed else 0.45) * max(1, len(rows))), dpi=DPI)
    ys = range(len(rows))
    rates = [100 * d["rate"] for d in rows]
    lo = [100 * (d["rate"] - d["ci"][0]) for d in rows]
    hi = [100 * (d["ci"][1] - d["rate"]) for d in rows]
    ax.barh(list(ys), rates, color=[colours[d["faction"]] for d in rows], height=0.6,
            xerr=[lo, hi], capsize=4, error_kw={"elinewidth": 1.2, "ecolor": "#333333"})
    ax.set_yticks(list(ys), [f"{names[d['faction']]}  ({d['games']})" + (f"\n{d['agent']}" if mixed else "")
                             for d in rows], fontsize=8 if mixed else None)
    for y, d in zip(ys, rows):
        ax.text(100 * d["ci"][1] + 1.5, y, f"{100 * d['rate']:.0f}%", va="center", fontsize=9)
    fair = rep["first_player"].get("fair")
    if fair:
        ax.axvline(100 * fair, color="grey", linestyle="--", linewidth=1, label=f"fair share ({100 * fair:.0f}%)")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), fontsize=8, frameon=False)   # below: never on a bar
    ax.set_xlim(0, 100)
    ax.set_xlabel("games won (%), with 95% Wilson interval; " + ("seats" if mixed else "games") + " played in brackets")
    ax.set_title(f"Win rate per faction{' and agent' if mixed else ''} ({_subtitle(rep)})")
    ax.grid(axis="x", alpha=0.3)
    ax.spines[["top", "right"]].set_visible(False)
    return _save(fig, path)


def six_spellbooks(rep: dict[str, Any], names: dict[str, str], path: Path) -> Path:
    """Per faction, the share of its games it ended holding six spellbooks, split by how they ended
    (it won, another won, nobody won), with the 95% interval of the whole share."""
    rows = list(reversed(rep["six_spellbooks"]))
    fig, ax = plt.subplots(figsize=(7, 1.4 + 0.45 * max(1, len(rows))), dpi=DPI)
    ys = list(range(len(rows)))
    left = [0.0] * len(rows)
    for key, label, colour in (("won", "and won", "#55a868"), ("other_won", "another won", "#c44e52"),
                               ("nobody_won", "nobody won", "#8c8c8c")):
        part = [100 * d[key] / d["games"] if d["games"] else 0.0 for d in rows]
        ax.barh(ys, part, left=left, color=colour, height=0.6, label=label)
        left = [a + b for a, b in zip(left, part)]
    for y, d in zip(ys, rows):
        ax.errorbar(100 * d["rate"], y, xerr=[[100 * (d["rate"] - d["ci"][0])], [100 * (d["ci"][1] - d["rate"])]],
                    color="#333333", capsize=4, elinewidth=1.2)
        ax.text(100 * d["ci"][1] + 1.5, y, f"{d['held']} of {d['games']}", va="center", fontsize=9)
    ax.set_yticks(ys, [names[d["faction"]] for d in rows])
    ax.set_xlim(0, 100)
    ax.set_xlabel("games ended holding six spellbooks (%), with the 95% Wilson interval")
    ax.set_title(f"Six spellbooks, and how those games ended ({_subtitle(rep)})")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=3, fontsize=8, frameon=False)   # below: never on a bar
    ax.grid(axis="x", alpha=0.3)
    ax.spines[["top", "right"]].set_visible(False)
    return _save(fig, path)


def rounds_shown(points: list[dict[str, Any]], games: int) -> list[dict[str, Any]]:
    """The by-round points a faction's curve draws: the rounds at least `MIN_SHARE` of its `games`
    reached, and at least one game (a faction with one or two games still has its curve)."""
    return [p for p in points if p["games"] >= max(1, MIN_SHARE * games)]


def by_round(rep: dict[str, Any], names: dict[str, str], colours: dict[str, Any], path: Path) -> Path:
    """Mean Doom (top) and Power (bottom) at the end of each round, with the middle half as a band."""
    fig, axes = plt.subplots(2, 1, figsize=(8, 7), dpi=DPI, sharex=True)
    plays = {d["faction"]: d["games"] for d in rep["factions"]}
    for ax, key, label in ((axes[0], "doom_by_round", "Doom"), (axes[1], "power_by_round", "Power")):
        for f, pts in rep[key].items():
            pts = rounds_shown(pts, plays.get(f, 0))
            if not pts:
                continue
            xs = [p["round"] for p in pts]
            ax.plot(xs, [p["mean"] for p in pts], marker="o", markersize=3, color=colours[f], label=names[f])
            ax.fill_between(xs, [p["q25"] for p in pts], [p["q75"] for p in pts], color=colours[f], alpha=0.12)
        ax.set_ylabel(f"{label} at the end of the round")
        ax.grid(alpha=0.3)
        ax.spines[["top", "right"]].set_visible(False)
    axes[0].set_title(f"Doom and Power by round: mean, band = middle half of the games ({_subtitle(rep)})",
                      fontsize=10)
    if axes[0].get_legend_handles_labels()[1]:
        axes[0].legend(fontsize=8, frameon=False, ncol=2)
    axes[1].set_xlabel(f"round (a curve stops when fewer than {100 * MIN_SHARE:.0f}% of its games last that long)")
    axes[1].xaxis.set_major_locator(MaxNLocator(integer=True))
    return _save(fig, path)


def game_length(rep: dict[str, Any], path: Path) -> Path:
    """A histogram of rounds played, with the mean and median marked."""
    ln = rep["length"]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=DPI)
    hist = {int(k): v for k, v in ln["histogram"].items()}
    if hist:
        ax.bar(list(hist), list(hist.values()), width=0.8, color="#4c72b0")
        ax.axvline(ln["mean"], color="#c44e52", linestyle="--", linewidth=1.2, label=f"mean {ln['mean']:.1f}")
        ax.axvline(ln["median"], color="#55a868", linestyle=":", linewidth=1.5, label=f"median {ln['median']:g}")
        ax.legend(fontsize=8, frameon=False)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("rounds played")
    ax.set_ylabel("games")
    ax.set_title(f"Game length ({_subtitle(rep)})")
    ax.grid(axis="y", alpha=0.3)
    ax.spines[["top", "right"]].set_visible(False)
    return _save(fig, path)


def _save(fig: Any, path: Path) -> Path:
    """Lay the figure out, write it to `path` and free it."""
    fig.tight_layout()
    fig.savefig(path, bbox_inches="tight")   # a long agents line in a title stays inside the image
    plt.close(fig)
    return path


def write_plots(rep: dict[str, Any], rows: list[dict[str, Any]], folder: Path, model: Any = None) -> list[Path]:
    """Write win_rates.png, doom_by_round.png, game_length.png and six_spellbooks.png into `folder`; their
    paths. Factions are named and coloured by `model`, the content the games were played with (default:
    the built-in content with every expansion)."""
    folder.mkdir(parents=True, exist_ok=True)
    factions = sorted({f for r in rows for f in r.get("factions") or []})
    model = model if model is not None else _builtin_model()
    names = faction_names(factions, model)
    colours = faction_colours(model, factions)
    return [win_rates(rep, names, colours, folder / "win_rates.png"),
            by_round(rep, names, colours, folder / "doom_by_round.png"),
            game_length(rep, folder / "game_length.png"),
            six_spellbooks(rep, names, folder / "six_spellbooks.png")]


__all__ = ["by_round", "faction_names", "rounds_shown", "game_length", "six_spellbooks", "win_rates", "write_plots"]
