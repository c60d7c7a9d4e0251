"""Plan a batch of seeded bot games and play one of them into a result row.

A row is plain JSON-ready data, the same whichever backend played it. Game `i` of a batch uses
seed `first + i`, and its seats' agents the seeds `necro play` gives them (`seed * 31 + seat`),
so `necro play --seed S --factions ... --agents ...` replays any row's game.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Callable

from necronomicon.interpreter.content.build import Content
from necronomicon.interpreter.bots import agent_label, make_agent
from necronomicon.interpreter.engine.game import Game, GameError
from necronomicon.interpreter.engine.play import run_game

# The columns of a result row, in file order.
FIELDS = ("game", "seed", "ruleset", "layout", "factions", "agents", "winners", "outcome", "doom", "rounds",
          "spellbooks", "first_player", "end_reason", "result", "doom_by_round", "power_by_round",
          "decisions", "error")


@dataclass(frozen=True)
class GameSpec:
    """One game of a batch: its index, seed, ruleset, seats (factions in seat order) and agents."""

    index: int
    seed: int
    ruleset: str
    factions: tuple[str, ...]
    agents: tuple[str, ...]
    layout: str | None = None  # None: the ruleset's map for the player count


def eligible_factions(content: Content) -> list[str]:
    """Factions a game can be set up with: every loaded faction without unknown card data."""
    return sorted(f for f, fac in content.model.factions.items()
                  if not any(t.unknown for t in fac.units.values()))


def matchups(content: Content, ruleset: str, players: int) -> list[tuple[str, ...]]:
    """Every combination of `players` eligible factions a game can seat (not two played with the
    same figures), each in alphabetical order."""
    allowed = content.model.rulesets[ruleset].get("players", [])
    if players not in allowed:
        raise GameError(f"ruleset '{ruleset}' is for {', '.join(map(str, allowed))} players, not {players}")
    pool = eligible_factions(content)
    if len(pool) < players:
        raise GameError(f"only {len(pool)} factions are available for {players} players")
    return [m for m in itertools.combinations(pool, players) if content.model.sharing_figures(m) is None]


def plan(ruleset: str, games: int, seed: int, agents: list[str],
         factions: list[str] | None = None, all_matchups: list[tuple[str, ...]] | None = None,
         layout: str | None = None) -> list[GameSpec]:
    """The batch: game i has seed `seed + i`, its seats' agents recorded with their settings. With `all_matchups`, game i plays matchup i mod M
    with its seats rotated by (i // M) mod players, so every matchup and seat order gets its share."""
    if games < 0:
        raise ValueError("--games must be 0 or more")
    specs = []
    for i in range(games):
        if all_matchups:
            m = all_matchups[i % len(all_matchups)]
            k = (i // len(all_matchups)) % len(m)
            seats = tuple(m[k:] + m[:k])
        else:
            seats = tuple(factions or ())
        labels = tuple(agent_label(a) for a in seat_agents(agents, len(seats)))
        specs.append(GameSpec(i, seed + i, ruleset, seats, labels, layout))
    return specs


def seat_agents(names: list[str], seats: int) -> list[str]:
    """One agent name for all seats, or one per seat."""
    if len(names) == 1:
        return names * seats
    if len(names) != seats:
        raise GameError(f"--agents names {len(names)} agents for {seats} players")
    return list(names)


def traced_game(content: Content, spec: GameSpec) -> tuple[Game, dict[int, tuple[dict[str, int], dict[str, int]]]]:
    """A Game for `spec` and the Doom and Power of every faction when each round's Doom Phase
    ended, filled in as it plays: the start of a round's Action Phase after the first closes the
    previous round's Doom Phase."""
    trace: dict[int, tuple[dict[str, int], dict[str, int]]] = {}
    g = Game(content, spec.ruleset, list(spec.factions), spec.seed, spec.layout)

    def note(event: dict[str, Any]) -> None:
        if event["type"] == "phase" and event.get("phase") == "action" and event.get("round", 1) > 1:
            trace[event["round"] - 1] = (dict(g.s.doom), dict(g.s.power))
    g.set_event_hook(note)
    return g, trace


def play_one(content: Content, spec: GameSpec, on_decision: Callable[[], None] | None = None) -> dict[str, Any]:
    """Play `spec` to the end and return its result row (a failed game gives a row with `error`);
    `on_decision()` is called after every decision (progress inside slow games)."""
    row: dict[str, Any] = {k: None for k in FIELDS}
    row.update(game=spec.index, seed=spec.seed, ruleset=spec.ruleset, layout=spec.layout, factions=list(spec.factions),
               agents=list(spec.agents))
    try:
        g, trace = traced_game(content, spec)
        row["layout"] = g.params["layout"]
        agents = {f: make_agent(a, spec.seed * 31 + i) for i, (f, a) in enumerate(zip(spec.factions, spec.agents))}
        run_game(g, agents, on_decision=(lambda _g: on_decision()) if on_decision is not None else None)
    except (GameError, RuntimeError, ValueError, KeyError) as exc:
        row.update(outcome="error", error=f"{type(exc).__name__}: {exc}")
        return row
    s = g.s
    winners = list(s.winners or [])
    trace[s.round] = (dict(s.doom), dict(s.power))  # the last round ends with the game (signs revealed)
    rounds = range(1, s.round + 1)
    first = next((e["player"] for e in g.log if e.get("type") == "first-player"), s.first)
    row.update(
        winners=winners,
        outcome="humanity" if not winners else "win" if len(winners) == 1 else "shared",
        doom={p: s.doom[p] for p in s.players},
        rounds=s.round,
        spellbooks={p: list(s.spellbooks[p]) for p in s.players},
        first_player=first,
        end_reason=s.end_reason,
        result=g.result_line(),
        doom_by_round={p: [trace[r][0][p] if r in trace else None for r in rounds] for p in s.players},
        power_by_round={p: [trace[r][1][p] if r in trace else None for r in rounds] for p in s.players},
        decisions=len(g.choices),
    )
    return row


__all__ = ["FIELDS", "GameSpec", "eligible_factions", "matchups", "plan", "play_one", "seat_agents", "traced_game"]
